#!/usr/bin/env python3
"""Reference playouts from pyffish (Fairy-Stockfish) for Chimera's agreement tests.

Usage:
    fsf_playouts.py OUTDIR SEED GAMES PLIES VARIANT... [--ini FILE] [--perft-depth N] [--jobs J] [--shuffle]

For every VARIANT this writes OUTDIR/<VARIANT>.jsonl:

  line 1, the header:
    {"variant": V, "start_fen": sf.start_fen(V), "perft": {"1": n1, "2": n2, "3": n3}}
    Perft is counted through FENs: the count of a position at depth d is the sum,
    over its legal moves, of the count at depth d-1 of the child rebuilt with
    sf.get_fen (so no game history reaches pyffish). Depths 1..N (--perft-depth,
    default 3) are recorded.

  then one line per ply of GAMES random games of at most PLIES plies each,
  started from sf.start_fen(V):
    {"variant": V, "fen": F, "moves": sorted(sf.legal_moves(V, F, [])),
     "played": M, "fen_after": sf.get_fen(V, F, [M])}
    "played" is the move actually played next, so "fen_after" is the "fen" of the
    following line of the same game. The first position of each game is the start
    FEN exactly as sf.start_fen writes it; every later one is get_fen output.

  and, when a game ends before PLIES (no legal moves, or sf.is_immediate_game_end
  says the game is over), one terminal line for the final position:
    {"variant": V, "fen": F, "moves": [...], "played": null, "fen_after": null,
     "result": R}
    R is the game value for the side to move (sf.is_immediate_game_end's value,
    else sf.game_result), e.g. -32000 = side to move has lost, 0 = draw.

Moves are chosen at random; half of the time (when there is one) a capture is
preferred. A capture is recognised cheaply: not a drop, not a move to its own
square, and the destination square is occupied on the FEN board.

Determinism: each variant has its own generator seeded with the string
"SEED:VARIANT", so a file does not depend on which other variants were named,
their order, or --jobs. Timing and a summary table go to stderr.

--shuffle: each game starts from a shuffled back rank instead (Chess960
rules: the bishops, and any second pair of colour-bound pieces, on squares
of both colours, the king between the rooks), the pawns and the other fields
of sf.start_fen(V) kept; the castling field is written KQkq (X-FEN) in half
of the games and as the rooks' files (Shredder-FEN) in the other half. For
fischerandom and caparandom.

--ini FILE: sf.load_variant_config(open(FILE).read()) is called first, so
variants defined in a Fairy-Stockfish variant configuration file can be named.
--jobs J: generate J variants at a time in worker processes (default 1).
"""
import argparse
import json
import multiprocessing
import os
import random
import re
import sys
import time

import pyffish as sf


def board_squares(fen):
    """The occupied squares ('e4', 'a10', ...) of the board field of a FEN.

    The pocket ("[...]") is ignored, and so are the '+' (promoted) and '~'
    (promoted in crazyhouse) markers, which do not take a square.
    """
    board = fen.split(" ")[0].split("[")[0]
    rows = board.split("/")
    occupied = set()
    for i, row in enumerate(rows):
        rank = len(rows) - i
        file = 0
        for digits, ch in re.findall(r"(\d+)|(.)", row):
            if digits:
                file += int(digits)
            elif ch not in "+~":
                occupied.add(chr(ord("a") + file) + str(rank))
                file += 1
    return occupied


SQUARE = re.compile(r"[a-z]\d+")


def is_capture_guess(move, occupied):
    """A cheap capture test from the move text alone (no pyffish call)."""
    if "@" in move:
        return False
    squares = SQUARE.findall(move.split(",")[-1])
    if len(squares) < 2 or squares[-1] == squares[0]:
        return False
    return squares[-1] in occupied


def perft_through_fens(variant, fen, depth):
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft_through_fens(variant, sf.get_fen(variant, fen, [m]), depth - 1)
               for m in moves)


def game_over(variant, fen, moves):
    """None while the game goes on, else the game value for the side to move."""
    ended, value = sf.is_immediate_game_end(variant, fen, [])
    if ended:
        return value
    if not moves:
        return sf.game_result(variant, fen, [])
    return None


