#!/usr/bin/env python3
"""Game-end, FEN-validation and insufficient-material reference data from pyffish.

Usage:
    fsf_game_end.py OUTDIR SEED GAMES PLIES [VARIANT...]
    fsf_game_end.py OUTDIR SEED GAMES PLIES VARIANT... --ini FILE

With --ini, sf.load_variant_config(open(FILE).read()) is called first, the
VARIANTs are sections of that file, and only game_end.jsonl is written (the
other two files need a native definition); the hand-picked Janggi endings are
added for every variant with passes.

Without VARIANT, every variant that has a definition in variants/*.toml and
that pyffish knows is used. Three files are written to OUTDIR:

  game_end.jsonl, from GAMES random games of at most PLIES plies per variant:
    {"variant": V, "fen": START, "moves": [...], "immediate": [bool, value],
     "optional": [bool, value], "insufficient": [white, black], "result": R}
    START is sf.start_fen(V); the moves lead from it to the position described.
    "immediate" is sf.is_immediate_game_end, "optional" sf.is_optional_game_end,
    "insufficient" sf.has_insufficient_material, all with the move list (so the
    game's history counts); "result" is sf.game_result when the side to move
    has no legal move, else null. Values are for the side to move
    (32000 = mate for it, 0 = draw). A line is written every fifth ply and
    for the last position of each game. Games end when pyffish says the
    game is over (no legal move, an immediate end, or an optional one).
    Moves are random, but a pass (a move to its own square) is preferred
    a third of the time, so that double passes happen (every other game has
    no passes, so that those games reach repetitions); undoing the side's
    own last move a third of the time, so that positions repeat; and a
    capture half the time otherwise. After each variant's games come its
    n-move lines (n_move_ends): three of its positions with the half-move
    clock set to 99, 100, 199 and 200, without moves.

  material.jsonl, sparse positions: each side's royal pieces on their start
    squares plus 0 to 3 pieces (random types of the start position, random
    sides and squares), kept when sf.validate_fen accepts the FEN and the side
    to move has a legal move:
    {"variant": V, "fen": F, "insufficient": [white, black]}

  validation.jsonl, hand-picked FENs (HAND_FENS), then positions of the
    games and hand-made faults in them
    (a royal removed or added, royals next to each other, a bad side to move,
    castling field, clock or letter, a rank missing, an extra field):
    {"variant": V, "fen": F, "validate": CODE}
    CODE is sf.validate_fen(F, V): 1 valid, 0 empty, negative for a fault.
    It is called in a child process; a FEN on which pyffish crashes is left out.

Royal pieces are read from variants/*.toml (`royal = true`). Each variant has
its own random generator seeded with "SEED:VARIANT".
"""
import json
import os
import random
import sys
import tomllib

import pyffish as sf

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def definitions():
    out = {}
    folder = os.path.join(ROOT, "variants")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".toml"):
            with open(os.path.join(folder, name), "rb") as f:
                d = tomllib.load(f)
            out[d["name"]] = d
    return out


def tokens(row):
    """The tokens of one FEN rank: ('', n) for n empty squares, or a piece token."""
    out = []
    i = 0
    while i < len(row):
        c = row[i]
        if c.isdigit():
            j = i
            while j < len(row) and row[j].isdigit():
                j += 1
            out.extend([None] * int(row[i:j]))
            i = j
            continue
        t = c
        if c == "+" and i + 1 < len(row):
            t = row[i : i + 2]
            i += 1
        if i + 1 < len(row) and row[i + 1] == "~":
            t += "~"
            i += 1
        out.append(t)
        i += 1
    return out


def split_fen(fen):
    fields = fen.split(" ")
    board = fields[0]
    pocket = None
    if "[" in board:
        board, pocket = board[: board.index("[")], board[board.index("[") :]
    return [tokens(r) for r in board.split("/")], pocket, fields[1:]


def join_fen(grid, pocket, rest):
    rows = []
    for r in grid:
        s, n = "", 0
        for t in r:
            if t is None:
                n += 1
            else:
                if n:
                    s += str(n)
                    n = 0
                s += t
        if n:
            s += str(n)
        rows.append(s)
    return " ".join(["/".join(rows) + (pocket or "")] + rest)


def letter(t):
    return t.strip("+~")


def is_capture(fen, m):
    """Whether a move (not a drop, not a pass) ends on an occupied square."""
    sq = squares(m)
    if sq is None or sq[0] == sq[1]:
        return False
    grid, _, _ = split_fen(fen)
    to = sq[1]
    return grid[len(grid) - int(to[1:])][ord(to[0]) - 97] is not None


