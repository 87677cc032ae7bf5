#!/usr/bin/env bash
# Builds the release wasm and its JavaScript glue into www/pkg/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
cargo build --release --lib --target wasm32-unknown-unknown
wasm-bindgen --target web --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/bucketlab.wasm
echo "build: www/pkg/bucketlab_bg.wasm $(wc -c < www/pkg/bucketlab_bg.wasm) bytes, $(gzip -9 -c www/pkg/bucketlab_bg.wasm | wc -c) gzip"
