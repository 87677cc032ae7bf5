package main

import (
	"log"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"example.com/ratelimit"
)

var start = time.Now()

type client struct {
	bucket  *ratelimit.TokenBucket
	lastUse float64
}

// RateLimited: {{comments.go_middleware}}
func RateLimited(capacity, refillRate float64, keyBy func(*http.Request) string, next http.Handler) (http.Handler, error) {
	full, err := ratelimit.New(capacity, refillRate) // {{comments.tier_checked_once}}
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	clients := map[string]*client{} // {{comments.one_bucket_per_key}}
	go func() {
		for range time.Tick(time.Minute) {
			mu.Lock()
			sweep(clients, capacity, refillRate, time.Since(start).Seconds())
			mu.Unlock()
		}
	}()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, now := keyBy(r), time.Since(start).Seconds()
		mu.Lock()
		c, ok := clients[key]
		if !ok {
			bucket := *full // {{comments.copy_full_bucket}}
			c = &client{bucket: &bucket}
			clients[key] = c
		}
		c.lastUse = now
		allowed, retryAfter, never := c.bucket.TryAcquire(1, now)
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
	}), nil
}

// sweep: {{comments.sweep}}
func sweep(clients map[string]*client, capacity, refillRate, now float64) {
	for key, c := range clients {
		if refillRate*(now-c.lastUse) >= capacity {
			delete(clients, key)
		}
	}
}

// byIP: {{comments.login_by_ip}}
func byIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr) // {{comments.ip_without_port}}
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// byUser: {{comments.verified_key}}
func byUser(r *http.Request) string {
	if userID, ok := verifyToken(r.Header.Get("Authorization")); ok { // {{comments.verify_token}}
		return "user:" + userID
	}
	// {{comments.token_or_ip}}
	return "ip:" + byIP(r)
}

func main() {
	http.Handle("/api/search", must(RateLimited(30, 10, byUser, http.HandlerFunc(search))))
	http.Handle("/api/login", must(RateLimited(5, 0.1, byIP, http.HandlerFunc(login))))
	log.Fatal(http.ListenAndServe(":8080", nil))
}

// must: {{comments.must_start}}
func must(h http.Handler, err error) http.Handler {
	if err != nil {
		log.Fatal(err)
	}
	return h
}
