#!/usr/bin/env python3
"""Bounded matches: Chimera (UCI) against another engine speaking XBoard
(Fairy-Max, MaxQi, HaChu, ...) or UCI (Fairy-Stockfish), refereed by Chimera's
own move generator (`chimera moves`) and game-end rules (`chimera result`).

    scripts/match.py --variant chess --games 20 --tc 10+0.1
    scripts/match.py --variant mightylion --opponent hachu --games 20 --tc 10+0.1
    scripts/match.py --variant xiangqi --opponent fairy-stockfish --proto uci --tc 10+0.1

Colours alternate; the two games of a pair start from the same opening, made of
--random-plies random legal moves (so that games differ). A move the referee
does not list as legal loses the game for its author ("illegal" forfeits,
counted apart), so does a flag fall ("time" forfeits, counted apart: more than
--grace seconds over the clock) or an engine that stops answering or crashes
("no answer", counted apart); an XBoard opponent that answers a legal move
with "Illegal move" loses too ("rejected", counted apart: HaChu does not know
underpromotions). A resignation is an ordinary loss. Engines'
own result claims are ignored: the referee ends games by mate, stalemate, the
variant's own endings, threefold repetition (perpetual check loses where the
variant says so) and the 50-move rule (`chimera result`), and adjudicates a
draw after --max-plies plies. A Janggi game ended by bikjang or passes is
scored by Janggi's point count (Han, the second player, gets 1.5 points).

HaChu's notation is read as XBoard reads it: a move line ending with a comma
is the first leg of a two-leg move whose second leg follows on the next move
line (`move d6e5,` then `move e5f4` is `d6e5,e5f4`), and `@@@@` alone is the
Lion's pass (`d4d4`), which is also how the pass is sent to an XBoard engine.
An XBoard opponent's move that the referee does not list is accepted only when
exactly one legal move joins the same squares and the two differ in the
promotion letter alone (Fairy-Max writes Makruk's and Shatranj's one possible
promotion with its own letter); such mappings are counted and reported.

The summary gives wins-draws-losses from Chimera's side, the score and an Elo
estimate with its 95% interval. --pgn writes every game with the moves in
Fairy-Stockfish's coordinate notation (not SAN).
"""
import argparse
import math
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
XBOARD_NAMES = {"chess": "normal", "mightylion": "lion", "chushogi": "chu"}


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
        except (BrokenPipeError, OSError):
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
            self.p.wait()


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


def squares_of(move):
    """The square names of a move text, in order (drops give one)."""
    sq, i = [], 0
    while i < len(move):
        if move[i].isalpha() and move[i].islower() and i + 1 < len(move) and move[i + 1].isdigit():
            j = i + 1
            while j < len(move) and move[j].isdigit():
                j += 1
            sq.append(move[i:j])
            i = j
        else:
            i += 1
    return sq


