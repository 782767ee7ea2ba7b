// End-to-end test of the web page in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core; no browser is downloaded).
//
// It serves web/ with `python3 -m http.server`, loads the page, picks
// Xiangqi and then Mighty Lion Chess, clicks pieces and compares the
// highlighted squares and their kinds with the native command line
// (`chimera moves --from SQ [--via V]`), plays moves by click and by drag,
// lets the engine (in its Web Worker) reply and checks each reply against
// the command line's legal moves. It also tries promotion, drops and a
// user's variants.ini definition, measures the highlight time, and saves
// screenshots (web-*.png) to target/web-screenshots, or to the folder given
// by --screenshots-dir (`--screenshots-dir docs` renews the committed ones).
//
// Usage: node web/tests/e2e.mjs [--cli target/release/chimera] [--port 8765] [--no-screenshots]
//                               [--screenshots-dir DIR]
// Prints the figures as JSON on its last line; exits 1 on any failure.

import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const cli = resolve(root, opt("--cli", "target/release/chimera"));
const port = Number(opt("--port", "8765"));
const screenshots = !argv.includes("--no-screenshots");
const shotDir = resolve(root, opt("--screenshots-dir", "target/web-screenshots"));
if (screenshots) mkdirSync(shotDir, { recursive: true });

let failures = 0;
const engineTimes = []; // "time limit:wall time" of each engine reply, in ms
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) {
    failures++;
    console.log(`FAIL: ${what}`);
  }
}
function log(s) {
  console.log(s);
}

// ----- the native command line, the reference -----

function cliLines(args) {
  // permissive: the page's move diagrams are positions without kings
  return execFileSync(cli, ["moves", "--permissive", ...args], { encoding: "utf8" }).split("\n").filter(Boolean);
}
function variantArgs(v) {
  return v.file ? ["--variant-file", v.file, "--variant", v.name] : ["--variant", v.name];
}
/** square -> sorted kinds, as `chimera moves --from` prints them. */
function cliTargets(v, fen, from, via) {
  const args = [...variantArgs(v), "--fen", fen, "--from", from];
  if (via) args.push("--via", via);
  const m = new Map();
  for (const line of cliLines(args)) {
    const [sq, kinds] = line.split(" ");
    m.set(sq, kinds.split(",").sort().join(","));
  }
  return m;
}
function cliMoves(v, fen) {
  return cliLines([...variantArgs(v), "--fen", fen]);
}

/** The origin and final destination of a move in UCI notation (null for a drop). */
function fromTo(m) {
  if (m.includes("@")) return null;
  const parts = m.split(",");
  const a = parts[0].match(/^([a-z]+\d+)([a-z]+\d+)/);
  const z = parts[parts.length - 1].match(/^([a-z]+\d+)([a-z]+\d+)/);
  return a && z ? [a[1], z[2]] : null;
}

function sameMap(a, b) {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}
const show = (m) => JSON.stringify([...m].sort());

// ----- the page -----

async function highlighted(page) {
  const pairs = await page.$$eval(".sq[data-kinds]", (els) =>
    els.map((e) => [e.dataset.square, e.dataset.kinds.split(",").sort().join(",")]));
  return new Map(pairs);
}
async function fen(page) {
  return page.$eval("#board", (b) => b.dataset.fen);
}
async function history(page) {
  return page.evaluate(() => window.chimeraPage.game().history());
}
async function clickSquare(page, sq) {
  await page.click(`.sq[data-square="${sq}"]`);
}
async function selectVariant(page, name) {
  await page.selectOption("#variant", name);
  await page.waitForFunction((n) => document.getElementById("board").dataset.variant === n, name);
}
async function setEngine(page, side) {
  await page.selectOption("#engine-side", side);
}
async function setFen(page, f) {
  await page.fill("#fen", f);
  await page.click("#set-fen");
  await page.waitForFunction((x) => document.getElementById("board").dataset.fen === x, f);
}

/** Clicks every piece of the side to move and compares its highlight with the CLI's. */
async function checkAllPieces(page, v, label) {
  const f = await fen(page);
  const stm = f.split(" ")[1] === "w" ? "white" : "black";
  const squares = await page.$$eval(`.sq[data-color="${stm}"]`, (els) => els.map((e) => e.dataset.square));
  const legal = cliMoves(v, f);
  let n = 0;
  for (const sq of squares) {
    await clickSquare(page, sq);
    const got = await highlighted(page);
    const want = cliTargets(v, f, sq);
    check(sameMap(got, want), `${label}: ${sq} highlights ${show(got)}, the CLI says ${show(want)}`);
    // and every legal move from this square lands on a highlighted square
    for (const m of legal) {
      const ft = fromTo(m);
      if (ft && ft[0] === sq) check(got.has(ft[1]), `${label}: ${m} has its destination highlighted`);
    }
    // deselect (a second click on a piece that may pass would offer the pass)
    await page.keyboard.press("Escape");
    n++;
  }
  return n;
}

/** Waits for the engine's reply and checks it was legal in the position it was asked about. */
async function engineReply(page, v, fenBefore, plies) {
  await page.waitForFunction((n) => window.chimeraPage.game().history().length >= n && document.body.dataset.engine === "idle",
    plies, { timeout: 60000 });
  const h = await history(page);
  const reply = h[h.length - 1];
  const t = await page.evaluate(() => window.chimeraPage.stats.lastEngine);
  // the search's own limit, plus the worker's messages (and, the first time, its module's start)
  engineTimes.push(t && `${t.movetime}:${Math.round(t.wallMs)}`);
  check(t && t.wallMs <= t.movetime + 1000, `${v.name}: the reply came within the time limit (${JSON.stringify(t)})`);
  check(cliMoves(v, fenBefore).includes(reply), `${v.name}: the engine's reply ${reply} is legal in ${fenBefore}`);
  return reply;
}

/**
 * The native engine's search to depth 9 from the chess start position (UCI, one
 * thread, the package's 16 MB table): its last iteration's nodes and time.
 */
