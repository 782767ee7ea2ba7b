#!/usr/bin/env python3
"""Writes seed corpora for the cargo-fuzz targets under fuzz/ from the
built-in variants (variants/*.toml, variants/*.ini), the FENs and moves of
tests/data/fsf/*.jsonl, and tests/data/user_variants.ini.

Usage: scripts/fuzz-seeds.py [OUTDIR]   (default fuzz/corpus; one folder per target)

The first byte of a fen/moves seed is the variant's index in the order of
`chimera variants` (the order of chimera::builtin::names(), the file names
sorted), as the targets read it. Only files are written; the output is
deterministic.
"""
import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(outdir, target, data):
    d = os.path.join(outdir, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fuzz", "corpus")
    tomls = sorted(glob.glob(os.path.join(ROOT, "variants", "*.toml")))
    names = [os.path.splitext(os.path.basename(p))[0] for p in tomls]
    counts = {}

    def add(target, data):
        write(outdir, target, data)
        counts[target] = counts.get(target, 0) + 1

    betzas = set()
    for i, path in enumerate(tomls):
        text = open(path, encoding="utf-8").read()
        add("variant_file", b"\x00" + text.encode())
        m = re.search(r'^start_fen\s*=\s*"([^"]*)"', text, re.M)
        if m:
            add("fen", bytes([i]) + m.group(1).encode())
        for b in re.findall(r'^betza\s*=\s*"([^"]*)"', text, re.M):
            betzas.add(b)
        data = os.path.join(ROOT, "tests", "data", "fsf", names[i] + ".jsonl")
        if os.path.exists(data):
            lines = open(data).read().splitlines()[1:]
            for k, line in enumerate(lines[::40][:6]):
                case = json.loads(line)
                add("fen", bytes([i]) + case["fen"].encode())
                if case["moves"]:
                    mv = case["moves"][k % len(case["moves"])]
                    add("moves", bytes([i, k * 3, k, 7 * k]) + mv.encode())
        add("moves", bytes([i, 0]) + b"e2e4")
    # constructs no built-in variant uses, so that the mutations start from them too
    betzas.update(["RudR", "mKudQucK", "mRucR", "ucN", "qN", "zB", "tRtpafR", "FyafsF", "oR", "cpafW", "dafW",
                   "pNgNhrN", "FXfhN", "mUcK", "KADcavKmcpafmcpavK", "[F?R]", "W[R-pF]", "[D?DD]", "[N-sN]"])
    for b in sorted(betzas):
        add("betza", bytes([6, 6]) + b.encode())
        add("betza", bytes([8, 1]) + b.encode())
    for path in sorted(glob.glob(os.path.join(ROOT, "variants", "*.ini"))) + \
            [os.path.join(ROOT, "tests", "data", "user_variants.ini")]:
        add("variant_file", b"\x01" + open(path, "rb").read())
    for k in range(8):
        add("protocol", bytes([k % 5, 12] + [(k * 37 + j * 11) % 256 for j in range(60)]))
    for t, n in sorted(counts.items()):
        print("%s: %d seeds" % (t, n))


if __name__ == "__main__":
    main()
