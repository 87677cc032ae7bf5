#!/usr/bin/env bash
# Builds the release wasm modules and their JavaScript glue into www/pkg/, the widget's markup into
# www/element/markup.js, the run-time locale tables into www/i18n/locales/ and the pages into www/
# (all git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"

# wasm_module NAME PROFILE "WASM_OPT_FLAGS" [FEATURE]: the crate's lib for wasm32 (with only FEATURE,
# or the default features without one), its glue as www/pkg/NAME.js next to www/pkg/NAME_bg.wasm,
# then a pass of binaryen's wasm-opt from npm (see scripts/setup.sh for why not Debian's).
# Each feature set builds in its own target dir, so they don't overwrite each other's bucketlab.wasm:
# the widget's in cargo's own (CARGO_TARGET_DIR when set, else target/), each other module's in a
# folder named after its feature inside it. (A relative CARGO_TARGET_DIR is the repository's.)
target_dir=${CARGO_TARGET_DIR:-target}
wasm_module() {
  local name=$1 profile=$2 level=$3 feature=${4:-}
  local dir=$target_dir features=()
  if [ -n "$feature" ]; then
    dir=$target_dir/$feature
    features=(--no-default-features --features "$feature")
  fi
  # Panic locations name their source file: a registry's sources by the index's folder, name and
  # version alone, not by where this machine keeps them (shorter, and the same for every user).
  # Encoded flags (separated by \x1f): a path with a space stays one flag.
  local flags=("--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src/=")
  [ -z "${SIMD:-}" ] || flags+=(-C target-feature=+simd128)
  CARGO_ENCODED_RUSTFLAGS="$(IFS=$'\x1f'; echo "${flags[*]}")" cargo build --profile "$profile" --lib --target wasm32-unknown-unknown --target-dir "$dir" "${features[@]}"
  wasm-bindgen --target web --out-dir www/pkg --out-name "$name" --remove-name-section \
    --remove-producers-section "$dir/wasm32-unknown-unknown/$profile/bucketlab.wasm"
  node_modules/.bin/wasm-opt $level ${SIMD:+--enable-simd} --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "www/pkg/${name}_bg.wasm" -o "www/pkg/${name}_bg.wasm"
}

# Prints a module's size, raw and gzip -9.
report() {
  local wasm=www/pkg/$1_bg.wasm
  echo "build: $wasm $(wc -c < "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzip"
}

# The widget (core + diagram), for size; its import/export names shortened in the module and its
# glue (the hashed names don't compress). Its feature named: the default set also has the native
# command's (`cli`), which the module never uses but which would still shift its code a little.
# wasm-opt may assume the first 1 KiB of memory unused (Rust puts its 1 MiB stack first, growing
# down to 0, and its data after it), so it folds constant offsets into loads and stores (every
# module below); and here it repeats -Oz until nothing shrinks. Together 0.4 KB gzip less
# (2026-12-07).
wasm_module bucketlab release "-Oz --low-memory-unused --converge" diagram
node scripts/minify-wasm-names.mjs www/pkg/bucketlab_bg.wasm www/pkg/bucketlab.js
# Named, so that a trap's stack tells the widget's module from another on the page (1 B gzip).
node scripts/name-wasm-module.mjs www/pkg/bucketlab_bg.wasm bucketlab
node scripts/glue-errors.mjs www/pkg/bucketlab.js
# The glue is on every page's start: written without its doc comments and spaces (3.4 KB less
# gzip), as the pages' bundles are. It is generated; wasm-bindgen writes the readable one again.
node_modules/.bin/esbuild www/pkg/bucketlab.js --format=esm --minify-whitespace --legal-comments=none \
  --log-level=warning --allow-overwrite --outfile=www/pkg/bucketlab.js
report bucketlab

# The algorithm lab: `simulate` without the diagram, for speed (profile release-lab), loaded only
# when the lab comes near.
wasm_module bucketlab_lab release-lab "-O3 --low-memory-unused" lab
report bucketlab_lab

# The "Your traffic" section's log replay (ReplayJob, sampleLog), built for speed like the lab's and
# loaded only by that section's worker. With wasm SIMD (every current browser has it): the line
# scans (memchr), the UTF-8 check (simdutf8) and the burst–rate curves' update use 128-bit lanes.
SIMD=1 wasm_module bucketlab_replay release-lab "-O3 --low-memory-unused" replay
report bucketlab_replay

# The Config tab's YAML policy parser, loaded only when that tab opens, so the widget's module
# above stays small.
wasm_module bucketlab_config release "-Oz --low-memory-unused" config
report bucketlab_config

# The notices of the crates compiled into the modules, shipped beside them (their licences ask it).
node scripts/notices.mjs

# The widget's markup, rendered natively by the view's own code (src/view/markup.rs); the words
# every part shows, checked across languages; then the pages (the lesson in each language, embed.html).
cargo build --bin render-markup
node scripts/markup.mjs
node scripts/locales.mjs
node scripts/pages.mjs
