#!/bin/sh
# One whole game in the XBoard GUI between Chimera and another engine, under
# Xvfb, with screenshots.
#
#   scripts/xboard_game.sh VARIANT OPPONENT OUT [MINUTES] [INCREMENT]
#
#   VARIANT    XBoard's variant name (normal, xiangqi, lion, shogi, chu, ...,
#              or one XBoard does not know, such as minishogi or wa-shogi:
#              Chimera, the first engine, defines it with `setup` and `piece`)
#   OPPONENT   the other engine's command (fairymax, maxqi, hachu, or
#              "target/release/chimera xboard" for Chimera against itself)
#   OUT        prefix of the outputs: OUT.pgn (XBoard's game record),
#              OUT-mid.png (after MID seconds), OUT.png (the final position),
#              OUT.debug (XBoard's debug log: every line to and from both engines)
#   MINUTES    base time per side (default 1), INCREMENT seconds (default 1)
#
# Examples: `scripts/xboard_game.sh chu hachu docs/games/xboard-chu`,
# `scripts/xboard_game.sh shogi "target/release/chimera xboard" docs/games/xboard-shogi 1 0`.
# HaChu cannot be the second engine in a variant Chimera defines: XBoard sends
# it the start position by `setboard`, which HaChu 0.21 refuses.
#
# Chimera plays White (XBoard's first engine). XBoard tests every move for
# legality itself (-testLegality true, its default) and calls flags
# (-autoCallFlag), so the game is refereed by the GUI, not by Chimera. The
# script waits for XBoard to write the finished game to OUT.pgn, takes the
# final screenshot and closes XBoard. Environment: CHIMERA (the binary,
# default target/release/chimera), DISPLAY_NUM (default 97), MID (seconds
# before the mid-game screenshot, default 45), LIMIT (seconds before the game
# is abandoned, default 900), XBOARD_ARGS (more XBoard options, split at
# spaces, such as `-testLegality false`).
#
# Needs: xboard, Xvfb, ImageMagick (Debian: xboard xvfb imagemagick).
set -eu
variant=${1:?variant}
opponent=${2:?opponent command}
out=${3:?output prefix}
minutes=${4:-1}
inc=${5:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
chimera=${CHIMERA:-$root/target/release/chimera}
num=${DISPLAY_NUM:-97}
mid=${MID:-45}
limit=${LIMIT:-900}
PATH=$PATH:/usr/games
export PATH

. "$root/scripts/xvfb_common.sh"
rm -f "$out.pgn" "$out.png" "$out-mid.png" "$out.debug"
mkdir -p "$work/home"
# a private HOME: XBoard saves its settings there, not in the user's ~/.xboardrc
HOME="$work/home" xboard \
    -fcp "$chimera xboard" -scp "$opponent" \
    -variant "$variant" -initialMode TwoMachines \
    -tc "$minutes" -inc "$inc" -autoCallFlag true \
    -saveGameFile "$out.pgn" -popupExitMessage false -popupMoveErrors false \
    -showThinking true -size Medium -showCoords true \
    -debug -nameOfDebugFile "$out.debug" ${XBOARD_ARGS:-} >"$work/xboard.log" 2>&1 &
xb=$!
start=$(date +%s)
took_mid=0
while :; do
    sleep 2
    now=$(date +%s)
    if [ "$took_mid" = 0 ] && [ $((now - start)) -ge "$mid" ]; then
        shot "$out-mid.png"
        took_mid=1
    fi
    # XBoard writes the game when it ends: a result after the move text
    if [ -s "$out.pgn" ] && grep -Eq '(1-0|0-1|1/2-1/2|\*) *$' "$out.pgn"; then
        sleep 2
        shot "$out.png"
        break
    fi
    if ! kill -0 "$xb" 2>/dev/null; then
        echo "xboard exited before the game ended" >&2
        exit 1
    fi
    if [ $((now - start)) -ge "$limit" ]; then
        shot "$out.png"
        echo "game not finished after $limit s" >&2
        exit 1
    fi
done
grep -E '^\[(White|Black|Result|Variant|TimeControl) ' "$out.pgn" || true
tail -n 2 "$out.pgn"
