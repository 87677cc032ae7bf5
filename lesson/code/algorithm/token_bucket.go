package ratelimit

import (
	"fmt"
	"math"
)

// {{comments.epsilon}}
const epsilon = 0x1p-52

// TokenBucket: {{comments.bucket_doc}}
type TokenBucket struct {
	capacity, refillRate float64
	tokens               float64
	last                 float64
	started              bool // {{comments.clock_starts}}
}

func New(capacity, refillRate float64) (*TokenBucket, error) {
	if math.IsNaN(capacity) || math.IsInf(capacity, 0) || capacity <= 0 {
		return nil, fmt.Errorf("capacity must be a finite number greater than 0, got %v", capacity)
	}
	if math.IsNaN(refillRate) || math.IsInf(refillRate, 0) || refillRate < 0 {
		return nil, fmt.Errorf("refill_rate must be a finite number of at least 0, got %v", refillRate)
	}
	// {{comments.starts_full}}
	return &TokenBucket{capacity: capacity, refillRate: refillRate, tokens: capacity}, nil
}

func (b *TokenBucket) refill(now float64) {
	// {{comments.lazy}}
	if b.started {
		elapsed := math.Max(0, now-b.last) // {{comments.backwards}}
		b.tokens = math.Min(b.capacity, b.tokens+elapsed*b.refillRate)
		b.last = math.Max(b.last, now)
	} else {
		b.last, b.started = now, true
	}
}

// TryAcquire: {{comments.acquire_doc}}
func (b *TokenBucket) TryAcquire(cost, now float64) (allowed bool, retryAfter float64, never bool) {
	// {{comments.checked}}
	if math.IsNaN(cost) || math.IsInf(cost, 0) || cost < 0 {
		panic(fmt.Sprintf("cost must be a finite number of at least 0, got %v", cost))
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		panic(fmt.Sprintf("now must be a finite number, got %v", now))
	}
	b.refill(now)
	// {{comments.slack}}
	// {{comments.slack_2}}
	tokenSlack := b.capacity * 1e-12
	timeSlack := math.Max(1e-9, math.Abs(now)*4*epsilon)
	fits := cost-b.capacity <= tokenSlack
	if fits && b.tokens+tokenSlack+b.refillRate*timeSlack >= cost {
		b.tokens -= cost // {{comments.debit}}
		return true, 0, false
	}
	if !fits || b.refillRate == 0 {
		return false, 0, true // {{comments.never}}
	}
	// {{comments.wait}}
	// {{comments.wait_2}}
	return false, (b.last - now) + (cost-b.tokens)/b.refillRate, false
}
