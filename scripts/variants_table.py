#!/usr/bin/env python3
"""Updates the table of docs/variants.md: every Fairy-Stockfish built-in variant
(pyffish's list), whether Chimera ships it and matches pyffish, and if not, why.
Only the table rows and the "N of M match" count are rewritten; the rest of the
page is hand-written and kept.

Usage: scripts/variants_table.py   (run from the repository root; needs pyffish)
A variant counts as "matches" when variants/<name>.toml exists and
tests/data/fsf/<name>.jsonl exists: the test crates/chimera/tests/fsf_variants.rs
then requires identical legal moves, FENs after moves and perft 1-3. The reason
for a variant not shipped comes from docs/fsf-catalogue.md (its "needs" column),
or from NOTES below where work on it found more.
"""
import json, os, re
import pyffish as sf

NOTES = {
    "makpong": "counting rules (FEN fields); the makpong rule (a king in check may only capture the checker)",
    "cambodian": "counting rules; unmoved king and met leaps marked in the castling field (DEde)",
    "seirawan": "gating (S-chess): placing a hand piece on a vacated back-rank square; gate files in the castling field",
    "shouse": "gating, as seirawan, with drops",
    "sittuyin": "the placement phase (compulsory drops at the start) and Sittuyin promotion",
    "placement": "compulsory drops at the start, bishops on opposite colours",
    "shatar": "the bare king is a draw (robado) and Shatar's mate scoring",
    "berolina": "Fairy-Stockfish's double-step rule (initial moves by region) and several e.p. squares in the FEN",
    "pawnsideways": "Fairy-Stockfish's double-step rule (initial moves by region, also after moving back)",
    "pawnback": "Fairy-Stockfish's double-step rule; pawns confined to ranks 2-8",
    "torpedo": "double steps from any square that create e.p. squares",
    "spartan": "different armies, two kings where only both attacked is check, promotion limits by side",
    "torishogi": "up to two pawns (swallows) per file (dropNoDoubledCount = 2)",
    "dobutsu": "a non-royal piece whose capture loses, and reaching the last rank to win",
    "kyotoshogi": "pieces that change type on every move, drops in either state",
    "micro": "promotion and demotion on capture, drops in either state",
    "losers": "moves match, but being checkmated wins: a result Chimera's outcome() cannot express yet",
    "suicide": "moves match, but a stalemate is decided by counting pieces",
    "misere": "result-only rules (being mated wins)",
    "armageddon": "result-only rules (draw odds)",
    "jesonmor": "flag rule where the flag piece must survive the reply (flagMove)",
    "racingkings": "flag rule with an equalising reply (flagMove), and no move may give check",
}

def main():
    names = sorted(sf.variants())
    shipped = {f[:-5] for f in os.listdir("variants") if f.endswith(".toml")}
    data = {f[:-6] for f in os.listdir("tests/data/fsf") if f.endswith(".jsonl")}
    needs = {}
    for line in open("docs/fsf-catalogue.md"):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 8 and re.fullmatch(r"[ABC]", cells[1] or ""):
            needs[cells[2]] = cells[7]
    rows, ok = [], 0
    for n in names:
        if n in shipped and n in data:
            counts = sum(1 for l in open("tests/data/fsf/%s.jsonl" % n) if '"played"' in l)
            rows.append("| %s | matches | %d positions, perft 1-3, FEN after each move |" % (n, counts))
            ok += 1
        elif n in shipped:
            rows.append("| %s | shipped, no reference data yet | |" % n)
        else:
            why = NOTES.get(n) or needs.get(n) or "not examined yet"
            rows.append("| %s | not yet | %s |" % (n, why.replace("|", "/")))
    # Only the generated parts are replaced: the table (from its header row to
    # the first line after it that is not a table row), the "N of M match"
    # count and the pyffish version. Everything else in docs/variants.md is
    # written by hand and kept as it is.
    path = "docs/variants.md"
    lines = open(path).read().split("\n")
    try:
        head = next(i for i, l in enumerate(lines) if l.startswith("| variant | status |"))
    except StopIteration:
        raise SystemExit("%s has no table header '| variant | status | ...'" % path)
    tail = head + 2
    while tail < len(lines) and lines[tail].startswith("|"):
        tail += 1
    lines[head + 2:tail] = rows
    text = "\n".join(lines)
    text, n = re.subn(r"\*\*\d+ of \d+ match\.\*\*", "**%d of %d match.**" % (ok, len(names)), text, count=1)
    if n != 1:
        raise SystemExit("%s has no '**N of M match.**' sentence" % path)
    text = re.sub(r"from pyffish [0-9.]+ variant list", "from pyffish %s variant list" % ".".join(map(str, sf.version())), text, count=1)
    open(path, "w").write(text)
    print("%d of %d match" % (ok, len(names)))

if __name__ == "__main__":
    main()
