#!/bin/sh
# Builds the web page's WebAssembly package: web/pkg/ (chimera_wasm.js, its
# .wasm and the TypeScript types), for web/index.html served by any static
# server, and web/dist/chimera.html, the whole page in one file that opens
# from disk (see docs/web.md).
#
# The rustup toolchain has no WebAssembly standard library, so Debian's rustc-web compiles std for
# wasm32-unknown-unknown from source (-Z build-std), and wasm-bindgen-cli, of
# the same version as Cargo.lock's wasm-bindgen, writes the JavaScript glue.
# What is missing is installed first (apt-get and cargo install); a second run
# installs nothing. Usage: scripts/build-web.sh [--debug]
set -eu
cd "$(dirname "$0")/.."

profile=release
[ "${1:-}" = "--debug" ] && profile=dev

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# 1. Debian's Rust for Firefox, its std sources and lld
missing=""
for p in rustc-web cargo-web rust-web-src lld-22; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "build-web: installing$missing" >&2
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
fi

# 2. wasm-bindgen-cli, the version Cargo.lock pins
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$want" ] || { echo "build-web: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
export PATH="$HOME/.local/bin:$PATH"
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }') || have=""
if [ "$have" != "$want" ]; then
    echo "build-web: installing wasm-bindgen-cli $want (a few minutes, once)" >&2
    # (not --locked: its lock file names a webpki-roots release the registry here lacks)
    cargo install wasm-bindgen-cli --version "$want" --root "$HOME/.local"
fi

# 3. the package: Debian's cargo and rustc, std built for wasm32 from source
RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build --profile "$profile" \
    --target wasm32-unknown-unknown -Z build-std=std,panic_abort -p chimera-wasm
dir=release
[ "$profile" = dev ] && dir=debug
rm -rf web/pkg
wasm-bindgen --target web --out-dir web/pkg "target/wasm32-unknown-unknown/$dir/chimera_wasm.wasm"

# 4. optional, on request (WASM_OPT=1): shrink the module with Binaryen's
#    wasm-opt. Off by default: Debian 12's binaryen 108 writes a module that
#    Node 20 cannot instantiate (its externref table becomes a funcref one).
shrink() {
    if [ "$profile" = release ] && [ "${WASM_OPT:-0}" = 1 ] && command -v wasm-opt >/dev/null 2>&1; then
        wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
            --enable-mutable-globals -o "$1.opt" "$1" && mv "$1.opt" "$1"
    fi
}
shrink web/pkg/chimera_wasm_bg.wasm

# 5. the same page as one file that opens from disk, without any server:
#    web/dist/chimera.html (inline scripts, the module in base64, a Blob worker)
rm -rf target/web-nomodules
wasm-bindgen --target no-modules --out-dir target/web-nomodules "target/wasm32-unknown-unknown/$dir/chimera_wasm.wasm"
shrink target/web-nomodules/chimera_wasm_bg.wasm
mkdir -p web/dist
python3 web/make-standalone.py target/web-nomodules/chimera_wasm.js target/web-nomodules/chimera_wasm_bg.wasm \
    web/dist/chimera.html
ls -l web/pkg web/dist