def squares(m):
    """(from, to) of a move as strings, or None for a drop."""
    if "@" in m:
        return None
    i = 1
    while i < len(m) and m[i].isdigit():
        i += 1
    j = i + 1
    while j < len(m) and m[j].isdigit():
        j += 1
    return m[:i], m[i:j]


def playouts(v, rng, games, plies, ge, val):
    start = sf.start_fen(v)
    for game in range(games):
        # every other game without passes (unless a pass is the only move),
        # so that games with passes also reach repetitions
        no_pass = game % 2 == 1
        moves = []
        for ply in range(plies + 1):
            fen = sf.get_fen(v, start, moves)
            legal = sf.legal_moves(v, start, moves)
            imm = sf.is_immediate_game_end(v, start, moves)
            opt = sf.is_optional_game_end(v, start, moves)
            over = not legal or imm[0] or opt[0]
            if over or ply % 5 == 0 or ply == plies:
                ins = sf.has_insufficient_material(v, start, moves)
                res = sf.game_result(v, start, moves) if not legal else None
                ge.append({"variant": v, "fen": start, "moves": list(moves), "immediate": list(imm),
                           "optional": list(opt), "insufficient": list(ins), "result": res})
                val.append((fen, None))
            if over or ply == plies:
                break
            passes = [m for m in legal if squares(m) and squares(m)[0] == squares(m)[1]]
            if no_pass and len(passes) < len(legal):
                legal = [m for m in legal if m not in passes]
                passes = []
            undo = []
            if len(moves) >= 2 and squares(moves[-2]):
                a, b = squares(moves[-2])
                undo = [m for m in legal if squares(m) == (b, a)]
            caps = [m for m in legal if is_capture(fen, m)]
            r = rng.random()
            if passes and r < 1 / 3:
                m = rng.choice(passes)
            elif undo and r < 2 / 3:
                m = rng.choice(undo)
            elif caps and rng.random() < 0.5:
                m = rng.choice(caps)
            else:
                m = rng.choice(legal)
            moves.append(m)


# Janggi endings by rule: two passes in a row, bikjang (facing generals),
# repetition. Written to game_end.jsonl after each Janggi variant's games.
JANGGI_ENDS = [
    ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", ["e2e2", "e10e10"]),
    ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", ["e2e2"]),
    ("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", ["e2e2", "d10d10"]),
    ("4k4/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 w - - 0 1", ["e2e2", "e10e10"]),
    ("4k4/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 b - - 0 1", ["e10e10", "e2e2"]),
    ("3k5/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/9/p1p1p3p/9/9/9/9/4K4/R8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/9/p1p1p1p2/9/9/9/9/4K4/R8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/9/9/9/9/9/9/4K4/N8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/9/9/9/9/9/9/4K4/B8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/9/9/9/9/9/9/4K4/P8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k1a3/9/9/9/9/9/9/9/4K4/P8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/c8/9/9/9/9/9/4K4/P8 w - - 0 1", ["e2e2", "d10d10"]),
    ("3k5/9/9/9/9/9/9/9/3K5/9 w - - 0 1", ["d2d2", "d10d10"]),
    ("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", ["e2d2", "d10d10"]),
    ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", ["e2e2", "e9e9"]),
    # threefold (and fourfold) repetition
    ("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", ["e2e3", "d10d9", "e3e2", "d9d10"] * 2),
    ("3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", ["e2e3", "d10d9", "e3e2", "d9d10"] * 2),
    ("3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", ["e2e3", "d10d9", "e3e2", "d9d10"] * 3),
    ("3k5/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 w - - 0 1", ["e2e3", "d10d9", "e3e2", "d9d10"] * 2),
    ("3k5/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 b - - 0 1", ["d10d9", "e2e3", "d9d10", "e3e2"] * 2),
    ("3k5/9/9/p1p1p3p/9/9/9/9/4K4/R8 w - - 0 1", ["e2e3", "d10d9", "e3e2", "d9d10"] * 2),
    ("3k5/9/9/p1p1p1p2/9/9/9/9/4K4/R8 b - - 0 1", ["d10d9", "e2e3", "d9d10", "e3e2"] * 2),
]


def janggi_ends(v, ge):
    for fen, moves in JANGGI_ENDS:
        if sf.validate_fen(fen, v) != 1:
            continue
        # the moves must be legal, each after the ones before it
        if any(m not in sf.legal_moves(v, fen, moves[:i]) for i, m in enumerate(moves)):
            continue
        legal = sf.legal_moves(v, fen, moves)
        ge.append({"variant": v, "fen": fen, "moves": moves, "immediate": list(sf.is_immediate_game_end(v, fen, moves)),
                   "optional": list(sf.is_optional_game_end(v, fen, moves)),
                   "insufficient": list(sf.has_insufficient_material(v, fen, moves)),
                   "result": sf.game_result(v, fen, moves) if not legal else None})


