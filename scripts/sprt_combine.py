#!/usr/bin/env python3
"""Continue an SPRT over several runs of scripts/sprt.py.

    scripts/sprt_combine.py [--elo0 0] [--elo1 10] LOG1 LOG2 ...

A run that stops at its time limit without a decision can be continued by a
second run of the same two binaries (another --seed, so that the openings
differ); this sums the pair counts (pentanomial) of the last line of each
log and gives the LLR, the Elo estimate and the decision of the whole, as
if the test had gone on without a break. The bounds must be those of the
runs (--elo0, --elo1, --alpha, --beta); for runs of sprt.py --trinomial,
give --trinomial here too. (scripts/sprt.py --continue does the same
while a run is going on, and stops it at the whole's decision.)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402


last_counts = sprt.last_counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--trinomial", action="store_true", help="single games (W/D/L), as sprt.py --trinomial")
    a = ap.parse_args()
    total = None
    kind = "trinomial" if a.trinomial else "pentanomial"
    for path in a.logs:
        counts = last_counts(path, a.trinomial)
        total = counts if total is None else [x + y for x, y in zip(total, counts)]
        print(f"{path}: {kind} {counts}")
    lower, upper = sprt.bounds(a.alpha, a.beta)
    value = sprt.llr(total, a.elo0, a.elo1)
    games = sum(total) * (2 if kind == "pentanomial" else 1)
    verdict = sprt.decision(value, lower, upper) or "no decision"
    print(
        f"all: games {games}, {kind} {total}, LLR {value:.3f} [{lower:.2f}, {upper:.2f}], "
        f"Elo {sprt.elo_text(total)}: {verdict}"
    )


if __name__ == "__main__":
    main()
