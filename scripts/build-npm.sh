#!/bin/sh
# Builds the npm package in npm/: the WebAssembly module and its JavaScript
# glue and TypeScript types in npm/pkg/ (wasm-bindgen's `web` target; the
# package's index.js loads it in Node and in browsers).
#
# Two routes, the first that the machine allows:
#  1. the standard one: rustup's wasm32-unknown-unknown target, then
#     wasm-pack if installed, else wasm-bindgen-cli;
#  2. the fallback (no WebAssembly standard library in rustup): Debian's
#     rustc-web compiles std for wasm32 from source, as scripts/build-web.sh
#     does (which see; it installs what is missing).
# The script says which route it takes. Usage: scripts/build-npm.sh [--debug]
set -eu
cd "$(dirname "$0")/.."

profile=release
[ "${1:-}" = "--debug" ] && profile=dev
dir=release
[ "$profile" = dev ] && dir=debug
export PATH="$HOME/.local/bin:$HOME/.cargo/bin:$PATH"
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }') || have=""

rm -rf npm/pkg
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    if command -v wasm-pack >/dev/null 2>&1; then
        echo "build-npm: the standard toolchain (rustup's wasm32 target, wasm-pack)" >&2
        flag=--release
        [ "$profile" = dev ] && flag=--dev
        wasm-pack build crates/chimera-wasm --target web --out-dir ../../npm/pkg --out-name chimera_wasm $flag
        rm -f npm/pkg/package.json npm/pkg/.gitignore npm/pkg/README.md
        exit 0
    fi
    echo "build-npm: the standard toolchain (rustup's wasm32 target, wasm-bindgen-cli)" >&2
    cargo build --profile "$profile" --target wasm32-unknown-unknown -p chimera-wasm
else
    echo "build-npm: no wasm32 target in rustup: Debian's rustc-web with std built from source" >&2
    for p in rustc-web cargo-web rust-web-src lld-22; do
        dpkg -s "$p" >/dev/null 2>&1 || { echo "build-npm: $p is missing (scripts/build-web.sh installs it)" >&2; exit 1; }
    done
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build --profile "$profile" \
        --target wasm32-unknown-unknown -Z build-std=std,panic_abort -p chimera-wasm
fi
if [ "$have" != "$want" ]; then
    echo "build-npm: installing wasm-bindgen-cli $want (a few minutes, once)" >&2
    cargo install wasm-bindgen-cli --version "$want" --root "$HOME/.local"
fi
wasm-bindgen --target web --out-dir npm/pkg "target/wasm32-unknown-unknown/$dir/chimera_wasm.wasm"
# wasm-opt only on request (WASM_OPT=1): Debian 12's binaryen 108 writes a
# module that Node 20 cannot instantiate (its externref table becomes a funcref one)
if [ "$profile" = release ] && [ "${WASM_OPT:-0}" = 1 ] && command -v wasm-opt >/dev/null 2>&1; then
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals -o npm/pkg/chimera_wasm_bg.wasm.opt npm/pkg/chimera_wasm_bg.wasm &&
        mv npm/pkg/chimera_wasm_bg.wasm.opt npm/pkg/chimera_wasm_bg.wasm
fi
ls -l npm/pkg