function nativeSearch() {
  const out = execFileSync("sh", ["-c",
    `(printf 'uci\\nsetoption name Threads value 1\\nsetoption name Hash value 16\\nposition startpos\\ngo depth 9\\n'; `
    + `sleep 4; echo quit) | "${cli}" uci`],
  { encoding: "utf8" });
  const infos = out.split("\n").filter((l) => l.startsWith("info depth"));
  const last = infos[infos.length - 1] || "";
  const num = (k) => Number((last.match(new RegExp(` ${k} (\\d+)`)) || [])[1]);
  return { nodes: num("nodes"), ms: num("time"), depth: num("depth"), nps: Math.round(num("nodes") / (num("time") / 1000)) };
}

/** The moves of `chimera pgn` for a game, in the variant's notation (the move text without numbers or result). */
function cliSan(v, moves, fenStart) {
  const args = ["pgn", ...variantArgs(v), "--moves", moves.join(" ")];
  if (fenStart) args.push("--fen", fenStart);
  const out = execFileSync(cli, args, { encoding: "utf8" });
  const text = out.split("\n").filter((l) => !l.startsWith("[")).join(" ").replace(/\{[^}]*\}/g, " ");
  return text.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
}
/** The final FEN of the first game of a PGN text, as `chimera pgn --read` finds it. */
function cliPgnFen(text) {
  const out = execFileSync(cli, ["pgn", "--read", "-"], { encoding: "utf8", input: text });
  const [, status, f] = out.split("\n")[0].split("\t");
  return status === "ok" ? f : `error: ${f}`;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// ----- the move list, PGN, the pictures and the layout -----

async function moveTexts(page) {
  return page.$$eval("#moves .mv", (els) => els.map((e) => e.textContent));
}
async function shownPly(page) {
  return Number(await page.$eval("#moves", (e) => e.dataset.ply));
}
/** The board's box in the page (not the window, so that scrolling does not count), in px. */
async function boardBox(page) {
  return page.$eval("#board", (e) => {
    const b = e.getBoundingClientRect();
    return JSON.stringify([b.left + scrollX, b.top + scrollY, b.width, b.height].map((n) => Math.round(n * 10) / 10));
  });
}
/** Plays UCI moves by clicking their two squares; returns the FEN after each ply (the start first). */
async function clickMoves(page, moves) {
  const fens = [await fen(page)];
  for (const m of moves) {
    const [, a, b] = m.match(/^([a-z]+\d+)([a-z]+\d+)$/);
    await clickSquare(page, a);
    await clickSquare(page, b);
    fens.push(await fen(page));
  }
  return fens;
}
async function pgnMsg(page) {
  return page.$eval("#pgn-msg", (e) => ({ text: e.textContent, bad: e.classList.contains("bad") }));
}
async function loadPgnText(page, text) {
  await page.fill("#pgn-text", text);
  await page.click("#pgn-load");
}
/** Whether the page is wider than its window (a horizontal scroll bar). */
async function overflowX(page) {
  return page.evaluate(() => {
    const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
      .map((e) => e.id || e.className || e.tagName).slice(0, 5);
    return { scroll: document.documentElement.scrollWidth, width: innerWidth, wide };
  });
}

async function checkMoveListPgnLayout(page, context) {
  const chess = { name: "chess" };
  await setEngine(page, "none");
  await selectVariant(page, "chess");
  // pictures: the orthodox pieces are figures, not letters
  const looks = await page.$$eval(".sq[data-piece] svg", (els) => els.map((e) => e.dataset.look));
  check(looks.length === 32 && looks.every((l) => /^chess-[KQRBNP]$/.test(l)), `chess: 32 figures (${[...new Set(looks)]})`);
  check(await page.$eval('.sq[data-square="e1"] svg', (e) => e.dataset.look) === "chess-K"
    && await page.$eval('.sq[data-square="g8"] svg', (e) => e.dataset.look) === "chess-N", "chess: a king on e1, a knight on g8");
  check((await page.$eval("#status", (e) => e.textContent)).includes("White to move"), "chess: White to move");

  // the move list after four moves: 1. e4 e5 2. Nf3 Nc6 (SAN, derived by hand)
  const box0 = await boardBox(page);
  const four = ["e2e4", "e7e5", "g1f3", "b8c6"];
  const fens = await clickMoves(page, four);
  check(await boardBox(page) === box0, `the board does not move when moves are played (${box0}, ${await boardBox(page)})`);
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(["e4", "e5", "Nf3", "Nc6"]), `move list ${await moveTexts(page)}`);
  check(JSON.stringify(await page.$$eval("#moves .no", (e) => e.map((x) => x.textContent))) === JSON.stringify(["1.", "2."]),
    "the moves are numbered 1. and 2.");
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(cliSan(chess, four)), "the move list is the CLI's PGN move text");
  check(await page.$eval("#moves .mv.current", (e) => e.dataset.ply) === "4", "the last move is the current one");
  // click to go back: after 1... e5
  await page.click('#moves .mv[data-ply="2"]');
  check(await fen(page) === fens[2] && await shownPly(page) === 2, `clicking e5 shows the position after it (${await fen(page)})`);
  check((await moveTexts(page)).length === 4, "the later moves stay in the list");
  check(await boardBox(page) === box0, "the board does not move when going back");
  // the keys: left, right, home, end
  await page.keyboard.press("ArrowLeft");
  check(await fen(page) === fens[1], "ArrowLeft: one move back");
  await page.keyboard.press("Home");
  check(await fen(page) === fens[0] && await shownPly(page) === 0, "Home: the start position");
  await page.keyboard.press("ArrowLeft");
  check(await fen(page) === fens[0], "ArrowLeft at the start stays there");
  await page.keyboard.press("ArrowRight");
  check(await fen(page) === fens[1], "ArrowRight: one move forward");
  await page.keyboard.press("End");
  check(await fen(page) === fens[4] && await shownPly(page) === 4, "End: the last position");
  await page.keyboard.press("ArrowRight");
  check(await fen(page) === fens[4], "ArrowRight at the end stays there");
  // keys typed into the FEN box do not move through the game
  await page.focus("#fen");
  await page.keyboard.press("Home");
  check(await shownPly(page) === 4, "Home in the FEN box does not go to the start");
  await page.$eval("#fen", (e) => e.blur());
  // the nav buttons
  await page.click("#nav-back");
  check(await shownPly(page) === 3, "the back button");
  await page.click("#nav-end");
  check(await shownPly(page) === 4, "the end button");
  // playing the line's own next move keeps the line; another move cuts it
  await page.keyboard.press("Home");
  await clickMoves(page, ["e2e4"]);
  check((await moveTexts(page)).length === 4 && await shownPly(page) === 1, "replaying the next move of the line keeps the line");
  await page.click('#moves .mv[data-ply="2"]');
  await clickMoves(page, ["d2d4"]);
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(["e4", "e5", "d4"]), `a new move cuts the line: ${await moveTexts(page)}`);
  // Undo at an earlier position: takes back the move before it, drops the rest
  await page.click('#moves .mv[data-ply="2"]');
  await page.click("#undo");
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(["e4"]), `undo from move 2 leaves e4 (${await moveTexts(page)})`);

  // a result line at the end: Fool's mate, 1. f3 e5 2. g4 Qh4# (by hand), 0-1
  await page.click("#new-game");
  const fool = ["f2f3", "e7e5", "g2g4", "d8h4"];
  const foolFens = await clickMoves(page, fool);
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(["f3", "e5", "g4", "Qh4#"]), `Fool's mate: ${await moveTexts(page)}`);
  check(await page.$eval("#moves .result", (e) => e.textContent) === "0-1 (checkmate)", "the result line 0-1 (checkmate)");
  await page.keyboard.press("ArrowLeft");
  check(await page.$eval("#moves .result", (e) => e.textContent) === "0-1 (checkmate)",
    "the result line stays while an earlier position is shown");
  await page.keyboard.press("End");
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shotDir, "web-chess-moves.png") });
  }

  // PGN out: in the box, and the same as a download
  await page.click("#pgn-export");
  const pgn = await page.$eval("#pgn-text", (e) => e.value);
  check(pgn.includes("Qh4#") && pgn.includes('[Result "0-1"]'), `the PGN has the moves and the result: ${pgn}`);
  check(cliPgnFen(pgn) === foolFens[4], `the CLI reads the page's PGN to the same position (${cliPgnFen(pgn)})`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#pgn-download")]);
  const dlPath = join(tmpdir(), `chimera-e2e-${process.pid}.pgn`);
  await download.saveAs(dlPath);
  const dl = readFileSync(dlPath, "utf8");
  rmSync(dlPath, { force: true });
  check(dl === pgn && download.suggestedFilename() === "chess.pgn", `the download is the same PGN (${download.suggestedFilename()})`);
  // PGN in: a new game, then the text back: the same position and list
  await page.click("#new-game");
  await loadPgnText(page, pgn);
  check(await fen(page) === foolFens[4] && JSON.stringify(await moveTexts(page)) === JSON.stringify(["f3", "e5", "g4", "Qh4#"]),
    `PGN round trip: ${await fen(page)}`);
  // errors are shown under the box; the game stays
  for (const bad of ["1. e4 e5 2. Ke3 *", '[Variant "no-such-variant"]\n\n1. e4 *', "1. e4 {never closed", "\u0000\u0001 garbage"]) {
    await loadPgnText(page, bad);
    const msg = await pgnMsg(page);
    check(msg.bad && msg.text.length > 10 && await fen(page) === foolFens[4], `bad PGN ${JSON.stringify(bad)}: "${msg.text}"`);
  }
  // a file
  const file = join(tmpdir(), `chimera-e2e-${process.pid}-in.pgn`);
  writeFileSync(file, pgn.replace("Qh4#", "Qh4"));
  await page.setInputFiles("#pgn-file", file);
  await page.waitForFunction(() => document.getElementById("pgn-msg").textContent.startsWith("loaded"));
  rmSync(file, { force: true });
  check(await fen(page) === foolFens[4], "a PGN file loads (with Qh4 for Qh4#)");

  // a variant and a start position: Mighty Lion Chess from a FEN, loaded while chess is on
  const ml = { name: "mightylion" };
  await selectVariant(page, "mightylion");
  const lionFen = "r1bqkbnr/ppp2ppp/2n5/3pp3/3L4/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1";
  await setFen(page, lionFen);
  const lionMoves = ["d4e5,e5f6", "g8f6", "b2b3"];
  for (const m of lionMoves) await page.evaluate((u) => window.chimeraPage.play(u), m);
  const lionEnd = await fen(page);
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(cliSan(ml, lionMoves, lionFen)),
    `mightylion list ${await moveTexts(page)}, CLI ${cliSan(ml, lionMoves, lionFen)}`);
  await page.click("#pgn-export");
  const lionPgn = await page.$eval("#pgn-text", (e) => e.value);
  check(/\[Variant "mightylion"\]/i.test(lionPgn) && lionPgn.includes(`[FEN "${lionFen}"]`), `Variant and FEN tags: ${lionPgn}`);
  await selectVariant(page, "chess");
  await loadPgnText(page, lionPgn);
  await page.waitForFunction(() => document.getElementById("board").dataset.variant === "mightylion");
  check(await fen(page) === lionEnd && await page.$eval("#variant", (e) => e.value) === "mightylion",
    `the PGN's Variant tag switches to Mighty Lion Chess, same FEN (${await fen(page)})`);
  check(cliPgnFen(lionPgn) === lionEnd, "the CLI reads that PGN to the same FEN");

  // Xiangqi: discs with characters on the points, Red and Black
  const xq = { name: "xiangqi" };
  await selectVariant(page, "xiangqi");
  const xl = await page.$$eval(".sq[data-piece] svg", (els) => els.map((e) => e.dataset.look));
  check(xl.length === 32 && xl.every((l) => l === "xiangqi"), `xiangqi: 32 discs (${[...new Set(xl)]})`);
  const chars = await page.$$eval(".sq[data-piece]:not([data-piece=\"\"])", (els) => Object.fromEntries(els.map((e) => [e.dataset.square, e.querySelector("text").textContent])));
  check(chars.e1 === "帥" && chars.e10 === "將" && chars.b3 === "炮" && chars.b8 === "砲" && chars.a4 === "兵" && chars.a7 === "卒"
    && chars.d1 === "仕" && chars.c10 === "象", `xiangqi characters ${JSON.stringify(chars)}`);
  check(await page.$$eval("#board .lines line", (e) => e.length) === 10 + 2 + 7 * 2 + 4 && await page.$$eval("#board .lines text", (e) => e.length) === 2,
    "xiangqi: 10 ranks, the edge files whole, 7 files broken by the river, 4 palace diagonals, the river's text");
  check((await page.$eval("#status", (e) => e.textContent)).includes("Red to move"), "xiangqi: Red to move");
  const xqMoves = ["h3e3", "h10g8", "b1c3"];
  const box1 = await boardBox(page);
  await clickMoves(page, xqMoves);
  check(await boardBox(page) === box1, "xiangqi: the board does not move");
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(cliSan(xq, xqMoves)), `xiangqi list ${await moveTexts(page)}`);
  check((await page.$eval("#status", (e) => e.textContent)).includes("Black to move"), "xiangqi: Black to move");
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shotDir, "web-xiangqi-moves.png") });
  }

  // Janggi: octagons, 楚 and 漢, Blue and Red
  await selectVariant(page, "janggi");
  const jchars = await page.$$eval(".sq[data-piece]:not([data-piece=\"\"])", (els) => Object.fromEntries(els.map((e) => [e.dataset.square, e.querySelector("text").textContent])));
  check(jchars.e2 === "楚" && jchars.e9 === "漢" && (await page.$$eval(".sq[data-piece] svg", (e) => e.map((x) => x.dataset.look))).every((l) => l === "janggi"),
    `janggi: octagons with 楚 on e2 and 漢 on e9 (${jchars.e2}, ${jchars.e9})`);
  check((await page.$eval("#status", (e) => e.textContent)).includes("Blue to move"), "janggi: Blue (Cho) to move");
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shotDir, "web-janggi.png") });
  }

  // Shogi: pentagons with kanji, Gote's turned, Sente and Gote
  const sg = { name: "shogi" };
  await selectVariant(page, "shogi");
  const sl = await page.$$eval(".sq[data-piece] svg", (els) => els.map((e) => e.dataset.look));
  check(sl.length === 40 && sl.every((l) => l === "shogi"), `shogi: 40 tiles (${[...new Set(sl)]})`);
  const tile = (sq) => page.$eval(`.sq[data-square="${sq}"] svg`, (s) => ({
    text: [...s.querySelectorAll("text")].map((t) => t.textContent).join(""), turned: (s.querySelector("g").getAttribute("transform") || "").includes("rotate(180"),
    fill: s.querySelector("text").getAttribute("fill") }));
  const e1 = await tile("e1"), e9 = await tile("e9"), b2 = await tile("b2"), h8 = await tile("h8");
  check(e1.text === "玉" && !e1.turned && e9.text === "王" && e9.turned && b2.text === "角" && h8.text === "角" && h8.turned,
    `shogi: 玉 e1 upright, 王 e9 turned, 角 (${JSON.stringify([e1, e9, b2, h8])})`);
  check((await page.$eval("#status", (e) => e.textContent)).includes("Sente to move"), "shogi: Sente to move");
  // promoted pieces in red: a position with a tokin, a dragon and a promoted silver
  await page.fill("#fen", "lnsgk2nl/1r4g2/p1ppppp1p/1p5p1/9/2P6/PP+SPPPPPP/1+B3+R3/LN1GKGSNL[P] w 0 1");
  await page.click("#set-fen");
  await page.waitForFunction(() => document.getElementById("board").dataset.fen.startsWith("lnsgk2nl/1r4g2/"));
  const c3 = await tile("c3"), b2p = await tile("b2"), f2 = await tile("f2");
  check(c3.text === "成銀" && c3.fill === "#c0141c" && b2p.text === "馬" && f2.text === "龍", `promoted in red: ${JSON.stringify([c3, b2p, f2])}`);
  await page.click("#new-game");
  await clickMoves(page, ["c3c4", "g7g6"]);
  check(JSON.stringify(await moveTexts(page)) === JSON.stringify(cliSan(sg, ["c3c4", "g7g6"])), `shogi list ${await moveTexts(page)}`);
  if (screenshots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shotDir, "web-shogi-pieces.png") });
  }
  // flipped, Gote's tiles point up
  await page.click("#flip");
  check((await tile("e9")).turned === false && (await tile("e1")).turned === true, "flipped: Gote's tiles point up, Sente's down");
  await page.click("#flip");

  // fairy pieces: a letter on a disc, the same for a piece in two variants
  await selectVariant(page, "capablanca");
  const fa = await page.$$eval(".sq[data-piece] svg", (els) => els.map((e) => e.dataset.look));
  check(fa.filter((l) => l === "fairy").length === 4 && fa.filter((l) => l.startsWith("chess-")).length === 36,
    "capablanca: the archbishops and chancellors are fairy discs, the rest figures");
  const ring = async () => page.$eval('.sq[data-piece="A"] svg circle:nth-of-type(3)', (c) => c.getAttribute("stroke"));
  const ringCapa = await ring();
  await selectVariant(page, "gothic");
  check(await ring() === ringCapa, `the archbishop looks the same in capablanca and gothic (${ringCapa})`);

  // a phone: 390 x 844, no horizontal overflow, the board stays put when moves are played
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`http://127.0.0.1:${port}/index.html`);
  await phone.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  await setEngine(phone, "none");
  for (const v of ["chess", "xiangqi", "shogi", "crazyhouse", "chushogi", "grand"]) {
    await selectVariant(phone, v);
    const o = await overflowX(phone);
    check(o.scroll <= 390 && o.wide.length === 0, `${v} on a 390 px phone: page ${o.scroll} px wide (${o.wide})`);
  }
  await selectVariant(phone, "crazyhouse");
  const pb = await boardBox(phone);
  // captures fill the hands, the list grows past its height: the board stays
  await clickMoves(phone, ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "d2d4", "c7c6", "g1f3", "c8g4", "f1e2", "e7e6"]);
  check(await boardBox(phone) === pb, `phone: the board does not move in 12 plies with captures (${pb}, ${await boardBox(phone)})`);
  check((await overflowX(phone)).scroll <= 390, "phone: still no horizontal overflow after the moves");
  await selectVariant(phone, "chess");
  await clickMoves(phone, ["e2e4", "e7e5", "g1f3"]);
  if (screenshots) {
    await phone.evaluate(() => window.scrollTo(0, 0));
    await phone.screenshot({ path: join(shotDir, "web-phone.png") });
  }
  await selectVariant(phone, "xiangqi");
  if (screenshots) {
    await phone.evaluate(() => window.scrollTo(0, 0));
    await phone.screenshot({ path: join(shotDir, "web-phone-xiangqi.png") });
  }
  await phone.close();
}

