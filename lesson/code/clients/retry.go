// Package retry: a client's retry loop. After a 429, wait what Retry-After says, plus a random
// share of an exponential backoff with a ceiling ("full jitter"), so clients refused together
// don't all come back together. Give up after MaxAttempts.
package retry

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

type Backoff struct {
	Base, Factor, Cap float64 // seconds, growth per refusal, seconds
	MaxAttempts       int
}

// Wait is the wait after the k-th refusal in a row (k = 0 for the first).
func (b Backoff) Wait(k int, retryAfter float64) time.Duration {
	ceiling := math.Min(b.Cap, b.Base*math.Pow(b.Factor, float64(k)))
	seconds := retryAfter + rand.Float64()*ceiling
	return time.Duration(seconds * float64(time.Second))
}

func GetWithRetries(client *http.Client, url string, b Backoff) (*http.Response, error) {
	for k := 0; k < b.MaxAttempts; k++ {
		resp, err := client.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		resp.Body.Close()
		if k+1 == b.MaxAttempts {
			break
		}
		// Retry-After in whole seconds (the HTTP-date form is rare for rate limits).
		retryAfter, err := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
		if err != nil {
			retryAfter = 1
		}
		time.Sleep(b.Wait(k, retryAfter))
	}
	return nil, fmt.Errorf("gave up after %d attempts: still 429", b.MaxAttempts)
}
