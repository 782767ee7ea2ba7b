#!/usr/bin/env python3
"""Label tuning positions with a reference engine's search scores.

Reads the data of `chimera selfplay` (lines `FEN;RESULT`, RESULT the game's
result from White's side: 1, 0.5 or 0), asks a UCI engine that knows the
variant (Fairy-Stockfish, with `UCI_Variant`) to search each position, and
writes `FEN;LABEL` lines for `chimera tune`, where

    LABEL = lam * RESULT + (1 - lam) * 1 / (1 + 10^(-score / scale))

with `score` the engine's score from White's side in centipawns (a mate
counts as a win or a loss). With --lam 1 the labels are the game results;
with --lam 0 they are the engine's scores alone.

    scripts/label-positions.py --engine /usr/games/fairy-stockfish --variant chess \
        --depth 8 --in chess.data --out chess.labelled

Lines starting with `#` are copied; a first comment line records how the
file was made.
"""

import argparse
import subprocess
import sys
import time


class Uci:
    """A UCI engine on a pipe."""

    def __init__(self, cmd, variant, hash_mb):
        self.p = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        if variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended while waiting for {word}")
            line = line.strip()
            lines.append(line)
            if line.split(" ", 1)[0] == word:
                return lines

    def score(self, fen, limit, moves=()):
        """The last reported score of a search of `fen` (the start position
        if None) after `moves`, from the side to move: ('cp', n) or
        ('mate', n); None if the engine gave none."""
        self.send("ucinewgame")
        tail = " moves " + " ".join(moves) if moves else ""
        self.send(("position startpos" if fen is None else f"position fen {fen}") + tail)
        self.send(f"go {limit}")
        last = None
        for line in self.wait("bestmove"):
            w = line.split()
            if w[:1] == ["info"] and "score" in w:
                i = w.index("score")
                if i + 2 < len(w) and w[i + 1] in ("cp", "mate"):
                    if "lowerbound" in w or "upperbound" in w:
                        continue
                    last = (w[i + 1], int(w[i + 2]))
        return last

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def win_prob(score, white_to_move, scale):
    kind, n = score
    if kind == "mate":
        p = 1.0 if n > 0 else 0.0
    else:
        p = 1.0 / (1.0 + 10.0 ** (-n / scale))
    return p if white_to_move else 1.0 - p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish", help="the UCI engine's command")
    ap.add_argument("--variant", required=True, help="UCI_Variant value (chess: none is sent)")
    ap.add_argument("--in", dest="inp", required=True, help="FEN;RESULT lines")
    ap.add_argument("--out", required=True)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--depth", type=int, help="search depth per position (default 8)")
    g.add_argument("--nodes", type=int, help="search nodes per position")
    ap.add_argument("--lam", type=float, default=0.5, help="weight of the game result (0..1)")
    ap.add_argument("--scale", type=float, default=400.0, help="centipawns per factor 10 of odds")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--every", type=int, default=1, help="keep every Nth position")
    a = ap.parse_args()
    if not 0.0 <= a.lam <= 1.0:
        sys.exit("--lam must be between 0 and 1")
    limit = f"nodes {a.nodes}" if a.nodes else f"depth {a.depth or 8}"
    eng = Uci(a.engine.split(), a.variant, a.hash)
    start = time.time()
    done = skipped = 0
    with open(a.inp) as f, open(a.out, "w") as out:
        out.write(
            f"# labels: {a.lam} x game result + {1 - a.lam} x engine score "
            f"({a.engine}, UCI_Variant {a.variant}, go {limit}, scale {a.scale}); "
            f"made by scripts/label-positions.py from {a.inp.rsplit('/', 1)[-1]}\n"
        )
        n = 0
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                if line:
                    out.write(line + "\n")
                continue
            n += 1
            if (n - 1) % a.every:
                continue
            fen, res = line.rsplit(";", 1)
            r = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(res.strip())
            if r is None:
                r = float(res)
            white = fen.split()[1] == "w"
            s = eng.score(fen, limit)
            if s is None:
                skipped += 1
                continue
            label = a.lam * r + (1.0 - a.lam) * win_prob(s, white, a.scale)
            out.write(f"{fen};{label:.4f}\n")
            done += 1
            if done % 1000 == 0:
                print(f"{done} positions, {time.time() - start:.0f} s", file=sys.stderr)
    eng.close()
    print(f"{done} labelled, {skipped} without a score, {time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
