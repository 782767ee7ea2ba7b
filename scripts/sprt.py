#!/usr/bin/env python3
"""SPRT: does a new Chimera binary beat an old one? Plays pairs of games
between two Chimera binaries (both over UCI), in turn in several variants,
until the sequential probability ratio test decides or a limit is reached.

    scripts/sprt.py --new target/release/chimera --old ../main/target/release/chimera
    scripts/sprt.py --new A --old B --variants chess,shogi --tc 5+0.05 --elo0 0 --elo1 5

Each pair of games starts from the same opening of --random-plies random
legal moves, the new binary White in one game and Black in the other, so that
an opening's bias cancels and games do not repeat. The games are played and
refereed by scripts/match.py's code (play_game), with pyffish as the
referee (Fairy-Stockfish's legal moves and game ends, not Chimera's).

The test is a generalized SPRT (GSPRT) on the pair results (pentanomial: a
pair scores 0, 1/2, 1, 3/2 or 2 for the new binary) or, with --trinomial, on
single games (win, draw, loss). H0: the new binary is elo0 stronger; H1: it
is elo1 stronger (logistic Elo). With the mean score m and its variance v per
sample (pair or game, scored in [0, 1]), n samples and the scores s0, s1
expected under H0 and H1, the log-likelihood ratio is

    LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)

(the normal approximation of the GSPRT, as match runners compute it). H1 is
accepted when LLR >= log((1 - beta) / alpha), H0 when LLR <= log(beta / (1 -
alpha)). After every pair the running LLR and the Elo estimate with its 95%
interval are printed; at the end the decision.

A run that ended at its limit without a decision is continued by another
run of the same two binaries with the same bounds and another --seed (so
that the openings differ), given the earlier runs' logs:

    scripts/sprt.py --new A --old B --seed 2 --continue run1.txt > run2.txt

The earlier runs' counts (the last counts of each log) are added to this
run's before each test, so the run stops where the whole test decides, as
if it had gone on without a break. The lines still give this run's own
counts first (scripts/sprt_combine.py sums them), then the whole's.
"""
import argparse
import math
import os
import random
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402  (play_game, PyffishReferee, elo_text)

DEFAULT_VARIANTS = "chess,xiangqi,shogi,janggi,makruk"


