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
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
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
