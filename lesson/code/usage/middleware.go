package main

import (
	"math"
	"net"
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
		key := keyBy(r)
		mu.Lock()
		bucket, ok := buckets[key]
		if !ok {
			bucket, _ = ratelimit.New(capacity, refillRate)
			buckets[key] = bucket
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
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":"rate_limited"}`))
	})
}

// byIP: {{comments.login_by_ip}}
func byIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr) // {{comments.ip_without_port}}
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// byToken: {{comments.token_or_ip}}
func byToken(r *http.Request) string {
	if token := r.Header.Get("Authorization"); token != "" {
		return token
	}
	return byIP(r)
}

func main() {
	http.Handle("/api/search", RateLimited(30, 10, byToken, http.HandlerFunc(search)))
	http.Handle("/api/login", RateLimited(5, 0.1, byIP, http.HandlerFunc(login)))
	http.ListenAndServe(":8080", nil)
}
