// The page: a board for any variant, legal-move highlighting from Chimera's
// WebAssembly package, moves by click or drag, and the engine in a Web Worker.

import init, { ChimeraGame, listVariants, builtinSource } from "./pkg/chimera_wasm.js";
import { pieceSvg, pieceStyle, sideNames, onIntersections, boardLinesSvg } from "./pieces.js";

const $ = (id) => document.getElementById(id);

/** The game (a ChimeraGame) and what the page knows about it. */
const st = {
  game: null,
  spec: null,          // how to rebuild the variant in the worker
  royal: new Set(),    // White's tokens of the royal pieces
  names: new Map(),    // White's token -> the piece type's name
  style: "chess",      // how the pieces and the board look (pieces.js)
  sides: { white: "White", black: "Black" },
  line: [],            // the moves of the game (UCI), also past the position shown
  lineSan: [],         // the same in the variant's notation, from the core (sanHistory)
  lineEnd: null,       // the result at the end of the line, or null
  flipped: false,
  details: null,       // the legal moves of the current position (MoveDetail[]), cached
  sel: null,           // { from, drop, victim, targets: Map<square, kinds[]>, stop }
  diagram: null,       // a move diagram on show: { game, piece, name, square }
  last: null,          // the last move played (MoveDetail)
  cells: new Map(),    // square name -> element
  engineId: 0,
  thinking: false,
  worker: null,
  asked: null,         // the last request to the engine: { movetime, at }
};

/** Timings of the last highlight, for docs/web.md and the end-to-end test. */
const stats = { lastHighlight: null, lastEngine: null };
window.chimeraPage = {
  game: () => st.game,
  /** Plays a move (UCI) as a click would, through the move list. */
  play: (uci) => play(uci),
  api: { ChimeraGame, listVariants, builtinSource },
  /** The FEN of the move diagram on show, or null. */
  diagramFen: () => (st.diagram ? st.diagram.game.fen() : null),
  stats,
  /**
   * Milliseconds per call of targets(square), measured here in the page: `batches`
   * batches of `per` calls each (a browser's clock is coarse, 0.1 ms, so one call
   * is too short to time alone); the median and the extremes of the batch means.
   */
  timeTargets(square, batches = 25, per = 40) {
    const means = [];
    for (let b = 0; b < batches; b++) {
      const t0 = performance.now();
      for (let i = 0; i < per; i++) st.game.targets(square);
      means.push((performance.now() - t0) / per);
    }
    means.sort((a, b) => a - b);
    return { median: means[Math.floor(batches / 2)], min: means[0], max: means[batches - 1], calls: batches * per };
  },
};

// ----- the engine worker -----

function startWorker() {
  // the single-file build (make-standalone.py) supplies its own worker
  st.worker = globalThis.chimeraMakeWorker
    ? globalThis.chimeraMakeWorker()
    : new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  st.worker.onmessage = onEngineReply;
  st.worker.onerror = (e) => {
    // a worker that failed is replaced, so that the next request has one
    showError(`engine worker: ${e.message || "failed"}`);
    st.worker.terminate();
    st.thinking = false;
    st.engineId++;
    document.body.dataset.engine = "idle";
    startWorker();
    if (st.game) renderStatus();
  };
}

function stopEngine() {
  if (st.thinking) {
    st.worker.terminate();
    startWorker();
    st.thinking = false;
  }
  st.engineId++;
  document.body.dataset.engine = "idle";
}

function engineSides() {
  const v = $("engine-side").value;
  return v === "both" ? ["white", "black"] : v === "none" ? [] : [v];
}

function askEngine() {
  if (st.thinking || st.game.result()) return;
  const id = ++st.engineId;
  st.thinking = true;
  document.body.dataset.engine = "thinking";
  const movetime = Math.max(50, Math.min(60000, Number($("movetime").value) || 1000));
  st.asked = { movetime, at: performance.now() };
  st.worker.postMessage({
    id,
    variant: st.spec,
    startFen: st.game.startFen(),
    moves: st.game.history(),
    movetime,
  });
  clearSelection();
  renderStatus();
}

