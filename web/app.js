// The page: a board for any variant, legal-move highlighting from Chimera's
// WebAssembly package, moves by click or drag, and the engine in a Web Worker.

import init, { ChimeraGame, listVariants, builtinSource } from "./pkg/chimera_wasm.js";
import { pieceSvg } from "./pieces.js";

const $ = (id) => document.getElementById(id);

/** The game (a ChimeraGame) and what the page knows about it. */
const st = {
  game: null,
  spec: null,          // how to rebuild the variant in the worker
  royal: new Set(),    // White's tokens of the royal pieces
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
  st.royal = new Set(st.game.pieceTypes().filter((p) => p.royal).map((p) => p.piece));
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

function cellSize(w, h) {
  return Math.max(30, Math.min(64, Math.floor(Math.min(600 / w, 620 / h))));
}

function buildBoard() {
  const g = st.game;
  const w = g.width, h = g.height;
  const board = $("board");
  board.replaceChildren();
  st.cells.clear();
  document.documentElement.style.setProperty("--cell", `${cellSize(w, h)}px`);
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
    if (c.piece) p.appendChild(pieceSvg(c.piece, c.color, royal));
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
    el.appendChild(pieceSvg(h.piece, h.color, st.royal.has(h.piece.toUpperCase())));
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

function renderMoves() {
  const ol = $("moves");
  ol.replaceChildren();
  const fields = st.game.startFen().split(/\s+/);
  const blackFirst = fields[1] === "b";
  const first = Number(fields[fields.length - 1]) || 1;
  const moves = st.game.history();
  const plies = blackFirst ? ["…", ...moves] : moves;
  for (let i = 0; i < plies.length; i += 2) {
    const li = document.createElement("li");
    li.value = first + i / 2;
    li.textContent = plies.slice(i, i + 2).join("  ");
    ol.appendChild(li);
  }
  if (ol.lastChild) {
    ol.lastChild.classList.add("current");
    ol.scrollTop = ol.scrollHeight;
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
    s = `${r.score}: ${r.winner ? `${r.winner} wins` : "draw"} (${r.reason})`;
  } else {
    s = `${g.sideToMove() === "white" ? "White" : "Black"} to move${g.inCheck() ? ", in check" : ""}`;
    if (st.thinking) s += " (the engine is thinking…)";
  }
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
    icon.appendChild(pieceSvg(p.piece, "white", p.royal));
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
    if (token) b.appendChild(pieceSvg(token, stm, st.royal.has(token.toUpperCase())));
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
  try {
    st.last = st.game.play(uci);
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

function undo() {
  stopEngine();
  if (st.game.undo() === undefined) return;
  // against the engine, take back its reply and the player's move
  if (engineSides().length === 1 && engineSides()[0] === st.game.sideToMove() && st.game.history().length > 0) {
    st.game.undo();
  }
  st.last = null;
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
  $("new-game").addEventListener("click", () => { stopEngine(); st.game.reset(); st.last = null; refresh(); maybeEngine(); });
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
    if (e.key !== "Escape") return;
    if (st.diagram) refresh();
    else clearSelection();
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
