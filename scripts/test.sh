#!/usr/bin/env bash
# Runs every suite and prints a count for each: native core tests (with doctests), browser tests
# of the wasm view (wasm-bindgen-test in headless Chromium), Node tests of the built module, and
# end-to-end tests of the served page (Playwright driving Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
# A run starts from a clean clone (CI): incremental caches would only take disk.
export CARGO_INCREMENTAL=0
scripts/build.sh --test

logs=$(mktemp -d)  # per-run logs: parallel runs on one machine must not share them
trap 'rm -rf "$logs"' EXIT
summary=()
note() { summary+=("$1"); }
count_cargo() { grep -Eo 'test result: ok\. [0-9]+ passed' "$1" | awk '{ s += $4 } END { print s + 0 }'; }

echo "== native: cargo test (unit, integration, property, doc) =="
cargo test 2>&1 | tee "$logs/native.log"
note "native (cargo test):          $(count_cargo "$logs/native.log") passed"

echo "== server: the Redis Lua script on a real redis-server, the HTTP example over loopback =="
# Each test starts its own redis-server and stops it; --nocapture shows the measured figures.
cargo test -p bucketlab-server -- --nocapture 2>&1 | tee "$logs/server.log"
note "server + redis (cargo test -p bucketlab-server): $(count_cargo "$logs/server.log") passed"
while IFS= read -r figure; do note "  $figure"; done < <(grep -E '^(agreement|atomic script|naive read-then-write|cluster [^:]+):' "$logs/server.log")

echo "== policy: the YAML policy parser (cargo feature config) =="
{ cargo test --no-default-features --features config --test policy \
  && cargo test --no-default-features --features config --doc policy; } 2>&1 | tee "$logs/policy.log"
note "policy (cargo test, config):  $(count_cargo "$logs/policy.log") passed"

echo "== browser: wasm-bindgen-test in headless Chromium =="
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=60 \
  cargo test --target wasm32-unknown-unknown --no-default-features --features diagram --test browser 2>&1 | tee "$logs/browser.log"
note "browser (wasm-bindgen-test):  $(count_cargo "$logs/browser.log") passed"

echo "== node: the built module under Node =="
node --test tests/node/ 2>&1 | tee "$logs/node.log"
note "node (node --test):           $(awk '/^# pass/ { print $3 }' "$logs/node.log") passed"

echo "== e2e: the served page in Playwright + Chromium =="
node --test --test-concurrency=1 tests/e2e/ 2>&1 | tee "$logs/e2e.log"
note "e2e (Playwright):             $(awk '/^# pass/ { print $3 }' "$logs/e2e.log") passed"

echo "== firefox: the first minute and a replay link in Firefox ESR (puppeteer-core, WebDriver BiDi) =="
node --test tests/firefox/ 2>&1 | tee "$logs/firefox.log"
note "firefox (puppeteer-core):     $(awk '/^# pass/ { print $3 }' "$logs/firefox.log") passed"

echo "== webkit: the first minute and the controls' and questions' boxes in WebKit, Safari's engine (WebKitGTK over WebDriver, under Xvfb) =="
xvfb-run -a node --test tests/webkit/ 2>&1 | tee "$logs/webkit.log"
note "webkit (selenium-webdriver):  $(awk '/^# pass/ { print $3 }' "$logs/webkit.log") passed"

# Reliability figures (issue 7): the no-panic properties and the 30-day run ran in `cargo test`
# above (the 30-day run again here, printing its figures); the leak test ran with the e2e tests.
cargo test -q --test long_run -- --nocapture 2>&1 | tee "$logs/long_run.log"
properties=$(( $(grep -cE '^test .*never_panic(s)? \.\.\. ok$' "$logs/native.log" || true) \
  + $(grep -cE '^test .*any_text_parses_or_is_refused \.\.\. ok$' "$logs/policy.log" || true) ))
note "reliability: $properties no-panic properties x $(grep -Eo 'const CASES: u32 = [0-9_]+' tests/robustness_properties.rs | grep -Eo '[0-9_]+$' | tr -d _) cases, 0 panics"
note "  $(grep -E '^30-day runs:' "$logs/long_run.log")"
note "  $(grep -Eo 'leaks: .*' "$logs/e2e.log" | sed 's/after 100 mounts.*heap/heap/')"