function onEngineReply(e) {
  const { id, ok, info, message } = e.data;
  if (id !== st.engineId) return; // an answer to a position that is gone
  st.thinking = false;
  document.body.dataset.engine = "idle";
  stats.lastEngine = { movetime: st.asked.movetime, wallMs: performance.now() - st.asked.at, ok };
  if (!ok) {
    showError(`engine: ${message}`);
    renderStatus();
    return;
  }
  const mate = Math.abs(info.score) > 30000;
  const score = mate ? `mate ${Math.sign(info.score) * Math.ceil((31000 - Math.abs(info.score)) / 2)}`
    : (info.score / 100).toFixed(2);
  $("engine-info").textContent =
    `${info.best}  depth ${info.depth}  score ${score}  ${info.nodes} nodes  ${Math.round(info.elapsedMs)} ms`;
  play(info.best);
}

function maybeEngine() {
  if (!st.game.result() && engineSides().includes(st.game.sideToMove())) {
    // let the browser paint the human's move first; by then the position or
    // the settings may have changed (undo, new game), so look again
    setTimeout(() => {
      if (!st.game.result() && engineSides().includes(st.game.sideToMove())) askEngine();
    }, 20);
  }
}

// ----- loading a variant -----

function afterLoad() {
  const types = st.game.pieceTypes();
  st.royal = new Set(types.filter((p) => p.royal).map((p) => p.piece));
  st.names = new Map(types.map((p) => [p.piece.toUpperCase(), p.name]));
  st.style = pieceStyle(st.game.variantName, types.map((p) => p.name));
  st.sides = sideNames(st.style);
  document.body.classList.toggle("hands", st.game.hasHands);
  syncLine();
  st.last = null;
  st.flipped = false;
  $("error").hidden = true;
  $("engine-info").textContent = "";
  buildBoard();
  renderPieceTable();
  refresh();
  maybeEngine();
}

function loadBuiltin(name) {
  stopEngine();
  const g = ChimeraGame.fromBuiltin(name);
  if (st.game) st.game.free();
  st.game = g;
  st.spec = { kind: "builtin", name };
  pgnMessage("", false);
  afterLoad();
}

function loadDefinition() {
  const text = $("definition").value;
  const format = $("def-format").value;
  const section = $("def-section").value.trim();
  let g;
  try {
    g = ChimeraGame.fromDefinition(text, format, section || undefined);
  } catch (err) {
    showError(`your variant: ${err.message}`);
    return;
  }
  stopEngine();
  if (st.game) st.game.free();
  st.game = g;
  st.spec = { kind: "definition", text, format, section };
  const sel = $("variant");
  let opt = sel.querySelector("option[data-user]");
  if (!opt) {
    opt = document.createElement("option");
    opt.dataset.user = "1";
    sel.prepend(opt);
  }
  opt.value = `user:${g.variantName}`;
  opt.textContent = `your variant: ${g.variantName}`;
  sel.value = opt.value;
  afterLoad();
}

// ----- the board -----

/**
 * The size of a square in pixels: at most 64, the board at most 600 x 620, and
 * no wider than the window (less the page's margins, the rank names and the
 * border), so that it fits a phone. It changes only with the variant and the
 * window's width, never with a move.
 */
function cellSize(w, h) {
  const room = Math.min(600, (document.documentElement.clientWidth || window.innerWidth) - 2 * 16 - 18 - 4);
  return Math.max(20, Math.min(64, Math.floor(Math.min(room / w, 620 / h))));
}

function buildBoard() {
  const g = st.game;
  const w = g.width, h = g.height;
  const board = $("board");
  board.replaceChildren();
  st.cells.clear();
  const cell = cellSize(w, h);
  st.cellPx = cell;
  document.documentElement.style.setProperty("--cell", `${cell}px`);
  // the column under the board is as wide as the board, whatever is written below it
  $("play").style.width = `${w * cell + 18 + 4}px`;
  board.dataset.style = st.style;
  board.classList.toggle("points", onIntersections(st.style));
  board.classList.toggle("tiles", ["shogi", "chu", "tori"].includes(st.style));
  if (onIntersections(st.style)) board.appendChild(boardLinesSvg(w, h, cell, st.style));
  board.style.gridTemplateColumns = `18px repeat(${w}, var(--cell))`;
  board.style.gridTemplateRows = `repeat(${h}, var(--cell)) 18px`;
  const cells = g.board();
  const at = new Map(cells.map((c) => [`${c.file},${c.rank}`, c]));
  const files = [...Array(w).keys()];
  const ranks = [...Array(h).keys()].reverse();
  if (st.flipped) { files.reverse(); ranks.reverse(); }
  for (const r of ranks) {
    const label = document.createElement("div");
    label.className = "coord rank";
    label.textContent = at.get(`0,${r}`).square.replace(/^[a-z]+/, "");
    board.appendChild(label);
    for (const f of files) {
      const c = at.get(`${f},${r}`);
      const el = document.createElement("div");
      el.className = `sq ${(f + r) % 2 === 0 ? "dark" : "light"}`;
      el.dataset.square = c.square;
      el.setAttribute("role", "gridcell");
      el.setAttribute("aria-label", c.square);
      for (const k of ["move", "capture", "victim", "second", "promotion", "pass", "castle", "drop", "stop"]) {
        const m = document.createElement("div");
        m.className = `mark m-${k}`;
        el.appendChild(m);
      }
      const p = document.createElement("div");
      p.className = "piece";
      el.appendChild(p);
      board.appendChild(el);
      st.cells.set(c.square, el);
    }
  }
  board.appendChild(document.createElement("div"));
  for (const f of files) {
    const label = document.createElement("div");
    label.className = "coord file";
    label.textContent = at.get(`${f},0`).square.replace(/[0-9]+$/, "");
    board.appendChild(label);
  }
  board.dataset.variant = g.variantName;
}

