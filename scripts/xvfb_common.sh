# Sourced by scripts/xboard_game.sh and scripts/xboard_highlight.sh: starts a
# virtual screen :$num for XBoard in a private work folder ($work), stops it
# (and XBoard, whose pid the caller puts in $xb) on exit, and defines
# shot FILE: a screenshot cut to XBoard's window (the rest of the screen is black).
work=$(mktemp -d)
Xvfb ":$num" -screen 0 1024x900x24 >"$work/xvfb.log" 2>&1 &
xvfb=$!
xb=
cleanup() {
    [ -n "$xb" ] && kill "$xb" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
sleep 1
export DISPLAY=":$num"
shot() {
    import -window root "$work/shot.png"
    convert "$work/shot.png" -bordercolor black -border 1 -trim +repage "$1"
}
