// The Go usage sample (lesson/code/usage/middleware.go), as the English page shows it, compiled
// with the lesson's Go bucket (lesson/code/algorithm/token_bucket.go) and run with `go test`: the
// login key is the IP without its port, the search key is the user a valid token proves or else the
// IP (so rotating forged tokens gets no fresh bucket), buckets idle long enough to be full again are
// swept, a 429 carries a JSON body, and a bad tier stops the program at start-up with the bucket
// constructor's message (not a nil pointer at the first request). Skipped where Go is not installed; needs no network (standard library only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedSource, readLocale } from '../../scripts/pages.mjs';

const hasGo = spawnSync('go', ['version']).status === 0;

// The sample's `search` and `login` handlers and its token check are the reader's own; the test
// supplies trivial ones (only "Bearer real" is valid, for user u1).
const STUBS = `package main

import "net/http"

func search(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }
func login(w http.ResponseWriter, r *http.Request)  { w.Write([]byte("ok")) }

func verifyToken(header string) (string, bool) { return "u1", header == "Bearer real" }
`;

const CHECK = `package main

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"example.com/ratelimit"
)

func request(remote, token string) *http.Request {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = remote
	if token != "" {
		r.Header.Set("Authorization", token)
	}
	return r
}

func TestTheLoginKeyIsTheIPWithoutItsPort(t *testing.T) {
	if a, b := byIP(request("203.0.113.7:50001", "")), byIP(request("203.0.113.7:50002", "")); a != b || a != "203.0.113.7" {
		t.Fatalf("two connections from one IP: keys %q and %q", a, b)
	}
	if got := byIP(request("[2001:db8::1]:443", "")); got != "2001:db8::1" {
		t.Fatalf("IPv6: %q", got)
	}
}

func TestCallersWithoutAValidTokenAreKeyedByTheirIP(t *testing.T) {
	if a, b := byUser(request("198.51.100.1:1", "")), byUser(request("198.51.100.2:1", "")); a == b {
		t.Fatalf("two anonymous callers share the key %q", a)
	}
	if a, b := byUser(request("198.51.100.1:1", "Bearer forged-1")), byUser(request("198.51.100.1:2", "Bearer forged-2")); a != b {
		t.Fatalf("two forged tokens from one IP: keys %q and %q", a, b)
	}
	if a, b := byUser(request("198.51.100.1:1", "Bearer real")), byUser(request("198.51.100.2:1", "Bearer real")); a != b || a == byUser(request("198.51.100.1:1", "")) {
		t.Fatalf("a valid token from two IPs: keys %q and %q", a, b)
	}
}

func TestRotatingForgedTokensGetsOnlyTheIPsBucket(t *testing.T) {
	limited, err := RateLimited(30, 10, byUser, http.HandlerFunc(search))
	if err != nil {
		t.Fatal(err)
	}
	admitted := 0
	for i := 0; i < 200; i++ {
		w := httptest.NewRecorder()
		limited.ServeHTTP(w, request("203.0.113.7:4000", "Bearer forged-"+strconv.Itoa(i)))
		if w.Code == http.StatusOK {
			admitted++
		}
	}
	if admitted != 30 {
		t.Fatalf("%d of 200 admitted, B = 30", admitted)
	}
}

func TestABadTierIsRefusedWithTheConstructorsMessage(t *testing.T) {
	for _, tier := range [][2]float64{{0, 10}, {5, -1}} {
		_, want := ratelimit.New(tier[0], tier[1])
		h, err := RateLimited(tier[0], tier[1], byIP, http.HandlerFunc(login))
		if h != nil || err == nil || want == nil || err.Error() != want.Error() {
			t.Fatalf("tier %v: %v, %v; the constructor says %v", tier, h, err, want)
		}
	}
}

func TestEachKeyStartsWithAFullBucketOfItsOwn(t *testing.T) {
	limited, err := RateLimited(2, 0, byIP, http.HandlerFunc(login))
	if err != nil {
		t.Fatal(err)
	}
	codes := []int{}
	for _, remote := range []string{"192.0.2.1:1", "192.0.2.1:2", "192.0.2.1:3", "192.0.2.2:1", "192.0.2.2:2", "192.0.2.2:3"} {
		w := httptest.NewRecorder()
		limited.ServeHTTP(w, request(remote, ""))
		codes = append(codes, w.Code)
	}
	if want := []int{200, 200, 429, 200, 200, 429}; fmt.Sprint(codes) != fmt.Sprint(want) {
		t.Fatalf("two IPs, three requests each, B = 2: %v, want %v", codes, want)
	}
}

func TestSweepForgetsOnlyBucketsThatAreFullAgain(t *testing.T) {
	clients := map[string]*client{}
	for key, lastUse := range map[string]float64{"idle": 57, "recent": 58} {
		bucket, _ := ratelimit.New(30, 10)
		bucket.TryAcquire(30, lastUse) // emptied
		clients[key] = &client{bucket: bucket, lastUse: lastUse}
	}
	sweep(clients, 30, 10, 60) // at 60 s, idle holds 30 tokens again (full), recent only 20
	if _, ok := clients["recent"]; !ok || len(clients) != 1 {
		t.Fatalf("kept %d buckets, recent among them: %v", len(clients), ok)
	}
}

func TestA429IsJSONWithRetryAfter(t *testing.T) {
	limited, err := RateLimited(5, 0.1, byIP, http.HandlerFunc(login))
	if err != nil {
		t.Fatal(err)
	}
	var last *httptest.ResponseRecorder
	// A new port for every request, as new connections have: the sixth is still refused.
	for port := 1; port <= 6; port++ {
		last = httptest.NewRecorder()
		limited.ServeHTTP(last, request("192.0.2.9:"+string(rune('0'+port)), ""))
	}
	if last.Code != http.StatusTooManyRequests {
		t.Fatalf("the sixth attempt from one IP: %d", last.Code)
	}
	if ct := last.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	if body := last.Body.String(); body != \`{"error":"rate_limited"}\` {
		t.Fatalf("body %q", body)
	}
	if last.Header().Get("Retry-After") != "10" {
		t.Fatalf("Retry-After %q", last.Header().Get("Retry-After"))
	}
}

// After the clock went backwards the wait covers the lag back to last, so a retry then passes.
func TestTheBucketWaitsOutAClockThatWentBackwards(t *testing.T) {
	b, _ := ratelimit.New(10, 5)
	b.TryAcquire(10, 2000)
	allowed, wait, _ := b.TryAcquire(1, 1999)
	if allowed || math.Abs(wait-1.2) > 1e-12 {
		t.Fatalf("after 1 s backwards: allowed %v, wait %v (want 1 s of lag + 0.2 s)", allowed, wait)
	}
	if ok, _, _ := b.TryAcquire(1, 1999+wait); !ok {
		t.Fatal("a retry at now + wait is refused")
	}
}

// A bad cost or time is the caller's bug: it panics with the field, the value and the rule.
func TestABadCostOrTimePanicsWithItsName(t *testing.T) {
	cases := []struct {
		cost, now float64
		want      string
	}{
		{-3, 0, "cost must be a finite number of at least 0, got -3"},
		{math.NaN(), 0, "cost must be a finite number of at least 0, got NaN"},
		{1, math.Inf(1), "now must be a finite number, got +Inf"},
	}
	for _, c := range cases {
		b, _ := ratelimit.New(5, 1)
		func() {
			defer func() {
				if got := recover(); got != c.want {
					t.Fatalf("TryAcquire(%v, %v): %v", c.cost, c.now, got)
				}
			}()
			b.TryAcquire(c.cost, c.now)
		}()
		if ok, _, _ := b.TryAcquire(5, 0); !ok {
			t.Fatalf("TryAcquire(%v, %v) changed the bucket", c.cost, c.now)
		}
	}
}
`;

