#!/usr/bin/env bash
# Builds HaChu 0.21-29-gdf26f4a (the source of Debian's package `hachu`) with
# two memory faults fixed, for the Tenjiku Shogi reference data. Debian's
# binary /usr/games/hachu crashes on every Tenjiku position with a Lion, a
# Lion Hawk or a White Knight (docs/plans/tenjiku.md):
#
#  1. the piece-square array PST holds 7 tables but HaChu writes an 8th (the
#     Lance table) on the 32-wide internal board of Tenjiku, over the tables
#     that follow it in memory: the array is declared with 8 tables;
#  2. in the Lion double-capture code of the capture generator the ray
#     variable of the outer loop is reused for the two bent paths, so a later
#     scan in that direction can run off the board: the bent paths get a
#     variable of their own.
#
# Nothing else is changed. The source is Debian's original tarball, checked
# against the SHA-256 sum of Debian's .dsc file, downloaded from
# deb.debian.org (or taken from $HACHU_TARBALL when that names a local copy).
#
# Usage: scripts/build-hachu.sh [OUTDIR]   (default target/hachu-fixed)
# Prints the path of the binary; scripts/hachu_oracle.py uses it when the
# environment variable HACHU_BIN names it:
#   HACHU_BIN=$(scripts/build-hachu.sh) python3 scripts/hachu_oracle.py --variant tenjiku FEN
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/hachu-fixed}
name=hachu_0.21-29-gdf26f4a.orig.tar.gz
sum=bc0759c587de27fdb87fba7b3cc3e430f3be9654c95d9c183f181f73217dd177
url=http://deb.debian.org/debian/pool/main/h/hachu/$name

mkdir -p "$out"
if [ -x "$out/hachu" ] && [ "$out/hachu" -nt "$0" ]; then
    echo "$out/hachu"
    exit 0
fi
tarball=${HACHU_TARBALL:-$out/$name}
if [ ! -f "$tarball" ]; then
    curl -fsSL -o "$tarball.part" "$url" >&2
    mv "$tarball.part" "$tarball"
fi
echo "$sum  $tarball" | sha256sum -c --quiet - >&2
src=$out/src
rm -rf "$src"
mkdir -p "$src"
tar -xzf "$tarball" -C "$src" --strip-components=1

file=$src/hachu.c
# fix 1: room for the eighth piece-square table
sed -i 's/^signed char PST\[7\*BSIZE\];/signed char PST[8*BSIZE];/' "$file"
# fix 2: the two bent Lion paths use their own ray variable `w`
sed -i '/orthogonal: two extra bent paths/,/primary victim on first ring/{
s/if((i&1) == 0) {/if((i\&1) == 0) { int w;/
s/v = kStep\[i\([-+]\)1\];/w = kStep[i\11];/
s/board\[x+v\]/board[x+w]/g
}' "$file"

# both fixes must have applied, each exactly where expected
grep -q '^signed char PST\[8\*BSIZE\];' "$file" || { echo "build-hachu: fix 1 did not apply" >&2; exit 1; }
[ "$(grep -c 'w = kStep\[i[-+]1\];' "$file")" = 2 ] || { echo "build-hachu: fix 2 did not apply" >&2; exit 1; }
[ "$(grep -c 'board\[x+w\]' "$file")" = 2 ] || { echo "build-hachu: fix 2 did not apply" >&2; exit 1; }

gcc -O2 -w -o "$out/hachu" "$file" >&2
echo "$out/hachu"