/** The picture of a piece (pieces.js), in the variant's style. */
function pic(token, color, name) {
  const t = token.toUpperCase();
  return pieceSvg(token, color, {
    style: st.style, name: name || st.names.get(t) || "", royal: st.royal.has(t), flipped: st.flipped,
  });
}

function ownPiece(square) {
  const el = st.cells.get(square);
  return el && el.dataset.color === st.game.sideToMove();
}

function humanToMove() {
  return !st.diagram && !st.thinking && !st.game.result() && !engineSides().includes(st.game.sideToMove());
}

/** Redraws everything after the position changed (leaving a move diagram). */
function refresh() {
  if (st.diagram) {
    st.diagram.game.free();
    st.diagram = null;
    $("diagram-exit").hidden = true;
    delete document.body.dataset.diagram;
  }
  st.details = null;
  st.sel = null;
  renderPieces();
  renderHands();
  renderHighlights();
  renderMoves();
  renderStatus();
  // a FEN the user is typing is not overwritten by a move (the engine's, say)
  if (document.activeElement !== $("fen")) $("fen").value = st.game.fen();
  $("board").dataset.fen = st.game.fen();
}

function legal() {
  if (!st.details) st.details = st.game.moveDetails();
  return st.details;
}

function renderPieces() {
  const view = st.diagram ? st.diagram.game : st.game;
  const inCheck = !st.diagram && st.game.inCheck();
  const stm = st.game.sideToMove();
  for (const c of view.board()) {
    const el = st.cells.get(c.square);
    const p = el.querySelector(".piece");
    p.replaceChildren();
    el.classList.toggle("wall", c.wall);
    el.dataset.piece = c.piece ?? "";
    el.dataset.color = c.color ?? "";
    el.title = c.piece ? `${c.name} (${c.color})` : c.wall ? "wall" : "";
    const royal = c.piece && st.royal.has(c.piece.toUpperCase());
    if (c.piece) p.appendChild(pic(c.piece, c.color, c.name));
    el.classList.toggle("check", Boolean(inCheck && royal && c.color === stm));
  }
  for (const [sq, el] of st.cells) {
    const l = st.diagram ? null : st.last;
    el.classList.toggle("last", Boolean(l && (sq === l.from || sq === l.to || sq === l.victim)));
  }
}

function renderHands() {
  const top = $("hand-top"), bottom = $("hand-bottom");
  top.replaceChildren();
  bottom.replaceChildren();
  if (!st.game.hasHands || st.diagram) return;
  for (const h of st.game.hands()) {
    const el = document.createElement("div");
    el.className = "hand-piece";
    el.dataset.piece = h.piece;
    el.dataset.color = h.color;
    el.title = `${h.name} in ${h.color}'s hand`;
    el.appendChild(pic(h.piece, h.color, h.name));
    const n = document.createElement("span");
    n.className = "count";
    n.textContent = h.count;
    el.appendChild(n);
    el.addEventListener("pointerdown", (e) => onHandDown(e, h));
    const bottomColor = st.flipped ? "black" : "white";
    (h.color === bottomColor ? bottom : top).appendChild(el);
  }
}

