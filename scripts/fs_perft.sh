#!/usr/bin/env bash
# Perft of Fairy-Stockfish over UCI, timed, for speed comparisons with chimera
# (scripts/bench-perft.sh).
#
# Usage: scripts/fs_perft.sh VARIANT DEPTH [FEN]
# Prints one line: NODES MILLISECONDS
#
# The engine is Debian's /usr/games/fairy-stockfish (package fairy-stockfish),
# or $FS_BIN. The clock starts when `go perft DEPTH` is sent, after the engine
# has answered `isready` with `readyok` (so start-up and set-up are not
# counted), and stops at its `Nodes searched:` line. Fairy-Stockfish counts the
# last ply without playing the moves (bulk counting).
#
# Use the counts for timing only: Debian's build is an older Fairy-Stockfish
# whose rules differ from pyffish's in a few variants; the reference counts
# come from pyffish (tests/data).
#
# Every wait for the engine is bounded: FS_TIMEOUT seconds (default 600) for
# the perft itself, 10 s for the rest.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 VARIANT DEPTH [FEN]" >&2
  exit 2
fi
variant=$1 depth=$2 fen=${3:-}
engine=${FS_BIN:-/usr/games/fairy-stockfish}
limit=${FS_TIMEOUT:-600}
if [[ ! -x $engine ]]; then
  echo "$0: no Fairy-Stockfish at $engine (apt-get install fairy-stockfish)" >&2
  exit 2
fi
[[ $depth =~ ^[0-9]+$ ]] || { echo "$0: depth must be a number: $depth" >&2; exit 2; }

coproc FS { exec "$engine" 2>&1; }
fs_pid=$FS_PID
exec {to_fs}>&"${FS[1]}" {from_fs}<&"${FS[0]}"
finish() { kill "$fs_pid" 2>/dev/null || true; }
trap finish EXIT

say() { printf '%s\n' "$*" >&"$to_fs"; }

# wait_for PREFIX SECONDS: read engine lines until one starts with PREFIX;
# it is left in $line. Fails on time-out or end of output.
wait_for() {
  local prefix=$1 secs=$2 end=$((SECONDS + $2))
  while (( SECONDS <= end )); do
    if ! IFS= read -r -t "$secs" line <&"$from_fs"; then
      echo "$0: no '$prefix' from $engine within ${secs}s" >&2
      return 1
    fi
    [[ $line == "$prefix"* ]] && return 0
    [[ $line == "option name UCI_Variant "* ]] && variants_line=$line
  done
  echo "$0: no '$prefix' from $engine within ${secs}s" >&2
  return 1
}

variants_line=""
say uci
wait_for uciok 10
if [[ " $variants_line " != *" var $variant "* ]]; then
  echo "$0: $engine does not know the variant '$variant'" >&2
  exit 1
fi
say "setoption name UCI_Variant value $variant"
if [[ -n $fen ]]; then say "position fen $fen"; else say "position startpos"; fi
say isready
wait_for readyok 10

start=$EPOCHREALTIME
say "go perft $depth"
wait_for "Nodes searched:" "$limit"
stop=$EPOCHREALTIME
nodes=${line#Nodes searched: }
say quit

# EPOCHREALTIME is seconds.microseconds
micro() { local s=${1%[.,]*} u=${1#*[.,]}; echo $((10#$s * 1000000 + 10#$u)); }
echo "$nodes $(( ($(micro "$stop") - $(micro "$start")) / 1000 ))"
