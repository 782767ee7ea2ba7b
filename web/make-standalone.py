#!/usr/bin/env python3
"""Writes the page as one HTML file that opens from disk (file://), with no
server at all: the styles, the scripts and the WebAssembly module (base64)
inline, and the engine's worker made from a Blob. Browsers refuse ES-module
files, fetch() and worker files on file:// pages; inline scripts and Blob
workers are allowed.

Usage: make-standalone.py GLUE_NO_MODULES_JS WASM OUT_HTML
(GLUE: wasm-bindgen --target no-modules output; scripts/build-web.sh runs this.)
"""
import base64
import re
import sys
from pathlib import Path

web = Path(__file__).resolve().parent


def strip_imports(src):
    return re.sub(r"^import .*?;\n", "", src, flags=re.M)


def main():
    glue_path, wasm_path, out_path = sys.argv[1:4]
    glue = Path(glue_path).read_text()
    wasm = base64.b64encode(Path(wasm_path).read_bytes()).decode()
    html = (web / "index.html").read_text()
    css = (web / "style.css").read_text()
    pieces = (web / "pieces.js").read_text().replace("export function", "function")
    app = strip_imports((web / "app.js").read_text())
    worker = strip_imports((web / "engine-worker.js").read_text())
    for name, text in [("app.js", app), ("engine-worker.js", worker)]:
        if "import " in text.split("\n", 40)[-1] or re.search(r"^import ", text, flags=re.M):
            sys.exit(f"make-standalone: {name} still imports something")
    # the worker: the glue, then a stand-in for init() that waits for the
    # module's bytes, sent as the first message, then the worker's own code
    worker_src = (
        glue
        + "\nconst { ChimeraGame } = wasm_bindgen;\n"
        + "const init = () => new Promise((resolve) => {\n"
        + "  self.addEventListener('message', function once(e) {\n"
        + "    if (e.data && e.data.wasmBytes) {\n"
        + "      self.removeEventListener('message', once);\n"
        + "      resolve(wasm_bindgen({ module_or_path: e.data.wasmBytes }));\n"
        + "    }\n"
        + "  });\n"
        + "});\n"
        + worker
    )
    boot = (
        "const chimeraWasmBytes = Uint8Array.from(atob(document.getElementById('chimera-wasm').textContent.trim()),"
        " (c) => c.charCodeAt(0));\n"
        "const chimeraWorkerUrl = URL.createObjectURL(new Blob("
        "[document.getElementById('chimera-worker').textContent], { type: 'text/javascript' }));\n"
        "globalThis.chimeraMakeWorker = () => {\n"
        "  const w = new Worker(chimeraWorkerUrl);\n"
        "  w.postMessage({ wasmBytes: chimeraWasmBytes });\n"
        "  return w;\n"
        "};\n"
        "const { ChimeraGame, listVariants, builtinSource } = wasm_bindgen;\n"
        "const init = () => wasm_bindgen({ module_or_path: chimeraWasmBytes });\n"
    )
    scripts = (
        f'<script id="chimera-wasm" type="application/octet-stream">{wasm}</script>\n'
        f'<script id="chimera-worker" type="text/plain">{worker_src}</script>\n'
        f"<script>{glue}</script>\n"
        f'<script type="module">\n{boot}{pieces}\n{app}</script>\n'
    )
    if "</script" in worker_src or "</script" in app or "</script" in glue:
        sys.exit("make-standalone: a script contains '</script'")
    html = html.replace('<link rel="stylesheet" href="style.css">', f"<style>\n{css}</style>")
    tag = '<script type="module" src="app.js"></script>'
    if tag not in html:
        sys.exit("make-standalone: index.html no longer loads app.js as expected")
    html = html.replace(tag, scripts)
    Path(out_path).write_text(html)


if __name__ == "__main__":
    main()
