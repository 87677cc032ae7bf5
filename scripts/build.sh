#!/usr/bin/env bash
# Builds the release wasm and its JavaScript glue into www/pkg/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
# The widget's features named explicitly: the default set also has the native command's (`cli`),
# which the module never uses but whose feature set would still shift its code by a few hundred bytes.
cargo build --release --lib --target wasm32-unknown-unknown --no-default-features --features diagram
wasm-bindgen --target web --out-dir www/pkg --remove-name-section --remove-producers-section \
  target/wasm32-unknown-unknown/release/bucketlab.wasm
# Size pass: binaryen from npm (see scripts/setup.sh for why not Debian's).
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  www/pkg/bucketlab_bg.wasm -o www/pkg/bucketlab_bg.wasm
# Short import/export names in the module and its glue (the hashed names don't compress).
node scripts/minify-wasm-names.mjs www/pkg/bucketlab_bg.wasm www/pkg/bucketlab.js
echo "build: www/pkg/bucketlab_bg.wasm $(wc -c < www/pkg/bucketlab_bg.wasm) bytes, $(gzip -9 -c www/pkg/bucketlab_bg.wasm | wc -c) gzip"

# The algorithm lab: `simulate` without the diagram, optimised for speed (profile release-lab), as its own module (www/pkg/bucketlab_lab.*)
# that the page loads only when the lab comes near. Its own target dir keeps the two feature sets
# from overwriting each other's bucketlab.wasm.
cargo build --profile release-lab --lib --target wasm32-unknown-unknown --no-default-features \
  --features lab --target-dir target/lab
wasm-bindgen --target web --out-dir www/pkg --out-name bucketlab_lab --remove-name-section \
  --remove-producers-section target/lab/wasm32-unknown-unknown/release-lab/bucketlab.wasm
node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  www/pkg/bucketlab_lab_bg.wasm -o www/pkg/bucketlab_lab_bg.wasm
echo "build: www/pkg/bucketlab_lab_bg.wasm $(wc -c < www/pkg/bucketlab_lab_bg.wasm) bytes, $(gzip -9 -c www/pkg/bucketlab_lab_bg.wasm | wc -c) gzip"

# The Config tab's YAML policy parser: its own wasm module, loaded only when that tab opens, so the
# widget's module above stays small.
cargo build --release --lib --target wasm32-unknown-unknown --no-default-features --features config \
  --target-dir target/config
wasm-bindgen --target web --out-dir www/pkg --out-name bucketlab_config --remove-name-section \
  --remove-producers-section target/config/wasm32-unknown-unknown/release/bucketlab.wasm
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  www/pkg/bucketlab_config_bg.wasm -o www/pkg/bucketlab_config_bg.wasm
echo "build: www/pkg/bucketlab_config_bg.wasm $(wc -c < www/pkg/bucketlab_config_bg.wasm) bytes, $(gzip -9 -c www/pkg/bucketlab_config_bg.wasm | wc -c) gzip"

# The lesson's pages, one per language, from lesson/template.html and lesson/locales/.
node scripts/pages.mjs
