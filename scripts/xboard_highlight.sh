#!/bin/sh
# Legal-move highlighting in XBoard driven by Chimera, under Xvfb: a human
# (xdotool's mouse) lifts a piece, XBoard sends `lift SQ`, Chimera answers
# `highlight FEN-of-colours`, and XBoard draws the markers; the piece is then
# dropped on a cyan square (a locust victim of the Lion), XBoard sends
# `put SQ` and Chimera answers with the second-leg targets.
#
#   scripts/xboard_highlight.sh OUT [VARIANT FEN FROM VIA]
#
# Defaults: Mighty Lion Chess (XBoard's `lion`), a middlegame with the white
# Lion on d5 next to a black Knight on c6. Outputs: OUT-lift.png (after the
# lift), OUT-put.png (after the put on VIA), OUT.debug (XBoard's log of the
# conversation, which shows the lift/put and highlight lines).
#
# XBoard draws an engine's highlight only when its own target-square marking
# is off: -showTargetSquares true enables markers, -testLegality false turns
# XBoard's move generator off, so every marker comes from the engine. The
# mouse coordinates assume -size Medium (64-pixel squares, 1-pixel lines) on
# an 8-rank board at the top left of the screen.
#
# Needs: xboard, Xvfb, xdotool, ImageMagick.
set -eu
out=${1:?output prefix}
variant=${2:-lion}
fen=${3:-r1bqkb1r/ppp1ppp1/2n5/3L4/2l2N2/3B3Q/PP1P2PP/R1B3KR w kq - 0 1}
from=${4:-d5}
via=${5:-c6}
root=$(cd "$(dirname "$0")/.." && pwd)
chimera=${CHIMERA:-$root/target/release/chimera}
num=${DISPLAY_NUM:-96}
PATH=$PATH:/usr/games
export PATH

. "$root/scripts/xvfb_common.sh"
# the centre of a square on the screen, White at the bottom
square_xy() {
    file=$(printf '%s' "$1" | cut -c1)
    rank=$(printf '%s' "$1" | cut -c2-)
    f=$(($(printf '%d' "'$file") - 97))
    x=$((2 + 65 * f + 32))
    y=$((101 + 65 * (8 - rank) + 32))
    echo "$x $y"
}
printf '%s\n' "$fen" >"$work/start.fen"
mkdir -p "$work/home"
rm -f "$out.debug"
HOME="$work/home" xboard -fcp "$chimera xboard" -variant "$variant" \
    -loadPositionFile "$work/start.fen" \
    -showTargetSquares true -testLegality false -size Medium -showCoords true \
    -popupExitMessage false -debug -nameOfDebugFile "$out.debug" >"$work/xboard.log" 2>&1 &
xb=$!
sleep 4
set -- $(square_xy "$from")
xdotool mousemove "$1" "$2" mousedown 1
sleep 1.5
shot "$out-lift.png"
set -- $(square_xy "$via")
xdotool mousemove "$1" "$2"
sleep 0.5
xdotool mouseup 1
sleep 1.5
shot "$out-put.png"
grep -E 'lift|put|highlight' "$out.debug" || true
