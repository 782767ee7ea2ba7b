#!/usr/bin/env bash
# Perft speed of chimera beside Fairy-Stockfish, measured in the same run.
# Usage: scripts/bench-perft.sh [RUNS [VARIANT...]]   (default 5 runs, all variants)
# Prints, per variant: nodes, the median nodes/s of each engine over RUNS runs,
# and the ratio. Both count the last ply without playing it (bulk counting) and
# both exclude start-up time. Needs Debian's fairy-stockfish for the peer.
# Fairy-Stockfish is timed by scripts/fs_perft.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
fs=scripts/fs_perft.sh
cargo build --release -q -p chimera-cli
bin=target/release/chimera

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

bench() { # variant depth [fen]
  local v=$1 d=$2 fen=${3:-}
  local ours=() theirs=() nodes=""
  for _ in $(seq "$runs"); do
    if [[ -n $fen ]]; then out=$($bin perft --variant "$v" --fen "$fen" "$d" 2>&1 >/dev/null); else out=$($bin perft --variant "$v" "$d" 2>&1 >/dev/null); fi
    ours+=("$(awk '/nodes\/s/ {print $4}' <<<"$out")")
    if [[ -x /usr/games/fairy-stockfish ]]; then
      read -r n ms < <($fs "$v" "$d" "$fen")
      theirs+=("$(awk -v n="$n" -v ms="$ms" 'BEGIN {printf "%.0f", n / (ms > 0 ? ms : 1) * 1000}')")
      nodes=$n
    fi
  done
  local mo mt
  mo=$(printf '%s\n' "${ours[@]}" | median)
  if [[ ${#theirs[@]} -gt 0 ]]; then
    mt=$(printf '%s\n' "${theirs[@]}" | median)
    printf '%-12s depth %s  nodes %-11s chimera %6.2f M/s  fairy-stockfish %6.2f M/s  ratio %.2f\n' \
      "$v" "$d" "$nodes" "$(bc -l <<<"$mo/1000000")" "$(bc -l <<<"$mt/1000000")" "$(bc -l <<<"$mo/$mt")"
  else
    printf '%-12s depth %s  chimera %6.2f M/s  (fairy-stockfish not installed)\n' "$v" "$d" "$(bc -l <<<"$mo/1000000")"
  fi
}

# a subset can be named on the command line after RUNS: scripts/bench-perft.sh 5 shogi grand
if [[ $# -gt 1 ]]; then
  shift
  for v in "$@"; do
    case $v in
      shogi|crazyhouse|makruk) bench "$v" 5 ;;
      grand) bench grand 4 ;;
      *) bench "$v" 4 ;;
    esac
  done
  exit 0
fi

bench chess 5
bench chess 5 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
bench xiangqi 5
bench janggi 5
bench capablanca 4
bench shogi 5
bench grand 4
bench crazyhouse 5
bench makruk 5