const KIND_CLASS = {
  move: "t-move", capture: "t-capture", victim: "t-victim", promotion: "t-promotion",
  pass: "t-pass", castle: "t-castle", "en-passant": "t-capture", drop: "t-drop",
};
const ALL_T = ["t-move", "t-capture", "t-victim", "t-second", "t-promotion", "t-pass", "t-castle", "t-drop"];

function renderHighlights() {
  for (const el of st.cells.values()) {
    el.classList.remove(...ALL_T, "selected", "stop");
    delete el.dataset.kinds;
  }
  for (const el of document.querySelectorAll(".hand-piece")) {
    el.classList.toggle("selected", Boolean(st.sel && st.sel.drop === el.dataset.piece));
  }
  const sel = st.sel;
  $("hint").textContent = sel && sel.victim && !st.diagram
    ? `Captured on ${sel.victim} on the way: now click where the piece goes`
      + `${sel.stop ? ` (${sel.victim} again to stop there)` : ""}, or elsewhere to start again.`
    : "";
  if (!sel) return;
  if (sel.from) st.cells.get(sel.from).classList.add("selected");
  if (sel.victim) st.cells.get(sel.victim).classList.add("selected");
  for (const [sq, kinds] of sel.targets) {
    const el = st.cells.get(sq);
    el.dataset.kinds = kinds.join(",");
    if (sq === sel.from) {
      // back to its own square (a pass, or a capture on the way and return): one ring, over the piece
      el.classList.add("t-pass");
      continue;
    }
    for (const k of kinds) if (KIND_CLASS[k]) el.classList.add(KIND_CLASS[k]);
    // a square reached only through a capture on the way
    if (kinds.includes("second-leg") && !kinds.some((k) => KIND_CLASS[k] && k !== "victim")) {
      el.classList.add("t-second");
    }
  }
  if (sel.stop) st.cells.get(sel.victim).classList.add("stop");
}

// ----- the move list: the whole line of the game, and the position shown in it -----
//
// st.line holds every move of the game, st.lineSan the same moves in the
// variant's notation as the core writes them (sanHistory). The game itself
// (st.game) is at the position shown: its history is always the first
// `ply()` moves of the line. Going back undoes moves, going forward replays
// them. A move played in a position before the end replaces the rest of the
// line (the moves after it are dropped), unless it is the line's own next move.

function ply() {
  return st.game.history().length;
}

/** Makes the line the game's history (after a new game, a FEN, a PGN or Undo). */
function syncLine() {
  st.line = st.game.history().slice();
  st.lineSan = st.game.sanHistory();
  st.lineEnd = st.game.result();
}

/** After `uci` was played at ply k (0-based): keeps or cuts the line. */
function extendLine(k, uci) {
  if (st.line[k] === uci) {
    // the line's own next move: the rest of the line stays
    st.lineSan = st.game.sanHistory().concat(st.lineSan.slice(k + 1));
  } else {
    st.line = st.game.history().slice();
    st.lineSan = st.game.sanHistory();
  }
  if (ply() === st.line.length) st.lineEnd = st.game.result();
}

/** Shows the position after the first `k` moves of the line. */
function goTo(k) {
  k = Math.max(0, Math.min(st.line.length, k));
  if (k === ply()) return;
  stopEngine();
  while (ply() > k) st.game.undo();
  while (ply() < k) st.game.play(st.line[ply()]);
  st.last = k > 0 ? moveSquares(st.line[k - 1]) : null;
  $("error").hidden = true;
  refresh();
}

/** The squares of a move in UCI notation, for the last-move tint: { from, to, victim }. */
function moveSquares(uci) {
  const legs = uci.split(",").map((l) => l.match(/^([a-z]+\d+)([a-z]+\d+)/)).filter(Boolean);
  const drop = uci.match(/@([a-z]+\d+)/);
  if (drop) return { from: null, to: drop[1], victim: null };
  if (legs.length === 0) return null;
  return { from: legs[0][1], to: legs[legs.length - 1][2], victim: legs.length > 1 ? legs[0][2] : null };
}

