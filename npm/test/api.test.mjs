// The npm package against reference data of the repository (tests/data:
// Fairy-Stockfish's and pyffish's start FENs, legal moves, SAN, PGN and
// game ends). Run by scripts/test-npm.sh after the package is built.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  Board, ChimeraGame, Notation, variants, startingFen, validateFen, loadVariantConfig,
  capturesToHand, readGamePGN, info, version, listVariants,
} from "../index.js";

const data = (p) => fileURLToPath(new URL(`../../tests/data/${p}`, import.meta.url));
const jsonl = (p) => readFileSync(data(p), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
const sorted = (s) => s.split(" ").filter(Boolean).sort();

const VARIANTS = ["chess", "xiangqi", "shogi", "crazyhouse", "janggi", "makruk", "capablanca", "seirawan"];

test("start FENs and legal moves equal Fairy-Stockfish's (tests/data/fsf)", () => {
  const names = variants().split(" ");
  for (const v of VARIANTS) {
    assert.ok(names.includes(v), v);
    const [head, ...positions] = jsonl(`fsf/${v}.jsonl`);
    // Fairy-Stockfish writes shogi's start FEN in its own form ("[-] w 0 1")
    // and Seirawan's hands in another order ("[HEhe]"); Chimera reads both
    // and writes "[]" with all six fields and "[EHeh]"
    const b = new Board(v, head.start_fen);
    if (v !== "shogi" && v !== "seirawan") assert.equal(startingFen(v), head.start_fen, v);
    assert.equal(new Board(v).fen(), b.fen(), v);
    assert.equal(b.numberLegalMoves(), head.perft["1"], v);
    assert.equal(b.perft(2), head.perft["2"], v);
    for (const p of positions.slice(0, 20)) {
      b.setFen(p.fen);
      assert.deepEqual(sorted(b.legalMoves()), [...p.moves].sort(), `${v} ${p.fen}`);
      assert.equal(b.numberLegalMoves(), p.moves.length);
    }
  }
});

test("push and pop round trips", () => {
  for (const v of VARIANTS) {
    const b = new Board(v);
    const fens = [b.fen()];
    const played = [];
    // the first legal move each time, 30 plies (or until none is left)
    for (let i = 0; i < 30; i++) {
      const moves = b.legalMoves().split(" ").filter(Boolean);
      if (moves.length === 0) break;
      const m = moves[i % moves.length];
      b.push(m);
      played.push(m);
      fens.push(b.fen());
    }
    assert.equal(b.moveStack(), played.join(" "));
    assert.equal(b.gamePly(), played.length, v);
    while (played.length) {
      assert.equal(b.pop(), played.pop());
      fens.pop();
      assert.equal(b.fen(), fens[fens.length - 1], v);
    }
    assert.equal(b.pop(), undefined);
    const c = new Board(v);
    c.pushMoves(b.legalMoves().split(" ")[0]);
    c.reset();
    assert.equal(c.fen(), startingFen(v));
  }
});

const NOTATION_OF = {
  san: Notation.SAN, lan: Notation.LAN, shogi_hosking: Notation.SHOGI_HOSKING, shogi_hodges: Notation.SHOGI_HODGES,
  shogi_hodges_number: Notation.SHOGI_HODGES_NUMBER, janggi: Notation.JANGGI, xiangqi_wxf: Notation.XIANGQI_WXF,
  thai_san: Notation.THAI_SAN, thai_lan: Notation.THAI_LAN,
};

test("SAN equals pyffish's get_san (tests/data/san)", () => {
  let n = 0;
  for (const v of ["chess", "xiangqi", "shogi", "janggi", "makruk", "crazyhouse"]) {
    const [head, ...positions] = jsonl(`san/${v}.jsonl`);
    for (const p of positions.slice(0, 10)) {
      const b = new Board(v, p.fen);
      for (const [uci, texts] of Object.entries(p.moves)) {
        for (const name of head.notations) {
          assert.equal(b.sanMove(uci, NOTATION_OF[name]), texts[name], `${v} ${p.fen} ${uci} ${name}`);
          n++;
        }
        assert.equal(b.sanMove(uci), texts[head.default], `${v} ${uci} default`);
      }
    }
  }
  assert.ok(n > 500, `${n} moves`);
  const b = new Board("chess");
  assert.equal(b.variationSan("e2e4 e7e5 g1f3"), "1. e4 e5 2. Nf3");
  assert.equal(b.variationSan("e2e4 e7e5", Notation.LAN, false), "e2-e4 e7-e5");
  b.pushSan("e4");
  b.pushSanMoves("e5 Nf3");
  assert.equal(b.moveStack(), "e2e4 e7e5 g1f3");
  assert.equal(b.legalMovesSan().split(" ").length, b.numberLegalMoves());
});

test("readGamePGN reads tests/data/pgn games to pyffish's final FEN", () => {
  for (const v of ["xiangqi", "shogi", "crazyhouse"]) {
    const text = readFileSync(data(`pgn/${v}.pgn`), "utf8");
    const first = text.split(/\n\n(?=\[Event)/)[0];
    const g = readGamePGN(first);
    assert.equal(g.headers("Variant").toLowerCase(), v);
    assert.ok(g.headerKeys().split(" ").includes("FinalFEN"));
    const b = new Board(g.variant(), g.startFen());
    b.pushMoves(g.mainlineMoves());
    assert.equal(b.fen(), g.headers("FinalFEN"), v);
    assert.equal(g.mainlineSan().length, g.mainlineMoves().split(" ").length);
  }
});

test("game ends: mate, stalemate, repetition from tests/data/pyffish_game_end", () => {
  const b = new Board("chess");
  b.pushMoves("f2f3 e7e5 g2g4 d8h4");
  assert.equal(b.isGameOver(), true);
  assert.equal(b.result(), "0-1");
  assert.deepEqual(b.gameEnd(), { result: "0-1", reason: "checkmate", claimable: false });
  assert.ok(b.isCheck());
  const s = new Board("chess", "k7/8/1Q6/8/8/8/8/7K b - - 0 1");
  assert.equal(s.numberLegalMoves(), 0);
  assert.deepEqual(s.gameEnd(), { result: "1/2-1/2", reason: "stalemate", claimable: false });
  // a repetition pyffish reports as an optional end (claimable here)
  const cases = jsonl("pyffish_game_end/game_end.jsonl");
  const rep = cases.find((c) => c.variant === "chess" && c.optional[0] && !c.immediate[0] && c.result === null);
  assert.ok(rep, "a chess repetition in the data");
  const r = new Board("chess", rep.fen);
  r.pushMoves(rep.moves.join(" "));
  assert.equal(r.isGameOver(), false);
  assert.equal(r.isGameOver(true), true);
  assert.equal(r.result(), "*");
  assert.equal(r.result(true), "1/2-1/2");
  assert.equal(r.gameEnd(true).reason, "repetition");
  assert.equal(r.gameEnd(true).claimable, true);
  // an immediate end of pyffish's (flag, extinction, checks)
  const imm = cases.find((c) => c.immediate[0] && c.variant === "3check");
  const i = new Board(imm.variant, imm.fen);
  i.pushMoves(imm.moves.join(" "));
  assert.equal(i.isGameOver(), true);
  assert.equal(i.gameEnd().reason, "checks given");
  // insufficient material
  const k = new Board("chess", "k7/8/8/8/8/8/8/6NK w - - 0 1");
  assert.equal(k.hasInsufficientMaterial(true), true);
  assert.equal(k.hasInsufficientMaterial(false), true);
  assert.equal(k.isInsufficientMaterial(), true);
  assert.equal(new Board("chess").isInsufficientMaterial(), false);
});

test("bad input throws errors, never crashes", () => {
  assert.throws(() => new Board("chess", "not a fen"), /./);
  assert.throws(() => new Board("nonesuch"), /nonesuch/);
  const b = new Board("chess");
  assert.throws(() => b.push("e2e5"), /e2e5/);
  assert.throws(() => b.push(""), Error);
  assert.throws(() => b.pushSan("Nf9"), Error);
  assert.throws(() => b.pushMoves("e2e4 e2e4"), Error);
  assert.equal(b.moveStack(), "", "a failed list leaves the game as it was");
  assert.throws(() => b.setFen("8/8/8 w"), Error);
  assert.throws(() => b.sanMove("a1a8"), Error);
  assert.throws(() => b.perft(0), Error);
  assert.throws(() => readGamePGN("1. e5 *"), Error);
  assert.throws(() => loadVariantConfig("[broken:nonesuch]\n"), Error);
  assert.equal(validateFen("", "chess"), 0);
  assert.equal(validateFen(startingFen("chess"), "chess"), 1);
  assert.ok(validateFen("8/8/8/8/8/8/8/8 w - - 0 1", "chess") < 0);
  // the game goes on after the errors
  b.push("e2e4");
  assert.equal(b.turn(), false);
});

test("module functions, variants.ini, the engine and ChimeraGame", () => {
  assert.match(info(), /Chimera/);
  assert.match(version(), /^\d+\.\d+\.\d+$/);
  assert.equal(capturesToHand("crazyhouse"), true);
  assert.equal(capturesToHand("chess"), false);
  loadVariantConfig("[nightriders:chess]\nknight = -\ncustomPiece1 = n:NN\n");
  assert.ok(variants().split(" ").includes("nightriders"));
  // 16 pawn moves and four rides of each nightrider (b1: a3, c3, d5, e7)
  assert.equal(new Board("nightriders").numberLegalMoves(), 24);
  const z = new Board("crazyhouse", "4k3/8/8/8/8/8/8/4K3[PPn] w - - 0 1");
  assert.equal(z.pocket(true), "pp");
  assert.equal(z.pocket(false), "n");
  const m = new Board("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
  assert.equal(m.bestMove(2000, 4).best, "a1a8");
  const ml = new Board("mightylion", "4k3/8/8/3pp3/3L4/8/8/4K3 w - - 0 1");
  assert.ok(ml.targets("d4").some((t) => t.square === "e5" && t.kinds.includes("victim")));
  assert.ok(ml.secondLegTargets("d4", "e5").length > 5);
  assert.ok(listVariants().length > 50);
  const g = ChimeraGame.fromBuiltin("chess");
  g.play("f2f3");
  g.pushSan("e5");
  assert.deepEqual(g.sanHistory(), ["f3", "e5"]);
  assert.equal(g.sanMove("g2g4"), "g4");
  const pgn = g.pgn();
  assert.match(pgn, /\[Variant "chess"\]/);
  const h = ChimeraGame.fromBuiltin("xiangqi");
  h.loadPgn(pgn);
  assert.equal(h.variantName, "chess");
  assert.deepEqual(h.history(), ["f2f3", "e7e5"]);
  assert.equal(h.gameEnd(), null);
});

// A move that comes back to its own square (HaChu and Chimera may write a
// position's one pass on different pieces).
const isPass = (m) => {
  const body = m.replace(/\+$/, "");
  if (body.includes(",") || body.length < 4) return false;
  const cut = [...body].findIndex((c, k) => k > 0 && /[a-z]/.test(c));
  return cut > 0 && body.slice(0, cut) === body.slice(cut);
};
const normalised = (moves) => new Set(moves.map((m) => (isPass(m) ? "pass" : m)));
// The squares of a Tenjiku FEN holding a piece HaChu simplifies (the Fire
// Demon, the Vice General, the Free Eagle, the Heavenly Tetrarchs:
// variants/tenjikushogi.toml), whose moves HaChu's lists do not have.
const SIMPLIFIED = new Set(["d!", "+w!", "v!", "+b!", "q'", "+q", "+c!"]);
const simplifiedSquares = (fen) => {
  const squares = new Set();
  fen.split(" ")[0].split("/").forEach((row, k) => {
    let f = 0;
    for (const t of row.match(/\+?[A-Za-z][!']?|\d+/g)) {
      if (/^\d/.test(t)) {
        f += Number(t);
        continue;
      }
      if (SIMPLIFIED.has(t.toLowerCase())) squares.add("abcdefghijklmnop"[f] + (16 - k));
      f++;
    }
  });
  return squares;
};
const origin = (m) => m.slice(0, [...m].findIndex((c, k) => k > 0 && /[a-z]/.test(c)));

test("Tenjiku Shogi (16x16) plays on the module's wide core, against HaChu's lists (tests/data/hachu_tenjiku.jsonl)", () => {
  assert.ok(listVariants().some((v) => v.name === "tenjikushogi"));
  assert.ok(variants().split(" ").includes("tenjikushogi"));
  const g = ChimeraGame.fromBuiltin("tenjikushogi");
  assert.equal(g.width, 16);
  assert.equal(g.height, 16);
  const cases = readFileSync(data("hachu_tenjiku.jsonl"), "utf8").split("\n")
    .filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  let checked = 0;
  let swapped = 0;
  for (const c of cases) {
    if (checked === 40) break;
    try {
      g.setFen(c.fen);
    } catch {
      continue; // a random game's position where the side not to move is in check
    }
    const details = g.moveDetails();
    assert.equal(new Board("tenjikushogi", c.fen).numberLegalMoves(), details.length, c.fen);
    // HaChu lists pseudo-legal moves; Chimera's legal moves are among them
    // but for HaChu's swapped jump captures, which are always captures, and
    // the moves of the pieces HaChu simplifies (and the pass, which one of
    // them may make)
    const hachu = normalised(c.moves);
    const skip = simplifiedSquares(c.fen);
    for (const d of details) {
      if (skip.has(origin(d.uci)) || isPass(d.uci)) continue;
      const m = d.uci;
      if (!hachu.has(m)) {
        assert.ok(d.capture, `${c.fen}: ${d.uci} is not in HaChu's list and is no capture`);
        swapped++;
      }
    }
    checked++;
  }
  assert.equal(checked, 40);
  assert.ok(swapped <= 28, `${swapped} captures HaChu lists differently`);
});
