package main

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"example.com/ratelimit"
)

var start = time.Now()

// RateLimited: {{comments.go_middleware}}
func RateLimited(capacity, refillRate float64, keyBy func(*http.Request) string, next http.Handler) http.Handler {
	var mu sync.Mutex
	buckets := map[string]*ratelimit.TokenBucket{} // {{comments.one_bucket_per_key}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		bucket, ok := buckets[keyBy(r)]
		if !ok {
			bucket, _ = ratelimit.New(capacity, refillRate)
			buckets[keyBy(r)] = bucket
		}
		allowed, retryAfter, never := bucket.TryAcquire(1, time.Since(start).Seconds())
		mu.Unlock()
		if allowed {
			next.ServeHTTP(w, r)
			return
		}
		// {{comments.deny_response}}
		if !never {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Max(1, math.Ceil(retryAfter)))))
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, `{"error":"rate_limited"}`, http.StatusTooManyRequests)
	})
}

func main() {
	byToken := func(r *http.Request) string { return r.Header.Get("Authorization") }
	byIP := func(r *http.Request) string { return r.RemoteAddr } // {{comments.login_by_ip}}
	http.Handle("/api/search", RateLimited(30, 10, byToken, http.HandlerFunc(search)))
	http.Handle("/api/login", RateLimited(5, 0.1, byIP, http.HandlerFunc(login)))
	http.ListenAndServe(":8080", nil)
}