function resultText(r) {
  return r ? `${r.score} (${r.reason})` : "";
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  const fields = st.game.startFen().split(/\s+/);
  const blackFirst = fields[1] === "b";
  const first = Number(fields[fields.length - 1]) || 1;
  const shown = ply();
  const cells = blackFirst ? [null, ...st.lineSan] : st.lineSan;
  let current = null;
  for (let i = 0; i < cells.length; i++) {
    if (i % 2 === 0) {
      const no = document.createElement("span");
      no.className = "no";
      no.textContent = `${first + i / 2}.`;
      box.appendChild(no);
    }
    const k = blackFirst ? i : i + 1; // the number of moves played after this one
    const el = document.createElement(cells[i] === null ? "span" : "button");
    if (cells[i] === null) {
      el.className = "mv none";
      el.textContent = "…";
    } else {
      el.className = "mv";
      el.type = "button";
      el.textContent = cells[i];
      el.dataset.ply = String(k);
      el.title = st.line[k - 1];
      if (k === shown) {
        el.classList.add("current");
        current = el;
      }
      el.addEventListener("click", () => goTo(k));
    }
    box.appendChild(el);
  }
  if (st.lineEnd) {
    const r = document.createElement("div");
    r.className = "result";
    r.textContent = resultText(st.lineEnd);
    box.appendChild(r);
  }
  box.dataset.ply = String(shown);
  $("nav-start").disabled = $("nav-back").disabled = shown === 0;
  $("nav-end").disabled = $("nav-fwd").disabled = shown === st.line.length;
  // keep the current move in view, scrolling the list only (never the page)
  if (current) {
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + current.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  } else if (shown === 0) {
    box.scrollTop = 0;
  }
}

function renderStatus() {
  if (st.diagram) {
    const d = st.diagram;
    $("status").textContent = `Moves of the ${d.name} from ${d.square}. Click a square to put it there; Esc returns to the game.`;
    return;
  }
  const g = st.game;
  const r = g.result();
  let s;
  if (r) {
    s = `${r.score}: ${r.winner ? `${st.sides[r.winner]} wins` : "draw"} (${r.reason})`;
  } else {
    s = `${st.sides[g.sideToMove()]} to move${g.inCheck() ? ", in check" : ""}`;
    if (st.thinking) s += " (the engine is thinking…)";
  }
  if (ply() < st.line.length) s += ` — move ${ply()} of ${st.line.length} shown`;
  $("status").textContent = `${g.variantName}: ${s}`;
  document.body.dataset.result = r ? r.score : "";
}

function renderPieceTable() {
  const t = $("pieces");
  t.replaceChildren();
  for (const p of st.game.pieceTypes()) {
    const tr = t.insertRow();
    tr.dataset.piece = p.piece;
    tr.title = `show the ${p.name}'s moves on an empty board`;
    tr.addEventListener("click", () => showDiagram(p.piece, p.name));
    const icon = tr.insertCell();
    icon.style.width = "26px";
    icon.appendChild(pic(p.piece, "white", p.name));
    icon.firstChild.style.width = "24px";
    tr.insertCell().textContent = p.name;
    const b = tr.insertCell();
    b.className = "betza";
    b.textContent = p.betza;
  }
}

/** Shows a move diagram: `piece` alone on the board (on `square`, or near the centre) and its moves. */
function showDiagram(piece, name, square) {
  let game;
  try {
    game = st.game.pieceDiagram(piece, square);
  } catch (err) {
    showError(err.message);
    return;
  }
  refresh(); // leaves any earlier diagram
  const at = game.board().find((c) => c.piece === piece).square;
  st.diagram = { game, piece, name, square: at };
  st.sel = { from: at, drop: null, victim: null, stop: false, targets: toMap(game.targets(at)) };
  $("diagram-exit").hidden = false;
  $("error").hidden = true;
  document.body.dataset.diagram = piece;
  renderPieces();
  renderHands();
  renderHighlights();
  renderStatus();
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg;
  e.hidden = false;
}

// ----- selecting and moving -----

function clearSelection() {
  st.sel = null;
  $("chooser").hidden = true;
  renderHighlights();
}

function toMap(targets) {
  return new Map(targets.map((t) => [t.square, t.kinds]));
}

/** Selects the piece on `square` and highlights where it may go. */
function select(square, eventTime) {
  const t0 = performance.now();
  const targets = st.game.targets(square);
  st.sel = { from: square, drop: null, victim: null, stop: false, targets: toMap(targets) };
  $("chooser").hidden = true;
  renderHighlights();
  const t1 = performance.now();
  const h = { square, targets: targets.length, computeAndDrawMs: t1 - t0, eventToDrawnMs: null, eventToFrameMs: null };
  if (eventTime !== undefined) {
    h.eventToDrawnMs = t1 - eventTime;
    requestAnimationFrame(() => { h.eventToFrameMs = performance.now() - eventTime; });
  }
  stats.lastHighlight = h;
}

