// The Go usage sample (lesson/code/usage/middleware.go), as the English page shows it, compiled
// with the lesson's Go bucket (lesson/code/algorithm/token_bucket.go) and run with `go test`: the
// login key is the IP without its port, callers without a token are keyed by their IP, and a 429
// carries a JSON body. Skipped where Go is not installed; needs no network (standard library only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedSource, readLocale } from '../../scripts/pages.mjs';

const hasGo = spawnSync('go', ['version']).status === 0;

// The sample's `search` and `login` handlers are the reader's own; the test supplies trivial ones.
const CHECK = `package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func search(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }
func login(w http.ResponseWriter, r *http.Request)  { w.Write([]byte("ok")) }

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

func TestCallersWithoutATokenAreKeyedByTheirIP(t *testing.T) {
	if a, b := byToken(request("198.51.100.1:1", "")), byToken(request("198.51.100.2:1", "")); a == b {
		t.Fatalf("two anonymous callers share the key %q", a)
	}
	if got := byToken(request("198.51.100.1:1", "Bearer abc")); got != "Bearer abc" {
		t.Fatalf("a token: %q", got)
	}
}

func TestA429IsJSONWithRetryAfter(t *testing.T) {
	limited := RateLimited(5, 0.1, byIP, http.HandlerFunc(login))
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
    writeFileSync(join(dir, 'app', 'middleware_test.go'), CHECK);
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(dir, 'cache') };
    const run = (args) => execFileSync('go', args, { cwd: join(dir, 'app'), env, encoding: 'utf8', stdio: 'pipe' });
    try {
      run(['vet', '.']);
      run(['test', '.']);
    } catch (error) {
      assert.fail(`${error.stdout}${error.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
