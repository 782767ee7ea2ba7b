#!/usr/bin/env python3
"""Legal moves of a position of one of HaChu's variants, taken from HaChu.

Usage:
    hachu_oracle.py [--variant lion|chu|wa-shogi|werewolf|cashew-shogi|macadamia-shogi|tenjiku]
                    [--king-safety | --pseudo] [--json]
                    [--moves "M1 M2 ..."] [--timeout SECONDS] FEN
    hachu_oracle.py --check FILE.jsonl [--king-safety]

HaChu 0.21 (Debian package `hachu`, binary /usr/games/hachu; another binary
can be named with the environment variable HACHU_BIN) is driven over the
XBoard protocol. `lion` is HaChu's Mighty Lion Chess, `chu` its Chu Shogi,
`wa-shogi` its Wa Shogi (no drops; promotion as in its Chu Shogi).
`werewolf` is HaChu's Werewolf Chess (see "Werewolf Chess" below).
`cashew-shogi` and `macadamia-shogi` are read too (with HaChu's dressed piece
ids, `L'`, `L!`, `+L!`, in the FEN), to look at HaChu's lists; Chimera has
neither yet. The Lion Dog's three-leg moves
(codes 1464-1495, see three_leg()) are decoded into Chimera's notation
(`g7g8,g8g9,g9g10`); scripts/hachu_liondog.py uses that.
HaChu 0.21-29-gdf26f4a cannot play `sho` (nor `9x9+0_shogi`) at all: its
`variant sho` sets up the Sho start position through Chu Shogi's id table, in
which `N` is the Lion (`LN`), a piece Sho's table lacks, so the process ends
with "Unknown piece 'LN' in setup"; `setboard` would need the variant set
first, so no command sequence gets past it.
Prints the moves one per line, sorted as strings (or, with --json, one JSON
object with the moves, the moves HaChu refused by its Lion rules, warnings
and notes). Exit status 2 when HaChu fails (crash, time-out, a list that
does not fit the position).

--check FILE.jsonl: asks about the "fen" of every line of a file in the
format of scripts/hachu_cases.py (variant "mightylion" or "chu") and
compares with its "moves"; prints the lines that differ and a count, exit
status 1 when any differs.

From Python (scripts/soak.py, scripts/hachu_cases.py):

    import hachu_oracle
    answer = hachu_oracle.legal_moves(fen, "lion")
    answer.texts()      # ['a2a3', 'b1b1', 'd4e5,e5f6', ...]
    answer.moves        # Move objects (kind, origin, target, via, promotion)
    answer.warnings     # non-empty: HaChu may be wrong here (see below)

How the list is obtained
------------------------
HaChu keeps the moves of the root position in its move stack (ListMoves(),
a one-ply search; for `lion` also GenCastlings()). When `usermove` names a
move that is not in that list, ParseMove() prints the whole list as debug
lines `# <i>. <move word in hex> <parsed word> <text>` after a line
`# moveNr = <i> in {<start>,<end>}`, followed by the moves its Lion rules or
repetition check refused. We send the impossible move `a0a0` and decode the
hex words (the text column mislabels castling).
Word layout: origin in bits 11-21, target in bits 0-10 (square = rank *
stride + file, stride = twice the board width), bit 23 promotion, bit 22 a
deferral flag. Targets from 1400 on are two-leg moves (1400 + 8 * first
step + second step, steps numbered clockwise from "forward"; a Pawn's e.p.
capture is coded the same way), 1464-1495 a Lion Dog's three-leg moves along
one line (1464 + 8 * kind + step, see three_leg()), from 1500 on castlings.

HaChu behaviours this script works around (HaChu 0.21-29-gdf26f4a):
  * ListMoves() only runs when a hash table exists, so `memory` must be sent
    (at the top of its command loop HaChu lists the moves of the current
    position whenever its list is empty). It is sent after `setboard`, so
    that the first list is that of the position set up.
  * `setboard` accepts the board field only: any further field ends the
    process with "Unknown piece". HaChu then has White to move, so a
    position with Black to move is given to it mirrored (ranks reversed,
    colours swapped; the pieces of both variants are left-right symmetric)
    and its moves are mirrored back.
  * An e.p. right cannot be set up: the position before the double step is
    set up instead and the step is played with `usermove`.
  * GenCastlings() assigns the value 280 to whatever stands on the e-file
    home square of the side to move (`=` for `==`). With that square empty
    this switches off the rule against a distant Lion capturing a protected
    Lion in every later list of the process; a Lion standing there stops
    being a Lion. So every query uses new processes. When the position
    before an e.p. step does not have the King on that square, only the
    e.p. captures are taken from that replay and all other moves from a
    second process given the board alone (see Answer.notes). After a
    longer replay (--moves), a distant Lion-captures-Lion move is kept only
    if HaChu also lists it for the final board alone, and a Lion on that
    square is reported as a warning.
  * HaChu ignores castling rights, check and attacked transit squares, and
    lists a castling whenever a piece of Rook value stands in the corner
    with empty squares up to the e-file; the pieces and rights (from the
    FEN) and the squares are checked here.
  * HaChu plays until the King is captured: its list is pseudo-legal.
    King safety (always for `lion`, with --king-safety for `chu`) is tested
    with HaChu's own attack maps: for each move the board after it is set up
    in a separate HaChu process that never gets `memory` (so it does no
    search), and the debug command `w` or `b` prints the attack map of the
    opponent; a move is refused when the own royal piece stands on an
    attacked square. The maps give values for occupied squares, which is
    all this needs. They are added up, not cleared, by those commands
    (see AttackMaps). Chu Shogi positions with two royal pieces (King and
    Crown Prince) or none are not filtered.
  * Promotion: HaChu's Mighty Lion Chess promotes to a Queen only; the
    moves to a Rook, Bishop and Knight are added (Move.source
    "underpromotion"). In Chu Shogi HaChu leaves out a non-promoting twin
    it considers pointless although its ParseMove() accepts it as a
    deferral; such twins are added ("deferral"), except for a Pawn or Lance
    reaching the last rank, where ParseMove() turns them into promotions.
    HaChu's option "Promote on entry" is on by default: a Chu Shogi piece
    can promote only on a move that enters the zone.
  * `new` and `variant chu` are never sent: both set up a start position
    whose Kirin index is not reset by later set-ups (the engine starts in
    Chu Shogi anyway).
  * A list whose moves start on squares without a piece of the side to move
    does not belong to the position (to be expected when a replayed move
    left a King capturable): reported as an error.

Werewolf Chess (`werewolf`): HaChu 0.21 leaves moves out of its list when
the opponent has a Werewolf: a Rook on a1 can have none of its moves listed
(`7r/8/4k3/5w2/8/7P/1B6/R3K2R`, where its Mighty Lion Chess lists all 29
with a Queen on f5), or one move is an empty slot. Which moves are left out
depends on the squares, so each board is also given to HaChu mirrored left
to right (Werewolf Chess is symmetric that way, as HaChu plays it without
castling) and the union of the two lists is taken; the moves found in the
mirror image only have Move.source "mirror image". Even so, HaChu's own root
search leaves out some legal moves when the opponent has a Werewolf (its
list for `2k5/8/6N1/8/2r5/4K3/8/2W5`, Black to move, has no King move, in
either frame, and `usermove c8b8` is refused, though no White piece attacks
b7, b8, c7, d7 or d8); the test that reads such a file lists those positions
with the moves it accepts beyond HaChu's.

HaChu castles in neither direction there (its start position has no castling
field), so castling rights are ignored, as in Chu Shogi. E.p. rights are set
up by a replay, as for `lion`, and HaChu's e.p. capture (a Pawn's two-leg
move) is written `e5d6`. HaChu flags with its promotion bit every capture of
a Werewolf by a piece other than a King or a Werewolf; that is the contagion
(the capturer turns into a Werewolf), no promotion, and the flag is dropped
(Move.source "contagion"), so such a move is written `c3d5`. HaChu also
flags some Werewolf moves (all of them that end on the last rank, and a twin
of some of its two-leg moves); no piece but the Pawn promotes in Werewolf
Chess, so these flags are dropped too, and a twin that is then the same move
is left out. (HaChu itself gets the result wrong: after `c3d5` with the bit,
its piece on d5 moves as a Rook, and a Pawn taking a Werewolf on the last
rank leaves a piece without moves; play() here gives the Werewolf.) A Pawn
promotes to a Rook only in HaChu's list; the moves to a Bishop and a Knight
are added ("underpromotion").

Tenjiku Shogi (`tenjiku`): Debian's binary crashes on every Tenjiku position
with a Lion; scripts/build-hachu.sh builds HaChu from Debian's source with
the two faults fixed, and HACHU_BIN names it. The FEN is in HaChu's Tenjiku
ids (VARIANTS). HaChu's lists are pseudo-legal (use --pseudo) and show a Fire
Demon's move as a plain move; play() burns the enemy pieces next to the
destination of a move of a Fire Demon (D!) or promoted Water Buffalo (+W!),
as HaChu's MakeMove() does (the piece that moved decides). tenjiku_moves()
drops HaChu's promotion flag from a two-leg move that neither starts nor
ends in the zone (HaChu reads its zone table past its end for such moves)
and adds the promoting twin where only the destination is in the zone; an
empty list (HaChu lists nothing when the side to move can take the last
enemy royal) and a list of captures only (HaChu's root search stopped in
its capture stage) are warnings. HaChu's passive burning (FireSet) counts
the mover's own Fire Demons and is not followed.

Notation (HaChu's, which is Chimera's and Fairy-Stockfish's): `e2e4`,
castling `e1g1`, e.p. `e5d6`, promotion `a7a8q` (Chu Shogi `a9a10+`), a
two-leg Lion move `d4e5,e5f6` (first leg a capture: double capture,
capture and step on, or `d4e5,e5d4` capture and return), a Lion pass
`d4d4` (HaChu's `@@@@`). A Lion move whose first leg captures nothing is a
single leap `d4f6`. Without --moves HaChu knows no previous move (so the
counter-strike rule cannot apply) and no repetition history. With --moves
the moves are played from the FEN with `usermove` (HaChu refuses an illegal
one: an error); an underpromotion cannot be replayed (HaChu would make a
Queen) and is refused.
"""
import argparse
import json
import os
import re
import select
import subprocess
import sys
import time

