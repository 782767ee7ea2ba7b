#!/usr/bin/env python3
"""HaChu's moves for its Lion Dog on every pattern of one line: reference data.

Usage:
    hachu_liondog.py OUT.jsonl

HaChu 0.21 (/usr/games/hachu, or the binary named by HACHU_BIN) gives the
Lion Dog of its Cashew Shogi (`+W'`, XBetza `KADcavKmcpafmcpavK`) moves with
up to two victims on the way. This script sets up a 13x13 board with the
Lion Dog on g7, the Kings on a1 and m13, and, for each of the eight
directions and each of the 27 ways to fill the three squares along it
(empty, an enemy Pawn, a friendly Pawn), asks HaChu for its legal moves
(scripts/hachu_oracle.py, `legal_moves`, which decodes HaChu's three-leg
move codes). One JSON line per board:

    {"variant": "cashew-shogi", "dir": [dx, dy], "line": "p.P",
     "fen": "...", "origin": "g7", "moves": [HaChu's moves from g7, sorted]}

`line` is the three squares outward from g7 (`.` empty, `p` enemy, `P`
friend). Moves are in Chimera's notation: one leg to each victim, then one
to the destination (`g7g8,g8g9,g9g10`), a move that ends on a victim's
square written as the capture there. crates/chimera/tests/hachu_liondog.rs
compares them with Chimera's reading of the same XBetza.
"""

import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hachu_oracle  # noqa: E402

SIZE = 13
ORIGIN = (6, 6)
DIRECTIONS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    lines = []
    for dx, dy in DIRECTIONS:
        for fill in itertools.product(".pP", repeat=3):
            cells = {(0, 0): "K", (SIZE - 1, SIZE - 1): "k", ORIGIN: "+W'"}
            for i, piece in enumerate(fill, start=1):
                if piece != ".":
                    cells[(ORIGIN[0] + dx * i, ORIGIN[1] + dy * i)] = piece
            fen = hachu_oracle.write_board(cells, SIZE) + " w 0 1"
            answer = hachu_oracle.legal_moves(fen, "cashew-shogi")
            origin = hachu_oracle.square_name(ORIGIN)
            moves = sorted(t for t in answer.texts() if t.startswith(origin) and not t[len(origin)].isdigit())
            lines.append({"variant": "cashew-shogi", "dir": [dx, dy], "line": "".join(fill), "fen": fen,
                          "origin": origin, "moves": moves})
            print(dx, dy, "".join(fill), len(moves), file=sys.stderr)
    with open(sys.argv[1], "w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
