#!/usr/bin/env bash
# Runs every suite and prints a count for each: native core tests (with doctests), browser tests
# of the wasm view (wasm-bindgen-test in headless Chromium), Node tests of the built module, and
# end-to-end tests of the served page (Playwright driving Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --test

summary=()
note() { summary+=("$1"); }
count_cargo() { grep -Eo 'test result: ok\. [0-9]+ passed' "$1" | awk '{ s += $4 } END { print s + 0 }'; }

echo "== native: cargo test (unit, integration, property, doc) =="
cargo test 2>&1 | tee /tmp/bucketlab-native.log
note "native (cargo test):          $(count_cargo /tmp/bucketlab-native.log) passed"

echo "== policy: the YAML policy parser (cargo feature config) =="
{ cargo test --no-default-features --features config --test policy \
  && cargo test --no-default-features --features config --doc policy; } 2>&1 | tee /tmp/bucketlab-policy.log
note "policy (cargo test, config):  $(count_cargo /tmp/bucketlab-policy.log) passed"

echo "== browser: wasm-bindgen-test in headless Chromium =="
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=60 \
  cargo test --target wasm32-unknown-unknown --test browser 2>&1 | tee /tmp/bucketlab-browser.log
note "browser (wasm-bindgen-test):  $(count_cargo /tmp/bucketlab-browser.log) passed"

echo "== node: the built module under Node =="
node --test tests/node/ 2>&1 | tee /tmp/bucketlab-node.log
note "node (node --test):           $(awk '/^# pass/ { print $3 }' /tmp/bucketlab-node.log) passed"

echo "== e2e: the served page in Playwright + Chromium =="
node --test --test-concurrency=1 tests/e2e/ 2>&1 | tee /tmp/bucketlab-e2e.log
note "e2e (Playwright):             $(awk '/^# pass/ { print $3 }' /tmp/bucketlab-e2e.log) passed"

echo
echo "== all suites passed =="
printf '%s\n' "${summary[@]}"