HACHU_BIN = os.environ.get("HACHU_BIN", "/usr/games/hachu")


class OracleError(Exception):
    """HaChu failed or answered something this script cannot read."""


class Variant:
    def __init__(self, name, size, promo, royals, pieces, dead=(), dead2=()):
        self.name = name
        self.size = size          # files = ranks
        self.stride = 2 * size    # HaChu's board width
        self.promo = promo        # HaChu's promotion suffix
        self.royals = royals      # tokens of royal pieces (White's spelling)
        self.pieces = pieces      # piece letters HaChu knows (upper case)
        self.dead = dead          # shogis: pieces that must promote on the last rank
        self.dead2 = dead2        # ... and on the last two ranks (HaChu's Knight)


VARIANTS = {
    "lion": Variant("lion", 8, "q", ("K",), "PNBRQKL"),
    "chu": Variant("chu", 12, "+", ("K", "+E"), "ABCDEFGHIKLMNOPQRSTVX", ("P", "L")),
    # HaChu's Wa Shogi letters: Sparrow Pawn P, Oxcart O, Liberated Horse H,
    # Strutting Crow U, Swooping Owl L, Climbing Monkey M, Flying Goose G,
    # Flying Cock C, Blind Dog D, Violent Stag V, Violent Wolf W, Swallow's
    # Wings S, Running Rabbit R, Flying Falcon F, Treacherous Fox X, Cloud
    # Eagle E, Crane King K
    "wa-shogi": Variant("wa-shogi", 11, "+", ("K",), "CDEFGHKLMOPRSUVWX", ("P", "O")),
    # Dai Shogi (15x15): Chu Shogi's pieces and ids, and its own: Knight N,
    # Stone General U, Iron General I, Evil Wolf W, with dressed ids the Lion
    # L!, Go-Between P', Cat Sword C', Violent Ox X', Angry Boar A', Flying
    # Dragon F' (HaChu's id table for Dai). The pieces with forward moves
    # only must promote on the last rank, the Knight on the last two.
    "dai": Variant("dai", 15, "+", ("K", "+E"), (
        "A", "A'", "B", "C", "C'", "D", "E", "F", "F'", "G", "H", "I", "K", "L", "L!", "M", "N",
        "O", "P", "P'", "Q", "R", "S", "T", "U", "V", "W", "X", "X'"), ("P", "L", "N", "I", "U"), ("N",)),
    # Werewolf Chess: a Werewolf W (K3cpafK) and no Queen; a capture of a
    # Werewolf by a piece other than the King carries HaChu's promotion bit
    # (the capturer becomes a Werewolf), which no Chimera rule expresses yet
    "werewolf": Variant("werewolf", 8, "r", ("K",), "PNBRKW"),
    # HaChu's 13x13 variants name pieces with dressed letters (L, L', L!;
    # promoted +L!): the ids of its start positions. Their Lion Dogs (and
    # Macadamia's Teaching King) make three-leg moves with two victims
    # (three_leg()).
    "cashew-shogi": Variant("cashew-shogi", 13, "+", ("K",), (
        "C'", "D", "D!", "D'", "E'", "F", "F'", "G", "G!", "H", "H!", "H'", "I'", "J'", "K", "K'",
        "L", "L!", "L'", "N", "O", "P", "P'", "Q", "R'", "S", "T!", "T'", "V", "W!", "W'", "X")),
    # Tenjiku Shogi (16x16): HaChu's Tenjiku id table (tenIDs): Chu Shogi's
    # ids (N the Knight, as in Dai), dressed ids for the rest: D' Dog, Q'
    # Free Eagle, S' Side Soldier, V' Vertical Soldier, B! Bishop General,
    # C! Chariot Soldier, D! Fire Demon, E! Soaring Eagle, F! Horned Falcon,
    # H! Lion Hawk, L! Lion, Q! Great General, R! Rook General, V! Vice
    # General, W! Water Buffalo. Only a local build with two memory faults
    # fixed can list its moves (scripts/build-hachu.sh; HACHU_BIN).
    "tenjiku": Variant("tenjiku", 16, "+", ("K", "+E"), (
        "A", "B", "B!", "C", "C!", "D", "D!", "D'", "E", "E!", "F", "F!", "G", "H", "H!", "I", "K",
        "L", "L!", "M", "N", "O", "P", "Q", "Q!", "Q'", "R", "R!", "S", "S'", "T", "V", "V!", "V'",
        "W!", "X"), ("P", "L", "I", "N"), ("N",)),
    "macadamia-shogi": Variant("macadamia-shogi", 13, "+", ("K",), (
        "B", "C", "C!", "D", "E", "F'", "G", "G'", "H!", "I'", "J'", "K", "L", "L!", "L'", "O",
        "P", "P'", "Q", "R", "R'", "S", "T", "W!", "W'", "X")),
}