/** Shows the second legs after choosing a victim on the first leg. */
function selectVictim(victim) {
  const from = st.sel.from;
  const targets = st.game.secondLegTargets(from, victim);
  const stop = legal().some((d) => d.from === from && d.to === victim && d.kind !== "locust");
  st.sel = { from, drop: null, victim, stop, targets: toMap(targets) };
  renderHighlights();
}

function selectDrop(piece) {
  const targets = st.game.dropTargets(piece);
  st.sel = { from: null, drop: piece, victim: null, stop: false, targets: toMap(targets) };
  $("chooser").hidden = true;
  renderHighlights();
}

/**
 * Plays one of `moves`, asking which when there are several, or always with
 * `confirm` (a pass: a second click on a piece should not pass by accident).
 */
function choose(moves, confirm = false) {
  if (moves.length === 0) { clearSelection(); return; }
  if (moves.length === 1 && !confirm) { play(moves[0].uci); return; }
  const box = $("chooser-options");
  box.replaceChildren();
  const stm = st.game.sideToMove();
  for (const d of moves) {
    const b = document.createElement("button");
    b.dataset.uci = d.uci;
    const token = d.promotion || d.gate || d.drop;
    if (token) b.appendChild(pic(token, stm));
    b.appendChild(document.createTextNode(`${d.label} (${d.uci})`));
    b.addEventListener("click", () => play(d.uci));
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "cancel";
  cancel.dataset.uci = "";
  cancel.addEventListener("click", clearSelection);
  box.appendChild(cancel);
  $("chooser").hidden = false;
}

function play(uci) {
  $("chooser").hidden = true;
  const k = ply();
  try {
    st.last = st.game.play(uci);
    extendLine(k, uci);
  } catch (err) {
    showError(err.message);
    clearSelection();
    return;
  }
  $("error").hidden = true;
  refresh();
  maybeEngine();
}

/** A click (or a drop at the end of a drag) on `square`. */
function clickSquare(square) {
  const sel = st.sel;
  if (!humanToMove()) return;
  if (!sel) {
    if (ownPiece(square)) select(square);
    return;
  }
  if (sel.targets.has(square) || (sel.stop && square === sel.victim)) {
    const kinds = sel.targets.get(square) || [];
    if (sel.drop) {
      choose(legal().filter((d) => d.kind === "drop" && d.drop === sel.drop && d.to === square));
    } else if (sel.victim) {
      if (square === sel.victim && sel.stop) {
        choose(legal().filter((d) => d.from === sel.from && d.to === square && d.kind !== "locust"));
      } else {
        choose(legal().filter((d) => d.from === sel.from && d.kind === "locust" && d.victim === sel.victim
          && d.to === square));
      }
    } else if (kinds.includes("victim")) {
      selectVictim(square);
    } else {
      // castling is entered on the square its highlight marks: the king's
      // castling square, or in Chess960 the rook's square
      choose(legal().filter((d) => d.from === sel.from && (d.kind === "castle"
        ? kinds.includes("castle") && (d.to === square || d.rook === square)
        : d.to === square)), square === sel.from);
    }
    return;
  }
  if (sel.victim && square !== sel.from) {
    select(sel.from);
    return;
  }
  if (square !== sel.from && ownPiece(square)) select(square);
  else clearSelection();
}

// pointer input: a press selects at once (the highlight shows on the press);
// a release on another square after a drag, or a second click, moves

let press = null;

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest(".sq");
  return sq ? sq.dataset.square : null;
}

function onBoardDown(e) {
  if (e.button !== 0) return;
  const square = squareAt(e.clientX, e.clientY);
  if (!square || !st.game) return;
  if (st.diagram) {
    if (square !== st.diagram.square) showDiagram(st.diagram.piece, st.diagram.name, square);
    return;
  }
  $("chooser").hidden = true;
  const isTarget = st.sel && (st.sel.targets.has(square) || (st.sel.stop && square === st.sel.victim));
  let fresh = false;
  if (!isTarget && humanToMove() && ownPiece(square) && !(st.sel && st.sel.from === square && !st.sel.victim)) {
    select(square, e.timeStamp);
    fresh = true;
  }
  press = { square, hand: null, x: e.clientX, y: e.clientY, fresh, drag: null, id: e.pointerId };
}