def material(v, d, rng, n, out):
    royals = {p["letter"].lower() for p in d.get("piece", []) if p.get("royal")}
    start = sf.start_fen(v)
    grid, pocket, rest = split_fen(start)
    pieces = sorted({t for r in grid for t in r if t and letter(t).lower() not in royals})
    if not pieces:
        return
    tries = 0
    made = 0
    while made < n and tries < 50 * n:
        tries += 1
        g = [[t if t and letter(t).lower() in royals else None for t in r] for r in grid]
        for _ in range(rng.randrange(4)):
            t = rng.choice(pieces)
            t = t.upper() if rng.random() < 0.5 else t.lower()
            empty = [(i, j) for i, r in enumerate(g) for j, x in enumerate(r) if x is None]
            i, j = rng.choice(empty)
            g[i][j] = t
        side = rng.choice(["w", "b"])
        pk = "[]" if pocket is not None else None
        fen = join_fen(g, pk, [side, "-", "-"] + rest[3:])
        if sf.validate_fen(fen, v) != 1:
            continue
        try:
            if not sf.legal_moves(v, fen, []) or sf.is_immediate_game_end(v, fen, [])[0]:
                continue
        except Exception:
            continue
        fen = sf.get_fen(v, fen, [])
        out.append({"variant": v, "fen": fen, "insufficient": list(sf.has_insufficient_material(v, fen, []))})
        made += 1


def faults(v, d, rng, fen):
    royals = {p["letter"].lower() for p in d.get("piece", []) if p.get("royal")}
    grid, pocket, rest = split_fen(fen)
    out = [fen]
    where = [(i, j) for i, r in enumerate(grid) for j, t in enumerate(r) if t and letter(t).lower() in royals]
    empty = [(i, j) for i, r in enumerate(grid) for j, t in enumerate(r) if t is None]
    if where:
        g = [list(r) for r in grid]
        i, j = rng.choice(where)
        g[i][j] = None
        out.append(join_fen(g, pocket, rest))
        if empty:
            g = [list(r) for r in grid]
            k, l = rng.choice(empty)
            g[k][l] = grid[i][j]
            out.append(join_fen(g, pocket, rest))
        # an enemy royal moved next to this one
        other = [(k, l) for (k, l) in where if grid[k][l].isupper() != grid[i][j].isupper()]
        if other:
            k, l = other[0]
            near = [(i + a, j + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)
                    and 0 <= i + a < len(grid) and 0 <= j + b < len(grid[0]) and grid[i + a][j + b] is None]
            if near:
                g = [list(r) for r in grid]
                g[k][l] = None
                a, b = rng.choice(near)
                g[a][b] = grid[k][l]
                out.append(join_fen(g, pocket, rest))
    if len(rest) >= 1:
        out.append(join_fen(grid, pocket, ["x"] + rest[1:]))
    if len(rest) >= 2:
        out.append(join_fen(grid, pocket, rest[:1] + ["Z"] + rest[2:]))
    if len(rest) >= 4:
        r = list(rest)
        r[-2] = "a"
        out.append(join_fen(grid, pocket, r))
    out.append(join_fen(grid, pocket, rest + ["extra"]))
    out.append(join_fen(grid[1:], pocket, rest))
    if empty:
        g = [list(r) for r in grid]
        k, l = rng.choice(empty)
        g[k][l] = "X"
        out.append(join_fen(g, pocket, rest))
    return out