# The algorithm lab's tests ran in the suites above; this line counts them apart.
lab_native=$(awk '/Running/ { lab = ($2 ~ /^tests\/lab_/) } /Doc-tests/ { lab = 0 }
  /^test .* \.\.\. ok$/ && (lab || /limiter::lab|src\/limiter\/lab/) { n++ } END { print n + 0 }' "$logs/native.log")
note "lab (counted above):          $lab_native native, $(grep -c '^ok [0-9]* - lab: ' "$logs/node.log") node, $(grep -c '^ok [0-9]* - lab: ' "$logs/e2e.log") e2e"

# The retrying clients' tests, likewise.
clients_native=$(awk '/Running/ { c = ($2 ~ /^tests\/clients_/) } /Doc-tests/ { c = 0 }
  /^test .* \.\.\. ok$/ && (c || /limiter::clients/) { n++ } END { print n + 0 }' "$logs/native.log")
note "clients (counted above):      $clients_native native, $(grep -c '^ok [0-9]* - clients: ' "$logs/e2e.log") e2e"

# The flood and defense sections' tests, likewise.
defense_native=$(awk '/Running/ { d = ($2 ~ /^tests\/flood_/) } /Doc-tests/ { d = 0 }
  /^test .* \.\.\. ok$/ && (d || /limiter::flood/) { n++ } END { print n + 0 }' "$logs/native.log")
note "defense (counted above):      $defense_native native, $(grep -c '^ok [0-9]* - flood: ' "$logs/node.log") node, $(grep -c '^ok [0-9]* - defense: ' "$logs/e2e.log") e2e"

# The replay in the browser (issue 16): its export texts with the YAML policy parser, and a count.
cargo test --features config --test replay_export 2>&1 | tee "$logs/replay_export.log"
note "traffic (counted above):      $(grep -cE '^test .* \.\.\. ok$' "$logs/replay_export.log") export (with config), $(grep -c '^ok [0-9]* - traffic' "$logs/e2e.log") e2e"

echo "== embedding: make dist's static site and the npm package =="
node scripts/dist.mjs 2>&1 | tee "$logs/dist.log"
node scripts/npm-package.mjs --pack 2>&1 | tee -a "$logs/dist.log"
note "dist + npm:                   $(grep -Eo '[0-9]+ files' "$logs/dist.log"), $(grep -Eo 'bucketlab-[0-9.]+\.tgz' "$logs/dist.log") packed"

# The course-platform tests (xAPI, SCORM, H5P: tests/node/lms, tests/e2e/{xapi,tincan,scorm,h5p}) ran above;
# make dist (just above) also packed the SCORM and xAPI zips (each in two languages) and bucketlab.h5p.
note "lms (counted above):          $(grep -c '^ok [0-9]* - lms: ' "$logs/node.log") node, $(grep -c '^ok [0-9]* - lms: ' "$logs/e2e.log") e2e; packed: $(grep -Eo 'bucketlab[-a-z0-9]*\.(zip|h5p)' "$logs/dist.log" | tr '\n' ' ')"

echo "== platforms: the mdBook preprocessor, the Hugo shortcode, Vite and webpack, each in its real tool =="
# mdbook (crates.io) and hugo (Debian) come from scripts/setup.sh --test, which build.sh ran above.
cargo test -p mdbook-bucketlab 2>&1 | tee "$logs/mdbook.log"
node --test --test-concurrency=1 tests/integrations/ 2>&1 | tee "$logs/integrations.log"
note "platforms:                    $(count_cargo "$logs/mdbook.log") native (mdbook-bucketlab), $(awk '/^# pass/ { print $3 }' "$logs/integrations.log") e2e (mdBook, Hugo, Vite, webpack, esbuild)"

# A skipped test is a test that did not run: the Go and Python samples' tests skip when their
# tool is missing, which scripts/setup.sh --test installs, so any skip here fails the run.
skips=$(grep -h '# SKIP' "$logs/node.log" "$logs/e2e.log" "$logs/integrations.log" | grep -v '^# Subtest' || true)
if [ -n "$skips" ]; then
  echo "== skipped tests (a tool missing?) ==" >&2
  printf '%s\n' "$skips" >&2
  exit 1
fi

echo
echo "== all suites passed =="
printf '%s\n' "${summary[@]}"
