#!/usr/bin/env bash
# A short, reproducible run of every cargo-fuzz target under fuzz/ (a
# regression check, not a fuzzing campaign): seed corpora from the built-in
# variants, then a fixed number of inputs per target from a fixed random
# seed, so that the inputs tried do not depend on the machine's speed (as
# with a time limit) or on luck (as with a random seed). Nearly the same
# inputs, not exactly: the hash maps in the code under test are randomly
# seeded, which can change the coverage that guides the mutations a little
# (measured: betza's final coverage 2,580 and 2,583 in two runs of one
# build). Fails if a target finds a crash, an invariant
# violation or a hang (-timeout=10 s per input). Fuzzing campaigns (random
# seeds, 10 minutes and more per target) are run by hand: docs/reliability.md.
#
# Needs cargo-fuzz (installed here if missing: about 70 s) and a nightly
# toolchain if there is one; otherwise the stable toolchain is used with
# RUSTC_BOOTSTRAP=1 (no sanitizer is used: -s none, with debug assertions -a,
# so integer overflows are caught).
#
# Usage: scripts/fuzz-smoke.sh [SCALE] [TARGET...]
#   SCALE multiplies the inputs per target (default 1: about 5 s each here);
#   FUZZ_SMOKE_SEED sets the seed (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(fen betza variant_file moves protocol)
fi
seed="${FUZZ_SMOKE_SEED:-1}"
# inputs per target at scale 1 (about 5 s each on a shared 2-core machine)
declare -A runs=([fen]=80000 [betza]=6000 [variant_file]=1500 [moves]=1500 [protocol]=200)

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
    n=$(( ${runs[$t]:-1000} * scale ))
    echo "== fuzz smoke: $t ($n inputs, seed $seed) =="
    mkdir -p "$corpus/$t"
    log="$(mktemp)"
    status=0
    # -max_total_time only guards against a machine far slower than expected
    cargo "${toolchain[@]}" fuzz run -O -a -s none "$t" "$corpus/$t" -- \
        -seed="$seed" -runs="$n" -max_total_time=$(( 120 * scale )) -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
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
