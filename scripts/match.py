#!/usr/bin/env python3
"""Bounded matches: Chimera (UCI) against an XBoard engine (Fairy-Max by default),
refereed by Chimera's own move generator (`chimera moves` / `chimera show`).

    scripts/match.py --variant chess --games 10 --tc 40/10
    scripts/match.py --variant makruk --games 4 --opponent /usr/games/fairymax
    scripts/match.py --variant xiangqi --opponent /usr/games/maxqi

Each game alternates colours. A move the referee does not list as legal loses
the game for its author ("illegal" forfeits, counted apart), so does a flag
fall ("time" forfeits, counted apart) or an engine that stops answering.
Games end by mate, stalemate (scored as the variant scores it), threefold
repetition or, after --max-plies, adjudication as a draw. Move lists are
given to the referee in full each ply: slow but simple and exact.

The summary line gives wins-draws-losses from Chimera's side, the score and
an Elo estimate with its 95% interval.
"""
import argparse
import math
import os
import queue
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STALEMATE_LOSES = {"xiangqi", "janggi", "shogi", "shatranj", "minixiangqi", "manchu", "minishogi"}
XBOARD_NAMES = {"chess": "normal"}


class Engine:
    """A child process with a reader thread, so reads can time out."""

    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, s):
        try:
            self.p.stdin.write(s + "\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass

    def expect(self, pred, timeout):
        """Lines until one satisfies pred; returns it, or None on timeout / exit."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            if pred(line):
                return line

    def close(self):
        self.send("quit")
        try:
            self.p.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.p.kill()


def zero_based(variant_height):
    return variant_height == 10


def shift_ranks(move, delta):
    """Adds delta to every rank number of a move text (XBoard on 10 ranks)."""
    out, digits = [], ""
    for c in move + " ":
        if c.isdigit():
            digits += c
            continue
        if digits:
            out.append(str(int(digits) + delta))
            digits = ""
        if c != " ":
            out.append(c)
    return "".join(out)


class Referee:
    def __init__(self, chimera, variant):
        self.chimera, self.variant = chimera, variant

    def run(self, *args):
        r = subprocess.run([self.chimera, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip())
        return r.stdout

    def legal(self, moves, fen=None):
        args = ["moves", "--variant", self.variant, "--moves", " ".join(moves)]
        if fen:
            args += ["--fen", fen]
        return self.run(*args).split()

    def fen(self, moves):
        return self.run("show", "--variant", self.variant, "--moves", " ".join(moves)).splitlines()[-1][5:]

    def height(self):
        return len(self.fen([]).split()[0].split("/"))

    def in_check(self, fen):
        """Whether the side to move could lose its king: the other side, moving, captures it."""
        f = fen.split()
        side = f[1]
        f[1] = "b" if side == "w" else "w"
        if len(f) > 3:
            f[3] = "-"
        board = f[0].split("[")[0]
        king = "K" if side == "w" else "k"
        rows = board.split("/")
        height = len(rows)
        ksq = None
        for i, row in enumerate(rows):
            file, j = 0, 0
            while j < len(row):
                c = row[j]
                if c.isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    file += int(row[j:k])
                    j = k
                    continue
                if c in "+~":
                    j += 1
                    continue
                if c == king:
                    ksq = "%s%d" % (chr(ord("a") + file), height - i)
                file += 1
                j += 1
        if ksq is None:
            return False
        try:
            replies = self.legal([], " ".join(f))
        except RuntimeError:
            return False
        for m in replies:
            # the destination is the second square of the first leg
            body = m.split(",")[0]
            k = 1
            while k < len(body) and body[k].isdigit():
                k += 1
            if body[k:].rstrip("+qrbnkcaeslgmh") == ksq or body[k:k + len(ksq)] == ksq:
                return True
        return False


def play_game(args, ref, chimera_white, game_no):
    moves, positions = [], {}
    base = args.base
    clock = {"w": base, "b": base}
    tenth = ref.height() == 10
    chim = Engine([args.chimera, "uci"])
    opp = Engine([args.opponent])
    result, reason = None, None
    forfeit = None
    try:
        chim.send("uci")
        chim.send("setoption name UCI_Variant value " + args.variant)
        chim.send("isready")
        if chim.expect(lambda l: l == "readyok", 10) is None:
            return "0-1" if chimera_white else "1-0", "chimera did not start", "other"
        opp.send("xboard")
        opp.send("protover 2")
        opp.expect(lambda l: "done=1" in l, 3)
        opp.send("new")
        xb = XBOARD_NAMES.get(args.variant, args.variant)
        if xb != "normal":
            opp.send("variant " + xb)
        opp.send("level %d %d 0" % (args.moves, max(1, round(base / 60))) if base >= 60 else
                 "level %d 0:%02d 0" % (args.moves, max(1, round(base))))
        opp.send("easy")
        opp.send("force")
        while True:
            stm = "w" if len(moves) % 2 == 0 else "b"
            legal = ref.legal(moves)
            fen = ref.fen(moves)
            key = " ".join(fen.split()[:2])
            positions[key] = positions.get(key, 0) + 1
            if not legal:
                if ref.in_check(fen) or args.variant in STALEMATE_LOSES:
                    result = "0-1" if stm == "w" else "1-0"
                    reason = "mate" if ref.in_check(fen) else "stalemate"
                else:
                    result, reason = "1/2-1/2", "stalemate"
                break
            if positions[key] >= 3:
                result, reason = "1/2-1/2", "repetition"
                break
            if len(moves) >= args.max_plies:
                result, reason = "1/2-1/2", "adjudicated at %d plies" % args.max_plies
                break
            chimera_to_move = (stm == "w") == chimera_white
            to_go = args.moves - (len(moves) // 2) % args.moves
            t0 = time.monotonic()
            if chimera_to_move:
                chim.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
                chim.send("go wtime %d btime %d movestogo %d" % (clock["w"] * 1000, clock["b"] * 1000, to_go))
                line = chim.expect(lambda l: l.startswith("bestmove"), clock[stm] + 5)
                mv = line.split()[1] if line else None
                who = "chimera"
            else:
                me, other = clock[stm], clock["b" if stm == "w" else "w"]
                opp.send("time %d" % (me * 100))
                opp.send("otim %d" % (other * 100))
                opp.send("go")
                line = opp.expect(lambda l: l.startswith("move ") or l.startswith("resign")
                                  or l.startswith("Illegal") or l.startswith("Error"), clock[stm] + 5)
                opp.send("force")
                mv = line.split()[1] if line and line.startswith("move ") else None
                if mv and tenth:
                    mv = shift_ranks(mv, 1)
                who = "opponent"
            clock[stm] -= time.monotonic() - t0
            loser = "0-1" if stm == "w" else "1-0"
            if mv is None:
                result, reason = loser, "%s resigned or stopped answering" % who
                break
            if clock[stm] < -args.grace:
                result, reason, forfeit = loser, "%s lost on time" % who, "time"
                break
            if mv not in legal:
                result, reason, forfeit = loser, "%s played an illegal move %s" % (who, mv), "illegal"
                break
            moves.append(mv)
            if chimera_to_move:
                opp.send(shift_ranks(mv, -1) if tenth else mv)
            if len(moves) % (2 * args.moves) == 0:
                clock = {"w": clock["w"] + base, "b": clock["b"] + base}
    finally:
        chim.close()
        opp.close()
    print("game %d: Chimera %s, %s %s (%d plies)" % (game_no, "White" if chimera_white else "Black",
                                                        result, reason, len(moves)), flush=True)
    return result, reason, forfeit


def elo(score, n):
    """The Elo difference and the half-width of its 95% interval (inf when the
    interval reaches a score of 0% or 100%)."""
    if n == 0 or score <= 0 or score >= n:
        return float("nan"), float("inf")
    p = score / n
    to_elo = lambda q: -400 * math.log10(1 / q - 1)
    sd = math.sqrt(p * (1 - p) / n)
    lo, hi = p - 1.96 * sd, p + 1.96 * sd
    if lo <= 0 or hi >= 1:
        return to_elo(p), float("inf")
    return to_elo(p), (to_elo(hi) - to_elo(lo)) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--tc", default="40/10", help="MOVES/SECONDS, repeating")
    ap.add_argument("--opponent", default="/usr/games/fairymax")
    ap.add_argument("--chimera", default=os.path.join(ROOT, "target/release/chimera"))
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--grace", type=float, default=0.5, help="seconds over the clock before a time forfeit")
    args = ap.parse_args()
    try:
        m, s = args.tc.split("/")
        args.moves, args.base = int(m), float(s)
    except ValueError:
        sys.exit("error: --tc must be MOVES/SECONDS, e.g. 40/10")
    if not os.path.exists(args.chimera):
        sys.exit("error: %s not found (cargo build --release)" % args.chimera)
    ref = Referee(args.chimera, args.variant)
    w = d = l = 0
    forfeits = {"illegal": [0, 0], "time": [0, 0], "other": [0, 0]}
    for g in range(args.games):
        chimera_white = g % 2 == 0
        result, _, forfeit = play_game(args, ref, chimera_white, g + 1)
        chimera_won = (result == "1-0") == chimera_white and result != "1/2-1/2"
        if result == "1/2-1/2":
            d += 1
        elif chimera_won:
            w += 1
        else:
            l += 1
        if forfeit:
            forfeits[forfeit][0 if not chimera_won else 1] += 1
    n = w + d + l
    score = w + d / 2
    e, margin = elo(score, n)
    print("Chimera vs %s, %s, tc %s: +%d =%d -%d, score %.1f/%d (%.0f%%), Elo %+.0f +/- %.0f"
          % (os.path.basename(args.opponent), args.variant, args.tc, w, d, l, score, n,
             100 * score / max(n, 1), e, margin))
    print("forfeits (Chimera, opponent): illegal %d/%d, time %d/%d"
          % (forfeits["illegal"][0], forfeits["illegal"][1], forfeits["time"][0], forfeits["time"][1]))


if __name__ == "__main__":
    main()
