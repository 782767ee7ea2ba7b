#!/usr/bin/env python3
"""Records pyffish's move text (SAN, LAN, shogi, xiangqi, janggi and Thai
notations) for a sample of the positions of tests/data/fsf/*.jsonl.

Usage, from the repository root:

    python3 scripts/pyffish_san.py OUT_DIR PER_VARIANT [VARIANT ...]

For each variant V with a file tests/data/fsf/V.jsonl (all of them when no
variant is named), about PER_VARIANT positions are taken, evenly spaced over
the file (every k-th position line, k = ceil(lines / PER_VARIANT)), and for
each of them every legal move of the line is written in every notation that
applies to V. OUT_DIR/V.jsonl gets one header line

    {"variant": V, "default": NAME, "notations": [NAME, ...]}

where "default" names the notation whose text pyffish's NOTATION_DEFAULT gives
for every recorded move (checked; the script stops if there is none), and then
one line per position

    {"fen": FEN, "moves": {UCI: {NAME: TEXT, ...}, ...}}

Notation names: san, lan, shogi_hosking, shogi_hodges, shogi_hodges_number,
janggi, xiangqi_wxf, thai_san, thai_lan. SAN and LAN are recorded for every
variant; the others for the variants they are meant for (below). The
output is deterministic: the same pyffish gives the same files.
"""

import json
import math
import os
import sys

import pyffish as sf

NOTATIONS = {
    "san": sf.NOTATION_SAN,
    "lan": sf.NOTATION_LAN,
    "shogi_hosking": sf.NOTATION_SHOGI_HOSKING,
    "shogi_hodges": sf.NOTATION_SHOGI_HODGES,
    "shogi_hodges_number": sf.NOTATION_SHOGI_HODGES_NUMBER,
    "janggi": sf.NOTATION_JANGGI,
    "xiangqi_wxf": sf.NOTATION_XIANGQI_WXF,
    "thai_san": sf.NOTATION_THAI_SAN,
    "thai_lan": sf.NOTATION_THAI_LAN,
}

SHOGI = ["shogi_hosking", "shogi_hodges", "shogi_hodges_number"]
THAI = ["thai_san", "thai_lan"]

# The variants each family of notations is meant for (the shogi family: the
# variants whose default notation is a shogi one, found below).
FAMILY = {
    "xiangqi": ["xiangqi_wxf"],
    "minixiangqi": ["xiangqi_wxf"],
    "manchu": ["xiangqi_wxf"],
    "janggi": ["janggi"],
    "janggicasual": ["janggi"],
    "janggimodern": ["janggi"],
    "janggitraditional": ["janggi"],
    "makruk": THAI,
    "makpong": THAI,
    "cambodian": THAI,
    "karouk": THAI,
    "ai-wok": THAI,
    "asean": THAI,
}


def texts(variant, fen, move, names):
    return {n: sf.get_san(variant, fen, move, False, NOTATIONS[n]) for n in names}


def one_variant(variant, src, out_dir, per_variant):
    cases = []
    with open(src) as f:
        for line in f:
            obj = json.loads(line)
            if "moves" in obj and obj["moves"]:
                cases.append(obj)
    if not cases:
        return 0
    k = max(1, math.ceil(len(cases) / per_variant))
    sample = cases[::k]
    # which notation NOTATION_DEFAULT is, and whether the shogi family applies
    default_texts = {}
    for c in sample:
        for m in c["moves"]:
            default_texts[(c["fen"], m)] = sf.get_san(variant, c["fen"], m, False, sf.NOTATION_DEFAULT)
    default = None
    for name in NOTATIONS:
        if all(sf.get_san(variant, fen, m, False, NOTATIONS[name]) == t for (fen, m), t in default_texts.items()):
            default = name
            break
    if default is None:
        sys.exit(f"{variant}: NOTATION_DEFAULT is none of the named notations")
    names = ["san", "lan"] + FAMILY.get(variant, [])
    if default in SHOGI:
        names += SHOGI
    with open(os.path.join(out_dir, f"{variant}.jsonl"), "w") as out:
        out.write(json.dumps({"variant": variant, "default": default, "notations": names}) + "\n")
        for c in sample:
            moves = {m: texts(variant, c["fen"], m, names) for m in c["moves"]}
            out.write(json.dumps({"fen": c["fen"], "moves": moves}, ensure_ascii=False) + "\n")
    return len(sample)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_dir, per_variant = sys.argv[1], int(sys.argv[2])
    variants = sys.argv[3:]
    src_dir = os.path.join("tests", "data", "fsf")
    if not variants:
        variants = sorted(f[:-6] for f in os.listdir(src_dir) if f.endswith(".jsonl"))
    os.makedirs(out_dir, exist_ok=True)
    for v in variants:
        n = one_variant(v, os.path.join(src_dir, f"{v}.jsonl"), out_dir, per_variant)
        print(f"{v}: {n} positions", flush=True)


if __name__ == "__main__":
    main()