# HaChu's step directions in the order of its tables (clockwise from forward),
# as (file step, rank step)
STEPS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
TWO_LEG, CASTLING = 1400, 1500
PROMOTE_BIT = 1 << 23


# --------------------------------------------------------------------- squares

def square_name(sq):
    return "%s%d" % (chr(ord("a") + sq[0]), sq[1] + 1)


def parse_square(text):
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def is_white(token):
    return token.rstrip("'!")[-1].isupper()


def letter(token):
    """'K', 'P', '+E': the piece without colour."""
    return token.upper()


# ----------------------------------------------------------------------- board

def read_board(field, size, pieces):
    """FEN board field -> {(file, rank): token}; tokens like 'K', 'p', '+R'."""
    rows = field.split("/")
    if len(rows) != size:
        raise ValueError("board has %d ranks, expected %d" % (len(rows), size))
    cells = {}
    for index, row in enumerate(rows):
        rank = size - 1 - index
        file = 0
        for count, promoted, ch, dress in re.findall(r"(\d+)|(\+?)([A-Za-z])(['!]?)", row):
            if count:
                file += int(count)
            elif ch:
                if (ch + dress).upper() not in pieces:
                    raise ValueError("piece %r unknown to HaChu here" % (ch + dress))
                if file >= size:
                    raise ValueError("rank %r is too long" % row)
                cells[(file, rank)] = promoted + ch + dress
                file += 1
        if file != size or re.sub(r"\d+|\+?[A-Za-z]['!]?", "", row):
            raise ValueError("bad rank %r" % row)
    return cells


def write_board(cells, size):
    rows = []
    for rank in range(size - 1, -1, -1):
        text, gap = "", 0
        for file in range(size):
            token = cells.get((file, rank))
            if token is None:
                gap += 1
                continue
            if gap:
                text += str(gap)
                gap = 0
            text += token
        rows.append(text + (str(gap) if gap else ""))
    return "/".join(rows)


def mirror_cells(cells, size):
    """Ranks reversed and colours swapped."""
    return {(f, size - 1 - r): t.swapcase() for (f, r), t in cells.items()}


# ----------------------------------------------------------------------- moves

