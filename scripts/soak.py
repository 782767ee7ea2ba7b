#!/usr/bin/env python3
"""Differential soak: long random games in every supported variant, each
position compared with a reference engine, for a bounded time.

Usage:
    scripts/soak.py [--minutes M] [--variants V,V,...] [--plies N] [--seed S]
                    [--chimera PATH] [--mismatches FILE] [--no-lion]

Chimera is driven through `chimera soak-worker` (one process for the whole
run: a line `VARIANT<TAB>FEN<TAB>MOVE` in, `ok<TAB>FEN-AFTER<TAB>MOVES` out).
The reference is pyffish for every variant that Chimera and Fairy-Stockfish
both know and that match (the "matches" rows of docs/variants.md), and HaChu
(through scripts/hachu_oracle.py, beside this script) for Mighty Lion Chess.

At every position of every game it compares:
  * the set of legal moves (Chimera's vs pyffish.legal_moves(V, FEN, []));
  * after the move played, Chimera's FEN with pyffish.get_fen(V, FEN, [MOVE]).
For Mighty Lion Chess only the legal move sets are compared (HaChu has no FEN
output); positions where the oracle warns (its own inconsistencies) are skipped
and counted.

Games are played from the start position, alternating variants round-robin,
until --plies plies (default 400), the end of the game (pyffish's
is_immediate_game_end, or no legal moves), a position that pyffish's
validate_fen rejects (a royal piece captured: in Janggi both engines allow a
pass in check when they see only a FEN), or a mismatch. A mismatch record
holds the last plies of its game ("history") to reproduce it. Half of the time a
capture is preferred when there is one, so that games reach endgames and
promotions. Like scripts/fsf_playouts.py, pyffish is only ever given a FEN and
at most one move (no game history), so history rules (repetition) play no part.

Prints a per-variant table (positions, positions/second, mismatches) and
writes every mismatch as one JSON line (variant, FEN, what differs) to
--mismatches (default soak-mismatches.jsonl). Exits 1 on any mismatch.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsf_playouts import board_squares  # noqa: E402  (the occupied squares of a FEN)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def supported_variants():
    """The variants docs/variants.md lists as matching pyffish."""
    names = []
    with open(os.path.join(ROOT, "docs", "variants.md")) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 3 and cells[2] == "matches":
                names.append(cells[1])
    return names


class Worker:
    """A `chimera soak-worker` process."""

    def __init__(self, path):
        self.p = subprocess.Popen([path, "soak-worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def ask(self, variant, fen, move=""):
        """(fen_after, moves) or raises RuntimeError with Chimera's error text."""
        self.p.stdin.write("%s\t%s\t%s\n" % (variant, fen, move))
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("soak-worker exited (status %s)" % self.p.poll())
        parts = line.rstrip("\n").split("\t")
        if parts[0] != "ok":
            raise RuntimeError(parts[1] if len(parts) > 1 else line.strip())
        return parts[1], (parts[2].split() if len(parts) > 2 and parts[2] else [])

    def close(self):
        self.p.stdin.close()
        self.p.wait()


SQUARE = re.compile(r"[a-z]\d+")


def is_capture(move, occ):
    if "@" in move:
        return False
    sq = SQUARE.findall(move.split(",")[-1])
    return len(sq) >= 2 and sq[-1] != sq[0] and sq[-1] in occ


def choose(rng, moves, fen):
    occ = board_squares(fen)
    caps = [m for m in moves if is_capture(m, occ)]
    if caps and rng.random() < 0.5:
        return rng.choice(caps)
    return rng.choice(moves)


GATING = {"seirawan", "shouse"}


def known_difference(variant, ours, theirs):
    """Chimera's extra moves that are a documented pyffish difference (see
    docs/reliability.md): in the gating variants, a pinned piece leaving its
    first-rank square while the gated piece fills that square and so keeps
    the king covered. Chimera allows it (the position after the move is
    legal); pyffish tests the pin without the gated piece and rejects it.
    Such a move ends in a gate letter, and the same move without a gate is
    not legal (the piece is pinned)."""
    if variant not in GATING:
        return []
    ours_set, theirs_set = set(ours), set(theirs)
    return [m for m in ours_set - theirs_set
            if m[-1:].isalpha() and m[:-1] not in ours_set and m[:-1] not in theirs_set
            and any(t.startswith(m[:-1]) for t in ours_set)]


class Stats:
    def __init__(self):
        self.positions = 0
        self.games = 0
        self.seconds = 0.0
        self.mismatches = 0
        self.skipped = 0
        self.longest = 0
        self.known = 0
        self.invalid = 0


def pyffish_game(worker, variant, rng, plies, report, stats):
    """One game checked against pyffish; returns (positions, mismatches)."""
    fen = sf.start_fen(variant)
    try:
        fen, ours = worker.ask(variant, fen)
    except RuntimeError as e:
        report({"variant": variant, "fen": fen, "kind": "chimera error", "detail": str(e)})
        return 0, 1
    n = 0
    history = []  # the last plies of the game: (FEN, move played), for the mismatch record
    for _ in range(plies):
        theirs = sf.legal_moves(variant, fen, [])
        n += 1
        known = known_difference(variant, ours, theirs)
        if known:
            stats.known += len(known)
            ours = [m for m in ours if m not in known]
        if set(ours) != set(theirs) or len(ours) != len(theirs):
            report({"variant": variant, "fen": fen, "kind": "legal moves",
                    "missing": sorted(set(theirs) - set(ours)), "extra": sorted(set(ours) - set(theirs)),
                    "duplicates": len(ours) - len(set(ours)), "history": history[-8:]})
            return n, 1
        if not theirs or sf.is_immediate_game_end(variant, fen, [])[0]:
            break
        move = choose(rng, theirs, fen)
        their_after = sf.get_fen(variant, fen, [move])
        try:
            after, ours = worker.ask(variant, fen, move)
        except RuntimeError as e:
            report({"variant": variant, "fen": fen, "move": move, "kind": "chimera error", "detail": str(e)})
            return n, 1
        if after != their_after:
            report({"variant": variant, "fen": fen, "move": move, "kind": "FEN after move",
                    "chimera": after, "pyffish": their_after, "history": history[-8:]})
            return n, 1
        history.append([fen, move])
        fen = after
        if sf.validate_fen(fen, variant) < 1:
            # not a position of a real game (e.g. a Janggi general captured after
            # a pass in check, which both engines allow when given only a FEN):
            # pyffish's own validator ends the game here
            stats.invalid += 1
            break
    return n, 0