test('the Go middleware sample builds, vets and keys and answers as the lesson says', { skip: !hasGo && 'Go is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bucketlab-go-'));
  try {
    const locale = readLocale('en');
    mkdirSync(join(dir, 'ratelimit'));
    writeFileSync(join(dir, 'ratelimit', 'go.mod'), 'module example.com/ratelimit\n\ngo 1.18\n');
    writeFileSync(join(dir, 'ratelimit', 'token_bucket.go'), embeddedSource('lesson/code/algorithm/token_bucket.go', locale));
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'app', 'go.mod'), 'module example.com/app\n\ngo 1.18\n\nrequire example.com/ratelimit v0.0.0\n\nreplace example.com/ratelimit => ../ratelimit\n');
    writeFileSync(join(dir, 'app', 'middleware.go'), embeddedSource('lesson/code/usage/middleware.go', locale));
    writeFileSync(join(dir, 'app', 'handlers.go'), STUBS);
    writeFileSync(join(dir, 'app', 'middleware_test.go'), CHECK);
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(dir, 'cache') };
    const run = (args) => execFileSync('go', args, { cwd: join(dir, 'app'), env, encoding: 'utf8', stdio: 'pipe' });
    try {
      run(['vet', '.']);
      run(['test', '.']);
    } catch (error) {
      assert.fail(`${error.stdout}${error.stderr}`);
    }
    // The program itself, with the login tier's rate made negative: it stops before listening,
    // with the constructor's message and log.Fatal's exit code 1.
    const source = embeddedSource('lesson/code/usage/middleware.go', locale);
    const bad = source.replace('RateLimited(5, 0.1, byIP', 'RateLimited(5, -1, byIP');
    assert.notEqual(bad, source, 'the login tier is in main');
    writeFileSync(join(dir, 'app', 'middleware.go'), bad);
    rmSync(join(dir, 'app', 'middleware_test.go'));
    try {
      run(['build', '-o', 'app', '.']);
    } catch (error) {
      assert.fail(`${error.stdout}${error.stderr}`);
    }
    const started = spawnSync(join(dir, 'app', 'app'), { encoding: 'utf8', timeout: 5000 });
    assert.equal(started.status, 1, `a bad tier: ${started.error ?? ''}${started.stderr}`);
    assert.match(started.stderr, /refill_rate must be a finite number of at least 0, got -1\n$/);
    assert.doesNotMatch(started.stderr, /panic/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The Go bucket keeps the Rust core's rounding slack, as the JavaScript and Python snippets do
// (usage_samples.test.mjs runs the same trials): a bucket of 0.3 passes three requests of 0.1, and
// a retry sent exactly the reported wait after a refusal passes.
const SLACK_CHECK = `package ratelimit

import "testing"

func TestRoundingSlack(t *testing.T) {
	small, _ := New(0.3, 1)
	for i := 0; i < 3; i++ {
		if allowed, _, _ := small.TryAcquire(0.1, 0); !allowed {
			t.Fatalf("request %d of cost 0.1 refused by a bucket of 0.3", i+1)
		}
	}
	retries, refused := 0, 0
	for _, capacity := range []float64{1, 2.5, 5, 10} {
		for _, rate := range []float64{0.1, 0.3, 0.7, 1, 3, 7.1, 1.0 / 3} {
			for _, start := range []float64{0, 0.1, 1.7, 12.3, 1000.1} {
				bucket, _ := New(capacity, rate)
				now := start
				var wait float64
				for {
					allowed, retryAfter, _ := bucket.TryAcquire(1, now)
					if !allowed {
						wait = retryAfter
						break
					}
					now += 0.01
				}
				retries++
				if allowed, _, _ := bucket.TryAcquire(1, now+wait); !allowed {
					refused++
				}
			}
		}
	}
	if retries != 140 || refused != 0 {
		t.Fatalf("%d of %d retries at exactly the wait refused", refused, retries)
	}
}
`;

test('the Go algorithm snippet keeps the core\'s rounding slack', { skip: !hasGo && 'Go is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bucketlab-go-slack-'));
  try {
    writeFileSync(join(dir, 'go.mod'), 'module example.com/ratelimit\n\ngo 1.18\n');
    writeFileSync(join(dir, 'token_bucket.go'), embeddedSource('lesson/code/algorithm/token_bucket.go', readLocale('en')));
    writeFileSync(join(dir, 'slack_test.go'), SLACK_CHECK);
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(dir, 'cache') };
    try {
      execFileSync('go', ['vet', '.'], { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
      execFileSync('go', ['test', '.'], { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.fail(`${error.stdout}${error.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