def shuffled_start(start, rng):
    """A Chess960-style shuffle of the back ranks of the FEN `start`: White's
    first rank is permuted (bishops on both colours, the king between the two
    rooks), Black's is its mirror, and the castling field names all four
    rights, as KQkq or as the rooks' files."""
    fields = start.split(" ")
    rows = fields[0].split("/")
    back = list(rows[-1])
    assert all(c.isalpha() for c in back), "a back rank without gaps: " + rows[-1]
    width = len(back)
    while True:
        rng.shuffle(back)
        bishops = [i for i, c in enumerate(back) if c == "B"]
        rooks = [i for i, c in enumerate(back) if c == "R"]
        king = back.index("K")
        if len(bishops) == 2 and bishops[0] % 2 == bishops[1] % 2:
            continue
        if len(rooks) == 2 and rooks[0] < king < rooks[1]:
            break
    rows[-1] = "".join(back)
    rows[0] = rows[-1].lower()
    fields[0] = "/".join(rows)
    if rng.random() < 0.5:
        fields[2] = "KQkq"
    else:
        files = [chr(ord("A") + rooks[1]), chr(ord("A") + rooks[0])]
        fields[2] = "".join(files) + "".join(files).lower()
    assert width == len(rows[0])
    return " ".join(fields)


def one_variant(job):
    outdir, seed, games, plies, variant, perft_depth, shuffle = job
    rng = random.Random("%s:%s" % (seed, variant))
    start = sf.start_fen(variant)
    t0 = time.time()
    perft = {}
    for d in range(1, perft_depth + 1):
        t = time.time()
        perft[str(d)] = perft_through_fens(variant, start, d)
        print("%s: perft %d = %d (%.1f s)" % (variant, d, perft[str(d)], time.time() - t),
              file=sys.stderr, flush=True)
    lines = [{"variant": variant, "start_fen": start, "perft": perft}]
    positions = 0
    ended_games = 0
    for _ in range(games):
        fen = shuffled_start(start, rng) if shuffle else start
        for _ply in range(plies):
            moves = sorted(sf.legal_moves(variant, fen, []))
            result = game_over(variant, fen, moves)
            if result is not None:
                lines.append({"variant": variant, "fen": fen, "moves": moves,
                              "played": None, "fen_after": None, "result": result})
                positions += 1
                ended_games += 1
                break
            occupied = board_squares(fen)
            captures = [m for m in moves if is_capture_guess(m, occupied)]
            if captures and rng.random() < 0.5:
                played = rng.choice(captures)
            else:
                played = rng.choice(moves)
            after = sf.get_fen(variant, fen, [played])
            lines.append({"variant": variant, "fen": fen, "moves": moves,
                          "played": played, "fen_after": after})
            positions += 1
            fen = after
    path = os.path.join(outdir, variant + ".jsonl")
    with open(path, "w") as f:
        for rec in lines:
            f.write(json.dumps(rec) + "\n")
    seconds = time.time() - t0
    print("%s: %d positions, %d games ended early, %.1f s" % (variant, positions, ended_games, seconds),
          file=sys.stderr, flush=True)
    return variant, positions, ended_games, perft, seconds, os.path.getsize(path)


def load_ini(path):
    if path:
        with open(path) as f:
            sf.load_variant_config(f.read())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("seed")
    ap.add_argument("games", type=int)
    ap.add_argument("plies", type=int)
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--ini", help="Fairy-Stockfish variant configuration file to load first")
    ap.add_argument("--perft-depth", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--shuffle", action="store_true", help="start each game from a shuffled back rank")
    args = ap.parse_args()

    load_ini(args.ini)
    known = set(sf.variants())
    unknown = [v for v in args.variants if v not in known]
    if unknown:
        sys.exit("unknown to pyffish %s: %s" % (".".join(map(str, sf.version())), " ".join(unknown)))
    variants = list(dict.fromkeys(args.variants))  # drop repeats, keep order
    os.makedirs(args.outdir, exist_ok=True)
    jobs = [(args.outdir, args.seed, args.games, args.plies, v, args.perft_depth, args.shuffle) for v in variants]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, initializer=load_ini, initargs=(args.ini,)) as pool:
            rows = pool.map(one_variant, jobs, chunksize=1)
    else:
        rows = [one_variant(j) for j in jobs]

    print("\n%-16s %9s %6s %8s  %s" % ("variant", "positions", "ended", "seconds", "perft"),
          file=sys.stderr)
    for v, n, ended, perft, sec, size in rows:
        counts = " ".join(str(perft[str(d)]) for d in range(1, len(perft) + 1))
        print("%-16s %9d %6d %8.1f  %s" % (v, n, ended, sec, counts), file=sys.stderr)
    print("total: %d variants, %d positions" % (len(rows), sum(r[1] for r in rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
