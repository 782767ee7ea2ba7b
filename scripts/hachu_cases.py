#!/usr/bin/env python3
"""Reference positions with HaChu's legal moves, from random games.

Usage:
    hachu_cases.py OUT.jsonl SEED GAMES PLIES [--variant lion|chu|wa-shogi|dai|werewolf|cashew-shogi|
                   macadamia-shogi|tenjiku]
                   [--king-safety] [--start BOARD] [--every N]

Plays GAMES random games of at most PLIES plies from the start position,
asking scripts/hachu_oracle.py for the legal moves at every ply, and writes
every third position (plies 2, 5, 8, ...; --every N: every N-th) as one
JSON line:

    {"variant": "mightylion", "fen": FEN, "moves": [sorted move texts]}

(the format of tests/data/hachu_mightylion.jsonl, see tests/data/README.md).
The oracle sees the FEN only. A position is not written when the oracle
warns about it; a game ends when the oracle fails (reported on stderr), when
there are no moves, or when a side has lost its royal piece.

The FEN holds the board, the side to move, the castling rights and the e.p.
square (set after every double step, whether or not an e.p. capture is
possible) as this script tracks them; the clocks are always `0 1`. For Chu
Shogi (`--variant chu`, variant name "chu" in the output) the FEN is
`BOARD SIDE 0 1` in HaChu's letters (Lion N, Kirin O, Phoenix X, Free King
Q, Drunk Elephant E, promoted pieces with '+'); --king-safety keeps the
games to moves that do not leave the own royal piece attacked. Wa Shogi
(`--variant wa-shogi`) is written the same way, in HaChu's Wa Shogi letters
(see VARIANTS in hachu_oracle.py), and so is Dai Shogi (`--variant dai`), in
HaChu's Dai ids, some of them dressed (the Lion `L!`, the Go-Between `P'`).
Werewolf Chess (`--variant werewolf`) has FENs like Mighty Lion Chess's but
with no castling rights (HaChu does not castle there), and the board after a
capture of a Werewolf has the capturer turned into one (hachu_oracle.play()).
Cashew Shogi (`--variant cashew-shogi`, name "cashewshogi") is written in
HaChu's ids, as Dai Shogi is; without --king-safety its lists are HaChu's
own pseudo-legal ones (HaChu plays on until a King is taken). Macadamia
Shogi (`--variant macadamia-shogi`, name "macadamiashogi") the same; its
boards have the capturer of a Teaching King or Buddhist Spirit turned into
one (hachu_oracle.play()), and its games never play a King's promotion (see
playable()).

--start BOARD starts every game from this board field (in the variant's
letters, White to move) instead of the start position; for Chu Shogi, e.g.
the start position with both Drunk Elephants replaced by Crown Princes
(`+E`, `+e`), so that the games have positions with two royal pieces.

Choice of the move played: with probability 0.4 one of the special moves
(two-leg, pass, castling, e.p., promotion) when there is one; otherwise,
with probability 0.4, one of the moves whose destination square is occupied
(a capture; also a pass or a capture-and-return, which end on the mover's
own square) when there is one; otherwise any move; each uniformly from the
sorted list. The generator is random.Random(SEED) (SEED an integer), and a
random number is only drawn when the corresponding list is not empty, so a
run is reproducible. A summary goes to stderr.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hachu_oracle as oracle  # noqa: E402

START = {
    "lion": "rlbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RLBQKBNR",
    "werewolf": "rnbwkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBWKBNR",
    "chu": "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/"
           "3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL",
    "wa-shogi": "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH",
    "dai": "lnuicsgkgsciunl/a1c'1f1tet1f1c'1a/1x'1a'1wxl!ow1a'1x'1/rf'mvbhdqdhbvmf'r/ppppppppppppppp/"
           "4p'5p'4/15/15/15/4P'5P'4/PPPPPPPPPPPPPPP/RF'MVBHDQDHBVMF'R/1X'1A'1WOL!XW1A'1X'1/"
           "A1C'1F1TET1F1C'1A/LNUICSGKGSCIUNL",
    # the usual Tenjiku start position (HaChu's own array has three slips:
    # a missing empty square on White's second rank, Black's Free Eagle
    # replaced by a Great General, Dragon Kings where the Dogs belong)
    "tenjiku": "lnficsgekgscifnl/a1c!c!1txql!ot1c!c!1a/s'v'bhdw!d!q'h!d!w!dhbv's'/mvrf!e!b!r!v!q!r!b!e!f!rvm/"
               "pppppppppppppppp/4d'6d'4/16/16/16/16/4D'6D'4/PPPPPPPPPPPPPPPP/MVRF!E!B!R!Q!V!R!B!E!F!RVM/"
               "S'V'BHDW!D!H!Q'D!W!DHBV'S'/A1C!C!1TOL!QXT1C!C!1A/LNFICSGKEGSCIFNL",
    "cashew-shogi": "lh!f'dh'j'ki'qc'hg!l/t!p'w!+oogngx+xl!k'd!/r've'fst'+nt'sfw'vl'/ppppppppppppp/3d'5d'3/"
                    "13/13/13/3D'5D'3/PPPPPPPPPPPPP/L'VW'FST'+NT'SFE'VR'/D!K'L!+XXGNGO+OW!P'T!/"
                    "LG!HC'QI'KJ'H'DF'H!L",
    "macadamia-shogi": "lxcsgi'kj'gscol/1f'1w!1tet1l!1f'1/rr'g'bdh!qc!dbw'l'r/ppppppppppppp/3p'5p'3/"
                       "13/13/13/3P'5P'3/PPPPPPPPPPPPP/RL'W'BDC!QH!DBG'R'R/1F'1L!1TET1W!1F'1/"
                       "LOCSGI'KJ'GSCXL",
}
NAME = {"lion": "mightylion", "chu": "chu", "wa-shogi": "wa-shogi", "dai": "dai", "werewolf": "werewolf",
        "cashew-shogi": "cashewshogi", "macadamia-shogi": "macadamiashogi", "tenjiku": "tenjiku"}


def fen_of(variant, cells, white, rights, ep):
    board = oracle.write_board(cells, oracle.VARIANTS[variant].size)
    side = "w" if white else "b"
    if variant == "werewolf":  # HaChu does not castle there
        return "%s %s - %s 0 1" % (board, side, ep or "-")
    if variant != "lion":
        return "%s %s 0 1" % (board, side)
    castling = "".join(r for r in "KQkq" if r in rights) or "-"
    return "%s %s %s %s 0 1" % (board, side, castling, ep or "-")


def has_royal(cells, white, variant):
    royals = oracle.VARIANTS[variant].royals
    return any(oracle.is_white(t) == white and oracle.letter(t) in royals for t in cells.values())


def special(move):
    return move.kind in ("twoleg", "pass", "castle", "ep") or bool(move.promotion)


def playable(variant, moves, cells):
    """The moves a random game may play: in Macadamia Shogi not a King's
    promotion, since HaChu's Emperor has no moves and is not royal (HaChu's
    lists still have these moves, and they are compared)."""
    if variant != "macadamia-shogi":
        return moves
    return [m for m in moves if not (m.promotion and oracle.letter(cells[m.origin]) == "K")] or moves


def pick(rng, moves, cells):
    specials = [m for m in moves if special(m)]
    if specials and rng.random() < 0.4:
        return rng.choice(specials)
    captures = [m for m in moves if m.target in cells]
    if captures and rng.random() < 0.4:
        return rng.choice(captures)
    return rng.choice(moves)


def after_move(variant, cells, move, rights):
    """(board after move, e.p. square or None); updates the castling rights."""
    piece = cells[move.origin]
    oracle.update_rights(rights, cells, move)
    ep = None
    if variant in ("lion", "werewolf") and oracle.letter(piece) == "P" \
            and abs(move.target[1] - move.origin[1]) == 2:
        ep = oracle.square_name((move.origin[0], (move.origin[1] + move.target[1]) // 2))
    return oracle.play(cells, move, oracle.VARIANTS[variant]), ep


class Tally:
    def __init__(self, lions):
        self.counts = {}
        self.lions = lions  # 'L' is the Lion (Mighty Lion Chess), not a Lance

    def add(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n

    def position(self, cells, moves):
        self.add("positions")
        kinds = {m.kind for m in moves}
        for kind, label in (("twoleg", "with two-leg moves"), ("pass", "with a pass"),
                            ("castle", "with castling"), ("ep", "with an e.p. capture")):
            if kind in kinds:
                self.add(label)
        if any(m.promotion for m in moves):
            self.add("with a promotion")
        if any(m.source == "contagion" for m in moves):
            self.add("with a capture that turns the capturer (Werewolf Chess)")
        lion_takes_lion = [m for m in moves if self.lions and oracle.letter(cells[m.origin]) == "L"
                           and any(sq and sq != m.origin and oracle.letter(cells.get(sq, "")) == "L"
                                   for sq in (m.via, m.target))]
        if lion_takes_lion:
            self.add("with a Lion-captures-Lion move")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("seed", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("plies", type=int)
    ap.add_argument("--variant", choices=sorted(START), default="lion")
    ap.add_argument("--king-safety", action="store_true", help="for chu: filter by king safety")
    ap.add_argument("--start", help="the board field to start every game from")
    ap.add_argument("--every", type=int, default=3,
                    help="write every N-th position (plies N-1, 2N-1, ...; default 3)")
    args = ap.parse_args()
    variant = args.variant
    size = oracle.VARIANTS[variant].size
    safety = True if args.king_safety else None
    rng = random.Random(args.seed)
    tally = Tally(variant == "lion")
    with open(args.out, "w") as out:
        for game in range(args.games):
            cells = oracle.read_board(args.start or START[variant], size, oracle.VARIANTS[variant].pieces)
            white, rights, ep = True, set("KQkq") if variant == "lion" else set(), None
            for ply in range(args.plies):
                if not (has_royal(cells, True, variant) and has_royal(cells, False, variant)):
                    tally.add("games ended: royal piece captured")
                    break
                fen = fen_of(variant, cells, white, rights, ep)
                try:
                    answer = oracle.legal_moves(fen, variant, safety)
                except (oracle.OracleError, ValueError) as e:
                    print("game %d ply %d: oracle failed at %s: %s; next game" % (game, ply, fen, e),
                          file=sys.stderr)
                    tally.add("games ended: oracle failure")
                    break
                if answer.warnings:
                    tally.add("positions with oracle warnings")
                if ply % args.every == args.every - 1 and not answer.warnings:
                    out.write(json.dumps({"variant": NAME[variant], "fen": fen,
                                          "moves": answer.texts()}) + "\n")
                    out.flush()
                    tally.position(cells, answer.moves)
                if not answer.moves:
                    tally.add("games ended: no moves")
                    break
                move = pick(rng, playable(variant, answer.moves, cells), cells)
                cells, ep = after_move(variant, cells, move, rights)
                white = not white
    for key in sorted(tally.counts):
        print("%s: %d" % (key, tally.counts[key]), file=sys.stderr)


if __name__ == "__main__":
    main()