# Hand-picked FENs for validation.jsonl: each kind of fault once or more.
HAND_FENS = [
    ("chess", "8/8/8/8/8/8/8/8 w - - 0 1"),
    ("chess", "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
    ("chess", "3Kk3/8/8/8/8/8/8/8 w - - 0 1"),
    ("chess", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - 9 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - a 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 -1"),
    ("chess", "4k3/8/8/8/8/8/8 w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K2X w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
    ("chess", ""),
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1"),
    ("shogi", "4k4/9/9/9/9/9/9/9/4+K4[] w - - 0 1"),
    ("3check", "4k3/8/8/8/8/8/8/4K3 w - - 3+x 0 1"),
    ("makruk", "4k3/8/8/8/8/8/8/4K3 w - x 0 1"),
    ("antichess", "8/8/8/8/8/8/8/8 w - - 0 1"),
    ("antichess", "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1"),
    ("horde", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("horde", "8/8/8/8/8/8/8/4P3 w - - 0 1"),
    ("coregal", "3qkq2/8/8/8/8/8/8/3QKQ2 w - - 0 1"),
    ("coregal", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("xiangqi", "3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
    ("minishogi", "4k/5/5/5/5[] w - - 0 1"),
    ("sittuyin", "8/8/8/8/8/8/8/8[KFRRSSNNkfrrssnn] w - - 0 1"),
    ("codrus", "8/8/8/8/8/8/8/8 w - - 0 1"),
    ("threekings", "8/8/8/8/8/8/8/8 w - - 0 1"),
    ("knightmate", "8/8/8/8/8/8/8/8 w - - 0 1"),
]


def safe_validate(v, fen):
    """sf.validate_fen in a child process, or None if pyffish crashes on the FEN."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            os.write(w, str(sf.validate_fen(fen, v)).encode())
        finally:
            os._exit(0)
    os.close(w)
    out = b""
    while chunk := os.read(r, 64):
        out += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return int(out) if out else None


def main_ini(args):
    i = args.index("--ini")
    path = args[i + 1]
    args = args[:i] + args[i + 2:]
    outdir, seed, games, plies = args[0], args[1], int(args[2]), int(args[3])
    with open(path) as f:
        sf.load_variant_config(f.read())
    ge = []
    for v in args[4:]:
        rng = random.Random(f"{seed}:{v}")
        vg, vv = [], []
        playouts(v, rng, games, plies, vg, vv)
        janggi_ends(v, vg)
        n_move_ends(v, vv, vg)
        ge.extend(vg)
        print(f"{v}: {len(vg)} game-end lines", file=sys.stderr)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "game_end.jsonl"), "w") as f:
        for r in ge:
            f.write(json.dumps(r) + "\n")
    print(f"game_end.jsonl: {len(ge)} lines", file=sys.stderr)


# Half-move clocks around the n-move rules pyffish knows (50 and 100 moves).
N_MOVE_CLOCKS = [99, 100, 199, 200]


def n_move_ends(v, vv, ge):
    """The n-move rule: three positions of the variant's games (the first,
    middle and last recorded; positions with no legal move left out) with
    the FEN's half-move clock set to each of N_MOVE_CLOCKS, as FENs without
    moves. Variants whose FEN has no half-move clock get none. Uses no
    random numbers, so the other lines stay as they were."""
    fens = [f for f, _ in vv if sf.legal_moves(v, f, [])]
    picks = sorted({0, len(fens) // 2, len(fens) - 1}) if fens else []
    for i in picks:
        fields = fens[i].split(" ")
        if len(fields) < 4 or not fields[-2].isdigit():
            continue
        for clock in N_MOVE_CLOCKS:
            fen = " ".join(fields[:-2] + [str(clock), fields[-1]])
            if sf.validate_fen(fen, v) != 1:
                continue
            legal = sf.legal_moves(v, fen, [])
            ge.append({"variant": v, "fen": fen, "moves": [], "immediate": list(sf.is_immediate_game_end(v, fen, [])),
                       "optional": list(sf.is_optional_game_end(v, fen, [])),
                       "insufficient": list(sf.has_insufficient_material(v, fen, [])),
                       "result": sf.game_result(v, fen, []) if not legal else None})


def main():
    if "--ini" in sys.argv:
        return main_ini(sys.argv[1:])
    outdir, seed, games, plies = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    defs = definitions()
    known = set(sf.variants())
    names = sys.argv[5:] or [n for n in defs if n in known]
    ge, mat, val = [], [], []
    for v, f in HAND_FENS:
        if v in names:
            code = safe_validate(v, f)
            if code is not None:
                val.append({"variant": v, "fen": f, "validate": code})
    for v in names:
        rng = random.Random(f"{seed}:{v}")
        vg, vv = [], []
        playouts(v, rng, games, plies, vg, vv)
        if v.startswith("janggi"):
            janggi_ends(v, vg)
        n_move_ends(v, vv, vg)
        material(v, defs[v], rng, 12, mat)
        ge.extend(vg)
        seen = set()
        for fen, _ in vv[:: max(1, len(vv) // 6)]:
            for f in faults(v, defs[v], rng, fen):
                if f not in seen:
                    seen.add(f)
                    code = safe_validate(v, f)
                    if code is not None:
                        val.append({"variant": v, "fen": f, "validate": code})
        print(f"{v}: {len(vg)} game-end lines", file=sys.stderr)
    os.makedirs(outdir, exist_ok=True)
    for name, rows in [("game_end.jsonl", ge), ("material.jsonl", mat), ("validation.jsonl", val)]:
        with open(os.path.join(outdir, name), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        print(f"{name}: {len(rows)} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
