#!/usr/bin/env bash
# A short run of every cargo-fuzz target under fuzz/ (a regression check, not
# a fuzzing campaign): seed corpora from the built-in variants, then SECONDS
# seconds per target (default 5). Fails if a target finds a crash, an
# invariant violation or a hang (-timeout=10 s per input).
#
# Needs cargo-fuzz (installed here if missing: about 70 s) and a nightly
# toolchain if there is one; otherwise the stable toolchain is used with
# RUSTC_BOOTSTRAP=1 (no sanitizer is used: -s none, with debug assertions -a,
# so integer overflows are caught).
#
# Usage: scripts/fuzz-smoke.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-5}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(fen betza variant_file moves protocol)
fi

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "== installing cargo-fuzz =="
    cargo install --locked cargo-fuzz
fi
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    toolchain=(+nightly)
else
    echo "no nightly toolchain: using stable with RUSTC_BOOTSTRAP=1"
    export RUSTC_BOOTSTRAP=1
fi

# a fresh corpus of the seeds only, so that the run's length does not grow
# with a local fuzz/corpus (libFuzzer reads all of a corpus before the clock)
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
if command -v python3 >/dev/null 2>&1; then
    python3 scripts/fuzz-seeds.py "$corpus" >/dev/null
fi

echo "== building the fuzz targets =="
cargo "${toolchain[@]}" fuzz build -O -a -s none

for t in "${targets[@]}"; do
    echo "== fuzz smoke: $t (${secs} s) =="
    mkdir -p "$corpus/$t"
    log="$(mktemp)"
    status=0
    cargo "${toolchain[@]}" fuzz run -O -a -s none "$t" "$corpus/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1 || status=$?
    grep -E '^(stat::number_of_executed_units|Done |SUMMARY)|panicked' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -40 "$log"
        rm -f "$log"
        echo "fuzz smoke: $t failed (the input is under fuzz/artifacts/$t)" >&2
        exit 1
    fi
    rm -f "$log"
done
echo "fuzz smoke: all targets passed"
