#!/usr/bin/env bash
# Runs every test: unit, doc, reference-data and quick perft tests, then the
# deep perft set in an optimised build without debug assertions, then the
# Python package against pyffish (scripts/test-python.sh: a venv under target/).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== unit, doc, reference and quick perft tests =="
cargo test --workspace

echo "== deep perft set (release) =="
cargo test --release -p chimera --test perft_published -- --ignored

echo "== the SPRT runner's statistics (scripts/sprt.py) =="
python3 scripts/test_sprt.py

echo "== the Python package (crates/chimera-py) against pyffish =="
bash scripts/test-python.sh
