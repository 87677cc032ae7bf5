// Package retry.
// {{comments.retry_intro}}
// {{comments.retry_intro_2}}
// {{comments.retry_intro_3}}
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
	Base, Factor, Cap float64 // {{comments.backoff_fields}}
	MaxAttempts       int
}

// {{comments.retry_wait}}
func (b Backoff) Wait(k int, retryAfter float64) time.Duration {
	ceiling := math.Min(b.Cap, b.Base*math.Pow(b.Factor, float64(k)))
	seconds := retryAfter + rand.Float64()*ceiling
	if seconds >= math.MaxInt64/float64(time.Second) { // {{comments.longest_sleep}}
		return math.MaxInt64
	}
	return time.Duration(seconds * float64(time.Second))
}

// {{comments.retry_after_doc}}
// {{comments.retry_after_doc_2}}
func RetryAfter(value string, now time.Time) float64 {
	// {{comments.delay_seconds}}
	if value != "" && strings.Trim(value, "0123456789") == "" {
		seconds, _ := strconv.ParseFloat(value, 64)
		return seconds
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
			return resp, nil // {{comments.other_status}}
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