function onBoardMove(e) {
  if (!press || e.pointerId !== press.id) return;
  const draggable = press.hand
    ? st.sel && st.sel.drop === press.hand
    : st.sel && st.sel.from === press.square && !st.sel.victim;
  if (!press.drag && draggable && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 5) {
    const el = press.hand ? press.source : st.cells.get(press.square);
    const ghost = document.createElement("div");
    ghost.className = "drag";
    const piece = el.querySelector("svg");
    if (piece) ghost.appendChild(piece.cloneNode(true));
    document.body.appendChild(ghost);
    el.classList.add("dragging");
    press.drag = ghost;
  }
  if (press.drag) {
    const size = press.drag.offsetWidth;
    press.drag.style.left = `${e.clientX - size / 2}px`;
    press.drag.style.top = `${e.clientY - size / 2}px`;
  }
}

function onBoardUp(e) {
  if (!press || e.pointerId !== press.id) return;
  const p = press;
  press = null;
  const square = squareAt(e.clientX, e.clientY);
  if (p.drag) {
    p.drag.remove();
    (p.hand ? p.source : st.cells.get(p.square))?.classList.remove("dragging");
    if (square && square !== p.square) clickSquare(square);
    return;
  }
  if (p.fresh || square !== p.square) return;
  if (st.sel && st.sel.from === square && !st.sel.victim && !st.sel.targets.has(square)) {
    clearSelection(); // a second click on the selected piece
    return;
  }
  clickSquare(square);
}

/** A press on a piece in hand selects it (or unselects it); dragging it onto the board drops it. */
function onHandDown(e, h) {
  if (e.button !== 0 || !humanToMove() || h.color !== st.game.sideToMove()) return;
  if (st.sel && st.sel.drop === h.piece) {
    clearSelection();
    return;
  }
  selectDrop(h.piece);
  press = { square: null, hand: h.piece, source: e.currentTarget, x: e.clientX, y: e.clientY, fresh: true, drag: null,
    id: e.pointerId };
}

// ----- buttons -----

/**
 * Takes back the move before the position shown; the moves after it in the
 * line are dropped.
 */
function undo() {
  stopEngine();
  if (st.game.undo() === undefined) return;
  // against the engine, take back its reply and the player's move
  if (engineSides().length === 1 && engineSides()[0] === st.game.sideToMove() && st.game.history().length > 0) {
    st.game.undo();
  }
  syncLine();
  st.last = ply() > 0 ? moveSquares(st.line[ply() - 1]) : null;
  refresh();
}

// ----- PGN out and in -----

/** The PGN of the whole line (also when an earlier position is shown), from the core. */
function linePgn() {
  const k = ply();
  while (ply() < st.line.length) st.game.play(st.line[ply()]);
  const text = st.game.pgn();
  while (ply() > k) st.game.undo();
  return text;
}

function pgnMessage(msg, isError) {
  const e = $("pgn-msg");
  e.textContent = msg;
  e.classList.toggle("bad", Boolean(isError));
}

function exportPgn() {
  const text = linePgn();
  $("pgn-text").value = text;
  pgnMessage(`the game as PGN (${st.line.length} moves)`, false);
  return text;
}

function copyPgn() {
  const text = exportPgn();
  if (!navigator.clipboard) {
    pgnMessage("no clipboard here: the PGN is in the box, copy it from there", true);
    return;
  }
  navigator.clipboard.writeText(text).then(
    () => pgnMessage("the PGN was copied to the clipboard", false),
    () => pgnMessage("the clipboard refused: the PGN is in the box, copy it from there", true),
  );
}

