#!/usr/bin/env python3
"""Writes PGN files from the random games of tests/data/fsf/*.jsonl, with
pyffish's SAN (its default notation per variant), as a reference for
Chimera's PGN reader.

usage: python3 scripts/pyffish_pgn.py OUT_DIR VARIANT...

Each game gets the tags Event, Site, Date, Round, White, Black, Result,
Variant, FEN (and SetUp) when it does not start at the variant's start
position, and FinalFEN: the FEN pyffish gave after the last move (the playout's
fen_after). SAN is pyffish's get_san, move by move, from each ply's FEN. Every
seventh move gets a comment, and the fifth ply (when it has an alternative)
a one-move variation with pyffish's SAN for the alternative. A game that
pyffish does not replay from its start is left out (and said on stderr).
"""

import json
import sys

import pyffish as sf

DATE = "2026.12.01"


def games(path):
    """The games of a playout file, each a list of its records (one per ply:
    the position's FEN, its legal moves, the move played, the FEN after)."""
    out = []
    prev_after = None
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if not rec.get("played"):
                prev_after = None
                continue
            if rec["fen"] != prev_after:
                out.append([])
            out[-1].append(rec)
            prev_after = rec["fen_after"]
    return out


def wrap(tokens, width=80):
    lines, row = [], ""
    for t in tokens:
        if row and len(row) + 1 + len(t) > width:
            lines.append(row)
            row = ""
        row = t if not row else row + " " + t
    if row:
        lines.append(row)
    return "\n".join(lines)


def pgn(variant, n, recs):
    # one move at a time from each ply's FEN: pyffish 0.0.90 crashes on some
    # long move lists; the final FEN is pyffish's get_fen of the last ply
    fen = recs[0]["fen"]
    sans = [sf.get_san(variant, r["fen"], r["played"]) for r in recs]
    final = recs[-1]["fen_after"]
    fields = fen.split()
    number = int(fields[-1]) if fields[-1].isdigit() else 1
    black = fields[1] == "b"
    tags = [("Event", "pyffish random game"), ("Site", "?"), ("Date", DATE), ("Round", str(n)),
            ("White", "?"), ("Black", "?"), ("Result", "*"), ("Variant", variant)]
    if fen != sf.start_fen(variant):
        tags += [("SetUp", "1"), ("FEN", fen)]
    tags.append(("FinalFEN", final))
    tokens = []
    need_number = True
    for i, san in enumerate(sans):
        if not black:
            tokens.append(f"{number}. {san}")
        elif need_number:
            tokens.append(f"{number}... {san}")
        else:
            tokens.append(san)
        need_number = False
        if i % 7 == 6:
            tokens += ["{ply", f"{i + 1}}}"]
            need_number = True
        if i == 4:
            alt = [m for m in recs[i]["moves"] if m != recs[i]["played"]]
            if alt:
                alt_san = sf.get_san(variant, recs[i]["fen"], alt[0])
                dots = "." if not black else "..."
                tokens.append(f"({number}{dots} {alt_san})")
                need_number = True
        if black:
            number += 1
        black = not black
    tokens.append("*")
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return head + "\n" + wrap(tokens) + "\n\n"


def replays(variant, recs):
    """Whether pyffish plays the game's moves from its start to its last
    position: the playouts rebuild each ply from a FEN, so a game whose
    moves depend on history (Janggi's) may not be a game from the start."""
    try:
        moves = [r["played"] for r in recs]
        return sf.get_fen(variant, recs[0]["fen"], moves) == recs[-1]["fen_after"]
    except (ValueError, SystemError):
        return False


def main():
    out_dir, variants = sys.argv[1], sys.argv[2:]
    for v in variants:
        gs = games(f"tests/data/fsf/{v}.jsonl")
        kept = [g for g in gs if replays(v, g)]
        if len(kept) < len(gs):
            print(f"{v}: {len(gs) - len(kept)} of {len(gs)} games left out (pyffish does not replay them)", file=sys.stderr)
        text = "".join(pgn(v, i + 1, g) for i, g in enumerate(kept))
        with open(f"{out_dir}/{v}.pgn", "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
