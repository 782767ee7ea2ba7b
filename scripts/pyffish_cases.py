#!/usr/bin/env python3
"""Reference positions with pyffish's legal moves and perft(2), from random games.

Usage:
    pyffish_cases.py OUT.jsonl SEED PLIES GAMES VARIANT... [--start FEN]

For each VARIANT in turn, GAMES random games of at most PLIES plies are
played from sf.start_fen(VARIANT) (or from FEN, given with --start, for
positions the start rarely leads to: Sho Shogi with both Drunk Elephants
already Crown Princes, two royal pieces a side). Positions at plies 3, 10, 17, ... (every
seventh) and at the last ply are written, one JSON line each:

    {"variant": V, "fen": F, "moves": sorted(sf.legal_moves(V, F, [])), "perft2": N}

"perft2" only at plies 3, 17, 31, ... (every other sampled ply): the sum over
the legal moves of the number of legal moves after each, every child rebuilt
with sf.get_fen, so pyffish never sees a game history. This is the format of
tests/data/pyffish_{chess,xiangqi,janggi,capablanca}.jsonl (tests/data/README.md).
A game ends early when there are no legal moves.

The move played: half of the time (when there is one) a capture, otherwise
any legal move, uniformly from pyffish's own move order. "Capture" is
decided from the text alone: not a drop, and the destination square (the
last square of the move) is occupied on the FEN board; so a Janggi pass
(the King "moving" to its own square) counts as one. One generator,
random.Random(SEED) with an integer SEED, serves all variants in the order
given, and a random number is drawn for the capture choice only when there
is a capture, so a run is reproducible (the same pyffish version assumed).

scripts/fsf_playouts.py writes a different format (every ply, the move
played and the FEN after it, perft of the start position) for tests/data/fsf.
"""
import argparse
import json
import os
import random
import re
import sys

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsf_playouts import board_squares  # noqa: E402  (occupied squares of a FEN)

LAST_SQUARE = re.compile(r"[a-z]\d+")


def looks_like_capture(move, occupied):
    if "@" in move:
        return False
    squares = LAST_SQUARE.findall(move.split(",")[-1])
    return bool(squares) and squares[-1] in occupied


def perft2(variant, fen, moves):
    return sum(len(sf.legal_moves(variant, sf.get_fen(variant, fen, [m]), [])) for m in moves)


def play_games(out, rng, variant, games, plies, start=None):
    written = 0
    for _ in range(games):
        fen = start or sf.start_fen(variant)
        for ply in range(plies):
            moves = sf.legal_moves(variant, fen, [])
            if not moves:
                break
            if ply % 7 == 3 or ply == plies - 1:
                record = {"variant": variant, "fen": fen, "moves": sorted(moves)}
                if ply % 14 == 3:
                    record["perft2"] = perft2(variant, fen, moves)
                out.write(json.dumps(record) + "\n")
                written += 1
            occupied = board_squares(fen)
            captures = [m for m in moves if looks_like_capture(m, occupied)]
            if captures and rng.random() < 0.5:
                move = rng.choice(captures)
            else:
                move = rng.choice(moves)
            fen = sf.get_fen(variant, fen, [move])
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("seed", type=int)
    ap.add_argument("plies", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--start", help="the FEN every game starts from (default: the variant's start)")
    args = ap.parse_args()
    unknown = [v for v in args.variants if v not in sf.variants()]
    if unknown:
        sys.exit("unknown to pyffish %s: %s" % (".".join(map(str, sf.version())), " ".join(unknown)))
    rng = random.Random(args.seed)
    with open(args.out, "w") as out:
        for variant in args.variants:
            if args.start and sf.validate_fen(args.start, variant) != 1:
                sys.exit("pyffish refuses the --start FEN for %s" % variant)
            n = play_games(out, rng, variant, args.games, args.plies, args.start)
            print("%s: %d positions" % (variant, n), file=sys.stderr)


if __name__ == "__main__":
    main()