function downloadPgn() {
  const text = exportPgn();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  a.download = `${st.game.variantName}.pgn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * Loads the first game of a PGN text (its Variant and FEN tags, its moves)
 * and shows its last position. A bad text leaves the game as it was and
 * says why under the box.
 */
function importPgn(text, from = "the text") {
  if (!text.trim()) {
    pgnMessage("paste a PGN into the box, or choose a file", true);
    return;
  }
  const before = st.game.variantName;
  try {
    st.game.loadPgn(text);
  } catch (err) {
    pgnMessage(`${from}: ${err.message}`, true);
    return;
  }
  stopEngine();
  pgnMessage(`loaded ${st.game.history().length} moves of ${st.game.variantName} from ${from}`, false);
  if (st.game.variantName !== before) {
    // the PGN's Variant tag named another (built-in) variant
    st.spec = { kind: "builtin", name: st.game.variantName };
    const sel = $("variant");
    if ([...sel.options].some((o) => o.value === st.game.variantName)) sel.value = st.game.variantName;
  }
  // stay on the position loaded: no engine move until the player asks or moves
  $("engine-side").value = "none";
  const moves = st.game.history();
  afterLoad();
  st.last = moves.length ? moveSquares(moves[moves.length - 1]) : null;
  refresh();
}

function wire() {
  const board = $("board");
  board.addEventListener("pointerdown", onBoardDown);
  // moves and releases anywhere: a drag may start in a hand and leave the board
  document.addEventListener("pointermove", onBoardMove);
  document.addEventListener("pointerup", onBoardUp);
  document.addEventListener("pointercancel", () => { if (press?.drag) press.drag.remove(); press = null; });
  $("variant").addEventListener("change", (e) => {
    if (e.target.value.startsWith("user:")) return;
    try { loadBuiltin(e.target.value); } catch (err) { showError(err.message); }
  });
  $("new-game").addEventListener("click", () => {
    stopEngine();
    st.game.reset();
    st.last = null;
    syncLine();
    refresh();
    maybeEngine();
  });
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { st.flipped = !st.flipped; buildBoard(); refresh(); });
  $("engine-go").addEventListener("click", () => { if (!st.thinking) askEngine(); });
  $("engine-side").addEventListener("change", () => { if (!st.thinking) maybeEngine(); renderStatus(); });
  $("set-fen").addEventListener("click", () => {
    stopEngine();
    try {
      st.game.setFen($("fen").value);
    } catch (err) {
      showError(`FEN: ${err.message}`);
      return;
    }
    st.last = null;
    syncLine();
    $("error").hidden = true;
    refresh();
    maybeEngine();
  });
  $("copy-fen").addEventListener("click", () => navigator.clipboard?.writeText(st.game.fen()));
  $("load-def").addEventListener("click", loadDefinition);
  $("show-source").addEventListener("click", () => {
    if (st.spec.kind !== "builtin") return;
    $("definition").value = builtinSource(st.spec.name);
    $("def-format").value = "toml";
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      if (st.diagram) refresh();
      else clearSelection();
      return;
    }
    // the arrow keys, Home and End walk through the move list (not while typing)
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (e.altKey || e.ctrlKey || e.metaKey || !st.game) return;
    const to = { ArrowLeft: ply() - 1, ArrowRight: ply() + 1, Home: 0, End: st.line.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (st.diagram) refresh();
    goTo(to);
  });
  $("nav-start").addEventListener("click", () => goTo(0));
  $("nav-back").addEventListener("click", () => goTo(ply() - 1));
  $("nav-fwd").addEventListener("click", () => goTo(ply() + 1));
  $("nav-end").addEventListener("click", () => goTo(st.line.length));
  $("pgn-export").addEventListener("click", exportPgn);
  $("pgn-copy").addEventListener("click", copyPgn);
  $("pgn-download").addEventListener("click", downloadPgn);
  $("pgn-load").addEventListener("click", () => importPgn($("pgn-text").value));
  $("pgn-file").addEventListener("change", async (e) => {
    const f = e.target.files && e.target.files[0];
    if (!f) return;
    if (f.size > 4 << 20) {
      pgnMessage(`${f.name}: the file is larger than 4 MiB`, true);
    } else {
      const text = await f.text();
      $("pgn-text").value = text;
      importPgn(text, f.name);
    }
    e.target.value = "";
  });
  window.addEventListener("resize", () => {
    clearTimeout(st.resizeTimer);
    st.resizeTimer = setTimeout(() => {
      if (st.game && cellSize(st.game.width, st.game.height) !== st.cellPx) {
        buildBoard();
        refresh();
      }
    }, 100);
  });
  $("diagram-exit").addEventListener("click", () => refresh());
}

async function main() {
  await init();
  const sel = $("variant");
  for (const v of listVariants()) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.description && v.description !== v.name ? `${v.name}: ${v.description}` : v.name;
    sel.appendChild(o);
  }
  const wanted = new URLSearchParams(location.search).get("variant") || "chess";
  sel.value = wanted;
  startWorker();
  wire();
  try {
    loadBuiltin(sel.value || "chess");
  } catch (err) {
    showError(err.message);
    loadBuiltin("chess");
    sel.value = "chess";
  }
  document.body.dataset.ready = "1";
}

main().catch((err) => showError(`could not start: ${err.message || err}`));