class Move:
    """kind: 'plain', 'twoleg', 'pass', 'castle' or 'ep'; squares are (file, rank)."""

    __slots__ = ("kind", "origin", "target", "via", "promotion", "source", "via2")

    def __init__(self, kind, origin, target, via=None, promotion=None, source="hachu", via2=None):
        self.kind, self.origin, self.target = kind, origin, target
        self.via, self.promotion, self.source = via, promotion, source
        self.via2 = via2

    def text(self):
        if self.kind == "pass":
            return square_name(self.origin) * 2
        if self.kind == "twoleg":
            body = "%s%s,%s%s" % (square_name(self.origin), square_name(self.via),
                                  square_name(self.via), square_name(self.target))
        elif self.kind == "threeleg":
            legs = [self.origin, self.via, self.via2, self.target]
            body = ",".join(square_name(a) + square_name(b) for a, b in zip(legs, legs[1:]))
        else:
            body = square_name(self.origin) + square_name(self.target)
        return body + (self.promotion or "")

    def for_hachu(self):
        return "@@@@" if self.kind == "pass" else self.text()

    def identity(self):
        return (self.kind, self.origin, self.target, self.via, self.via2, self.promotion)

    def mirrored(self, size):
        flip = (lambda s: None if s is None else (s[0], size - 1 - s[1]))
        return Move(self.kind, flip(self.origin), flip(self.target), flip(self.via),
                    self.promotion, self.source, flip(self.via2))

    def file_mirrored(self, size):
        flip = (lambda s: None if s is None else (size - 1 - s[0], s[1]))
        return Move(self.kind, flip(self.origin), flip(self.target), flip(self.via),
                    self.promotion, self.source, flip(self.via2))

    def with_promotion(self, promotion, source):
        return Move(self.kind, self.origin, self.target, self.via, promotion, source, self.via2)

    def __repr__(self):
        return self.text()


def play(cells, move, variant):
    """The board after `move` (a new dict). Castling moves the Rook too."""
    after = dict(cells)
    if move.kind == "pass":
        return after
    piece = mover = after.pop(move.origin)
    if move.kind == "twoleg":
        after.pop(move.via, None)
    elif move.kind == "threeleg":
        after.pop(move.via, None)
        after.pop(move.via2, None)
    elif move.kind == "ep":
        after.pop((move.target[0], move.origin[1]), None)
    elif move.kind == "castle":
        rank = move.origin[1]
        corner, landing = ((7, 5) if move.target[0] == 6 else (0, 3))
        after[(landing, rank)] = after.pop((corner, rank))
    if move.promotion:
        if variant.name in ("lion", "werewolf"):
            piece = move.promotion.upper() if is_white(piece) else move.promotion
        else:
            piece = "+" + piece
    if variant.name == "macadamia-shogi" and letter(mover) not in ("K", "+E", "+I'", "+J'"):
        # contagion (HaChu's MakeMove): a piece other than the King, the
        # Crown Prince and the two contagious pieces that takes a Teaching
        # King (+I') or a Buddhist Spirit (+J') on its destination turns
        # into one, whether or not the move promotes (a Drunk Elephant that
        # promotes by taking one turns too)
        victim = cells.get(move.target)
        if victim and letter(victim) in ("+I'", "+J'"):
            piece = letter(victim) if is_white(piece) else letter(victim).lower()
    if variant.name == "werewolf" and letter(piece) not in ("K", "W"):
        # contagion: a piece that takes a Werewolf turns into one
        if any(letter(cells.get(sq) or "") == "W" for sq in (move.target, move.via) if sq):
            piece = "W" if is_white(piece) else "w"
    after[move.target] = piece
    if variant.name == "tenjiku" and letter(mover) in BURNERS:
        # active burning (HaChu's MakeMove): every enemy piece next to the
        # destination of a Fire Demon's move is removed; the piece that
        # moved decides (a Water Buffalo promoting to a Fire Demon does not
        # burn on that move). HaChu's passive burning counts the mover's
        # own Fire Demons (FireSet()) and is not followed here.
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                sq = (move.target[0] + df, move.target[1] + dr)
                if sq != move.target and sq in after and is_white(after[sq]) != is_white(mover):
                    del after[sq]
    return after


# Tenjiku Shogi's burning pieces: the Fire Demon and the promoted Water Buffalo
BURNERS = ("D!", "+W!")
TENJIKU_ZONE = 5  # ranks
# the unpromoted pieces with two-leg moves that promote: Lion, Soaring Eagle,
# Horned Falcon
TENJIKU_TWO_LEG_PROMOTERS = ("L!", "E!", "F!")


def three_leg(origin, code, cells, promotion):
    """A Lion Dog's move along one line (HaChu codes 1464-1495, `8 * kind +
    direction`): with s1, s2, s3 the squares 1, 2 and 3 steps out, kind 0
    takes s1 and goes to s3, 1 takes s2 and goes to s3, 2 takes s1 and s2
    and goes to s3, 3 takes s2 and comes back to s1 (found by playing each
    with `usermove` and reading which pieces were gone). HaChu lists some
    of these with an empty square as the one taken; that square is left
    out, and so is a victim on the destination (taken there), so that each
    move is written as Chimera writes it."""
    step = STEPS[code & 7]
    s = [(origin[0] + step[0] * i, origin[1] + step[1] * i) for i in (1, 2, 3)]
    taken, target = {0: ([s[0]], s[2]), 1: ([s[1]], s[2]), 2: ([s[0], s[1]], s[2]),
                      3: ([s[1]], s[0])}[code >> 3]
    victims = [v for v in taken if cells.get(v) is not None and v != target]
    if not victims:
        return Move("plain", origin, target, promotion=promotion)
    if len(victims) == 1:
        return Move("twoleg", origin, target, victims[0], promotion)
    return Move("threeleg", origin, target, victims[0], promotion, via2=victims[1])


