// Piece pictures and board looks, all drawn here as SVG (no image files).
//
// A variant's pieces are drawn in one of five styles, chosen by `pieceStyle`
// from the names of its piece types (so that a user's own definition of a
// Xiangqi or Shogi variant gets the same look):
//  - "chess": the six orthodox pieces as simple figures;
//  - "xiangqi": round discs with the Chinese characters, Red and Black;
//  - "janggi": octagonal discs, Cho (楚, blue) and Han (漢, red), in three sizes;
//  - "shogi" (and "chu", "tori"): pentagon tiles with kanji, promoted ones in
//    red, Gote's tiles turned 180 degrees;
// and any piece that has no figure or character of its own in its style is a
// fairy piece: a disc with its letter and a coloured ring whose hue is made
// from the piece's name, so that a piece looks the same in every variant.
// A small crown marks royal fairy pieces; "~" marks a crazyhouse promoted piece.

const NS = "http://www.w3.org/2000/svg";

const CJK_FONT = "'WenQuanYi Zen Hei', 'Noto Sans CJK SC', 'Noto Sans CJK JP', 'Noto Serif CJK SC', "
  + "'Source Han Sans', 'Hiragino Sans', 'Microsoft YaHei', 'PingFang SC', 'KaiTi', sans-serif";

// Xiangqi: piece name -> [Red's character, Black's character]
const XIANGQI = {
  general: ["帥", "將"], advisor: ["仕", "士"], elephant: ["相", "象"], horse: ["馬", "馬"],
  chariot: ["車", "車"], cannon: ["炮", "砲"], soldier: ["兵", "卒"], banner: ["旗", "旗"],
};
// Janggi: [Cho's, Han's]
const JANGGI = {
  general: ["楚", "漢"], guard: ["士", "士"], advisor: ["士", "士"], elephant: ["象", "象"], horse: ["馬", "馬"],
  chariot: ["車", "車"], cannon: ["包", "包"], soldier: ["卒", "兵"],
};
const JANGGI_SIZE = { general: 47, guard: 33, advisor: 33, soldier: 33 };
// Shogi and its small relatives: [Sente's, Gote's]; two characters are stacked
const SHOGI = {
  king: ["玉", "王"], rook: ["飛", "飛"], bishop: ["角", "角"], gold: ["金", "金"], silver: ["銀", "銀"],
  knight: ["桂", "桂"], lance: ["香", "香"], pawn: ["歩", "歩"], queen: ["后", "后"],
  tokin: ["と", "と"], "promoted lance": ["成香", "成香"], "promoted knight": ["成桂", "成桂"],
  "promoted silver": ["成銀", "成銀"], horse: ["馬", "馬"], dragon: ["龍", "龍"],
};
// Tori Shogi's birds
const TORI = {
  king: ["鵬", "鵬"], swallow: ["燕", "燕"], falcon: ["鷹", "鷹"], crane: ["鶴", "鶴"],
  "left quail": ["左鶉", "左鶉"], "right quail": ["右鶉", "右鶉"], pheasant: ["雉", "雉"],
  goose: ["鴈", "鴈"], eagle: ["鵰", "鵰"],
};
// Chu Shogi: the usual one-character abbreviations
const CHU = {
  king: "玉", pawn: "歩", "go-between": "仲", lance: "香", "reverse chariot": "反", "copper general": "銅",
  "silver general": "銀", "gold general": "金", "ferocious leopard": "豹", "blind tiger": "虎",
  "drunk elephant": "象", kirin: "麒", phoenix: "鳳", "side mover": "横", "vertical mover": "竪",
  bishop: "角", rook: "飛", "dragon horse": "馬", "dragon king": "龍", "free king": "奔", lion: "獅",
  tokin: "と", "promoted go-between": "象", "white horse": "駒", whale: "鯨", "promoted copper": "横",
  "promoted silver": "竪", "promoted gold": "飛", "promoted leopard": "角", "flying stag": "鹿",
  "crown prince": "太", "promoted kirin": "獅", "promoted phoenix": "奔", "free boar": "猪",
  "flying ox": "牛", "promoted bishop": "馬", "promoted rook": "龍", "horned falcon": "鷹",
  "soaring eagle": "鷲",
};
const CHESS_NAMES = { king: "K", queen: "Q", rook: "R", bishop: "B", knight: "N", pawn: "P" };

/**
 * The drawing style of a variant, from its name and its piece types' names:
 * "chess", "xiangqi", "janggi", "shogi", "chu" or "tori".
 */
