// The package's types: every export of the WebAssembly module (types
// written by wasm-bindgen from the Rust sources), already initialised.
export * from "./pkg/chimera_wasm.js";
import * as chimera from "./pkg/chimera_wasm.js";
export default chimera;
