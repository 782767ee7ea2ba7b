#!/usr/bin/env python3
"""Reference lines from pyffish (Fairy-Stockfish) that keep the game's moves.

Usage:
    fsf_history_cases.py OUT SEED GAMES PLIES VARIANT FEN [FEN...]

fsf_playouts.py rebuilds every position from its FEN, so a piece standing
where the start position has one of its kind always counts as unmoved. Rules
that depend on what a piece has done (which pawns may still double-step, for
one) only show when the moves that led to a position are kept. This writes
OUT, one JSON object a line:

  line 1, the header (as fsf_playouts.py writes it):
    {"variant": V, "start_fen": sf.start_fen(V), "perft": {"1": n1, "2": n2, "3": n3}}
    perft counted through FENs from the start position.

  then, for GAMES random games of at most PLIES plies from each FEN, one line
  per ply:
    {"variant": V, "fen": FEN, "history": H, "moves": sorted(sf.legal_moves(V, FEN, H)),
     "played": M, "fen_after": sf.get_fen(V, FEN, H + [M])}
    H is the list of moves played so far in this game from FEN (it grows by
    "played" from one line to the next).

  and, when a game ends before PLIES, a last line with "played" and
  "fen_after" null and "result": the game value for the side to move
  (sf.is_immediate_game_end's value, else sf.game_result).

Moves are drawn at random from a generator seeded with "SEED:V:FEN:game":
half of the time a pawn move is preferred (a move from a square holding a
'p' of the side to move, or a pawn drop), else half of the time a capture,
so that pawns walk up from the back ranks, are dropped, and meet enemy pawns.
"""
import json
import random
import re
import sys

import pyffish as sf

MOVE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)")


def board(fen):
    """The FEN's board as a dict from square name ("a1") to piece letter."""
    rows = fen.split()[0].split("[")[0].split("/")
    squares = {}
    for i, row in enumerate(rows):
        rank = len(rows) - i
        file = 0
        for n, ch in re.findall(r"(\d+)|([A-Za-z*])", row.replace("~", "").replace("+", "")):
            if n:
                file += int(n)
            else:
                squares[f"{chr(97 + file)}{rank}"] = ch
                file += 1
    return squares


def perft(variant, fen, depth):
    if depth == 0:
        return 1
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def choose(rng, fen, moves):
    squares = board(fen)
    white = fen.split()[1] == "w"
    pawns, captures = [], []
    for m in moves:
        if m.startswith("P@"):
            pawns.append(m)
            continue
        g = MOVE.match(m)
        if not g:
            continue
        frm, to = g.group(1) + g.group(2), g.group(3) + g.group(4)
        piece = squares.get(frm, "")
        if piece == ("P" if white else "p"):
            pawns.append(m)
        if frm != to and to in squares:
            captures.append(m)
    if pawns and rng.random() < 0.5:
        return rng.choice(pawns)
    if captures and rng.random() < 0.5:
        return rng.choice(captures)
    return rng.choice(moves)


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    out, seed, games, plies, variant = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    fens = sys.argv[6:]
    start = sf.start_fen(variant)
    lines = [{"variant": variant, "start_fen": start, "perft": {str(d): perft(variant, start, d) for d in (1, 2, 3)}}]
    for fen in fens:
        for game in range(games):
            rng = random.Random(f"{seed}:{variant}:{fen}:{game}")
            history = []
            for _ in range(plies):
                moves = sorted(sf.legal_moves(variant, fen, history))
                here = sf.get_fen(variant, fen, history)
                end, value = sf.is_immediate_game_end(variant, fen, history)
                if not moves or end:
                    result = value if end else sf.game_result(variant, fen, history)
                    lines.append({"variant": variant, "fen": fen, "history": list(history), "moves": moves,
                                  "played": None, "fen_after": None, "result": result})
                    break
                m = choose(rng, here, moves)
                lines.append({"variant": variant, "fen": fen, "history": list(history), "moves": moves,
                              "played": m, "fen_after": sf.get_fen(variant, fen, history + [m])})
                history.append(m)
    with open(out, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{out}: {len(lines) - 1} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
