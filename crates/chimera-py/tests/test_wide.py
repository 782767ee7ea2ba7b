"""Variants the narrow core cannot hold, played through the wide one: Tenjiku
Shogi against HaChu's move lists (tests/data/hachu_tenjiku.jsonl) and a
variants.ini board of 20x20."""

import json
import os
import re

import chimera

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data")


def is_pass(m):
    """A move that comes back to its own square (HaChu and Chimera may write a
    position's one pass on different pieces)."""
    body = m.rstrip("+")
    if "," in body or len(body) < 4:
        return False
    cut = next((k + 1 for k, c in enumerate(body[1:]) if c.isalpha()), 0)
    return cut > 0 and body[:cut] == body[cut:]


def normalised(moves):
    return {"pass" if is_pass(m) else m for m in moves}


# the pieces HaChu simplifies (variants/tenjikushogi.toml): the Fire Demon,
# the Vice General, the Free Eagle and the Heavenly Tetrarchs, by FEN id
SIMPLIFIED = {"d!", "+w!", "v!", "+b!", "q'", "+q", "+c!"}
TOKEN = re.compile(r"\+?[A-Za-z][!']?|\d+")


def simplified_squares(fen):
    """The squares of a Tenjiku FEN that hold a piece HaChu simplifies."""
    squares = set()
    for k, row in enumerate(fen.split(" ")[0].split("/")):
        f = 0
        for t in TOKEN.findall(row):
            if t.isdigit():
                f += int(t)
                continue
            if t.lower() in SIMPLIFIED:
                squares.add("abcdefghijklmnop"[f] + str(16 - k))
            f += 1
    return squares


def origin(m):
    cut = next(k + 1 for k, c in enumerate(m[1:]) if c.isalpha())
    return m[:cut]


def test_tenjiku_is_listed_and_starts_on_16x16():
    assert "tenjikushogi" in chimera.variants()
    fen = chimera.start_fen("tenjikushogi")
    assert len(fen.split(" ")[0].split("/")) == 16


def test_tenjiku_legal_moves_are_hachus():
    # HaChu lists pseudo-legal moves; Chimera's legal moves are among them,
    # but for HaChu's swapped jump captures (see the Rust test
    # hachu_tenjiku.rs), which are always captures, and the moves of the
    # pieces HaChu simplifies (and the pass, which one of them may make)
    with open(os.path.join(DATA, "hachu_tenjiku.jsonl")) as f:
        cases = [json.loads(line) for line in f if line.startswith("{")]
    assert len(cases) >= 200
    checked = swapped = 0
    for case in cases:
        if checked == 60:
            break
        try:
            legal = chimera.legal_moves("tenjikushogi", case["fen"], [])
        except ValueError:
            # a random game's position where the side not to move is in check
            continue
        assert len(legal) == chimera.perft("tenjikushogi", case["fen"], [], 1)
        skip = simplified_squares(case["fen"])
        ours = [m for m in legal if origin(m) not in skip and not is_pass(m)]
        extra = normalised(ours) - normalised(case["moves"])
        for m in extra:
            assert chimera.is_capture("tenjikushogi", case["fen"], [], m), (case["fen"], m)
        swapped += len(extra)
        checked += 1
    assert checked == 60 and swapped <= 28


def test_a_20x20_variants_ini_board_is_played_by_the_wide_core():
    # a queen on b1 of an empty 20x20 board reaches a1, c1..s1 (the king
    # stands on t1), b2..b20, a2 and c2..t19: 56 squares; the king s1, s2, t2
    rows = ["k19"] + ["20"] * 18 + ["1Q17K"]
    start = "/".join(rows) + " w - - 0 1"
    chimera.load_variant_config(
        "[big20py:chess]\nmaxFile = 20\nmaxRank = 20\nstartFen = %s\n"
        "castling = false\ndoubleStep = false\n" % start
    )
    assert chimera.start_fen("big20py") == start
    legal = chimera.legal_moves("big20py", start, [])
    assert len(legal) == 56 + 3
    assert "b1b20" in legal and "b1t19" in legal and "t1t2" in legal
    # the engine's evaluation covers all 400 squares
    result = chimera.best_move("big20py", start, [], movetime_ms=2000, depth=2)
    assert result["best"] in legal
    after = chimera.legal_moves("big20py", start, [result["best"]])
    assert len(after) > 0
