// The package's entry point: loads the WebAssembly module once (top-level
// await) and exports its functions and classes, ready to use.
//
// In Node the module file is read from disk; elsewhere (a browser, a
// bundler) it is fetched from next to this file.
import init, * as chimera from "./pkg/chimera_wasm.js";

const wasmUrl = new URL("./pkg/chimera_wasm_bg.wasm", import.meta.url);
if (wasmUrl.protocol === "file:" && typeof process !== "undefined" && process.versions && process.versions.node) {
  const { readFile } = await import("node:fs/promises");
  await init({ module_or_path: await readFile(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

export * from "./pkg/chimera_wasm.js";
export default chimera;
