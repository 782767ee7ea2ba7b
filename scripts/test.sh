#!/usr/bin/env bash
# Runs every test: unit, doc, reference-data and quick perft tests, then the
# deep perft set in an optimised build without debug assertions.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== unit, doc, reference and quick perft tests =="
cargo test --workspace

echo "== deep perft set (release) =="
cargo test --release -p chimera --test perft_published -- --ignored