def logistic(elo):
    """The expected score of a side `elo` points stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def to_elo(score):
    return -400 * math.log10(1 / score - 1)


def stats(counts):
    """Number of samples, mean and variance of the score of samples with
    `counts[i]` samples scoring i / (len(counts) - 1): three counts are
    losses, draws, wins; five are pairs scoring 0, 1/2, 1, 3/2, 2 (per game)."""
    k = len(counts) - 1
    n = sum(counts)
    if n == 0:
        return 0, 0.0, 0.0
    mean = sum(c * i / k for i, c in enumerate(counts)) / n
    var = sum(c * (i / k - mean) ** 2 for i, c in enumerate(counts)) / n
    return n, mean, var


def llr(counts, elo0, elo1):
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for the
    counts (see stats); 0 while the results have no variance (a single kind
    of outcome says nothing about the spread)."""
    n, mean, var = stats(counts)
    if n == 0 or var <= 0:
        return 0.0
    s0, s1 = logistic(elo0), logistic(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def bounds(alpha, beta):
    """The LLR at which H0 is accepted (lower) and H1 is (upper)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def elo_estimate(counts):
    """The Elo difference and its 95% interval (lo, hi), from the mean score
    and the variance of the samples; None where the score is 0 or 1 or the
    samples have no spread yet."""
    n, mean, var = stats(counts)
    if n == 0 or mean <= 0 or mean >= 1 or var <= 0:
        return None
    sd = math.sqrt(var / n)
    lo, hi = mean - 1.96 * sd, mean + 1.96 * sd
    f = lambda q: to_elo(q) if 0 < q < 1 else (float("-inf") if q <= 0 else float("inf"))
    return to_elo(mean), f(lo), f(hi)


def elo_text(counts):
    e = elo_estimate(counts)
    if e is None:
        return "n/a"
    return "%+.1f [%+.1f, %+.1f]" % e


def decision(value, lower, upper):
    if value >= upper:
        return "H1"
    if value <= lower:
        return "H0"
    return None


def last_counts(path, trinomial):
    """The counts of the last line of a log of this script that has them:
    the pentanomial pair counts, or with `trinomial` the game counts [L, D, W]."""
    found = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if trinomial:
                m = re.search(r"W-D-L (\d+)-(\d+)-(\d+)", line)
                if m:
                    w, d, l = (int(x) for x in m.groups())
                    found = [l, d, w]
            else:
                m = re.search(r"pentanomial \[([0-9, ]+)\]", line)
                if m:
                    found = [int(x) for x in m.group(1).split(",")]
    if found is None:
        raise SystemExit(f"{path}: no counts found")
    return found


def earlier_counts(paths, trinomial):
    """The counts of earlier runs (their logs' last counts), summed."""
    total = [0] * (3 if trinomial else 5)
    for path in paths:
        total = [x + y for x, y in zip(total, last_counts(path, trinomial))]
    return total


def game_args(a, variant):
    """The argument set scripts/match.py's play_game reads, for one variant:
    the new binary is its `chimera`, the old one its UCI `opponent`."""
    ns = argparse.Namespace(**vars(a))
    ns.variant = variant
    ns.opponent_variant = variant
    ns.chimera = a.new
    ns.opponent = a.old
    ns.proto = "uci"
    ns.moves, ns.base, ns.inc = 0, a.base, a.inc
    ns.obase, ns.oinc = a.base, a.inc
    ns.opponent_tc = None
    return ns


def opening(ref, rng, plies):
    """Random legal moves from the start, stopping early at a game's end."""
    moves = []
    for _ in range(plies):
        legal = ref.legal(moves)
        if not legal or ref.result(moves):
            break
        moves.append(rng.choice(sorted(legal)))
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--new", required=True, help="the new Chimera binary")
    ap.add_argument("--old", required=True, help="the old Chimera binary")
    ap.add_argument("--variants", default=DEFAULT_VARIANTS, help="comma-separated, played in turn")
    ap.add_argument("--tc", default="5+0.05", help="BASE+INC seconds")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--trinomial", action="store_true", help="test single games (W/D/L), not pairs")
    ap.add_argument("--max-games", type=int, default=2000, help="stop after this many games")
    ap.add_argument("--max-minutes", type=float, help="start no pair after this many minutes")
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once")
    ap.add_argument("--random-plies", type=int, default=6, help="random opening plies of a pair")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16, help="table size of both engines, MiB")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--grace", type=float, default=0.5, help="seconds over the clock before a time forfeit")
    ap.add_argument("--pgn", help="append the games to this file")
    ap.add_argument("--continue", dest="earlier", nargs="+", default=[], metavar="LOG",
                    help="logs of earlier runs of the same binaries and bounds: their counts join this run's test")
    a = ap.parse_args()
    try:
        b, i = a.tc.split("+")
        a.base, a.inc = float(b), float(i)
    except ValueError:
        sys.exit("error: --tc must be BASE+INC, e.g. 5+0.05")
    if not (0 < a.alpha < 1 and 0 < a.beta < 1):
        sys.exit("error: --alpha and --beta must be between 0 and 1")
    for path in (a.new, a.old):
        if not os.path.exists(path):
            sys.exit("error: %s not found" % path)
    variants = [v for v in a.variants.split(",") if v]
    try:
        refs = {v: match.PyffishReferee(v) for v in variants}
    except Exception as e:  # pyffish refuses an unknown variant
        sys.exit("error: pyffish: %s" % e)
    lower, upper = bounds(a.alpha, a.beta)
    earlier = earlier_counts(a.earlier, a.trinomial)
    print("SPRT %s vs %s, %s, tc %s, elo0 %g elo1 %g alpha %g beta %g (%s): bounds [%.2f, %.2f]"
          % (a.new, a.old, ",".join(variants), a.tc, a.elo0, a.elo1, a.alpha, a.beta,
             "trinomial" if a.trinomial else "pentanomial", lower, upper), flush=True)
    per_sample = 1 if a.trinomial else 2
    if a.earlier:
        print("continuing %d earlier run(s) (%s): %d games, counts %s, LLR %.3f"
              % (len(a.earlier), ", ".join(os.path.basename(p) for p in a.earlier), per_sample * sum(earlier),
                 earlier, llr(earlier, a.elo0, a.elo1)), flush=True)
        decided = decision(llr(earlier, a.elo0, a.elo1), lower, upper)
        if decided:
            sys.exit("error: the earlier runs have decided already (%s)" % decided)

    def whole_text(counts):
        """The test of this run and the earlier ones together: (LLR, text)."""
        whole = [x + y for x, y in zip(counts, earlier)]
        value = llr(whole, a.elo0, a.elo1)
        return value, "; all runs: games %d, counts %s, LLR %.3f, Elo %s" % (
            per_sample * sum(whole), whole, value, elo_text(whole))
    rng = random.Random(a.seed)
    start = time.monotonic()
    lock = threading.Lock()
    penta = [0] * 5
    tri = [0] * 3  # losses, draws, wins of the new binary
    per_variant = {v: [0, 0, 0] for v in variants}
    forfeits = {}
    state = {"pairs": 0, "decided": None}
    n_pairs = (a.max_games + 1) // 2
    state["next"] = 0

    def new_score(result, new_white):
        if result == "1/2-1/2":
            return 1
        return 2 if (result == "1-0") == new_white else 0

    def worker():
        while True:
            with lock:
                if state["decided"] or (a.max_minutes and time.monotonic() - start > 60 * a.max_minutes):
                    return
                p = state["next"]
                if p >= n_pairs:
                    return
                state["next"] += 1
                # the openings in the order of the pairs, whatever the concurrency
                v = variants[p % len(variants)]
                op = opening(refs[v], rng, a.random_plies)
            ga = game_args(a, v)
            pair = 0
            lines = []
            for new_white in (True, False):
                result, reason, forfeit, _, moves, _ = match.play_game(ga, refs[v], False, new_white, 2 * p + 1, op)
                s = new_score(result, new_white)
                pair += s
                with lock:
                    tri[s] += 1
                    per_variant[v][s] += 1
                    if forfeit:
                        key = "%s by %s" % (forfeit, "old" if s == 2 else "new")
                        forfeits[key] = forfeits.get(key, 0) + 1
                    if a.pgn:
                        names = ("new", "old") if new_white else ("old", "new")
                        with open(a.pgn, "a") as f:
                            f.write(match.pgn(ga, 2 * p + (1 if new_white else 2), names[0], names[1], result,
                                              reason, moves, len(op)))
                lines.append("%s %s (%s, %d plies)" % ("new White" if new_white else "new Black", result,
                                                       reason, len(moves)))
            with lock:
                penta[pair] += 1
                state["pairs"] += 1
                counts = tri if a.trinomial else penta
                value = llr(counts, a.elo0, a.elo1)
                whole_value, whole = whole_text(counts) if a.earlier else (value, "")
                print("pair %d %s: %s; games %d, W-D-L %d-%d-%d, pentanomial %s, LLR %.3f [%.2f, %.2f], Elo %s%s"
                      % (p + 1, v, "; ".join(lines), sum(tri), tri[2], tri[1], tri[0], penta, value, lower,
                         upper, elo_text(counts), whole), flush=True)
                state["decided"] = decision(whole_value, lower, upper)

    threads = [threading.Thread(target=worker) for _ in range(max(1, a.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counts = tri if a.trinomial else penta
    value = llr(counts, a.elo0, a.elo1)
    print("per variant (new W-D-L): " + ", ".join("%s %d-%d-%d" % (v, c[2], c[1], c[0])
                                                  for v, c in per_variant.items()))
    if forfeits:
        print("forfeits: " + ", ".join("%s %d" % kv for kv in sorted(forfeits.items())))
    verdict = {"H1": "H1 accepted (new is stronger by elo1)", "H0": "H0 accepted (new is not stronger by elo1)",
               None: "no decision (limit reached)"}[state["decided"]]
    whole = whole_text(counts)[1] if a.earlier else ""
    print("result: games %d (pairs %d), W-D-L %d-%d-%d, pentanomial %s, LLR %.3f [%.2f, %.2f], Elo %s%s: %s%s, "
          "%.0f minutes" % (sum(tri), state["pairs"], tri[2], tri[1], tri[0], penta, value, lower, upper,
                            elo_text(counts), whole, verdict, " with the earlier runs" if a.earlier else "",
                            (time.monotonic() - start) / 60))


if __name__ == "__main__":
    main()
