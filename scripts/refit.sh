#!/usr/bin/env bash
# Refit one variant's evaluation weights from the weights in use, on the
# engine's own games (docs/strength.md, "Chess weights refitted from the
# weights in use"):
#
#   1. `chimera selfplay` plays GAMES games at 3,000 nodes a move;
#   2. the games are split into JOBS parts (whole games each), and
#      `scripts/label-positions.py` labels the parts side by side with the
#      reference engine's depth-9 scores (the game results are not used);
#   3. `chimera tune --squares --start builtin` fits the weights, starting
#      from the weights in use; every tenth game is held out.
#
# Usage: scripts/refit.sh VARIANT OUTDIR [GAMES [JOBS [SEED]]]
#   environment: CHIMERA (the binary; default target/release/chimera),
#                ENGINE (the reference UCI engine; default /usr/games/fairy-stockfish),
#                PYTHON (default python3; it needs nothing but the standard library)
# OUTDIR gets VARIANT.data, VARIANT.labelled, VARIANT.txt (the weights) and
# the logs. Nothing in the repository is changed: a candidate file is tested
# by games (scripts/sprt.py) before it replaces crates/chimera-engine/weights/VARIANT.txt.
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
variant=$1
out=$2
games=${3:-400}
jobs=${4:-2}
seed=${5:-13}
here=$(cd "$(dirname "$0")" && pwd)
chimera=${CHIMERA:-$here/../target/release/chimera}
engine=${ENGINE:-/usr/games/fairy-stockfish}
python=${PYTHON:-python3}

case $games in '' | *[!0-9]*) echo "GAMES must be a number: $games" >&2; exit 2 ;; esac
case $jobs in '' | *[!0-9]* | 0) echo "JOBS must be a positive number: $jobs" >&2; exit 2 ;; esac
case $seed in '' | *[!0-9]*) echo "SEED must be a number: $seed" >&2; exit 2 ;; esac
[ -x "$chimera" ] || { echo "no chimera binary at $chimera (cargo build --release -p chimera-cli)" >&2; exit 2; }
[ -x "$engine" ] || { echo "no reference engine at $engine" >&2; exit 2; }
mkdir -p "$out"

echo "self-play: $games games of $variant, seed $seed"
"$chimera" selfplay --variant "$variant" --games "$games" --nodes 3000 --seed "$seed" \
    --out "$out/$variant.data" >"$out/selfplay.log" 2>&1
tail -n 1 "$out/selfplay.log"

# Whole games to each part: game g goes to part (g - 1) * jobs / games.
awk -v dir="$out" -v v="$variant" -v jobs="$jobs" -v games="$games" '
    /^# game / { g = $3 }
    g > 0 { part = int((g - 1) * jobs / games); if (part >= jobs) part = jobs - 1; print > (dir "/" v ".part" part ".data") }
' "$out/$variant.data"

echo "labelling in $jobs parts"
pids=()
for ((i = 0; i < jobs; i++)); do
    [ -f "$out/$variant.part$i.data" ] || continue
    "$python" "$here/label-positions.py" --engine "$engine" --variant "$variant" --depth 9 --lam 0 \
        --in "$out/$variant.part$i.data" --out "$out/$variant.part$i.labelled" \
        >"$out/label$i.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
: >"$out/$variant.labelled"
for ((i = 0; i < jobs; i++)); do
    [ -f "$out/$variant.part$i.labelled" ] && cat "$out/$variant.part$i.labelled" >>"$out/$variant.labelled"
done

echo "fitting"
"$chimera" tune --variant "$variant" --data "$out/$variant.labelled" --iterations 1500 --squares \
    --start builtin --out "$out/$variant.txt" 2>&1 | tee "$out/tune.log" | tail -n 5
echo "weights: $out/$variant.txt"
