#!/usr/bin/env bash
# Installs what building the lesson needs, only when missing: the wasm32 target and the
# wasm-bindgen CLI at exactly the version Cargo.lock pins. With `--test`, also what the tests
# need: Debian's Chromium + chromedriver, Firefox ESR, redis-server, mdbook (from crates.io) and Debian's hugo;
# with `--bench`, what only the benchmark needs: Debian's goaccess and GNU time. The npm packages (wasm-opt, Playwright) come from
# package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must equal the wasm-bindgen crate in Cargo.lock, or the generated glue won't match.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (found: ${have:-none}); about 2 minutes"
  # No --locked: its lock file pins a crate the registry snapshot here does not have.
  cargo install wasm-bindgen-cli --version "$want"
fi

# npm packages from package-lock.json: binaryen's wasm-opt for the build (never Debian's binaryen,
# whose wasm-opt emits wasm that breaks in the browser), Playwright for the tests.
if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing the npm packages from package-lock.json"
  npm ci --no-audit --no-fund
fi

# make serve's static server (scripts/serve.sh) and the Python samples' tests run python3.
if ! command -v python3 >/dev/null; then
  echo "setup: installing Debian's python3"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq python3 >/dev/null
fi

# make dist packs the course packages (SCORM zips, bucketlab.h5p) with Info-ZIP's zip; the tests unpack them.
if ! command -v zip >/dev/null || ! command -v unzip >/dev/null; then
  echo "setup: installing Debian's zip and unzip"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq zip unzip >/dev/null
fi

if [ "${1:-}" = "--test" ]; then
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "setup: installing Debian's chromium and chromium-driver"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  # A few browser tests run in Firefox too (tests/firefox/, over WebDriver BiDi by puppeteer-core).
  if [ ! -x /usr/bin/firefox-esr ]; then
    echo "setup: installing Debian's firefox-esr"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq firefox-esr >/dev/null
  fi
  # And a few in WebKit, Safari's engine (tests/webkit/): WebKitGTK's MiniBrowser, driven over
  # WebDriver by WebKitWebDriver, in a virtual display (it has no headless mode).
  if [ ! -x /usr/bin/WebKitWebDriver ] || ! command -v xvfb-run >/dev/null || ! command -v xauth >/dev/null; then
    echo "setup: installing Debian's webkit2gtk-driver, xvfb and xauth"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq webkit2gtk-driver xvfb xauth >/dev/null
  fi
  # The Redis tests start their own redis-server (a Unix socket in a temporary folder) and stop it.
  if ! command -v redis-server >/dev/null; then
    echo "setup: installing Debian's redis-server"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq redis-server >/dev/null
  fi
  # The mdBook preprocessor's test builds a sample book with the real mdbook, built without the
  # serve and watch features it does not use.
  if [ "$(mdbook --version 2>/dev/null)" != "mdbook v0.5.4" ]; then
    echo "setup: installing mdbook 0.5.4; about 3 minutes"
    cargo install mdbook --version 0.5.4 --locked --no-default-features --features search
  fi
  # The lesson's Go and Python samples are built and run by the Node tests (tests/node/usage_go,
  # retry_samples, usage_samples); scripts/test.sh fails on a test skipped for want of them.
  if ! command -v go >/dev/null; then
    echo "setup: installing Debian's golang-go"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq golang-go >/dev/null
  fi
  # The replay's nginx exports are checked by real nginx (`nginx -t`, tests/replay_export.rs).
  # Installing it may start Debian's own server on port 80: stopped at once, nothing uses it.
  if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "setup: installing Debian's nginx-light"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq nginx-light >/dev/null
    $sudo_ /usr/sbin/nginx -s quit 2>/dev/null || true
  fi
  # The Hugo shortcode's test builds a sample site with Debian's hugo.
  if ! command -v hugo >/dev/null; then
    echo "setup: installing Debian's hugo"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq hugo >/dev/null
  fi
fi

# The replay benchmark (bench/replay.mjs) times goaccess on the same log and reads the command's
# peak memory with GNU time.
if [ "${1:-}" = "--bench" ]; then
  if ! command -v goaccess >/dev/null || [ ! -x /usr/bin/time ]; then
    echo "setup: installing Debian's goaccess and time"
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq goaccess time >/dev/null
  fi
fi