async function main() {
  const server = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", join(root, "web")],
    { stdio: "ignore" });
  const profile = mkdtempSync(join(tmpdir(), "chimera-e2e-"));
  let context;
  const figures = {};
  try {
    // wait for the server
    for (let i = 0; i < 50; i++) {
      try {
        await fetch(`http://127.0.0.1:${port}/index.html`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1280, height: 900 },
    });
    const page = context.pages()[0] || await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    const nVariants = await page.$$eval("#variant option", (o) => o.length);
    const nCli = execFileSync(cli, ["variants"], { encoding: "utf8" }).split("\n").filter(Boolean).length;
    check(nVariants === nCli, `the picker lists ${nVariants} variants, chimera variants ${nCli}`);
    await setEngine(page, "none");

    // ----- Xiangqi -----
    const xq = { name: "xiangqi" };
    await selectVariant(page, "xiangqi");
    check(await page.$$eval(".sq", (e) => e.length) === 90, "Xiangqi has 90 squares");
    let n = await checkAllPieces(page, xq, "xiangqi start");
    log(`xiangqi: ${n} pieces' highlights match the CLI`);
    // a move by clicks, the engine replies
    await page.fill("#movetime", "500");
    await setEngine(page, "black");
    let before = await fen(page);
    await clickSquare(page, "h3");
    if (screenshots) await page.screenshot({ path: join(shotDir, "web-xiangqi.png") });
    await clickSquare(page, "e3");
    check((await history(page))[0] === "h3e3", "the cannon moved h3e3 by two clicks");
    let after = await page.evaluate(() => window.chimeraPage.game().fen());
    // while the engine thinks the page answers at once
    const lag = await page.evaluate(() => new Promise((r) => { const t = performance.now(); setTimeout(() => r(performance.now() - t), 0); }));
    check(lag < 100, `the page stays responsive while the engine thinks (a timer fired after ${lag.toFixed(1)} ms)`);
    let reply = await engineReply(page, xq, after, 2);
    const reply1 = reply;
    log(`xiangqi: h3e3, the engine replied ${reply}`);
    // a move by drag: the horse b1 to c3
    before = await fen(page);
    const box = async (sq) => page.locator(`.sq[data-square="${sq}"]`).boundingBox();
    const a = await box("b1"), b = await box("c3");
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(a.x + a.width / 2 + (b.x - a.x) * i / 8, a.y + a.height / 2 + (b.y - a.y) * i / 8);
    }
    await page.mouse.up();
    check((await history(page))[2] === "b1c3", `the horse moved b1c3 by drag (history ${await history(page)})`);
    after = await page.evaluate(() => window.chimeraPage.game().fen());
    reply = await engineReply(page, xq, after, 4);
    log(`xiangqi: b1c3 (drag), the engine replied ${reply}`);
    n = await checkAllPieces(page, xq, "xiangqi after 4 plies");
    log(`xiangqi: ${n} pieces' highlights match the CLI after 4 plies`);
    // against the engine, undo takes back its reply and the player's move
    await page.click("#undo");
    check(JSON.stringify(await history(page)) === JSON.stringify(["h3e3", reply1]),
      `undo against the engine goes back to the player's turn (${await history(page)})`);
    await setEngine(page, "none");
    // highlight timing in Xiangqi
    figures.xiangqi_targets = await page.evaluate(() => window.chimeraPage.timeTargets("e3"));

    // ----- Mighty Lion Chess -----
    const ml = { name: "mightylion" };
    await selectVariant(page, "mightylion");
    n = await checkAllPieces(page, ml, "mightylion start");
    log(`mightylion: ${n} pieces' highlights match the CLI`);
    const lionFen = "r1bqkbnr/ppp2ppp/2n5/3pp3/3L4/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1";
    await setFen(page, lionFen);
    n = await checkAllPieces(page, ml, "mightylion Lion position");
    await clickSquare(page, "d4");
    const first = await highlighted(page);
    check(first.get("e5")?.includes("victim") && first.get("d5")?.includes("victim"), `d5 and e5 are Lion victims: ${show(first)}`);
    if (screenshots) await page.screenshot({ path: join(shotDir, "web-mightylion-first-leg.png") });
    // the click-to-highlight time, many clicks
    const clicks = [];
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Escape"); // deselect
      await clickSquare(page, "d4"); // select: highlight on the press
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      clicks.push(await page.evaluate(() => window.chimeraPage.stats.lastHighlight));
    }
    figures.mightylion_click = {
      computeAndDrawMs: median(clicks.map((c) => c.computeAndDrawMs)),
      eventToDrawnMs: median(clicks.map((c) => c.eventToDrawnMs)),
      eventToFrameMs: median(clicks.filter((c) => c.eventToFrameMs !== null).map((c) => c.eventToFrameMs)),
      clicks: clicks.length,
    };
    figures.mightylion_targets = await page.evaluate(() => window.chimeraPage.timeTargets("d4"));
    // a move diagram: the Lion alone, from the piece table
    await page.keyboard.press("Escape");
    await page.click('#pieces tr[data-piece="L"]');
    await page.waitForFunction(() => document.body.dataset.diagram === "L");
    const diaFen = await page.evaluate(() => window.chimeraPage.diagramFen());
    const dia = await highlighted(page);
    const diaWant = cliTargets(ml, diaFen, "d4");
    check(diaFen.startsWith("8/8/8/8/3L4/8/8/8 w") && sameMap(dia, diaWant),
      `the Lion's move diagram (${diaFen}): page ${show(dia)}, CLI ${show(diaWant)}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    if (screenshots) await page.screenshot({ path: join(shotDir, "web-diagram-lion.png") });
    await clickSquare(page, "a1");
    const diaA1 = await page.evaluate(() => window.chimeraPage.diagramFen());
    check(sameMap(await highlighted(page), cliTargets(ml, diaA1, "a1")), "the Lion's move diagram from a1");
    await page.keyboard.press("Escape");
    check(await page.evaluate(() => document.body.dataset.diagram === undefined) && (await fen(page)) === lionFen,
      "Esc leaves the diagram for the game");
    await clickSquare(page, "d4");
    // the first leg: the victim e5, then the second legs
    await clickSquare(page, "e5");
    const second = await highlighted(page);
    const wantSecond = cliTargets(ml, lionFen, "d4", "e5");
    check(sameMap(second, wantSecond), `second legs after e5: page ${show(second)}, CLI ${show(wantSecond)}`);
    check(await page.$eval('.sq[data-square="e5"]', (e) => e.classList.contains("stop")),
      "e5 is marked as a place to stop (the plain capture)");
    if (screenshots) await page.screenshot({ path: join(shotDir, "web-mightylion-second-leg.png") });
    await setEngine(page, "black");
    await clickSquare(page, "f6");
    check((await history(page))[0] === "d4e5,e5f6", `the Lion took e5 and went on to f6 (${await history(page)})`);
    after = await page.evaluate(() => window.chimeraPage.game().fen());
    reply = await engineReply(page, ml, after, 2);
    log(`mightylion: d4e5,e5f6 by clicks, the engine replied ${reply}`);
    await setEngine(page, "none");
    // igui: capture and return, through the chooser of moves ending on the Lion's square
    await setFen(page, lionFen);
    await clickSquare(page, "d4");
    await clickSquare(page, "d5");
    await clickSquare(page, "d4");
    const h = await history(page);
    check(h[0] === "d4d5,d5d4", `the Lion took d5 and came back (${h})`);
    // play a few more moves with the engine on both sides, each checked
    await setFen(page, "rlbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RLBQKBNR w KQkq - 0 1");
    await page.fill("#movetime", "200");
    for (let ply = 0; ply < 4; ply++) {
      const f = await fen(page);
      await page.click("#engine-go");
      const r = await engineReply(page, ml, f, ply + 1);
      log(`mightylion: engine ply ${ply + 1}: ${r}`);
    }
    if (screenshots) {
      const lion = await page.$eval('.sq[data-piece="L"]', (e) => e.dataset.square);
      await clickSquare(page, lion);
      await page.screenshot({ path: join(shotDir, "web-mightylion-game.png") });
      await page.keyboard.press("Escape");
    }
    // undo, flip and new game
    let plies = (await history(page)).length;
    await page.click("#undo");
    check((await history(page)).length === plies - 1, "undo takes back one move when nobody is the engine");
    await page.click("#flip");
    const corner = await page.$eval(".sq", (e) => e.dataset.square);
    check(corner === "h1", `flipped, the top left square is h1 (${corner})`);
    await page.click("#flip");
    check(await page.$eval(".sq", (e) => e.dataset.square) === "a8", "flipped back, the top left square is a8");
    await page.click("#new-game");
    check((await history(page)).length === 0 && (await fen(page)).startsWith("rlbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RLBQKBNR w"),
      "new game: the start position");

    // ----- promotion, with the chooser -----
    await selectVariant(page, "chess");
    await setFen(page, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
    await clickSquare(page, "e7");
    check((await highlighted(page)).get("e8") === "promotion", "e8 is a promotion target");
    await clickSquare(page, "e8");
    const choices = await page.$$eval("#chooser-options button", (bs) => bs.map((b) => b.dataset.uci).filter(Boolean).sort());
    check(JSON.stringify(choices) === JSON.stringify(["e7e8b", "e7e8n", "e7e8q", "e7e8r"]), `promotion choices ${choices}`);
    if (screenshots) await page.screenshot({ path: join(shotDir, "web-promotion.png") });
    await page.click('#chooser-options button[data-uci="e7e8n"]');
    check((await history(page))[0] === "e7e8n", "promoted to a knight");

    // ----- Chess960 castling: the king is moved onto its own rook -----
    const frc = { name: "fischerandom" };
    await selectVariant(page, "fischerandom");
    await setFen(page, "4k3/8/8/8/8/8/8/1KR5 w C - 0 1");
    await checkAllPieces(page, frc, "chess960");
    await clickSquare(page, "b1");
    check((await highlighted(page)).get("c1") === "castle", "chess960: the rook's square c1 is the castling target");
    await clickSquare(page, "c1");
    check((await history(page))[0] === "b1c1" && (await fen(page)) === "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
      `chess960: castled by clicking the rook (${await fen(page)})`);

    // ----- the end of a game: mate by clicks, the result shown, the engine not asked -----
    await setEngine(page, "black");
    await setFen(page, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    await clickSquare(page, "a1");
    await clickSquare(page, "a8");
    await page.waitForTimeout(300);
    const status = await page.$eval("#status", (e) => e.textContent);
    check(status.includes("1-0") && status.includes("checkmate") && (await history(page)).length === 1
      && (await page.evaluate(() => document.body.dataset.engine)) === "idle",
    `after a1a8 mate: "${status}", no engine move`);
    await setEngine(page, "none");

    // ----- drops from the hand -----
    const zh = { name: "crazyhouse" };
    await selectVariant(page, "crazyhouse");
    const zhFen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qn] w KQkq - 0 1";
    await setFen(page, zhFen);
    await page.click('.hand-piece[data-piece="Q"]');
    const drops = await highlighted(page);
    const wantDrops = new Map(cliMoves(zh, zhFen).filter((m) => m.startsWith("Q@")).map((m) => [m.slice(2), "drop"]));
    check(sameMap(drops, wantDrops), `queen drops: page ${drops.size}, CLI ${wantDrops.size}`);
    await clickSquare(page, "d5");
    check((await history(page))[0] === "Q@d5", "the queen was dropped on d5");

    // ----- shogi: drops from the hand -----
    const sg = { name: "shogi" };
    await selectVariant(page, "shogi");
    const sgFen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL[Bb] w - - 0 1";
    await setFen(page, sgFen);
    await page.click('.hand-piece[data-piece="B"]');
    const sgDrops = await highlighted(page);
    const sgWant = new Map(cliMoves(sg, sgFen).filter((m) => m.startsWith("B@")).map((m) => [m.slice(2), "drop"]));
    check(sgDrops.size > 0 && sameMap(sgDrops, sgWant), `shogi bishop drops: page ${sgDrops.size}, CLI ${sgWant.size}`);
    if (screenshots) await page.screenshot({ path: join(shotDir, "web-shogi.png") });
    // drop by dragging from the hand (press, move, release on the square)
    await page.click('.hand-piece[data-piece="B"]'); // unselect: the drag selects it again
    const sgTo = [...sgWant.keys()][0];
    const hb = await page.locator('.hand-piece[data-piece="B"]').boundingBox();
    const tb = await page.locator(`.sq[data-square="${sgTo}"]`).boundingBox();
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(hb.x + hb.width / 2 + (tb.x + tb.width / 2 - hb.x - hb.width / 2) * i / 8,
        hb.y + hb.height / 2 + (tb.y + tb.height / 2 - hb.y - hb.height / 2) * i / 8);
    }
    await page.mouse.up();
    check((await history(page))[0] === `B@${sgTo}`, `the bishop was dropped on ${sgTo} by drag (${await history(page)})`);

    // ----- Janggi: a pass by clicking the general twice, confirmed in the menu -----
    await selectVariant(page, "janggi");
    await clickSquare(page, "e2");
    check((await highlighted(page)).get("e2") === "pass", "the general's own square is marked as a pass");
    await clickSquare(page, "e2");
    const passChoices = await page.$$eval("#chooser-options button", (bs) => bs.map((b) => b.dataset.uci));
    check(JSON.stringify(passChoices) === JSON.stringify(["e2e2", ""]), `a pass is confirmed first: ${passChoices}`);
    check((await history(page)).length === 0, "nothing is played before the choice");
    await page.click('#chooser-options button[data-uci="e2e2"]');
    check((await history(page))[0] === "e2e2", "the general passed");

    // ----- Seirawan: gating offered as a choice -----
    await selectVariant(page, "seirawan");
    const swFen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 2";
    await setFen(page, swFen);
    await clickSquare(page, "g1");
    await clickSquare(page, "f3");
    const gates = await page.$$eval("#chooser-options button", (bs) => bs.map((b) => b.dataset.uci).filter(Boolean).sort());
    const gatesWant = cliMoves({ name: "seirawan" }, swFen).filter((m) => m.startsWith("g1f3")).sort();
    check(gates.length === 3 && JSON.stringify(gates) === JSON.stringify(gatesWant), `gating choices ${gates}, CLI ${gatesWant}`);
    await page.click('#chooser-options button[data-uci="g1f3h"]');
    check((await history(page))[0] === "g1f3h" && (await fen(page)).includes("RNBQKBHR"), `the hawk was gated on g1: ${await fen(page)}`);

    // ----- the API's errors: JavaScript Errors that name the problem, and the module still works -----
    const api = await page.evaluate(() => {
      const { api, game } = window.chimeraPage;
      const g = game();
      const out = {};
      const attempt = (name, f) => {
        try {
          f();
          out[name] = "no error";
        } catch (e) {
          out[name] = e instanceof Error ? e.message : `not an Error: ${e}`;
        }
      };
      attempt("targets", () => g.targets("zz99"));
      attempt("secondLegTargets", () => g.secondLegTargets("a1", ""));
      attempt("play", () => g.play("a1a1a1"));
      attempt("setFen", () => g.setFen("8/8/8 w"));
      attempt("think", () => g.think(0));
      attempt("dropTargets", () => g.dropTargets("Z"));
      attempt("fromBuiltin", () => api.ChimeraGame.fromBuiltin("no-such-variant"));
      attempt("fromDefinition", () => api.ChimeraGame.fromDefinition("name = 1", "toml"));
      attempt("format", () => api.ChimeraGame.fromDefinition("", "yaml"));
      attempt("builtinSource", () => api.builtinSource("nope"));
      out.movesAfter = g.legalMoves().length;
      return out;
    });
    for (const [k, v] of Object.entries(api)) {
      if (k !== "movesAfter") check(v !== "no error" && !v.startsWith("not an Error") && v.length > 8, `API ${k} throws an Error naming the problem: ${v}`);
    }
    check(api.movesAfter > 0, "the module still works after the errors");
    figures.api_errors = api;

    // ----- other API times in the browser -----
    figures.api_ms = await page.evaluate(() => {
      const { api, game } = window.chimeraPage;
      let t = performance.now();
      api.listVariants();
      const listVariants = performance.now() - t;
      t = performance.now();
      const g = api.ChimeraGame.fromBuiltin("mightylion");
      const fromBuiltinMightylion = performance.now() - t;
      t = performance.now();
      for (let i = 0; i < 100; i++) g.moveDetails();
      const moveDetailsStart = (performance.now() - t) / 100;
      g.free();
      return { listVariants, fromBuiltinMightylion, moveDetailsStart, gameStillHere: game().legalMoves().length > 0 };
    });

    // ----- the engine in the browser (main thread here) and natively: the same search, timed -----
    await selectVariant(page, "chess");
    const wasmSearch = await page.evaluate(() => window.chimeraPage.game().think(60000, 9));
    figures.engine_wasm = { nodes: wasmSearch.nodes, ms: Math.round(wasmSearch.elapsedMs), depth: wasmSearch.depth,
      nps: Math.round(wasmSearch.nodes / (wasmSearch.elapsedMs / 1000)) };
    figures.engine_native = nativeSearch();
    check(wasmSearch.depth === 9 && figures.engine_native.depth === 9 && wasmSearch.nodes === figures.engine_native.nodes,
      `the same search to depth 9 in WebAssembly and natively: ${wasmSearch.nodes} and ${figures.engine_native.nodes} nodes`);

    // ----- a user's variants.ini definition -----
    const ini = "[nightriders:chess]\nknight = -\ncustomPiece1 = n:NN\n";
    const iniFile = join(profile, "user.ini");
    writeFileSync(iniFile, ini);
    await page.fill("#definition", ini);
    await page.selectOption("#def-format", "ini");
    await page.fill("#def-section", "nightriders");
    await page.click("#load-def");
    await page.waitForFunction(() => document.getElementById("board").dataset.variant === "nightriders");
    n = await checkAllPieces(page, { name: "nightriders", file: iniFile }, "nightriders (variants.ini)");
    log(`nightriders: ${n} pieces' highlights match the CLI`);
    // the engine plays the user's variant too (the worker builds it from the same text)
    const nrFen = await fen(page);
    await page.click("#engine-go");
    reply = await engineReply(page, { name: "nightriders", file: iniFile }, nrFen, 1);
    log(`nightriders: the engine played ${reply}`);
    // a bad definition is reported, and the game stays
    await page.fill("#definition", "[broken:chess]\ncustomPiece1 = n:QQ%\n");
    await page.fill("#def-section", "broken");
    await page.click("#load-def");
    const err = await page.$eval("#error", (e) => (e.hidden ? "" : e.textContent));
    check(err.length > 0 && (await page.$eval("#board", (b) => b.dataset.variant)) === "nightriders",
      `a bad definition shows an error (${err}) and keeps the game`);

    // ----- an illegal FEN is an error, not a crash -----
    await page.fill("#fen", "this is no FEN");
    await page.click("#set-fen");
    check((await page.$eval("#error", (e) => e.textContent)).includes("FEN"), "a bad FEN is reported");

    // ----- ?variant= in the address -----
    const p3 = await context.newPage();
    await p3.goto(`http://127.0.0.1:${port}/index.html?variant=janggi`);
    await p3.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    check(await p3.$eval("#board", (b) => b.dataset.variant) === "janggi", "?variant=janggi opens Janggi");
    await p3.close();

    // ----- Tenjiku Shogi: a 16x16 board, played by the module's wide core -----
    const p4 = await context.newPage();
    p4.on("pageerror", (e) => errors.push(`tenjiku page error: ${e.message}`));
    await p4.goto(`http://127.0.0.1:${port}/index.html?variant=tenjikushogi`);
    await p4.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    await setEngine(p4, "none");
    check(await p4.$eval("#board", (b) => b.dataset.variant) === "tenjikushogi", "?variant=tenjikushogi opens Tenjiku Shogi");
    check(await p4.$$eval(".sq", (e) => e.length) === 256, "Tenjiku Shogi has 256 squares");
    n = await checkAllPieces(p4, { name: "tenjikushogi" }, "tenjiku start");
    log(`tenjikushogi: ${n} pieces' highlights match the CLI`);
    if (screenshots) await p4.screenshot({ path: join(shotDir, "web-tenjiku.png") });
    await p4.close();

    // ----- the move list, PGN, pictures, layout -----
    await checkMoveListPgnLayout(page, context);

    // ----- the single-file page, opened from disk without a server -----
    const standalone = join(root, "web/dist/chimera.html");
    check(existsSync(standalone), "web/dist/chimera.html exists (scripts/build-web.sh makes it)");
    if (existsSync(standalone)) {
      const p2 = await context.newPage();
      p2.on("pageerror", (e) => errors.push(`standalone page error: ${e.message}`));
      p2.on("console", (m) => { if (m.type() === "error") errors.push(`standalone console: ${m.text()}`); });
      await p2.goto(pathToFileURL(standalone).href);
      await p2.waitForSelector("body[data-ready='1']", { timeout: 30000 });
      await setEngine(p2, "none");
      await selectVariant(p2, "mightylion");
      n = await checkAllPieces(p2, ml, "standalone mightylion");
      await p2.fill("#movetime", "300");
      await setEngine(p2, "black");
      await clickSquare(p2, "b1");
      await clickSquare(p2, "c3");
      after = await p2.evaluate(() => window.chimeraPage.game().fen());
      reply = await engineReply(p2, ml, after, 2);
      log(`standalone file:// page: ${n} pieces' highlights match the CLI; b1c3, the engine replied ${reply}`);
      await p2.close();
    }

    figures.engine_replies_limit_wall_ms = engineTimes;
    figures.page_errors = errors;
    check(errors.length === 0, `no errors in the page: ${errors.join(" | ")}`);
  } finally {
    if (context) await context.close();
    server.kill();
    rmSync(profile, { recursive: true, force: true });
  }
  log(`${checks} checks, ${failures} failed`);
  log(JSON.stringify(figures));
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
