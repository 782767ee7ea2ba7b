#!/usr/bin/env python3
"""Where do Chimera's scores part from a reference engine's in a set of games?

Reads a PGN file whose moves are in Fairy-Stockfish's coordinate notation
(as scripts/match.py writes them), and every --every plies from ply --from
on, at the positions where the side to move is the engine named --side
(the player whose PGN name starts with it), asks both Chimera and the
reference engine (UCI, with UCI_Variant) for a fixed-depth search score.
Prints one line per position:

    GAME PLY CHIMERA REFERENCE GAP LAST-MOVES

with the scores from the side to move's point of view in centipawns (a mate
is +-10000) and GAP = CHIMERA - REFERENCE; then a summary: the mean gap over
the positions without a mate score and, per game, the first position whose
gap is above --threshold.

    scripts/score-gap.py --pgn docs/games/match-fsf-chess-tempo.pgn --variant chess \\
        --chimera target/release/chimera --reference /usr/games/fairy-stockfish

A large positive gap early in lost games points at what Chimera's
evaluation misjudges; the `eval` command (docs/engine.md) shows its terms at
such a position.

With --drops N the reference engine also scores the position after the
move the game went on with, and the N moves of --side that lost the most by
the reference's scores (its score before the move less its score after it,
both from the mover's side, at --reference-depth) are listed at the end:
where the games were lost, whatever Chimera thought of them. A shallow
reference depth lists its own horizon effects too (a move that only walks
into a loss the reference saw one ply late): check a listed move with a
deeper search before reading much into it.
"""

import argparse
import importlib.util
import os
import re
import sys

MATE = 10000


def load_uci():
    """The UCI pipe of scripts/label-positions.py (a file name with a hyphen,
    so loaded by path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "label-positions.py")
    spec = importlib.util.spec_from_file_location("label_positions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Uci


def centipawns(score):
    """A score of Uci.score in centipawns (a mate is +-MATE), or None."""
    if score is None:
        return None
    kind, n = score
    return n if kind == "cp" else (MATE if n > 0 else -MATE)


def read_games(path):
    """(tags, moves) per game of a PGN file with coordinate moves."""
    games, tags, moves = [], {}, []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        m = re.match(r'^\[(\w+) "(.*)"\]$', line)
        if m:
            if moves:
                games.append((tags, moves))
                tags, moves = {}, []
            tags[m.group(1)] = m.group(2)
        elif line:
            for tok in line.split():
                if re.match(r"^\d+\.+$", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
                    continue
                moves.append(re.sub(r"^\d+\.+", "", tok))
    if moves:
        games.append((tags, moves))
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--chimera", default="target/release/chimera")
    ap.add_argument("--reference", default="/usr/games/fairy-stockfish")
    ap.add_argument("--side", default="Chimera", help="whose positions (a PGN player name's start)")
    ap.add_argument("--chimera-depth", type=int, default=8)
    ap.add_argument("--reference-depth", type=int, default=12)
    ap.add_argument("--from", dest="start", type=int, default=8, help="first ply")
    ap.add_argument("--every", type=int, default=2, help="plies between positions")
    ap.add_argument("--threshold", type=int, default=100, help="gap of the per-game first position")
    ap.add_argument("--drops", type=int, default=0, help="list the N moves that lost the most by the reference")
    args = ap.parse_args()
    if args.every < 1 or args.start < 0:
        sys.exit("--every must be at least 1 and --from at least 0")
    games = read_games(args.pgn)
    uci = load_uci()
    chimera = uci([args.chimera], args.variant, 16)
    reference = uci([args.reference], args.variant, 16)
    gaps, first, drops = [], {}, []
    for g, (tags, moves) in enumerate(games):
        ours_white = tags.get("White", "").startswith(args.side)
        ours_black = tags.get("Black", "").startswith(args.side)
        start = tags.get("FEN")
        for ply in range(args.start, len(moves), args.every):
            white_to_move = (ply % 2 == 0) != (start is not None and start.split()[1] == "b")
            if not (ours_white if white_to_move else ours_black):
                continue
            ours = centipawns(chimera.score(start, f"depth {args.chimera_depth}", moves[:ply]))
            theirs = centipawns(reference.score(start, f"depth {args.reference_depth}", moves[:ply]))
            if ours is None or theirs is None:
                continue
            gap = ours - theirs
            print(g, ply, ours, theirs, gap, " ".join(moves[max(0, ply - 4) : ply]), flush=True)
            if args.drops and ply < len(moves) and abs(theirs) < MATE:
                after = centipawns(reference.score(start, f"depth {args.reference_depth}", moves[: ply + 1]))
                if after is not None and abs(after) < MATE:
                    # the score after the move is the opponent's: from the mover's side it is -after
                    drops.append((theirs + after, g, ply, moves[ply], theirs, -after))
            if abs(ours) < MATE and abs(theirs) < MATE:
                gaps.append(gap)
                if gap > args.threshold and g not in first:
                    first[g] = ply
    chimera.close()
    reference.close()
    if gaps:
        print(f"positions without a mate score: {len(gaps)}, mean gap {sum(gaps) / len(gaps):+.0f} cp")
    for g, ply in sorted(first.items()):
        print(f"game {g}: first gap above {args.threshold} cp at ply {ply}")
    for drop, g, ply, move, before, after in sorted(drops, reverse=True)[: args.drops]:
        print(f"game {g} ply {ply}: {move} lost {drop} cp by the reference ({before:+d} before, {after:+d} after)")


if __name__ == "__main__":
    main()
