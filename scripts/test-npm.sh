#!/bin/sh
# The npm package's test: builds the package (scripts/build-npm.sh), checks
# its TypeScript types with tsc when web/tests has it installed, and runs
# npm/test/*.test.mjs with Node's test runner against the reference data of
# tests/data. Usage: scripts/test-npm.sh [--no-build]
set -eu
cd "$(dirname "$0")/.."
[ "${1:-}" = "--no-build" ] || scripts/build-npm.sh
[ -f npm/pkg/chimera_wasm_bg.wasm ] || { echo "test-npm: npm/pkg is not built (run scripts/build-npm.sh)" >&2; exit 1; }
if [ -x web/tests/node_modules/.bin/tsc ]; then
    web/tests/node_modules/.bin/tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext \
        npm/test/types-check.ts && echo "test-npm: the TypeScript types check"
fi
node --test npm/test/
