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
	"strings"
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

// RetryAfter is the wait a Retry-After value asks for: a whole number of seconds, or an HTTP date
// (the time from now until then, never below 0). Absent or unreadable: 1 s.
func RetryAfter(value string, now time.Time) float64 {
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		return float64(seconds)
	}
	if date, err := http.ParseTime(value); err == nil {
		return math.Max(0, date.Sub(now).Seconds())
	}
	return 1
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
		retryAfter := RetryAfter(strings.TrimSpace(resp.Header.Get("Retry-After")), time.Now())
		time.Sleep(b.Wait(k, retryAfter))
	}
	return nil, fmt.Errorf("gave up after %d attempts: still 429", b.MaxAttempts)
}
