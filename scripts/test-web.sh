#!/bin/sh
# The web page's end-to-end test: builds the WebAssembly package
# (scripts/build-web.sh) and the native command line (the reference), then
# runs web/tests/e2e.mjs in headless Chromium. Installs what is missing:
# Debian's chromium and fonts-wqy-zenhei (apt-get), playwright-core and typescript (npm, into
# web/tests; no browser is downloaded). tsc checks the package's TypeScript
# types first (web/tests/types-check.ts). Screenshots go to
# target/web-screenshots (never over the committed docs/web-*.png; pass
# --screenshots-dir docs to renew those).
# Usage: scripts/test-web.sh [--no-build] [--no-screenshots] [--screenshots-dir DIR]
set -eu
cd "$(dirname "$0")/.."

build=1
args=""
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        *) args="$args $a" ;;
    esac
done

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# the browser, and a font with the Chinese and Japanese characters of the Xiangqi, Janggi and Shogi pieces
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
dpkg -s fonts-wqy-zenhei >/dev/null 2>&1 || need="$need fonts-wqy-zenhei"
if [ -n "$need" ]; then
    as_root apt-get update
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y $need
fi
if [ ! -d web/tests/node_modules/playwright-core ] || [ ! -d web/tests/node_modules/typescript ]; then
    (cd web/tests && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi
if [ "$build" = 1 ]; then
    scripts/build-web.sh
    cargo build --release -p chimera-cli
fi
[ -f web/pkg/chimera_wasm_bg.wasm ] || { echo "test-web: web/pkg is not built (run scripts/build-web.sh)" >&2; exit 1; }
# the TypeScript types, used as a page would (web/tests/types-check.ts)
(cd web/tests && node_modules/.bin/tsc -p tsconfig.json) && echo "test-web: the TypeScript types check"
# shellcheck disable=SC2086
node web/tests/e2e.mjs --cli target/release/chimera $args