def lion_game(worker, oracle, rng, plies, report, stats):
    """One Mighty Lion Chess game checked against HaChu; returns (positions, mismatches)."""
    variant = "mightylion"
    fen, ours = worker.ask(variant, "rlbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RLBQKBNR w KQkq - 0 1")
    n = 0
    for _ in range(plies):
        try:
            r = oracle.legal_moves(fen, "lion")
        except (oracle.OracleError, ValueError) as e:  # the oracle's own failures are not Chimera's
            stats.skipped += 1
            print("hachu oracle error at %s: %s; next game" % (fen, e), file=sys.stderr)
            break
        if r.warnings:
            stats.skipped += 1
        else:
            theirs = r.texts()
            n += 1
            if set(ours) != set(theirs) or len(ours) != len(set(ours)):
                report({"variant": variant, "fen": fen, "kind": "legal moves (HaChu)",
                        "missing": sorted(set(theirs) - set(ours)), "extra": sorted(set(ours) - set(theirs)),
                        "duplicates": len(ours) - len(set(ours))})
                return n, 1
        if not ours:
            break
        move = choose(rng, ours, fen)
        fen, ours = worker.ask(variant, fen, move)
    return n, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="run time (default 5)")
    ap.add_argument("--variants", help="comma-separated variants (default: all supported, and mightylion)")
    ap.add_argument("--plies", type=int, default=400, help="longest game in plies (default 400)")
    ap.add_argument("--lion-plies", type=int, default=120, help="longest Mighty Lion Chess game (default 120)")
    ap.add_argument("--seed", default=str(int(time.time())))
    ap.add_argument("--chimera", default=os.path.join(ROOT, "target", "release", "chimera"))
    ap.add_argument("--mismatches", default="soak-mismatches.jsonl")
    ap.add_argument("--no-lion", action="store_true", help="leave out Mighty Lion Chess (HaChu)")
    args = ap.parse_args()

    variants = args.variants.split(",") if args.variants else supported_variants() + ["mightylion"]
    if args.no_lion:
        variants = [v for v in variants if v != "mightylion"]
    known = set(sf.variants())
    unknown = [v for v in variants if v not in known and v != "mightylion"]
    if unknown:
        sys.exit("unknown to pyffish: " + " ".join(unknown))
    oracle = None
    if "mightylion" in variants:
        import hachu_oracle as oracle  # noqa: E402  (scripts/hachu_oracle.py, on sys.path above)

    rng = random.Random(args.seed)
    worker = Worker(args.chimera)
    stats = {v: Stats() for v in variants}
    mism = open(args.mismatches, "w")

    def report(rec):
        rec["seed"] = args.seed
        mism.write(json.dumps(rec) + "\n")
        mism.flush()
        print("MISMATCH %s" % json.dumps(rec), file=sys.stderr, flush=True)

    print("soak: seed %s, %d variants, %.1f minutes, pyffish %s" %
          (args.seed, len(variants), args.minutes, ".".join(map(str, sf.version()))), flush=True)
    t_start = time.time()
    deadline = t_start + args.minutes * 60
    last_print = t_start
    i = 0
    while time.time() < deadline:
        v = variants[i % len(variants)]
        i += 1
        s = stats[v]
        t0 = time.time()
        if v == "mightylion":
            n, bad = lion_game(worker, oracle, rng, args.lion_plies, report, s)
        else:
            n, bad = pyffish_game(worker, v, rng, args.plies, report, s)
        s.seconds += time.time() - t0
        s.positions += n
        s.games += 1
        s.mismatches += bad
        s.longest = max(s.longest, n)
        if time.time() - last_print > 60:
            last_print = time.time()
            total = sum(x.positions for x in stats.values())
            print("%.0f s: %d positions, %d mismatches" % (last_print - t_start, total,
                                                          sum(x.mismatches for x in stats.values())), flush=True)
    worker.close()
    mism.close()
    elapsed = time.time() - t_start
    print("\n%-18s %6s %10s %9s %8s %10s" % ("variant", "games", "positions", "longest", "pos/s", "mismatches"))
    for v in variants:
        s = stats[v]
        rate = s.positions / s.seconds if s.seconds else 0.0
        extra = " (%d skipped: oracle warnings)" % s.skipped if s.skipped else ""
        extra += " (%d known-difference moves)" % s.known if s.known else ""
        extra += " (%d games ended at a position pyffish.validate_fen rejects)" % s.invalid if s.invalid else ""
        print("%-18s %6d %10d %9d %8.0f %10d%s" % (v, s.games, s.positions, s.longest, rate, s.mismatches, extra))
    total = sum(s.positions for s in stats.values())
    bad = sum(s.mismatches for s in stats.values())
    print("total: %d variants, %d games, %d positions in %.0f s (%.0f positions/s), %d mismatches%s" %
          (len(variants), sum(s.games for s in stats.values()), total, elapsed, total / elapsed, bad,
           " (see %s)" % args.mismatches if bad else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
