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
"""

import argparse
import re
import subprocess
import sys

MATE = 10000


class Uci:
    """A UCI engine on a pipe."""

    def __init__(self, cmd, variant):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended while waiting for {word}")
            if line.split(" ", 1)[0].strip() == word:
                return line

    def score(self, start, moves, depth):
        """The last score a depth-limited search reports, side to move's view."""
        pos = "position " + (f"fen {start}" if start else "startpos")
        self.send(pos + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go depth {depth}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended during a search")
            w = line.split()
            if w and w[0] == "info" and "score" in w:
                i = w.index("score")
                if i + 2 < len(w):
                    kind, value = w[i + 1], int(w[i + 2])
                    score = value if kind == "cp" else (MATE if value > 0 else -MATE)
            elif w and w[0] == "bestmove":
                return score

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


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
    args = ap.parse_args()
    if args.every < 1 or args.start < 0:
        sys.exit("--every must be at least 1 and --from at least 0")
    games = read_games(args.pgn)
    chimera = Uci([args.chimera], args.variant)
    reference = Uci([args.reference], args.variant)
    gaps, first = [], {}
    for g, (tags, moves) in enumerate(games):
        ours_white = tags.get("White", "").startswith(args.side)
        ours_black = tags.get("Black", "").startswith(args.side)
        start = tags.get("FEN")
        for ply in range(args.start, len(moves), args.every):
            white_to_move = (ply % 2 == 0) != (start is not None and start.split()[1] == "b")
            if not (ours_white if white_to_move else ours_black):
                continue
            ours = chimera.score(start, moves[:ply], args.chimera_depth)
            theirs = reference.score(start, moves[:ply], args.reference_depth)
            if ours is None or theirs is None:
                continue
            gap = ours - theirs
            print(g, ply, ours, theirs, gap, " ".join(moves[max(0, ply - 4) : ply]), flush=True)
            if abs(ours) < MATE and abs(theirs) < MATE:
                gaps.append(gap)
                if gap > args.threshold and g not in first:
                    first[g] = ply
    chimera.quit()
    reference.quit()
    if gaps:
        print(f"positions without a mate score: {len(gaps)}, mean gap {sum(gaps) / len(gaps):+.0f} cp")
    for g, ply in sorted(first.items()):
        print(f"game {g}: first gap above {args.threshold} cp at ply {ply}")


if __name__ == "__main__":
    main()
