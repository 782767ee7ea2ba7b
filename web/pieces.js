// Piece pictures: a disc in the side's colour with the piece's letter, a small
// crown over royal pieces, a red letter for promoted pieces ("+p") and a
// tilde mark for crazyhouse promoted ones ("Q~"). One drawing serves every
// variant, whatever its pieces.

const NS = "http://www.w3.org/2000/svg";

/** Returns an <svg> element picturing `token` (a FEN token such as "N", "+p", "Q~"). */
export function pieceSvg(token, color, royal = false) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  const white = color === "white";
  const promoted = token.startsWith("+");
  const tilde = token.endsWith("~");
  const letter = token.replace(/[+~]/g, "").toUpperCase();
  const el = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  el("circle", { cx: 50, cy: 53, r: 40, fill: "rgba(0,0,0,0.25)" });
  el("circle", {
    cx: 50, cy: 50, r: 40,
    fill: white ? "#fbf8f0" : "#2a2622",
    stroke: white ? "#2a2622" : "#000",
    "stroke-width": 4,
  });
  el("circle", {
    cx: 50, cy: 50, r: 33, fill: "none",
    stroke: white ? "#b9ab92" : "#6d6358", "stroke-width": 2,
  });
  if (royal) {
    el("path", {
      d: "M30 22 L36 4 L44 16 L50 1 L56 16 L64 4 L70 22 Z",
      fill: "#e0b020", stroke: "#6b4c00", "stroke-width": 2.5, "stroke-linejoin": "round",
    });
  }
  const t = el("text", {
    x: 50, y: 52, "text-anchor": "middle", "dominant-baseline": "central",
    "font-family": "Georgia, 'DejaVu Serif', serif", "font-weight": "bold",
    "font-size": letter.length > 1 ? 34 : 48,
    fill: promoted ? "#d01818" : white ? "#2a2622" : "#fbf8f0",
  });
  t.textContent = letter;
  if (tilde) {
    const m = el("text", {
      x: 78, y: 82, "text-anchor": "middle", "font-size": 26, "font-weight": "bold",
      fill: "#d01818",
    });
    m.textContent = "~";
  }
  return svg;
}
