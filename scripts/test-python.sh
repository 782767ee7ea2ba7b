#!/usr/bin/env bash
# Builds the Python package (crates/chimera-py) into a virtual environment
# under target/ and runs its tests, which compare it with pyffish.
#
#   scripts/test-python.sh [PYTEST ARGS...]
#
# PYTHON names the interpreter (default: python3). maturin, pytest and
# pyffish are installed from PyPI into the environment when missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/target/python-venv"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
py="$venv/bin/python"
# the build backend runs the maturin program of the environment
export PATH="$venv/bin:$PATH"
need=()
"$py" -c "import maturin" 2>/dev/null || need+=("maturin>=1.5,<2")
"$py" -c "import pytest" 2>/dev/null || need+=("pytest")
"$py" -c "import pyffish" 2>/dev/null || need+=("pyffish==0.0.90")
if [ ${#need[@]} -gt 0 ]; then
    "$py" -m pip install --quiet "${need[@]}"
fi
# maturin is already there: build without an isolated environment
"$py" -m pip install --quiet --no-build-isolation --force-reinstall --no-deps ./crates/chimera-py
cd crates/chimera-py
"$py" -m pytest -q tests "$@"