def decode(word, cells, variant):
    """A move word of HaChu's list -> Move in the frame HaChu was given (None: empty slot)."""
    if word == 0:
        return None
    size, stride = variant.size, variant.stride
    origin_code, target_code = (word >> 11) & 0x7FF, word & 0x7FF
    at = (lambda code: (code % stride, code // stride))
    origin = at(origin_code)
    promotion = variant.promo if word & PROMOTE_BIT else None
    if origin_code == target_code:
        return Move("pass", origin, origin)
    if target_code >= CASTLING:
        code = target_code - CASTLING
        rank = 0 if code < 2 else size - 1
        return Move("castle", (4, rank), (6 if code % 2 == 0 else 2, rank))
    if target_code >= TWO_LEG:
        code = target_code - TWO_LEG
        if code >= 96:
            raise OracleError("move word %08x: an unknown multi-leg code %d" % (word, code))
        if code >= 64:
            return three_leg(origin, code - 64, cells, promotion)
        first, second = STEPS[code >> 3], STEPS[code & 7]
        via = (origin[0] + first[0], origin[1] + first[1])
        target = (via[0] + second[0], via[1] + second[1])
        piece = cells.get(origin)
        if variant.name in ("lion", "werewolf") and piece and letter(piece) == "P":
            return Move("ep", origin, target)
        return Move("twoleg", origin, target, via, promotion)
    return Move("plain", origin, at(target_code), promotion=promotion)


# ---------------------------------------------------------------------- engine

class Engine:
    """One HaChu process. Every read waits at most `timeout` seconds."""

    def __init__(self, variant, timeout=20.0):
        self.timeout = timeout
        self.pings = 0
        self.buffer = b""
        try:
            self.proc = subprocess.Popen([HACHU_BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT)
        except OSError as e:
            raise OracleError("cannot start %s: %s (apt-get install hachu)" % (HACHU_BIN, e))
        opening = ["xboard", "protover 2"]
        if variant.name != "chu":  # HaChu starts in Chu Shogi; see the module notes
            opening.append("variant " + variant.name)
        try:
            self.send(opening + ["force"])
        except OracleError:
            self.close()
            raise

    def _line(self, deadline):
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise OracleError("no answer from HaChu within %.0f s" % self.timeout)
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise OracleError("HaChu exited (status %s)" % self.proc.poll())
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("latin-1")

    def send(self, commands):
        """Send the commands and a ping; return HaChu's output lines up to the pong."""
        self.pings += 1
        text = "".join(c + "\n" for c in commands) + "ping %d\n" % self.pings
        try:
            self.proc.stdin.write(text.encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise OracleError("HaChu exited (status %s)" % self.proc.poll())
        deadline = time.monotonic() + self.timeout
        lines = []
        while True:
            line = self._line(deadline)
            if line.startswith("tellusererror"):
                raise OracleError("HaChu: " + line[len("tellusererror"):].strip())
            if line.strip() == "pong %d" % self.pings:
                return lines
            lines.append(line)

    def close(self):
        try:
            self.proc.stdin.write(b"quit\n")
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def by_command(lines):
    """Split HaChu's output at its echo lines '# in (mode = a,b): CMD' -> [(CMD, lines)]."""
    parts = [("", [])]
    for line in lines:
        m = re.match(r"# in \(mode = -?\d+,-?\d+\): (\S*)", line)
        if m:
            parts.append((m.group(1), []))
        else:
            parts[-1][1].append(line)
    return parts


REFUSAL_BITS = ((1 << 25, "distant capture of a protected Lion"), (1 << 24, "counter-strike against a Lion"))


def read_list(lines, cells, variant):
    """The dump that `usermove a0a0` produced -> (moves, refused) in HaChu's frame."""
    dumps = [body for cmd, body in by_command(lines) if cmd == "usermove"]
    if not dumps:
        raise OracleError("HaChu did not echo the usermove command")
    count, words, refused = None, [], []
    for line in dumps[-1]:
        m = re.match(r"# moveNr = -?\d+ in \{(-?\d+),(-?\d+)\}", line)
        if m:
            count = int(m.group(2)) - int(m.group(1))
            continue
        m = re.match(r"# -?\d+\. ([0-9a-f]{8}) [0-9a-f]{8} ", line + " ")
        if m and count is not None:
            word = int(m.group(1), 16)
            if len(words) < count:
                words.append(word)
            else:  # after the list: the moves HaChu refused at the root
                why = next((w for bit, w in REFUSAL_BITS if word & bit), "repetition")
                move = decode(word & 0xFFFFFF, cells, variant)
                if move:
                    refused.append((move, why))
    if count is None:
        raise OracleError("HaChu printed no move list (was 'memory' refused?)")
    if not any(line.startswith("Illegal move") for line in dumps[-1]):
        raise OracleError("HaChu accepted the probe move a0a0")
    moves, seen = [], set()
    for word in words:
        move = decode(word, cells, variant)
        if move and move.identity() not in seen:
            seen.add(move.identity())
            moves.append(move)
    return moves, refused


def hachu_list(cells, white_to_move, prelude, variant, timeout):
    """HaChu's move list for `cells` after `prelude` (see one_list); for
    Werewolf Chess the union of the lists for the board and for its mirror
    image left to right (see the module notes)."""
    moves, refused = one_list(cells, white_to_move, prelude, variant, timeout)
    if variant.name != "werewolf":
        return moves, refused
    size = variant.size
    other, _ = one_list(mirror_files(cells, size), white_to_move, [m.file_mirrored(size) for m in prelude],
                        variant, timeout)
    have = {m.identity() for m in moves}
    for m in other:
        m = m.file_mirrored(size)
        if m.identity() not in have:
            have.add(m.identity())
            moves.append(m.with_promotion(m.promotion, "mirror image"))
    return moves, refused


def mirror_files(cells, size):
    """The board mirrored left to right (files reversed)."""
    return {(size - 1 - f, r): t for (f, r), t in cells.items()}


def one_list(cells, white_to_move, prelude, variant, timeout):
    """HaChu's move list for `cells` (real frame) after the moves `prelude`
    (real frame), with `white_to_move` before the prelude -> moves, refused in
    the real frame."""
    flip = not white_to_move
    frame = mirror_cells(cells, variant.size) if flip else cells
    steps = [m.mirrored(variant.size) if flip else m for m in prelude]
    final = frame
    for m in steps:
        final = play(final, m, variant)
    with Engine(variant, timeout) as engine:
        out = engine.send(["setboard " + write_board(frame, variant.size), "memory 4"]
                          + ["usermove " + m.for_hachu() for m in steps] + ["usermove a0a0"])
    replies = [body for cmd, body in by_command(out) if cmd == "usermove"][:-1]
    for body in replies:
        if any(line.startswith("Illegal move") for line in body):
            raise OracleError("HaChu refused the replayed move(s) %s" % " ".join(m.text() for m in prelude))
    moves, refused = read_list(out, final, variant)
    if flip:
        moves = [m.mirrored(variant.size) for m in moves]
        refused = [(m.mirrored(variant.size), why) for m, why in refused]
    return moves, refused


class AttackMaps:
    """HaChu processes that set up boards and print attack maps, no search.

    The debug commands `w` and `b` add the map of one colour to HaChu's map
    array without clearing it first, so each board's map is printed twice and
    the first print is subtracted from the second. The printed sums must stay
    within the ten octal digits of a column (one map has at most nine; a
    digit counts the attackers from one direction), so a process serves at
    most BOARDS_PER_PROCESS boards."""

    BOARDS_PER_PROCESS = 3

    def __init__(self, variant, timeout):
        self.variant, self.timeout = variant, timeout
        self.engine, self.boards = None, 0
        self.cache = {}

    def _maps(self, batch):
        size = self.variant.size
        if self.engine is None or self.boards + len(batch) > self.BOARDS_PER_PROCESS:
            self.close()
            self.engine, self.boards = Engine(self.variant, self.timeout), 0
        self.boards += len(batch)
        commands = []
        for board, by_white in batch:
            colour = "w" if by_white else "b"
            commands += ["setboard " + board, colour, colour]
        prints = [body for cmd, body in by_command(self.engine.send(commands)) if cmd in ("w", "b")]
        if len(prints) != 2 * len(batch):
            raise OracleError("HaChu printed %d attack maps for %d boards" % (len(prints), len(batch)))
        grids = []
        for body in prints:
            rows = [l for l in body if re.fullmatch(r"#[ 0-7]+", l)]
            if len(rows) != size or any(len(l) != 1 + 10 * size or not all(
                    re.fullmatch(r" *[0-7]+", l[i:i + 10]) for i in range(1, len(l), 10)) for l in rows):
                raise OracleError("cannot read HaChu's attack map")
            grid = {}
            for index, row in enumerate(rows):
                for file in range(size):
                    grid[(file, size - 1 - index)] = int(row[1 + 10 * file: 11 + 10 * file], 8)
            grids.append(grid)
        return [{sq: second[sq] - first[sq] for sq in first}
                for first, second in zip(grids[0::2], grids[1::2])]

    def attacked(self, jobs):
        """jobs: [(cells, square, by_white)] -> [bool]: does that side attack the
        (occupied) square?"""
        size = self.variant.size
        keys = [(write_board(cells, size), by_white) for cells, _, by_white in jobs]
        todo = list(dict.fromkeys(k for k in keys if k not in self.cache))
        step = self.BOARDS_PER_PROCESS
        for start in range(0, len(todo), step):
            batch = todo[start:start + step]
            for key, grid in zip(batch, self._maps(batch)):
                if any(value < 0 for value in grid.values()):
                    raise OracleError("inconsistent HaChu attack maps")
                self.cache[key] = grid
        return [self.cache[key][square] != 0 for key, (_, square, _) in zip(keys, jobs)]

    def close(self):
        if self.engine is not None:
            self.engine.close()
            self.engine = None


# ---------------------------------------------------------------------- oracle

class Answer:
    def __init__(self, variant, fen, side):
        self.variant, self.fen, self.side = variant, fen, side
        self.moves, self.refused, self.warnings, self.notes = [], [], [], []
        self.history, self.in_check = [], False

    def texts(self):
        return [m.text() for m in self.moves]

    def as_json(self):
        return {"variant": self.variant, "fen": self.fen, "history": self.history, "side_to_move": self.side,
                "in_check": self.in_check, "moves": self.texts(),
                "added": {m.text(): m.source for m in self.moves if m.source != "hachu"},
                "refused_by_hachu": [[m.text(), why] for m, why in self.refused],
                "warnings": self.warnings, "notes": self.notes}


def home_piece(cells, white, v):
    """What stands on the e-file home square of that side (GenCastlings' square)."""
    return cells.get((4, 0 if white else v.size - 1))


def home_king(cells, white, v):
    return home_piece(cells, white, v) == ("K" if white else "k")


def parse_move(text, cells, white, v):
    """A move text (notation of the module docstring) -> Move, checked against
    the board only as far as its kind needs."""
    m = re.fullmatch(r"([a-z])(\d+)([a-z])(\d+)(?:,([a-z])(\d+)([a-z])(\d+))?([qrbn+]?)", text)
    if not m:
        raise ValueError("move %r: not in the notation of this script (a pass is FROMFROM)" % text)
    origin = (ord(m.group(1)) - 97, int(m.group(2)) - 1)
    target = (ord(m.group(3)) - 97, int(m.group(4)) - 1)
    promotion = m.group(9) or None
    piece = cells.get(origin)
    if piece is None or is_white(piece) != white:
        raise ValueError("move %s: no piece of the side to move on %s" % (text, square_name(origin)))
    if m.group(5):
        if (ord(m.group(5)) - 97, int(m.group(6)) - 1) != target:
            raise ValueError("move %s: the second leg must start where the first ended" % text)
        return Move("twoleg", origin, (ord(m.group(7)) - 97, int(m.group(8)) - 1), target, promotion)
    if origin == target:
        return Move("pass", origin, origin)
    if v.name == "lion" and letter(piece) == "K" and origin[0] == 4 and target[1] == origin[1] \
            and abs(target[0] - origin[0]) == 2:
        return Move("castle", origin, target)
    if v.name in ("lion", "werewolf") and letter(piece) == "P" and target[0] != origin[0] \
            and target not in cells:
        return Move("ep", origin, target)
    return Move("plain", origin, target, promotion=promotion)


CORNERS = {(7, 0): "K", (0, 0): "Q", (7, 7): "k", (0, 7): "q"}


def update_rights(rights, cells, move):
    """Remove the castling rights that `move` (on the board `cells`, before it) ends."""
    for sq in (move.origin, move.target, move.via):
        rights.discard(CORNERS.get(sq))
    piece = cells[move.origin]
    if letter(piece) == "K":
        rights -= {"K", "Q"} if is_white(piece) else {"k", "q"}


def legal_moves(fen, variant="lion", king_safety=None, timeout=20.0, history=()):
    """The legal moves by HaChu's rules of `fen`, or of the position after
    the moves `history` (texts) played from it -> Answer (moves sorted by text).

    king_safety: None = on for lion, off for chu. Raises OracleError when HaChu
    fails, ValueError for a FEN or history it cannot be given."""
    v = VARIANTS[variant]
    if king_safety is None:
        king_safety = variant == "lion"
    fields = fen.split()
    cells = read_board(fields[0], v.size, v.pieces)
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "b"):
        raise ValueError("side to move %r" % side)
    white = side == "w"
    rights = set(fields[2]) - {"-"} if len(fields) > 2 and variant == "lion" else set()
    ep = fields[3] if len(fields) > 3 and fields[3] != "-" and variant in ("lion", "werewolf") else None
    answer = Answer(variant, fen, side)
    answer.history = list(history)

    # an e.p. right: set up the position before the double step, then play it
    prelude, start, start_white = [], cells, white
    if ep:
        file, rank = parse_square(ep)
        step = -1 if white else 1            # from the e.p. square towards the pushed Pawn
        now, origin = (file, rank + step), (file, rank - step)
        pawn = "p" if white else "P"
        if cells.get(now) == pawn and origin not in cells and (file, rank) not in cells:
            start = dict(cells)
            start[origin] = start.pop(now)
            start_white = not white
            prelude = [Move("plain", origin, now)]
        else:
            answer.warnings.append("e.p. square %s does not fit the board; ignored" % ep)

    # the history, checked and played here too, to know the final board
    positions = [(start, start_white)] + ([(cells, white)] if prelude else [])
    for text in history:
        move = parse_move(text, cells, white, v)
        if variant == "lion" and move.promotion in ("r", "b", "n"):
            raise ValueError("%s: HaChu promotes to a Queen only, so it cannot replay this" % text)
        update_rights(rights, cells, move)
        cells, white = play(cells, move, v), not white
        prelude.append(move)
        positions.append((cells, white))
    answer.side = "w" if white else "b"

    if not prelude:
        moves, refused = hachu_list(cells, white, [], v, timeout)
    elif not history:
        moves, refused = hachu_list(start, start_white, prelude, v, timeout)
        if not home_king(start, start_white, v):
            # see the module notes (GenCastlings): keep only the e.p. captures
            # from the replay, take the other moves from the board alone
            others, refused = hachu_list(cells, white, [], v, timeout)
            moves = [m for m in moves if m.kind == "ep"] + others
            answer.notes.append("e.p. captures from a replay of %s, the other moves from the board alone"
                                % prelude[0].text())
    else:
        moves, refused = hachu_list(start, start_white, prelude, v, timeout)
        listed = positions[:-1]  # HaChu made a list (and ran GenCastlings) in each
        if variant == "lion" and any(home_piece(b, w, v) == ("L" if w else "l") for b, w in listed):
            answer.warnings.append("a Lion stood on the e-file home square of the side to move during the "
                                   "replay: HaChu stopped treating it as a Lion")
        if variant == "lion" and any(home_piece(b, w, v) is None for b, w in listed):
            # the rule against a distant Lion capturing a protected Lion was off
            # in the replay: ask about the final board alone
            alone, _ = hachu_list(cells, white, [], v, timeout)
            allowed = {m.identity() for m in alone}
            kept = []
            for m in moves:
                if (m.kind == "plain" and letter(cells.get(m.origin, "")) == "L"
                        and letter(cells.get(m.target, "")) == "L" and m.identity() not in allowed
                        and max(abs(m.target[0] - m.origin[0]), abs(m.target[1] - m.origin[1])) > 1):
                    answer.notes.append("%s dropped: a distant capture of a protected Lion" % m.text())
                    continue
                kept.append(m)
            moves = kept
    answer.refused = refused

    for m in moves:
        piece = cells.get(m.origin)
        if m.kind not in ("pass", "castle") and (piece is None or is_white(piece) != white):
            raise OracleError("HaChu's list does not fit the position (%s has no piece of the side "
                              "to move): stale list?" % m.text())

    # castling: rights, pieces
    kept = []
    for m in moves:
        if m.kind == "castle":
            rank = m.origin[1]
            corner = (7 if m.target[0] == 6 else 0, rank)
            right = ("K" if m.target[0] == 6 else "Q")
            right = right if white else right.lower()
            own_king, own_rook = ("K", "R") if white else ("k", "r")
            if (rank != (0 if white else v.size - 1) or cells.get(m.origin) != own_king
                    or cells.get(corner) != own_rook or right not in rights):
                continue
        kept.append(m)
    moves = kept

    # Chu Shogi: the non-promoting twins that HaChu accepts as deferrals
    if v.promo == "+":
        have = {m.identity() for m in moves}
        last_rank = v.size - 1 if white else 0
        for m in list(moves):
            if not m.promotion:
                continue
            twin = m.with_promotion(None, "deferral")
            if twin.identity() in have:
                continue
            if letter(cells[m.origin]) in v.dead and m.target[1] == last_rank:
                continue
            if letter(cells[m.origin]) in v.dead2 and abs(m.target[1] - last_rank) < 2:
                continue
            moves.append(twin)
            have.add(twin.identity())

    if variant == "tenjiku":
        moves = tenjiku_moves(cells, moves, white, v, answer)

    if king_safety:
        own = [sq for sq, t in cells.items() if is_white(t) == white and letter(t) in v.royals]
        if len(own) == 1:
            moves = safe_moves(cells, moves, own[0], white, v, timeout, answer)
        else:
            answer.notes.append("%d royal pieces: no king-safety filter" % len(own))

    if variant == "lion":
        moves += [m.with_promotion(c, "underpromotion") for m in moves if m.promotion == "q" for c in "rbn"]
    if variant == "werewolf":
        moves = werewolf_moves(cells, moves)
    answer.moves = sorted(moves, key=lambda m: m.text())
    return answer


def tenjiku_moves(cells, moves, white, v, answer):
    """HaChu's Tenjiku lists, read as the rules it implements (see the
    module notes): a two-leg move promotes when it starts or ends in the
    zone (HaChu decides from the origin and from a read past the end of its
    zone table at the coded two-leg target, so its flag is dropped where
    neither square is in the zone and the promoting twin is added where only
    the target is); an empty list is a warning (HaChu lists nothing when the
    side to move can take the last enemy royal), and so is a list of
    captures only (HaChu's root search stopped in its capture stage)."""
    if not moves:
        answer.warnings.append("HaChu lists no move (the last enemy royal can be taken?)")
        return moves
    if all(m.kind == "twoleg" or m.target in cells for m in moves):
        # HaChu's list is the move stack its one-ply root search left, and
        # that search can stop in its capture stage (seen where a jumping
        # general can take a Fire Demon): no non-capture is listed at all
        answer.warnings.append("HaChu lists captures only: its root search stopped early")
        return moves
    def in_zone(sq):
        return sq[1] >= v.size - TENJIKU_ZONE if white else sq[1] < TENJIKU_ZONE
    out, seen = [], set()
    for m in moves:
        if m.kind == "twoleg" and m.promotion and not (in_zone(m.origin) or in_zone(m.target)):
            m = m.with_promotion(None, "two-leg promotion flag dropped")
        if m.identity() not in seen:
            seen.add(m.identity())
            out.append(m)
    for m in list(out):
        if m.kind == "twoleg" and not m.promotion and in_zone(m.target) and not in_zone(m.origin):
            twin = m.with_promotion(v.promo, "two-leg promotion added")
            if twin.identity() not in seen and letter(cells[m.origin]) in TENJIKU_TWO_LEG_PROMOTERS:
                seen.add(twin.identity())
                out.append(twin)
    return out


def werewolf_moves(cells, moves):
    """HaChu's Werewolf Chess flags (see the module notes): the promotion bit
    on a move of a piece other than a Pawn, or of a Pawn that takes a
    Werewolf, is dropped (a flagged twin of an unflagged move is dropped with
    it); a Pawn's promotion to a Rook gets its twins to a Bishop and a
    Knight."""
    out, seen = [], set()
    for m in moves:
        mover = letter(cells[m.origin])
        takes_wolf = any(letter(cells.get(sq) or "") == "W" for sq in (m.target, m.via) if sq)
        if m.promotion and (mover != "P" or takes_wolf):
            m = m.with_promotion(None, "contagion" if takes_wolf and mover not in ("K", "W") else "no promotion")
        if m.promotion and m.promotion != "r":
            raise OracleError("%s: a promotion HaChu's Werewolf Chess should not give" % m.text())
        if m.identity() in seen:
            continue
        seen.add(m.identity())
        out.append(m)
        if m.promotion:
            out += [m.with_promotion(c, "underpromotion") for c in "bn"]
    return out


def safe_moves(cells, moves, royal, white, v, timeout, answer):
    """The moves after which the opponent does not attack the royal piece;
    castling also needs the King not in check and its transit square safe."""
    maps = AttackMaps(v, timeout)
    try:
        answer.in_check = maps.attacked([(cells, royal, not white)])[0]
        jobs, owners = [], []
        for i, m in enumerate(moves):
            if m.kind == "castle":
                if answer.in_check:
                    continue
                transit = (5 if m.target[0] == 6 else 3, m.origin[1])
                jobs.append((play(cells, Move("plain", m.origin, transit), v), transit, not white))
                owners.append(i)
            where = m.target if m.origin == royal and m.kind != "pass" else royal
            jobs.append((play(cells, m, v), where, not white))
            owners.append(i)
        unsafe = {i for i, hit in zip(owners, maps.attacked(jobs)) if hit}
    finally:
        maps.close()
    return [m for i, m in enumerate(moves) if i not in unsafe
            and not (m.kind == "castle" and answer.in_check)]


def check_file(path, king_safety, timeout):
    """Compare the move lists of a JSON-lines file with fresh answers."""
    names = {"mightylion": "lion", "chu": "chu", "wa-shogi": "wa-shogi", "dai": "dai", "werewolf": "werewolf",
             "tenjiku": "tenjiku"}
    same = total = 0
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            record = json.loads(line)
            total += 1
            try:
                answer = legal_moves(record["fen"], names[record["variant"]], king_safety, timeout)
                got, trouble = answer.texts(), answer.warnings
            except (OracleError, ValueError) as e:
                got, trouble = None, [str(e)]
            if got == record["moves"] and not trouble:
                same += 1
                continue
            got = got or []
            print("line %d: %s: missing %s, extra %s%s" % (
                number, record["fen"], sorted(set(record["moves"]) - set(got)),
                sorted(set(got) - set(record["moves"])), "; " + "; ".join(trouble) if trouble else ""))
    print("%d/%d identical" % (same, total))
    return 0 if same == total else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="See the module docstring for the details.")
    ap.add_argument("fen", nargs="?")
    ap.add_argument("--check", metavar="FILE", help="compare the move lists of a JSON-lines file")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="lion")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--king-safety", action="store_true",
                       help="drop moves that leave the own royal piece attacked (default for lion)")
    group.add_argument("--pseudo", action="store_true", help="no king-safety filter, also for lion")
    ap.add_argument("--moves", default="", help="moves played from FEN first (space separated)")
    ap.add_argument("--json", action="store_true", help="one JSON object with details")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per HaChu answer (default 20)")
    args = ap.parse_args(argv)
    safety = True if args.king_safety else (False if args.pseudo else None)
    if args.check:
        return check_file(args.check, safety, args.timeout)
    if not args.fen:
        ap.error("a FEN (or --check FILE) is needed")
    try:
        answer = legal_moves(args.fen, args.variant, safety, args.timeout, args.moves.split())
    except ValueError as e:
        print("hachu_oracle: bad FEN or move: %s" % e, file=sys.stderr)
        return 2
    except OracleError as e:
        print("hachu_oracle: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer.as_json()))
    else:
        for text in answer.texts():
            print(text)
        for w in answer.warnings:
            print("warning: " + w, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