class Referee:
    def __init__(self, chimera, variant):
        self.chimera, self.variant = chimera, variant

    def run(self, *args):
        r = subprocess.run([self.chimera, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip())
        return r.stdout

    def legal(self, moves):
        return self.run("moves", "--variant", self.variant, "--moves", " ".join(moves)).split()

    def result(self, moves):
        """'*' or (result, reason)."""
        line = self.run("result", "--variant", self.variant, "--moves", " ".join(moves)).strip()
        if line == "*":
            return None
        r, _, why = line.partition(" ")
        return r, why

    def fen(self, moves):
        return self.run("show", "--variant", self.variant, "--moves", " ".join(moves)).splitlines()[-1][5:]

    def height(self):
        fen = self.run("show", "--variant", self.variant).splitlines()[-1][5:]
        return len(fen.split()[0].split("/"))


class PyffishReferee:
    """The referee as Fairy-Stockfish sees the game, through pyffish: its legal
    moves and its game ends (mate, stalemate, the variant's own endings, and
    the claimable ones: repetition, the n-move rule, counting), independent of
    Chimera's code. Same interface as Referee."""

    def __init__(self, variant):
        import pyffish
        self.sf, self.variant = pyffish, variant
        self.start = pyffish.start_fen(variant)
        self.cache = (None, None)

    def legal(self, moves):
        # the game loop asks for the result, then the moves, of one position
        key = tuple(moves)
        if self.cache[0] != key:
            self.cache = (key, self.sf.legal_moves(self.variant, self.start, moves))
        return self.cache[1]

    def result(self, moves):
        """None while the game goes on, else (result, reason)."""
        sf, v, fen = self.sf, self.variant, self.start
        if not self.legal(moves):
            value, why = sf.game_result(v, fen, moves), "no legal move"
        else:
            end, value = sf.is_immediate_game_end(v, fen, moves)
            why = "variant's ending"
            if not end:
                end, value = sf.is_optional_game_end(v, fen, moves)
                why = "repetition, n-move rule or counting"
            if not end:
                return None
        # the value is the side to move's
        white_to_move = self.fen(moves).split()[1] == "w"
        if value == 0:
            return "1/2-1/2", why
        return ("1-0" if (value > 0) == white_to_move else "0-1"), why

    def fen(self, moves):
        return self.sf.get_fen(self.variant, self.start, moves)


class Opponent:
    """The other engine, in XBoard or UCI."""

    def __init__(self, args, tenth):
        self.args, self.tenth = args, tenth
        self.e = Engine(shlex.split(args.opponent))
        self.usermove = False
        self.name = os.path.basename(shlex.split(args.opponent)[0])
        if args.proto == "uci":
            self.e.send("uci")
            line = self.e.expect(lambda l: l.startswith("id name") or l == "uciok", 10)
            if line and line.startswith("id name"):
                self.name = line[8:].strip()
            self.e.expect(lambda l: l == "uciok", 10)
            self.e.send("setoption name UCI_Variant value " + args.opponent_variant)
            self.e.send("setoption name Threads value 1")
            self.e.send("setoption name Hash value %d" % args.hash)
            self.e.send("ucinewgame")
            self.e.send("isready")
            self.ok = self.e.expect(lambda l: l == "readyok", 10) is not None
        else:
            self.e.send("xboard")
            self.e.send("protover 2")
            end = time.monotonic() + 5
            while time.monotonic() < end:
                line = self.e.expect(lambda l: l.startswith("feature"), end - time.monotonic())
                if line is None:
                    break
                if "usermove=1" in line:
                    self.usermove = True
                if 'myname="' in line:
                    self.name = line.split('myname="')[1].split('"')[0]
                if "done=1" in line:
                    break
            # the table size (HaChu has no table, and plays nothing legal, without it)
            self.e.send("memory %d" % args.hash)
            self.e.send("new")
            if args.opponent_variant != "normal":
                self.e.send("variant " + args.opponent_variant)
            base = max(1, int(round(args.obase)))
            self.e.send("level %d %d:%02d %d" % (args.moves or 0, base // 60, base % 60, int(args.oinc)))
            self.e.send("post")
            self.e.send("easy")
            self.e.send("force")
            self.ok = True

    def tell(self, mv):
        """A move played by the other side (XBoard only; UCI gets the whole list)."""
        if self.args.proto == "xboard":
            mv = xboard_out(mv)
            text = shift_ranks(mv, -1) if self.tenth else mv
            self.e.send(("usermove " if self.usermove else "") + text)

    def think(self, moves, clock, inc, stm, timeout):
        other = "b" if stm == "w" else "w"
        if self.args.proto == "uci":
            self.e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            self.e.send("go wtime %d btime %d winc %d binc %d" % (max(1, clock["w"] * 1000), max(1, clock["b"] * 1000),
                                                                 inc["w"] * 1000, inc["b"] * 1000))
            line = self.e.expect(lambda l: l.startswith("bestmove"), timeout)
            if line is None:
                return None, "no answer"
            mv = line.split()[1] if len(line.split()) > 1 else None
            return (mv, None) if mv not in (None, "(none)", "0000") else (None, "resigned")
        self.e.send("time %d" % max(1, clock[stm] * 100))
        self.e.send("otim %d" % max(1, clock[other] * 100))
        self.e.send("go")
        line = self.e.expect(lambda l: l.startswith("move ") or l.startswith("resign")
                             or l.startswith("Illegal") or l.startswith("Error"), timeout)
        self.e.send("force")
        if line is None:
            return None, "no answer"
        if line.startswith("resign"):
            return None, "resigned"
        if not line.startswith("move "):
            return None, "rejected a legal move (%s)" % line
        mv = line.split()[1]
        # HaChu sends a two-leg move as two lines, the first ending with a
        # comma ("move d6e5," then "move e5f4"), as XBoard reads it; a second
        # leg "@@@@" means the move stops after its first leg
        while mv.endswith(","):
            more = self.e.expect(lambda l: l.startswith("move "), timeout)
            if more is None:
                return None, "no answer"
            leg = more.split()[1]
            mv = mv[:-1] if leg == "@@@@" else mv + leg
        return (shift_ranks(mv, 1) if self.tenth else mv), None

    def close(self):
        self.e.close()


def xboard_in(mv, legal):
    """An XBoard engine's move text in the referee's notation: HaChu writes
    the Lion's pass as XBoard's null move `@@@@` (the referee's `d4d4`)."""
    if mv == "@@@@":
        passes = [m for m in legal if len(squares_of(m)) == 2 and len(set(squares_of(m))) == 1]
        if len(passes) == 1:
            return passes[0]
    return mv


def xboard_out(mv):
    """The referee's move text for an XBoard engine: a Lion's pass (`d4d4`) is XBoard's `@@@@`."""
    sq = squares_of(mv)
    if "," not in mv and len(sq) == 2 and sq[0] == sq[1] and mv == sq[0] + sq[1]:
        return "@@@@"
    return mv


def map_move(mv, legal):
    """A legal move differing from mv in the promotion letter only, if it is the only one."""
    sq = squares_of(mv)
    cands = [m for m in legal if squares_of(m) == sq and m.rstrip("+") != mv.rstrip("+")]
    same_body = [m for m in cands if m[:len(m) - 1] == mv[:len(mv) - 1] or m.rstrip("qrbnmfk") == mv.rstrip("qrbnmfk")]
    return same_body[0] if len(cands) == 1 and len(same_body) == 1 else None


def play_game(args, ref, tenth, chimera_white, game_no, opening, log=None):
    """One game; with a list as `log`, each move played after the opening
    appends (ply, who, seconds spent, seconds left on the mover's clock)."""
    moves = []
    mine, theirs = ("w", "b") if chimera_white else ("b", "w")
    clock = {mine: args.base, theirs: args.obase}
    inc = {mine: args.inc, theirs: args.oinc}
    chim = Engine([args.chimera, "uci"])
    opp = None
    result = reason = forfeit = None
    mapped = 0
    opp_name = "?"
    try:
        chim.send("uci")
        chim.send("setoption name UCI_Variant value " + args.variant)
        chim.send("setoption name Hash value %d" % args.hash)
        chim.send("isready")
        if chim.expect(lambda l: l == "readyok", 10) is None:
            return ("0-1" if chimera_white else "1-0"), "chimera did not start", "no answer", 0, [], opp_name
        opp = Opponent(args, tenth)
        opp_name = opp.name
        if not opp.ok:
            return ("1-0" if chimera_white else "0-1"), "opponent did not start", "no answer", 0, [], opp_name
        for mv in opening:
            moves.append(mv)
            opp.tell(mv)
        while True:
            stm = "w" if len(moves) % 2 == 0 else "b"
            end = ref.result(moves)
            if end:
                result, reason = end
                if args.variant.startswith("janggi") and "material count" in reason and isinstance(ref, Referee):
                    result, reason = janggi_count(ref.fen(moves))
                break
            if len(moves) >= args.max_plies:
                result, reason = "1/2-1/2", "adjudicated at %d plies" % args.max_plies
                break
            legal = ref.legal(moves)
            chimera_to_move = (stm == "w") == chimera_white
            played = len(moves) // 2
            to_go = args.moves - played % args.moves if args.moves else None
            t0 = time.monotonic()
            timeout = clock[stm] + args.grace + 5
            if chimera_to_move:
                chim.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
                go = "go wtime %d btime %d winc %d binc %d" % (max(1, clock["w"] * 1000), max(1, clock["b"] * 1000),
                                                              inc["w"] * 1000, inc["b"] * 1000)
                chim.send(go + (" movestogo %d" % to_go if to_go else ""))
                line = chim.expect(lambda l: l.startswith("bestmove"), timeout)
                mv = line.split()[1] if line else None
                why = None if line else "no answer"
                who = "chimera"
            else:
                mv, why = opp.think(moves, clock, inc, stm, timeout)
                who = "opponent"
            spent = time.monotonic() - t0
            clock[stm] -= spent
            if log is not None:
                log.append((len(moves) + 1, who, spent, clock[stm]))
            loser = "0-1" if stm == "w" else "1-0"
            if mv is None:
                result, reason = loser, "%s: %s" % (who, why)
                forfeit = None if why == "resigned" else "rejected" if why.startswith("rejected") else "no answer"
                break
            if clock[stm] < -args.grace:
                result, reason, forfeit = loser, "%s lost on time" % who, "time"
                break
            if who == "opponent" and args.proto == "xboard":
                mv = xboard_in(mv, legal)
            if mv not in legal and who == "opponent" and args.proto == "xboard":
                m2 = map_move(mv, legal)
                if m2:
                    mv, mapped = m2, mapped + 1
            if mv not in legal:
                result, reason, forfeit = loser, "%s played an illegal move %s" % (who, mv), "illegal"
                break
            clock[stm] += inc[stm]
            moves.append(mv)
            if chimera_to_move:
                opp.tell(mv)
            if args.moves and len(moves) % (2 * args.moves) == 0:
                clock = {"w": clock["w"] + args.base, "b": clock["b"] + args.base}
    finally:
        chim.close()
        if opp:
            opp.close()
    return result, reason, forfeit, mapped, moves, opp_name


JANGGI_POINTS = {"r": 13, "c": 7, "n": 5, "b": 3, "a": 3, "p": 2}


def janggi_count(fen):
    """A Janggi game ended by bikjang or passes: Janggi's point count decides,
    the second player (Han) getting 1.5 points (as Fairy-Stockfish scores it),
    not Chimera's evaluation."""
    white, black = 0.0, 1.5
    for c in fen.split()[0]:
        if c.lower() in JANGGI_POINTS:
            if c.isupper():
                white += JANGGI_POINTS[c.lower()]
            else:
                black += JANGGI_POINTS[c]
    why = "Janggi point count %.1f-%.1f" % (white, black)
    return ("1-0" if white > black else "0-1"), why


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


def elo_text(score, n):
    """The Elo estimate as text; at a score of 0% or 100% only a bound can be
    given: the exact 95% (two-sided) binomial bound of the score, as if every
    game were won or lost."""
    if n == 0:
        return "n/a"
    to_elo = lambda q: -400 * math.log10(1 / q - 1)
    if score <= 0:
        return "below %+.0f" % to_elo(1 - 0.025 ** (1 / n))
    if score >= n:
        return "above %+.0f" % to_elo(0.025 ** (1 / n))
    p = score / n
    sd = math.sqrt(p * (1 - p) / n)
    lo, hi = p - 1.96 * sd, p + 1.96 * sd
    bound = lambda q: "%+.0f" % to_elo(q) if 0 < q < 1 else ("-inf" if q <= 0 else "+inf")
    return "%+.0f [%s, %s]" % (to_elo(p), bound(lo), bound(hi))


def clock_summary(log, base, inc, who="chimera", before=40, floor=0.4):
    """A clock log's summary for one side: moves, mean and longest think, the
    lowest clock (and where), the lowest before move `before`, and whether it
    stayed above `floor` of the base time until then (in sudden death with
    an increment the clock must not be spent early)."""
    mine = [e for e in log if e[1] == who]
    if not mine:
        return {"moves": 0}
    early = [e for e in mine if (e[0] + 1) // 2 < before]
    low = min(mine, key=lambda e: e[3])
    low_early = min(early, key=lambda e: e[3]) if early else None
    return {
        "moves": len(mine),
        "mean": sum(e[2] for e in mine) / len(mine),
        "longest": max(e[2] for e in mine),
        "lowest": low[3],
        "lowest_move": (low[0] + 1) // 2,
        "lowest_early": low_early[3] if low_early else None,
        "ok": low[3] >= 0 and (low_early is None or low_early[3] >= floor * base),
        "last": mine[-1][3],
    }


def clock_summary_text(s, base):
    if not s["moves"]:
        return "no moves"
    early = "n/a" if s["lowest_early"] is None else "%.2f s (%.0f%%)" % (s["lowest_early"], 100 * s["lowest_early"] / base)
    return ("%d moves, mean %.3f s, longest %.3f s, lowest clock %.2f s at move %d, lowest before move 40 %s, "
            "last %.2f s: %s" % (s["moves"], s["mean"], s["longest"], s["lowest"], s["lowest_move"], early,
                                  s["last"], "ok" if s["ok"] else "FAILED"))


def pgn(args, game_no, white, black, result, reason, moves, opening_len):
    tags = [("Event", "Chimera match"), ("Site", os.uname().nodename), ("Date", time.strftime("%Y.%m.%d")),
            ("Round", str(game_no)), ("White", white), ("Black", black), ("Result", result),
            ("Variant", args.variant),
            ("TimeControl", args.tc + (" (opponent %s)" % args.opponent_tc if args.opponent_tc else "")), ("Termination", reason),
            ("Opening", "%d random plies" % opening_len)]
    text = "".join('[%s "%s"]\n' % t for t in tags) + "\n"
    line, out = "", []
    for i, m in enumerate(moves):
        tok = ("%d. " % (i // 2 + 1) if i % 2 == 0 else "") + m
        if len(line) + len(tok) > 78:
            out.append(line)
            line = ""
        line = (line + " " + tok).strip()
    out.append((line + " " + result).strip())
    return text + "\n".join(out) + "\n\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="chess", help="Chimera's (Fairy-Stockfish's) name of the variant")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--tc", default="10+0.1", help="BASE+INC seconds, or MOVES/SECONDS repeating")
    ap.add_argument("--opponent", default="/usr/games/fairymax", help="the opponent's command line")
    ap.add_argument("--opponent-tc", help="BASE+INC for the opponent (time odds); default: --tc")
    ap.add_argument("--proto", choices=["xboard", "uci"], default="xboard")
    ap.add_argument("--opponent-variant", help="the variant's name for the opponent (default: XBoard's or the same)")
    ap.add_argument("--chimera", default=os.path.join(ROOT, "target/release/chimera"))
    ap.add_argument("--hash", type=int, default=16, help="table size of both engines, MiB")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--random-plies", type=int, default=2, help="random opening plies, shared by a pair of games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--grace", type=float, default=0.5, help="seconds over the clock before a time forfeit")
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once")
    ap.add_argument("--pgn", help="append the games to this file")
    ap.add_argument("--referee", choices=["chimera", "pyffish"], default="chimera",
                    help="whose move generator and game ends referee the games")
    ap.add_argument("--clock-log", help="append each move's time and clock to this file, and check "
                    "that Chimera's clock stays above 40%% of the base time before move 40")
    args = ap.parse_args()
    try:
        if "+" in args.tc:
            b, i = args.tc.split("+")
            args.moves, args.base, args.inc = 0, float(b), float(i)
        else:
            m, s = args.tc.split("/")
            args.moves, args.base, args.inc = int(m), float(s), 0.0
    except ValueError:
        sys.exit("error: --tc must be BASE+INC or MOVES/SECONDS, e.g. 10+0.1 or 40/10")
    args.obase, args.oinc = args.base, args.inc
    if args.opponent_tc:
        try:
            b, i = args.opponent_tc.split("+")
            args.obase, args.oinc = float(b), float(i)
        except ValueError:
            sys.exit("error: --opponent-tc must be BASE+INC, e.g. 1+0.01")
        if args.moves:
            sys.exit("error: --opponent-tc needs --tc in the BASE+INC form")
    if args.opponent_variant is None:
        args.opponent_variant = XBOARD_NAMES.get(args.variant, args.variant) if args.proto == "xboard" else args.variant
    if not os.path.exists(args.chimera):
        sys.exit("error: %s not found (cargo build --release)" % args.chimera)
    tenth = args.proto == "xboard" and Referee(args.chimera, args.variant).height() == 10
    ref = PyffishReferee(args.variant) if args.referee == "pyffish" else Referee(args.chimera, args.variant)
    rng = random.Random(args.seed)
    openings = []
    for _ in range((args.games + 1) // 2):
        moves = []
        for _ in range(args.random_plies):
            legal = ref.legal(moves)
            if not legal or ref.result(moves):
                break
            moves.append(rng.choice(sorted(legal)))
        openings.append(moves)
    tally = {"w": 0, "d": 0, "l": 0}
    forfeits = {k: [0, 0] for k in ("illegal", "time", "no answer", "rejected")}
    mapped_total = [0]
    clock_ok = [0, 0]
    lock = threading.Lock()
    jobs = queue.Queue()
    for g in range(args.games):
        jobs.put(g)

    def worker():
        while True:
            try:
                g = jobs.get_nowait()
            except queue.Empty:
                return
            chimera_white = g % 2 == 0
            opening = openings[g // 2]
            log = [] if args.clock_log else None
            result, reason, forfeit, mapped, moves, opp_name = play_game(args, ref, tenth, chimera_white, g + 1,
                                                                         opening, log)
            chimera_won = result != "1/2-1/2" and (result == "1-0") == chimera_white
            with lock:
                if result == "1/2-1/2":
                    tally["d"] += 1
                elif chimera_won:
                    tally["w"] += 1
                else:
                    tally["l"] += 1
                if forfeit:
                    # index 0: Chimera forfeited, 1: the opponent did
                    forfeits[forfeit][1 if chimera_won else 0] += 1
                mapped_total[0] += mapped
                print("game %d: Chimera %s, %s %s (%d plies)" % (g + 1, "White" if chimera_white else "Black",
                                                                result, reason, len(moves)), flush=True)
                if log is not None:
                    summary = clock_summary(log, args.base, args.inc)
                    clock_ok[0 if summary.get("ok", True) else 1] += 1
                    text = clock_summary_text(summary, args.base)
                    print("game %d clock: %s" % (g + 1, text), flush=True)
                    with open(args.clock_log, "a") as f:
                        f.write("# game %d, %s, tc %s, Chimera %s: %s (%s)\n" % (
                            g + 1, args.variant, args.tc, "White" if chimera_white else "Black", result, reason))
                        f.write("# ply who spent_s clock_s\n")
                        for ply, who, spent, left in log:
                            f.write("%d %s %.3f %.3f\n" % (ply, who, spent, left))
                        f.write("# Chimera: %s\n" % text)
                if args.pgn:
                    names = ("Chimera", opp_name) if chimera_white else (opp_name, "Chimera")
                    with open(args.pgn, "a") as f:
                        f.write(pgn(args, g + 1, names[0], names[1], result, reason, moves, len(opening)))

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    w, d, l = tally["w"], tally["d"], tally["l"]
    n = w + d + l
    score = w + d / 2
    print("Chimera vs %s, %s, tc %s%s: +%d =%d -%d, score %.1f/%d (%.0f%%), Elo %s (95%%)"
          % (os.path.basename(shlex.split(args.opponent)[0]), args.variant, args.tc,
             " (opponent %s)" % args.opponent_tc if args.opponent_tc else "", w, d, l, score, n,
             100 * score / max(n, 1), elo_text(score, n)))
    print("forfeits (Chimera/opponent): illegal %d/%d, time %d/%d, no answer %d/%d, rejected a legal move %d/%d; "
          "promotion letters mapped: %d"
          % (forfeits["illegal"][0], forfeits["illegal"][1], forfeits["time"][0], forfeits["time"][1],
             forfeits["no answer"][0], forfeits["no answer"][1], forfeits["rejected"][0], forfeits["rejected"][1],
             mapped_total[0]))
    if args.clock_log:
        print("clock check (above 40%% of the base time before move 40, no flag fall): %d games ok, %d failed"
              % (clock_ok[0], clock_ok[1]))


if __name__ == "__main__":
    main()
