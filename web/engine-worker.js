// The engine's Web Worker: its own instance of the WebAssembly module, so
// that a search of several seconds leaves the page responsive. The page
// sends the variant, the start FEN, the moves played and the time limit; the
// worker answers with the engine's move (or an error).
//
//   in:  { id, variant: { kind: "builtin", name } | { kind: "definition", text, format, section },
//          startFen, moves: string[], movetime, depth? }
//   out: { id, ok: true, info: SearchInfo } | { id, ok: false, message }

import init, { ChimeraGame } from "./pkg/chimera_wasm.js";

const ready = init();
let cached = { key: null, game: null };

function gameFor(variant) {
  const key = JSON.stringify(variant);
  if (cached.key !== key) {
    if (cached.game) cached.game.free();
    const game = variant.kind === "builtin"
      ? ChimeraGame.fromBuiltin(variant.name)
      : ChimeraGame.fromDefinition(variant.text, variant.format, variant.section || undefined);
    cached = { key, game };
  }
  return cached.game;
}

self.onmessage = async (e) => {
  if (!e.data || e.data.id === undefined) return; // not a request (the single-file build's set-up message)
  const { id, variant, startFen, moves, movetime, depth } = e.data;
  try {
    await ready;
    const game = gameFor(variant);
    game.setFen(startFen);
    for (const m of moves) game.play(m);
    const info = game.think(movetime, depth ?? undefined);
    self.postMessage({ id, ok: true, info });
  } catch (err) {
    self.postMessage({ id, ok: false, message: String(err && err.message ? err.message : err) });
  }
};