export function pieceStyle(variantName, names) {
  const n = new Set(names);
  if (n.has("general") && n.has("chariot") && n.has("cannon")) {
    return n.has("guard") || /^janggi/.test(variantName) ? "janggi" : "xiangqi";
  }
  if (n.has("lion") && n.has("drunk elephant")) return "chu";
  if (n.has("swallow") && n.has("pheasant")) return "tori";
  if ((n.has("gold") && n.has("silver")) || /shogi$/.test(variantName)) return "shogi";
  return "chess";
}

/** The two sides' names in a style: { white, black }. */
export function sideNames(style) {
  if (style === "xiangqi") return { white: "Red", black: "Black" };
  if (style === "janggi") return { white: "Blue", black: "Red" };
  if (style === "shogi" || style === "chu" || style === "tori") return { white: "Sente", black: "Gote" };
  return { white: "White", black: "Black" };
}

/** Whether the style's pieces stand on the intersections of the lines (Xiangqi, Janggi). */
export function onIntersections(style) {
  return style === "xiangqi" || style === "janggi";
}

function make(svg, name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  svg.appendChild(e);
  return e;
}

function newSvg(kind) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.dataset.look = kind;
  return svg;
}

/** A small number from a name, the same in every variant (for a fairy piece's ring colour). */
function nameHue(name) {
  let h = 7;
  for (const c of name || "") h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

// the orthodox chess pieces, drawn on a 100 x 100 box
const CHESS_PATHS = {
  P: [["circle", { cx: 50, cy: 30, r: 12 }],
    ["path", { d: "M38 46 Q50 38 62 46 L57 52 Q61 66 70 76 L30 76 Q39 66 43 52 Z" }],
    ["rect", { x: 24, y: 76, width: 52, height: 11, rx: 3 }]],
  R: [["path", { d: "M26 16 H36 V24 H45 V16 H55 V24 H64 V16 H74 V36 L66 42 V68 L74 74 V87 H26 V74 L34 68 V42 L26 36 Z" }],
    ["path", { d: "M34 42 H66 M34 68 H66", fill: "none", detail: 1 }]],
  N: [["path", { d: "M30 87 L33 70 C34 60 42 55 47 49 C39 52 31 56 24 53 C17 50 16 43 21 39 L39 23 L41 11 L50 20 "
    + "C68 20 81 35 79 60 L76 87 Z" }],
  ["circle", { cx: 45, cy: 31, r: 3.5, detail: 1, "stroke-width": 0 }],
  ["path", { d: "M70 36 C74 48 73 62 68 80", fill: "none", detail: 1 }]],
  B: [["circle", { cx: 50, cy: 13, r: 6 }],
    ["path", { d: "M50 20 C67 32 70 52 61 63 H39 C30 52 33 32 50 20 Z" }],
    ["path", { d: "M45 34 L57 46", fill: "none", detail: 1 }],
    ["rect", { x: 36, y: 63, width: 28, height: 8, rx: 2 }],
    ["path", { d: "M26 87 L33 71 H67 L74 87 Z" }]],
  Q: [["path", { d: "M27 72 L16 30 L34 52 L35 22 L46 48 L50 16 L54 48 L65 22 L66 52 L84 30 L73 72 Z" }],
    ["circle", { cx: 16, cy: 29, r: 5 }], ["circle", { cx: 35, cy: 21, r: 5 }], ["circle", { cx: 50, cy: 14, r: 5 }],
    ["circle", { cx: 65, cy: 21, r: 5 }], ["circle", { cx: 84, cy: 29, r: 5 }],
    ["rect", { x: 24, y: 72, width: 52, height: 15, rx: 3 }],
    ["path", { d: "M27 79 H73", fill: "none", detail: 1 }]],
  K: [["path", { d: "M46 6 H54 V14 H62 V22 H54 V32 H46 V22 H38 V14 H46 Z" }],
    ["path", { d: "M28 72 C12 56 22 34 40 40 C44 34 56 34 60 40 C78 34 88 56 72 72 Z" }],
    ["rect", { x: 24, y: 72, width: 52, height: 15, rx: 3 }],
    ["path", { d: "M50 38 V70 M27 79 H73", fill: "none", detail: 1 }]],
};

function chessPiece(letter, white, tilde) {
  const svg = newSvg(`chess-${letter}`);
  const fill = white ? "#fbf8f0" : "#2a2622";
  const line = white ? "#1d1a17" : "#000";
  const detail = white ? "#1d1a17" : "#e9e1d2";
  for (const [tag, a] of CHESS_PATHS[letter]) {
    const attrs = { ...a };
    const isDetail = attrs.detail;
    delete attrs.detail;
    if (isDetail) {
      if (attrs.fill === "none") make(svg, tag, { stroke: detail, "stroke-width": 3, "stroke-linecap": "round", ...attrs });
      else make(svg, tag, { fill: detail, ...attrs });
    } else {
      make(svg, tag, { fill, stroke: line, "stroke-width": 3.5, "stroke-linejoin": "round", ...attrs });
    }
  }
  if (tilde) tildeMark(svg);
  return svg;
}

function tildeMark(svg) {
  make(svg, "text", { x: 86, y: 96, "text-anchor": "middle", "font-size": 30, "font-weight": "bold", fill: "#d01818" }, "~");
}

/** A fairy piece: a disc with its letter and a ring coloured from its name. */
function fairyPiece(token, white, royal, name) {
  const svg = newSvg("fairy");
  const promoted = token.startsWith("+");
  const tilde = token.endsWith("~");
  const letter = token.replace(/[+~]/g, "").toUpperCase();
  make(svg, "circle", { cx: 50, cy: 53, r: 40, fill: "rgba(0,0,0,0.25)" });
  make(svg, "circle", {
    cx: 50, cy: 50, r: 40, fill: white ? "#fbf8f0" : "#2a2622", stroke: white ? "#2a2622" : "#000", "stroke-width": 4,
  });
  make(svg, "circle", {
    cx: 50, cy: 50, r: 33, fill: "none", stroke: `hsl(${nameHue(name)}, 60%, ${white ? 45 : 60}%)`, "stroke-width": 4,
  });
  if (royal) {
    make(svg, "path", {
      d: "M30 22 L36 4 L44 16 L50 1 L56 16 L64 4 L70 22 Z",
      fill: "#e0b020", stroke: "#6b4c00", "stroke-width": 2.5, "stroke-linejoin": "round",
    });
  }
  make(svg, "text", {
    x: 50, y: 52, "text-anchor": "middle", "dominant-baseline": "central",
    "font-family": "Georgia, 'DejaVu Serif', serif", "font-weight": "bold",
    "font-size": letter.length > 1 ? 34 : 46,
    fill: promoted ? "#d01818" : white ? "#2a2622" : "#fbf8f0",
  }, letter);
  if (tilde) tildeMark(svg);
  return svg;
}

function chineseText(svg, chars, color, size, cy = 50) {
  if (chars.length === 1) {
    make(svg, "text", {
      x: 50, y: cy, "text-anchor": "middle", "dominant-baseline": "central", "font-family": CJK_FONT,
      "font-size": size, "font-weight": "bold", fill: color,
    }, chars);
  } else {
    const s = size * 0.68;
    [...chars].forEach((c, i) => make(svg, "text", {
      x: 50, y: cy + (i === 0 ? -s * 0.52 : s * 0.52), "text-anchor": "middle", "dominant-baseline": "central",
      "font-family": CJK_FONT, "font-size": s, "font-weight": "bold", fill: color,
    }, c));
  }
}

function xiangqiPiece(chars, white) {
  const svg = newSvg("xiangqi");
  const ink = white ? "#b3121b" : "#1c1c1c";
  make(svg, "circle", { cx: 50, cy: 54, r: 45, fill: "rgba(0,0,0,0.3)" });
  make(svg, "circle", { cx: 50, cy: 50, r: 45, fill: "#f3e0b5", stroke: "#6b4a22", "stroke-width": 3 });
  make(svg, "circle", { cx: 50, cy: 50, r: 37, fill: "none", stroke: ink, "stroke-width": 2.5 });
  chineseText(svg, chars, ink, 46);
  return svg;
}

function janggiPiece(chars, white, name) {
  const svg = newSvg("janggi");
  const ink = white ? "#155fa8" : "#c0141c";
  const r = JANGGI_SIZE[name] || 41;
  const pts = (rad, dy = 0) => [...Array(8).keys()].map((k) => {
    const a = (Math.PI / 8) * (2 * k + 1);
    return `${(50 + rad * Math.cos(a)).toFixed(1)},${(50 + dy + rad * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  make(svg, "polygon", { points: pts(r, 4), fill: "rgba(0,0,0,0.3)" });
  make(svg, "polygon", { points: pts(r), fill: "#f6ead0", stroke: "#4a3520", "stroke-width": 3, "stroke-linejoin": "round" });
  make(svg, "polygon", { points: pts(r - 7), fill: "none", stroke: ink, "stroke-width": 1.5 });
  chineseText(svg, chars, ink, r * 1.05);
  return svg;
}

function shogiPiece(chars, promoted, turned) {
  const svg = newSvg("shogi");
  const g = make(svg, "g", turned ? { transform: "rotate(180 50 50)" } : {});
  const tile = (attrs) => {
    const e = document.createElementNS(NS, "polygon");
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    g.appendChild(e);
  };
  tile({ points: "50,7 77,19 85,95 15,95 23,19", fill: "rgba(0,0,0,0.3)", transform: "translate(2 2)" });
  tile({ points: "50,5 77,17 85,93 15,93 23,17", fill: "#f1d79e", stroke: "#6b4a22", "stroke-width": 3, "stroke-linejoin": "round" });
  const ink = promoted ? "#c0141c" : "#1c1c1c";
  const inner = document.createElementNS(NS, "g");
  g.appendChild(inner);
  chineseText(inner, chars, ink, 44, 56);
  return svg;
}

/**
 * Returns an <svg> element picturing `token` (a FEN token such as "N", "+p",
 * "Q~") of `color` ("white" or "black"). `opts`: `style` (from pieceStyle),
 * `name` (the piece type's name), `royal`, `flipped` (the board is turned, so
 * Shogi tiles point the other way).
 */
export function pieceSvg(token, color, opts = {}) {
  const { style = "chess", name = "", royal = false, flipped = false } = opts;
  const white = color === "white";
  const promoted = token.startsWith("+");
  const tilde = token.endsWith("~");
  const side = white ? 0 : 1;
  if (style === "xiangqi" && XIANGQI[name]) return xiangqiPiece(XIANGQI[name][side], white);
  if (style === "janggi" && JANGGI[name]) return janggiPiece(JANGGI[name][side], white, name);
  if (style === "shogi" || style === "tori" || style === "chu") {
    const table = style === "tori" ? TORI : SHOGI;
    let chars = style === "chu" ? CHU[name] : table[name]?.[side];
    if (style === "chu" && name === "king" && !white) chars = "王";
    if (chars) return shogiPiece(chars, promoted, white === flipped);
  }
  if (style === "chess" && !promoted && CHESS_NAMES[name] === token.replace("~", "").toUpperCase()) {
    return chessPiece(CHESS_NAMES[name], white, tilde);
  }
  return fairyPiece(token, white, royal, name);
}

/**
 * The lines of a Xiangqi or Janggi board, `w` x `h` points, drawn through the
 * centres of cells of `cell` pixels: the grid, the river (an unbroken gap in
 * the middle of a 10-rank Xiangqi board) and the palaces' diagonals (3 x 3 in
 * the middle of each side's first three ranks).
 */
export function boardLinesSvg(w, h, cell, style) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "lines");
  svg.setAttribute("width", w * cell);
  svg.setAttribute("height", h * cell);
  svg.setAttribute("aria-hidden", "true");
  const x = (f) => (f + 0.5) * cell;
  const y = (r) => (r + 0.5) * cell; // r counted from the top
  const line = (f1, r1, f2, r2, width = 1.5) => make(svg, "line", {
    x1: x(f1), y1: y(r1), x2: x(f2), y2: y(r2), stroke: "#4a3018", "stroke-width": width, "stroke-linecap": "square",
  });
  const river = style === "xiangqi" && h === 10;
  for (let r = 0; r < h; r++) line(0, r, w - 1, r);
  for (let f = 0; f < w; f++) {
    if (river && f > 0 && f < w - 1) {
      line(f, 0, f, 4);
      line(f, 5, f, 9);
    } else {
      line(f, 0, f, h - 1);
    }
  }
  make(svg, "rect", {
    x: x(0) - 4, y: y(0) - 4, width: x(w - 1) - x(0) + 8, height: y(h - 1) - y(0) + 8,
    fill: "none", stroke: "#4a3018", "stroke-width": 2,
  });
  if (w % 2 === 1 && w >= 5 && h >= 6) {
    const c = (w - 1) / 2;
    for (const r0 of [0, h - 3]) {
      line(c - 1, r0, c + 1, r0 + 2);
      line(c + 1, r0, c - 1, r0 + 2);
    }
  }
  if (river) {
    for (const [text, f] of [["楚 河", 2], ["漢 界", w - 3]]) {
      make(svg, "text", {
        x: x(f), y: (y(4) + y(5)) / 2, "text-anchor": "middle", "dominant-baseline": "central",
        "font-family": CJK_FONT, "font-size": cell * 0.45, fill: "#6b4a22",
      }, text);
    }
  }
  return svg;
}
