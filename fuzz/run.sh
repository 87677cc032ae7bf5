#!/usr/bin/env bash
# Runs one fuzz target for a while: fuzz/run.sh TARGET SECONDS [libFuzzer options…]
# Stable Rust with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes -Z flags); the build goes to
# target/fuzz so the crate's own target/ is untouched. New inputs go to fuzz/corpus/TARGET;
# fuzz/seeds/TARGET (inputs taken from the tests) is read as well.
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1
seconds=$2
shift 2
mkdir -p "fuzz/corpus/$target"
seeds=()
[ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target")
dict=()
[ -f "fuzz/dict/$target.dict" ] && dict=("-dict=fuzz/dict/$target.dict")
RUSTC_BOOTSTRAP=1 exec cargo fuzz run --target-dir target/fuzz "$target" \
  "fuzz/corpus/$target" "${seeds[@]}" -- \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 "${dict[@]}" "$@"
