#!/usr/bin/env python3
"""The results table of docs/strength.md from scripts/match.py's logs.

    scripts/match_table.py docs/games/*.txt

Each log's last two lines are match.py's summary and forfeit lines; the
wins, draws and losses are read from the summary and the Elo estimate is
recomputed from them (so every row uses the same method, match.elo_text).
Time forfeits and illegal moves are taken from the forfeit line. A pairing
(variant, opponent, control) with several logs (several sets of openings)
gets a last row adding them up.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402

SUMMARY = re.compile(r"Chimera vs (\S+), (\S+), tc (\S+)( \(opponent (\S+)\))?: \+(\d+) =(\d+) -(\d+)")
FORFEITS = re.compile(r"illegal (\d+)/(\d+), time (\d+)/(\d+), no answer (\d+)/(\d+), rejected a legal move (\d+)/(\d+)")


def main():
    print("| variant | opponent | control | games | Chimera +/=/− | score | Elo (95%) "
          "| illegal moves (Chimera/opp.) | time forfeits (Chimera/opp.) | other forfeits (Chimera/opp.) |")
    print("| --- | --- | --- | ---: | --- | ---: | --- | --- | --- | --- |")
    totals = {}
    order = []
    for path in sys.argv[1:]:
        text = open(path).read()
        s = SUMMARY.search(text)
        f = FORFEITS.search(text)
        if not s or not f:
            print("%s: no summary (match not finished?)" % path, file=sys.stderr)
            continue
        opp, variant, tc, _, otc, w, d, l = s.groups()
        w, d, l = int(w), int(d), int(l)
        k = [int(x) for x in f.groups()]
        control = tc + (" vs %s" % otc if otc else "")
        row(variant, opp, control, w, d, l, k)
        key = (variant, opp, control)
        if key not in totals:
            totals[key] = [0, 0, 0, [0] * 8, 0]
            order.append(key)
        t = totals[key]
        t[0] += w
        t[1] += d
        t[2] += l
        t[3] = [a + b for a, b in zip(t[3], k)]
        t[4] += 1
    for key in order:
        w, d, l, k, logs = totals[key]
        if logs > 1:
            row("**%s, all %d sets**" % (key[0], logs), key[1], key[2], w, d, l, k)


def row(variant, opp, control, w, d, l, k):
    n = w + d + l
    score = w + d / 2
    print("| %s | %s | %s | %d | +%d =%d −%d | %.0f%% | %s | %d/%d | %d/%d | %d/%d |"
          % (variant, opp, control, n, w, d, l, 100 * score / n, match.elo_text(score, n),
             k[0], k[1], k[2], k[3], k[4] + k[6], k[5] + k[7]))


if __name__ == "__main__":
    main()
