#!/usr/bin/env python3
"""Unit tests of scripts/sprt.py's statistics, against values worked out by
hand (python3 scripts/test_sprt.py)."""
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402
import sprt_combine  # noqa: E402

# The score expected at +5 Elo: 1 / (1 + 10^(-5/400)); 10^(-0.0125) =
# e^(-0.0287823) = 0.971628, so s1 = 1 / 1.971628 = 0.5071955.
S1 = 0.5071955


class Stats(unittest.TestCase):
    def test_logistic(self):
        self.assertAlmostEqual(sprt.logistic(0), 0.5)
        self.assertAlmostEqual(sprt.logistic(5), S1, places=6)

    def test_trinomial(self):
        # 5 losses, 20 draws, 10 wins: n = 35, mean = (10 + 20/2) / 35 = 4/7,
        # E[x^2] = (10 + 20/4) / 35 = 3/7, variance 3/7 - 16/49 = 5/49.
        n, mean, var = sprt.stats([5, 20, 10])
        self.assertEqual(n, 35)
        self.assertAlmostEqual(mean, 4 / 7)
        self.assertAlmostEqual(var, 5 / 49)
        # LLR = 35 (s1 - 1/2) (8/7 - 1/2 - s1) / (10/49)
        #     = 171.5 * 0.0071955 * 0.1356616 = 0.16741
        self.assertAlmostEqual(sprt.llr([5, 20, 10], 0, 5), 0.16741, delta=3e-4)
        # Elo of 4/7: -400 log10(3/4) = 49.98
        self.assertAlmostEqual(sprt.elo_estimate([5, 20, 10])[0], 49.98, delta=0.01)

    def test_pentanomial(self):
        # pairs scoring 0, 1/4, 1/2, 3/4, 1 per game: 2, 5, 20, 10, 3;
        # n = 40, mean = 21.75 / 40 = 0.54375, E[x^2] = 13.9375 / 40 =
        # 0.3484375, variance 0.3484375 - 0.2956641 = 0.0527734;
        # LLR = 40 * 0.0071955 * (1.0875 - 1.0071955) / 0.1055469 = 0.21899
        n, mean, var = sprt.stats([2, 5, 20, 10, 3])
        self.assertEqual(n, 40)
        self.assertAlmostEqual(mean, 0.54375)
        self.assertAlmostEqual(var, 0.0527734375)
        self.assertAlmostEqual(sprt.llr([2, 5, 20, 10, 3], 0, 5), 0.21899, delta=3e-4)
        # an even score counts against H1: 10, 20, 10 pairs at 1/4, 1/2, 3/4,
        # variance 1.25 / 40 = 0.03125: LLR = 40 * -(0.0071955^2) / 0.0625
        self.assertAlmostEqual(sprt.llr([0, 10, 20, 10, 0], 0, 5), -0.033136, delta=1e-5)

    def test_no_spread_no_information(self):
        self.assertEqual(sprt.llr([0, 0, 7, 0, 0], 0, 5), 0.0)
        self.assertEqual(sprt.llr([0, 0, 0], 0, 5), 0.0)
        self.assertIsNone(sprt.elo_estimate([0, 0, 4]))

    def test_bounds_and_decisions(self):
        # alpha = beta = 0.05: log(0.05 / 0.95) = -2.944439, log(19) = 2.944439
        lo, hi = sprt.bounds(0.05, 0.05)
        self.assertAlmostEqual(lo, -2.944439, places=5)
        self.assertAlmostEqual(hi, math.log(19))
        self.assertEqual(sprt.decision(3.0, lo, hi), "H1")
        self.assertEqual(sprt.decision(-3.0, lo, hi), "H0")
        self.assertIsNone(sprt.decision(0.5, lo, hi))
        # 60 wins, 20 draws, 20 losses: mean 0.7, E[x^2] = (60 + 5) / 100 =
        # 0.65, variance 0.16: LLR = 100 * 0.0071955 * (1.4 - 1.0071955) /
        # 0.32 = 0.8833, no decision yet; four times as many games: 3.533, H1
        self.assertAlmostEqual(sprt.llr([20, 20, 60], 0, 5), 0.8833, delta=3e-4)
        self.assertEqual(sprt.decision(sprt.llr([80, 80, 240], 0, 5), lo, hi), "H1")


class Combine(unittest.TestCase):
    def test_last_line_of_each_log_is_read(self):
        lines = [
            "SPRT a vs b, chess, tc 3+0.03, elo0 0 elo1 10 alpha 0.05 beta 0.05 (pentanomial): bounds [-2.94, 2.94]",
            "pair 1 chess: x; games 2, W-D-L 1-1-0, pentanomial [0, 0, 0, 1, 0], LLR 0.1 [-2.94, 2.94], Elo n/a",
            "pair 2 chess: x; games 4, W-D-L 2-1-1, pentanomial [0, 0, 1, 1, 0], LLR 0.1 [-2.94, 2.94], Elo n/a",
            "result: games 4 (pairs 2), W-D-L 2-1-1, pentanomial [0, 0, 1, 1, 0], LLR 0.1 [-2.94, 2.94], Elo n/a",
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            self.assertEqual(sprt_combine.last_counts(f.name, False), [0, 0, 1, 1, 0])
            # W-D-L 2-1-1 as [L, D, W]
            self.assertEqual(sprt_combine.last_counts(f.name, True), [1, 1, 2])
        finally:
            os.unlink(f.name)

    def test_earlier_runs_are_summed(self):
        logs = []
        for counts in ("[1, 2, 3, 4, 5]", "[0, 1, 0, 1, 10]"):
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write("result: games 30 (pairs 15), W-D-L 1-2-3, pentanomial %s, LLR 0.1 [-2.94, 2.94], Elo n/a;"
                        " all runs: games 99, counts [9, 9, 9, 9, 9], LLR 1.0, Elo n/a\n" % counts)
            logs.append(f.name)
        try:
            # a continued run's own counts, not the whole's it also prints
            self.assertEqual(sprt.earlier_counts(logs, False), [1, 3, 3, 5, 15])
            self.assertEqual(sprt.earlier_counts([], False), [0, 0, 0, 0, 0])
            self.assertEqual(sprt.earlier_counts(logs[:1], True), [3, 2, 1])
        finally:
            for path in logs:
                os.unlink(path)

    def test_no_counts_is_an_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("SPRT a vs b\n")
        try:
            with self.assertRaises(SystemExit):
                sprt_combine.last_counts(f.name, False)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
