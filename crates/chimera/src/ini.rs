//! Fairy-Stockfish's variant configuration format (`variants.ini`).
//!
//! A file holds sections `[name]` or `[name:parent]` of `key = value` lines.
//! A section inherits every option of its parent: another section of the same
//! file, `chess`, or one of the Fairy-Stockfish built-ins written out in
//! [`PARENTS`] (xiangqi, janggi, shogi, crazyhouse, ...: see
//! [`variant_names`] of that file), each checked against pyffish's data for
//! the built-in variant of that name. A section without a parent starts from Fairy-Stockfish's
//! template: chess rules without pieces. Each option is mapped onto the
//! Chimera variant model; the result is written in the native format and read
//! by the native reader, so a variants.ini variant and a native one are the
//! same thing. Hands are read too: drops (`pieceDrops`, `capturesToHand` with
//! `Q~` promoted pawns, `dropRegionWhite/Black`, `dropNoDoubled`, `mustDrop`,
//! `sittuyinRookDrop`), Seirawan gating (`seirawanGating`), Sittuyin promotion
//! (`sittuyinPromotion`, `promotionLimit`) and makruk/ASEAN `countingRule`.
//! Pieces may be confined per side (`mobilityRegionWhiteKing`, ...: the region
//! filters where moves end, [`crate::definition::ConfineMode::Destination`]), given
//! Janggi's palace diagonals (`diagonalLines`: the rook, Janggi cannon,
//! soldier, wazir and a wazir-moving king move along them) and Xiangqi's
//! soldier (`soldierPromotionRank`). `nMoveRuleTypes` names the types whose
//! moves reset the half-move clock; `extinctionPseudoRoyal`, with an
//! `extinctionPieceCount` no side can exceed (coregal's), makes the extinction
//! types royal. Options inherited from a parent that name
//! a piece the section removed are dropped, as Fairy-Stockfish drops them.
//! Where an option is absent, Fairy-Stockfish's default applies, even where it
//! surprises: the promotion zones are its eighth rank for White and its first
//! rank for Black whatever the board's size.
//!
//! An option this reader does not support is an error that names
//! it and its line: nothing is ignored silently, except options that only
//! concern GUIs or an engine's evaluation (listed in [`IGNORED`]).
//!
//! ```
//! let ini = "[tinychess:chess]\nmaxRank = 6\nmaxFile = 6\nstartFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\ncastling = false\ndoubleStep = false\n";
//! let def = chimera::ini::variant_from_ini(ini, "my.ini", "tinychess").unwrap();
//! assert_eq!(def.geometry.width, 6);
//! ```

use crate::definition::{VariantDef, VariantError};
use std::collections::BTreeMap;

/// Options that do not change the legal moves of a position read from a FEN:
/// GUI hints, engine evaluation settings, draws that Fairy-Stockfish treats as
/// claims, and repetition rules (which need a game history).
pub const IGNORED: &[&str] = &[
    "variantTemplate",
    "pieceToCharTable",
    "pocketSize",
    "pieceValueMg",
    "pieceValueEg",
    "nFoldValue",
    "nFoldValueAbsolute",
    "perpetualCheckIllegal",
    "moveRepetitionIllegal",
    "materialCounting",
];

/// Fairy-Stockfish's predefined piece types, in its internal order, with
/// their moves in XBetza and whether they are its "pawn" type.
const BUILTIN_PIECES: &[(&str, &str)] = &[
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

/// Options this reader maps onto the model.
const SUPPORTED: &[&str] = &[
    "maxRank",
    "maxFile",
    "startFen",
    "king",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "mandatoryPawnPromotion",
    "mandatoryPiecePromotion",
    "promotedPieceType",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRookPieces",
    "castlingKingPiece",
    "pieceDrops",
    "capturesToHand",
    "dropNoDoubled",
    "dropNoDoubledCount",
    "shogiPawnDropMateIllegal",
    "immobilityIllegal",
    "firstRankPawnDrops",
    "promotionZonePawnDrops",
    "stalemateValue",
    "checkmateValue",
    "mustCapture",
    "extinctionValue",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "extinctionOpponentPieceCount",
    "extinctionClaim",
    "flagPiece",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "flagMove",
    "flyingGeneral",
    "bikjangRule",
    "pass",
    "chess960",
    "checking",
    "gating",
    "seirawanGating",
    "mustDrop",
    "mustDropType",
    "dropRegionWhite",
    "dropRegionBlack",
    "sittuyinRookDrop",
    "sittuyinPromotion",
    "promotionLimit",
    "countingRule",
    "checkCounting",
    "soldierPromotionRank",
    "dropChecks",
    "diagonalLines",
    "enPassantTypes",
    "tripleStepRegionWhite",
    "tripleStepRegionBlack",
    "nMoveRule",
    "nFoldRule",
    "nMoveRuleTypes",
    "flagPieceWhite",
    "flagPieceBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "castlingRank",
    "castlingRookKingsideFile",
    "castlingRookQueensideFile",
    "extinctionPseudoRoyal",
    "dropLoop",
    "cambodianMoves",
];

#[derive(Clone, Debug)]
struct Opt {
    value: String,
    line: usize,
    /// The option comes from a parent section.
    inherited: bool,
}

#[derive(Clone, Debug)]
struct Section {
    parent: Option<String>,
    line: usize,
    options: Vec<(String, Opt)>,
}

fn err(file: &str, line: usize, message: impl Into<String>) -> VariantError {
    VariantError {
        file: file.to_string(),
        line,
        column: if line > 0 { 1 } else { 0 },
        message: message.into(),
        kind: crate::definition::VariantErrorKind::Invalid,
    }
}

fn parse_sections(text: &str, file: &str) -> Result<BTreeMap<String, Section>, VariantError> {
    let mut sections: BTreeMap<String, Section> = BTreeMap::new();
    let mut current: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with(';') {
            continue;
        }
        if let Some(inner) = l.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| err(file, line, format!("a section header is [name] or [name:parent], not '{l}'")))?;
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim().to_string(), Some(p.trim().to_string())),
                None => (inner.trim().to_string(), None),
            };
            if name.is_empty() {
                return Err(err(file, line, "a section needs a name"));
            }
            crate::definition::check_name(&name).map_err(|m| err(file, line, m))?;
            if let Some(p) = &parent {
                crate::definition::check_name(p).map_err(|m| err(file, line, format!("parent: {m}")))?;
            }
            if sections.contains_key(&name) {
                return Err(err(file, line, format!("variant '{name}' is defined twice")));
            }
            sections.insert(name.clone(), Section { parent, line, options: Vec::new() });
            current = Some(name);
            continue;
        }
        let (k, v) =
            l.split_once('=').ok_or_else(|| err(file, line, format!("expected 'option = value', not '{l}'")))?;
        let name = current.as_ref().ok_or_else(|| err(file, line, "an option before the first [section]"))?;
        let v = v.split('#').next().unwrap_or("").trim();
        sections
            .get_mut(name)
            .unwrap()
            .options
            .push((k.trim().to_string(), Opt { value: v.to_string(), line, inherited: false }));
    }
    Ok(sections)
}

/// The options of `name` after inheritance, in order (parents first).
fn resolve(
    sections: &BTreeMap<String, Section>,
    file: &str,
    name: &str,
    depth: usize,
) -> Result<Vec<(String, Opt)>, VariantError> {
    let s = sections
        .get(name)
        .ok_or_else(|| err(file, 0, format!("no variant '{}' in this file", name.escape_default())))?;
    if depth > 32 {
        return Err(err(file, s.line, "the parents of this variant form a loop"));
    }
    let mut out: Vec<(String, Opt)> = match &s.parent {
        None => Vec::new(),
        Some(p) if sections.contains_key(p) => resolve(sections, file, p, depth + 1)?,
        Some(p) if p == "chess" => chess_preset(),
        Some(p) => {
            let presets = parse_sections(PARENTS, PARENTS_FILE).expect("the parents file reads");
            if !presets.contains_key(p) {
                let known: Vec<&str> = presets.keys().map(|k| k.as_str()).collect();
                return Err(err(
                    file,
                    s.line,
                    format!("parent '{p}': a parent is 'chess', {}, or a variant of the same file", known.join(", ")),
                ));
            }
            resolve(&presets, PARENTS_FILE, p, depth + 1)?
        }
    };
    for (_, o) in &mut out {
        o.inherited = true;
    }
    out.extend(s.options.iter().cloned());
    Ok(out)
}

/// Fairy-Stockfish's built-in variants that a section may name as its parent,
/// written as variants.ini sections (`variants/fairy-stockfish-parents.ini`).
pub const PARENTS: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/fairy-stockfish-parents.ini"));

/// The file name shown in errors about [`PARENTS`].
const PARENTS_FILE: &str = "variants/fairy-stockfish-parents.ini";

fn chess_preset() -> Vec<(String, Opt)> {
    [("pawn", "p"), ("knight", "n"), ("bishop", "b"), ("rook", "r"), ("queen", "q"), ("king", "k")]
        .iter()
        .map(|(k, v)| (k.to_string(), Opt { value: v.to_string(), line: 0, inherited: true }))
        .collect()
}

/// The names of the variants a file defines, sorted. No variant is built.
pub fn variant_names(text: &str, file: &str) -> Result<Vec<String>, VariantError> {
    Ok(parse_sections(text, file)?.into_keys().collect())
}

struct Board {
    files: u8,
    ranks: u8,
}

impl Board {
    /// A Fairy-Stockfish region ("*8", "a1 b2", "*1 *2", "-") as a Chimera zone text.
    fn region(&self, v: &Opt, file: &str, key: &str) -> Result<String, VariantError> {
        let last_file = (b'a' + self.files - 1) as char;
        let mut parts = Vec::new();
        for w in v.value.split_whitespace() {
            if w == "-" {
                continue;
            }
            if let Some(r) = w.strip_prefix('*') {
                let rank: u8 = r.parse().map_err(|_| err(file, v.line, format!("{key}: bad region '{w}'")))?;
                if rank == 0 || rank > self.ranks {
                    return Err(err(file, v.line, format!("{key}: rank {rank} is not on the board")));
                }
                parts.push(format!("a{rank}-{last_file}{rank}"));
            } else if w.len() >= 2 && w.as_bytes()[0].is_ascii_lowercase() && w[1..].bytes().all(|b| b.is_ascii_digit())
            {
                // a square of this board: the zone is mirrored by rank arithmetic later
                let on_board = w[1..].parse::<u8>().is_ok_and(|r| r >= 1 && r <= self.ranks)
                    && w.as_bytes()[0] < b'a' + self.files;
                if !on_board {
                    return Err(err(file, v.line, format!("{key}: square '{w}' is not on the board")));
                }
                parts.push(w.to_string());
            } else {
                return Err(err(
                    file,
                    v.line,
                    format!("{key}: region '{w}' is not supported (use *N ranks or squares)"),
                ));
            }
        }
        Ok(parts.join(" "))
    }

    /// The squares (file, rank; from 1) of a zone text: squares and ranges.
    fn squares(&self, zone: &str) -> Vec<(u8, u8)> {
        let sq = |s: &str| (s.as_bytes()[0] - b'a' + 1, s[1..].parse::<u8>().unwrap_or(1));
        let mut out = Vec::new();
        for w in zone.split_whitespace() {
            let (a, b) = w.split_once('-').map(|(a, b)| (sq(a), sq(b))).unwrap_or((sq(w), sq(w)));
            for f in a.0.min(b.0)..=a.0.max(b.0) {
                for r in a.1.min(b.1)..=a.1.max(b.1) {
                    out.push((f, r));
                }
            }
        }
        out
    }

    /// The zone text mirrored to the other side (ranks flipped).
    fn mirror(&self, zone: &str) -> String {
        let flip = |sq: &str| -> String {
            let f = &sq[..1];
            let r: u8 = sq[1..].parse().unwrap_or(1);
            format!("{f}{}", self.ranks + 1 - r)
        };
        let mut parts: Vec<String> = zone
            .split_whitespace()
            .map(|w| match w.split_once('-') {
                Some((a, b)) => format!("{}-{}", flip(a), flip(b)),
                None => flip(w),
            })
            .collect();
        parts.sort();
        parts.join(" ")
    }
}

fn sorted_zone(z: &str) -> String {
    let mut parts: Vec<&str> = z.split_whitespace().collect();
    parts.sort();
    parts.join(" ")
}

fn bool_opt(o: &Opt, file: &str, key: &str) -> Result<bool, VariantError> {
    match o.value.as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(err(file, o.line, format!("{key} must be true or false, not '{other}'"))),
    }
}

/// Reads variant `name` from a Fairy-Stockfish configuration file.
///
/// Only this variant and its parents are read beyond their section headers
/// and lines; a program that offers several variants of one file should
/// keep an [`IniFile`] and build each variant when it is chosen.
pub fn variant_from_ini(text: &str, file: &str, name: &str) -> Result<VariantDef, VariantError> {
    IniFile::parse(text, file)?.variant(name)
}

/// A variants.ini file split into its sections. Reading it checks the
/// syntax and the section names only: no variant is built until
/// [`IniFile::variant`] asks for it, so a file of many variants costs the
/// time and memory of its text, plus those of the variants actually used.
#[derive(Clone, Debug)]
pub struct IniFile {
    file: String,
    sections: BTreeMap<String, Section>,
}

impl IniFile {
    /// Splits `text` into sections; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<IniFile, VariantError> {
        Ok(IniFile { file: file.to_string(), sections: parse_sections(text, file)? })
    }

    /// The names of the variants the file defines, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.sections.keys().map(|k| k.as_str())
    }

    /// Builds the definition of variant `name` from its section and its parents.
    pub fn variant(&self, name: &str) -> Result<VariantDef, VariantError> {
        variant_from_sections(&self.sections, &self.file, name)
    }
}

fn variant_from_sections(
    sections: &BTreeMap<String, Section>,
    file: &str,
    name: &str,
) -> Result<VariantDef, VariantError> {
    let options = resolve(sections, file, name, 0)?;
    let mut last: BTreeMap<String, Opt> = BTreeMap::new();
    // piece letters in definition order: (name in Chimera, letter, betza, fs order)
    let mut pieces: Vec<(String, char, String, usize)> = Vec::new();
    let mut king: Option<(char, String)> = None;
    // promotedPieceType entries: (piece, promoted form's moves, option)
    let mut promoted_entries: Vec<(char, char, Opt)> = Vec::new();
    for (k, o) in &options {
        if let Some(&(_, betza)) = BUILTIN_PIECES.iter().find(|(n, _)| n == k) {
            let order = BUILTIN_PIECES.iter().position(|(n, _)| n == k).unwrap();
            pieces.retain(|p| p.0 != *k);
            if o.value == "-" {
                continue;
            }
            let c = single_letter(o, file, k)?;
            pieces.push((k.clone(), c, betza.to_string(), order));
        } else if let Some(n) = k.strip_prefix("customPiece") {
            let slot: usize = n.parse().map_err(|_| err(file, o.line, format!("unknown option '{k}'")))?;
            pieces.retain(|p| p.0 != *k);
            if o.value == "-" {
                continue;
            }
            let (l, b) = o
                .value
                .split_once(':')
                .ok_or_else(|| err(file, o.line, format!("{k} is written letter:Betza, not '{}'", o.value)))?;
            let c = single_letter(&Opt { value: l.to_string(), line: o.line, inherited: o.inherited }, file, k)?;
            crate::betza::parse(b).map_err(|e| err(file, o.line, format!("{k}: {e}")))?;
            pieces.push((k.clone(), c, b.to_string(), 100 + slot));
        } else if k == "king" {
            if o.value == "-" {
                king = None;
                continue;
            }
            let (l, b) = match o.value.split_once(':') {
                Some((l, b)) => (l, b),
                None => (o.value.as_str(), "K"),
            };
            crate::betza::parse(b).map_err(|e| err(file, o.line, format!("king: {e}")))?;
            king = Some((
                single_letter(&Opt { value: l.to_string(), line: o.line, inherited: o.inherited }, file, k)?,
                b.to_string(),
            ));
        } else if k == "promotedPieceType" {
            // each section sets the entries it names; the others stay as inherited
            for w in o.value.split_whitespace() {
                let (a, b) = w
                    .split_once(':')
                    .ok_or_else(|| err(file, o.line, format!("promotedPieceType: '{w}' is not piece:piece")))?;
                let one = |s: &str| -> Result<char, VariantError> {
                    single_letter(&Opt { value: s.to_string(), line: o.line, inherited: o.inherited }, file, k)
                };
                let (a, b) = (one(a)?, one(b)?);
                promoted_entries.retain(|e| e.0 != a);
                promoted_entries.push((a, b, o.clone()));
            }
            last.insert(k.clone(), o.clone());
        } else if SUPPORTED.contains(&k.as_str())
            || IGNORED.contains(&k.as_str())
            || k.starts_with("mobilityRegionWhite")
            || k.starts_with("mobilityRegionBlack")
        {
            last.insert(k.clone(), o.clone());
        } else {
            return Err(err(file, o.line, format!("option '{k}' is not supported yet")));
        }
    }
    let get = |k: &str| last.get(k);
    let flag = |k: &str, default: bool| -> Result<bool, VariantError> {
        match get(k) {
            Some(o) => bool_opt(o, file, k),
            None => Ok(default),
        }
    };
    // a size up to the build's limit; beyond it, an error marked as the
    // build's limit, so that a wider build may read the file
    let parse_dim = |k: &str, default: u8, max: u8| -> Result<u8, VariantError> {
        match get(k) {
            None => Ok(default),
            Some(o) => {
                let v = o.value.as_str();
                let n = if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
                    Some(v.as_bytes()[0] - b'a' + 1)
                } else {
                    v.parse::<u8>().ok()
                };
                let e = || err(file, o.line, format!("{k}: '{v}' is not a size from 2 to {max}"));
                match n {
                    Some(n) if (2..=max).contains(&n) => Ok(n),
                    Some(n) if n > max => Err(e().too_large()),
                    _ => Err(e()),
                }
            }
        }
    };
    let board = Board {
        files: parse_dim("maxFile", 8, crate::width::MAX_FILES)?,
        ranks: parse_dim("maxRank", 8, crate::width::MAX_RANKS)?,
    };
    let mut start_fen = get("startFen")
        .map(|o| o.value.clone())
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string());
    // without castling (and without gating, whose gates share the field),
    // Fairy-Stockfish ignores the castling letters of the start FEN, such as
    // the `KQkq` a `castling = false` child inherits from chess
    if !flag("castling", true)? && !flag("gating", false)? {
        let mut fields: Vec<&str> = start_fen.split_whitespace().collect();
        if fields.len() >= 3 && fields[2] != "-" && fields[2].chars().all(|c| c.is_ascii_alphabetic()) {
            fields[2] = "-";
            start_fen = fields.join(" ");
        }
    }

    // zones: promotion and double-step regions, given for White and mirrored for Black
    // a zone as a TOML value: one string when Black's is White's mirror image,
    // else a table with both
    // one side's region: the option if given, else a default
    let side_region = |k: &str, default: String| -> Result<String, VariantError> {
        match get(k) {
            Some(o) => board.region(o, file, k),
            None => Ok(default),
        }
    };
    // a zone as a TOML value: one string when Black's is White's mirror image,
    // else a table with both
    let zone_value = |white: &str, black: &str| {
        if sorted_zone(&board.mirror(black)) == sorted_zone(white) {
            format!("{white:?}")
        } else {
            format!("{{ white = {white:?}, black = {black:?} }}")
        }
    };
    // White's region, and Black's if given (else White's mirror image)
    let region = |kw: &str, kb: &str, dw: String| -> Result<String, VariantError> {
        let white = side_region(kw, dw)?;
        let black = side_region(kb, board.mirror(&white))?;
        Ok(zone_value(&white, &black))
    };
    let last_file = (b'a' + board.files - 1) as char;
    // Fairy-Stockfish's defaults are its eighth rank for White and the first
    // for Black, whatever the board's size (on a smaller board White's is empty)
    let promo_white =
        side_region("promotionRegionWhite", if board.ranks >= 8 { format!("a8-{last_file}8") } else { String::new() })?;
    let promo_black = side_region("promotionRegionBlack", format!("a1-{last_file}1"))?;
    let promo_zone = zone_value(&promo_white, &promo_black);
    // Fairy-Stockfish allows initial (`i`) moves, the pawn's double step among
    // them, to any piece standing in the double-step region, moved or not: its
    // ranks 2 and 7 by default, whatever the board's size
    let double_white = side_region("doubleStepRegionWhite", format!("a2-{last_file}2"))?;
    let double_black = side_region(
        "doubleStepRegionBlack",
        if board.ranks >= 7 { format!("a7-{last_file}7") } else { String::new() },
    )?;
    let double_zone = zone_value(&double_white, &double_black);
    // tripleStepRegionWhite/Black: Fairy-Stockfish's pawns step three squares
    // from there, passing two e.p. squares
    let triple_white = side_region("tripleStepRegionWhite", String::new())?;
    let triple_black = side_region("tripleStepRegionBlack", String::new())?;
    let triple = !(triple_white.is_empty() && triple_black.is_empty()) && flag("doubleStep", true)?;
    // enPassantRegion(White/Black): the squares where a side may take e.p.
    // A double step of Fairy-Stockfish's pawn passing a square outside the
    // opponent's region makes no e.p. square: from there it is a plain
    // two-square step. The zones of the double steps with and without e.p.
    let ep_keys = ["enPassantRegion", "enPassantRegionWhite", "enPassantRegionBlack"];
    let ep_split = if let Some(o) = ep_keys.iter().rev().find_map(|k| get(k)) {
        if !triple_white.is_empty() || !triple_black.is_empty() {
            return Err(err(file, o.line, "enPassantRegion with triple steps is not supported yet"));
        }
        let common = side_region("enPassantRegion", format!("a1-{last_file}{}", board.ranks))?;
        let theirs_white = board.squares(&side_region("enPassantRegionBlack", common.clone())?);
        let theirs_black = board.squares(&side_region("enPassantRegionWhite", common)?);
        let split = |from: &str, theirs: &[(u8, u8)], forward: bool| {
            let (mut ep, mut plain) = (Vec::new(), Vec::new());
            for (f, r) in board.squares(from) {
                let passed = (f, if forward { r + 1 } else { r.saturating_sub(1) });
                let name = format!("{}{r}", (b'a' + f - 1) as char);
                if theirs.contains(&passed) {
                    ep.push(name)
                } else {
                    plain.push(name)
                }
            }
            (ep.join(" "), plain.join(" "))
        };
        let (ep_w, plain_w) = split(&double_white, &theirs_white, true);
        let (ep_b, plain_b) = split(&double_black, &theirs_black, false);
        Some((zone_value(&ep_w, &ep_b), zone_value(&plain_w, &plain_b)))
    } else {
        None
    };

    let letters_of = |k: &str, default: &str| -> String {
        get(k).map(|o| o.value.replace(' ', "")).unwrap_or_else(|| default.to_string())
    };
    for side in ["White", "Black"] {
        let k = format!("promotionPawnTypes{side}");
        if let Some(o) = get(&k) {
            if o.value.replace(' ', "") != letters_of("promotionPawnTypes", "p") {
                return Err(err(file, o.line, format!("{k}: different options per side are not supported yet")));
            }
        }
    }
    // where an option was set last, in the order of the sections
    let set_at = |k: &str| options.iter().rposition(|(n, _)| n == k);
    // the promotion choices of one side: its own option or the common one,
    // whichever a section set later; by default Fairy-Stockfish's knight,
    // bishop, rook and queen types, where the variant has them
    let choices_of = |side_key: &str| -> Result<String, VariantError> {
        let o = match (set_at(side_key), set_at("promotionPieceTypes")) {
            (Some(a), Some(b)) if a > b => get(side_key),
            (Some(_), None) => get(side_key),
            _ => get("promotionPieceTypes"),
        };
        match o {
            Some(o) => {
                let mut ls = String::new();
                for c in o.value.chars().filter(|c| !c.is_whitespace() && *c != '-') {
                    let c = c.to_ascii_lowercase();
                    if pieces.iter().any(|p| p.1 == c) {
                        ls.push(c);
                    } else if !o.inherited {
                        let k = if set_at(side_key).is_some_and(|i| options[i].1.line == o.line) {
                            side_key
                        } else {
                            "promotionPieceTypes"
                        };
                        return Err(err(file, o.line, format!("{k}: no piece '{c}' in this variant")));
                    }
                    // an inherited letter of a piece this variant removed is dropped
                }
                Ok(ls)
            }
            None => Ok(["queen", "rook", "bishop", "knight"]
                .iter()
                .filter_map(|n| pieces.iter().find(|p| p.0 == *n).map(|p| p.1))
                .collect()),
        }
    };
    let promo_choices = choices_of("promotionPieceTypesWhite")?;
    let promo_choices_black = choices_of("promotionPieceTypesBlack")?;
    // by default only Fairy-Stockfish's own pawn type promotes chess-style
    let default_pawn: String = pieces.iter().filter(|p| p.0 == "pawn").map(|p| p.1).collect();
    let promo_pawns = letters_of("promotionPawnTypes", &default_pawn);
    // nMoveRuleTypes: the types whose moves reset the n-move count (Chimera's
    // `pawn = true`); by default Fairy-Stockfish's own pawn type
    let n_move_types = letters_of("nMoveRuleTypes", &default_pawn).to_ascii_lowercase();
    let sittuyin_promotion = flag("sittuyinPromotion", false)?;
    // "f:1 q:2": the most pieces of a type a side may promote to
    let mut limits = Vec::new();
    if let Some(o) = get("promotionLimit") {
        for w in o.value.split_whitespace() {
            let bad = || err(file, o.line, format!("promotionLimit: '{w}' is not letter:count"));
            let (l, n) = w.split_once(':').ok_or_else(bad)?;
            let letter = single_letter(
                &Opt { value: l.to_string(), line: o.line, inherited: o.inherited },
                file,
                "promotionLimit",
            )?;
            let n: u8 = n.parse().map_err(|_| bad())?;
            if !promo_choices.contains(letter) {
                if o.inherited {
                    continue;
                }
                return Err(err(file, o.line, format!("promotionLimit: '{letter}' is not a promotion choice")));
            }
            limits.push(format!("{letter} = {n}"));
        }
    }
    let promo_limits = limits.join(", ");
    let mandatory = flag("mandatoryPawnPromotion", true)?;
    let double_step = flag("doubleStep", true)?;
    let drops = flag("pieceDrops", false)?;
    // with captures to the hand, a promoted pawn is a marked type (Q~) that returns as a pawn
    // (dropLoop: a captured promoted piece keeps its type, so no marked type)
    let tilde_promotions = drops && flag("capturesToHand", false)? && !sittuyin_promotion && !flag("dropLoop", false)?;
    if tilde_promotions && promo_pawns.chars().count() > 1 {
        let o = get("promotionPawnTypes").unwrap();
        return Err(err(file, o.line, "several promoting pawn types with captures to the hand are not supported yet"));
    }
    if tilde_promotions && !limits.is_empty() {
        let o = get("promotionLimit").unwrap();
        return Err(err(file, o.line, "promotionLimit with captures to the hand is not supported yet"));
    }
    if promo_choices_black != promo_choices && !limits.is_empty() {
        let o = get("promotionLimit").unwrap();
        return Err(err(file, o.line, "promotionLimit with different promotion choices per side is not supported yet"));
    }
    let targets_of = |choices: &str| -> String {
        if tilde_promotions {
            choices.chars().map(|c| format!("{c}~")).collect::<Vec<_>>().join(" ")
        } else {
            choices.to_string()
        }
    };
    let promo_targets = if promo_choices_black == promo_choices {
        format!("{:?}", targets_of(&promo_choices))
    } else {
        format!("{:?}, to_black = {:?}", targets_of(&promo_choices), targets_of(&promo_choices_black))
    };

    // promoted piece types (shogi style): "p:g s:g"; an inherited entry
    // naming a piece this variant removed is dropped, as Fairy-Stockfish does
    let mut promoted: Vec<(char, char)> = Vec::new();
    for (a, b, o) in &promoted_entries {
        let known = |c: char| pieces.iter().any(|p| p.1 == c) || king.as_ref().is_some_and(|k| k.0 == c);
        if !known(*a) || !known(*b) {
            if o.inherited {
                continue;
            }
            let missing = if known(*a) { b } else { a };
            return Err(err(file, o.line, format!("promotedPieceType: no piece '{missing}'")));
        }
        promoted.push((*a, *b));
    }

    // the native definition
    let mut pieces_sorted = pieces.clone();
    pieces_sorted.sort_by_key(|p| p.3);
    // materialCounting = janggi: a game ended by rule goes to the side with
    // more points (Black adding one and a half), scored by Fairy-Stockfish's
    // Janggi piece types only; every other type scores nothing
    let janggi_points = get("materialCounting").is_some_and(|o| o.value == "janggi");
    let points_line = |pname: &str| -> String {
        if !janggi_points {
            return String::new();
        }
        let points = match pname {
            "rook" => 1300,
            "janggiCannon" => 700,
            "horse" => 500,
            "janggiElephant" | "wazir" => 300,
            "soldier" => 200,
            _ => 0,
        };
        format!("points = {points}\n")
    };
    let pname_of = |c: char| pieces.iter().find(|p| p.1 == c).map(|p| p.0.as_str()).unwrap_or("");
    let mut t = String::new();
    t.push_str(&format!("name = {:?}\n", name));
    t.push_str("description = \"from a Fairy-Stockfish variant configuration\"\n");
    t.push_str(&format!("files = {}\nranks = {}\nstart_fen = {:?}\n", board.files, board.ranks, start_fen));
    t.push_str("[zones]\n");
    t.push_str(&format!("promotion = {promo_zone}\n"));
    t.push_str(&format!("double_step = {double_zone}\n"));
    if let Some((ep, plain)) = &ep_split {
        t.push_str(&format!("ep_double_step = {ep}\nplain_double_step = {plain}\n"));
    }
    if triple {
        t.push_str(&format!("triple_step = {}\n", zone_value(&triple_white, &triple_black)));
        let both = |a: &str, b: &str| format!("{a} {b}").trim().to_string();
        t.push_str(&format!(
            "pawn_initial = {}\n",
            zone_value(&both(&double_white, &triple_white), &both(&double_black, &triple_black))
        ));
    }
    // mobility regions: the squares a piece type may stand on, per side
    // (Fairy-Stockfish's mobilityRegionWhiteKing, ...CustomPiece1, ...)
    let all_squares = format!("a1-{last_file}{}", board.ranks);
    let mut confined: Vec<String> = Vec::new();
    for (k, o) in &last {
        let Some(rest) = k.strip_prefix("mobilityRegionWhite").or_else(|| k.strip_prefix("mobilityRegionBlack")) else {
            continue;
        };
        let mut cs = rest.chars();
        let pname: String = cs.next().map(|c| c.to_ascii_lowercase()).into_iter().chain(cs).collect();
        let known = BUILTIN_PIECES.iter().any(|(n, _)| *n == pname)
            || pname == "king"
            || pname.strip_prefix("customPiece").is_some_and(|n| n.parse::<usize>().is_ok());
        if !known {
            return Err(err(file, o.line, format!("option '{k}' is not supported yet (no piece type '{rest}')")));
        }
        let present = pieces.iter().any(|p| p.0 == pname) || (pname == "king" && king.is_some());
        if !present {
            if o.inherited {
                continue;
            }
            return Err(err(file, o.line, format!("{k}: the variant has no {pname}")));
        }
        if !confined.contains(&pname) {
            confined.push(pname.clone());
            let white = side_region(&format!("mobilityRegionWhite{rest}"), all_squares.clone())?;
            let black = side_region(&format!("mobilityRegionBlack{rest}"), all_squares.clone())?;
            t.push_str(&format!("mobility_{pname} = {{ white = {white:?}, black = {black:?} }}\n"));
        }
    }
    // soldierPromotionRank: Fairy-Stockfish's soldier steps sideways from this rank on
    let soldier_rank = match get("soldierPromotionRank") {
        None => 1,
        Some(o) => o.value.parse::<u8>().ok().filter(|r| (1..=board.ranks).contains(r)).ok_or_else(|| {
            err(file, o.line, format!("soldierPromotionRank: '{}' is not a rank of the board", o.value))
        })?,
    };
    if soldier_rank > 1 {
        t.push_str(&format!("soldier_sideways = \"a{soldier_rank}-{last_file}{}\"\n", board.ranks));
    }
    // diagonalLines (Janggi's palace diagonals): squares, the same for both sides
    let diagonal_lines = match get("diagonalLines") {
        Some(o) => {
            let z = board.region(o, file, "diagonalLines")?;
            if !z.is_empty() {
                t.push_str(&format!("diagonal_lines = {{ white = {z:?}, black = {z:?} }}\n"));
            }
            !z.is_empty()
        }
        None => false,
    };
    // the moves along the diagonal lines of Fairy-Stockfish's rook, Janggi
    // cannon, soldier, wazir and wazir-moving king: their orthogonal moves
    // turned diagonal, from and to squares of the lines only
    let diagonal_moves = |pname: &str, betza: &str| -> Option<&'static str> {
        if !diagonal_lines {
            return None;
        }
        match (pname, betza) {
            ("rook", _) => Some("B"),
            ("janggiCannon", _) => Some("pB"),
            ("soldier", "fW") | ("soldier", "fsW") => Some("fF"),
            ("wazir", _) | ("king", "W") => Some("F"),
            _ => None,
        }
    };
    let zone_moves = |pname: &str, betza: &str| -> String {
        let mut parts = Vec::new();
        if pname == "pawn" && triple {
            // the double step from its region, the triple step from its own
            parts.push("{ zone = \"double_step\", betza = \"ifmnD\" }".to_string());
            parts.push("{ zone = \"triple_step\", betza = \"ifmnH\" }".to_string());
        }
        if pname == "pawn" && double_step && ep_split.is_some() {
            parts.push("{ zone = \"plain_double_step\", betza = \"fmnD\" }".to_string());
        }
        if pname == "soldier" && soldier_rank > 1 {
            parts.push("{ zone = \"soldier_sideways\", betza = \"sW\" }".to_string());
        }
        if let Some(d) = diagonal_moves(pname, betza) {
            parts.push(format!("{{ zone = \"diagonal_lines\", betza = \"{d}\", confine = \"diagonal_lines\" }}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("zone_moves = [{}]\n", parts.join(", "))
        }
    };
    // pawns may not be dropped on their first rank, nor in their promotion zone
    let (mut no_drops_white, mut no_drops_black) = (Vec::new(), Vec::new());
    if !flag("firstRankPawnDrops", false)? {
        no_drops_white.push(format!("a1-{last_file}1"));
        no_drops_black.push(format!("a{0}-{last_file}{0}", board.ranks));
    }
    if !flag("promotionZonePawnDrops", false)? {
        no_drops_white.push(promo_white.clone());
        no_drops_black.push(promo_black.clone());
    }
    t.push_str(&format!("no_pawn_drops = {}\n", zone_value(&no_drops_white.join(" "), &no_drops_black.join(" "))));
    t.push_str(&format!("first_rank = \"a1-{last_file}1\"\n"));
    let drop_region = if get("dropRegionWhite").is_some() || get("dropRegionBlack").is_some() {
        let all = format!("a1-{last_file}{}", board.ranks);
        let white = side_region("dropRegionWhite", all.clone())?;
        let black = side_region("dropRegionBlack", all)?;
        t.push_str(&format!("drop_region = {{ white = {white:?}, black = {black:?} }}\n"));
        true
    } else {
        false
    };
    // flagPiece, or flagPieceWhite/Black (whichever a section set later): a
    // side without a flag piece has no flag zone
    let flag_of = |side_key: &str| -> Result<Option<char>, VariantError> {
        let (k, o) = match (set_at(side_key), set_at("flagPiece")) {
            (Some(a), b) if b.is_none_or(|b| a > b) => (side_key, get(side_key)),
            _ => ("flagPiece", get("flagPiece")),
        };
        match o {
            Some(o) if o.value != "-" && o.value != "*" => Ok(Some(single_letter(o, file, k)?)),
            _ => Ok(None),
        }
    };
    let (flag_white, flag_black) = (flag_of("flagPieceWhite")?, flag_of("flagPieceBlack")?);
    if let (Some(w), Some(b)) = (flag_white, flag_black) {
        if w != b {
            let line = get("flagPieceBlack").or(get("flagPieceWhite")).map(|o| o.line).unwrap_or(0);
            return Err(err(file, line, "different flag pieces per side are not supported yet"));
        }
    }
    let flag_piece = flag_white.or(flag_black);
    if flag_piece.is_some() {
        if flag("flagMove", false)? {
            return Err(err(file, get("flagMove").unwrap().line, "flagMove is not supported yet"));
        }
        let (kw, kb) = if get("flagRegion").is_some() {
            ("flagRegion", "flagRegion")
        } else {
            ("flagRegionWhite", "flagRegionBlack")
        };
        let zone = match (flag_white, flag_black) {
            (Some(_), Some(_)) => region(kw, kb, String::new())?,
            (Some(_), None) => zone_value(&side_region(kw, String::new())?, ""),
            _ => zone_value("", &side_region(kb, String::new())?),
        };
        t.push_str(&format!("flag_zone = {zone}\n"));
    }
    t.push_str("[rules]\n");
    // a game result for the side to move: "draw", "loss" or "win"
    let result = |k: &str, default: &'static str| -> Result<&'static str, VariantError> {
        match get(k).map(|o| (o.value.as_str(), o.line)) {
            None => Ok(default),
            Some(("draw", _)) => Ok("draw"),
            Some(("loss", _)) => Ok("loss"),
            Some(("win", _)) => Ok("win"),
            Some((v, line)) => Err(err(file, line, format!("{k} '{v}' is not supported"))),
        }
    };
    t.push_str(&format!("stalemate = {:?}\n", result("stalemateValue", "draw")?));
    t.push_str(&format!("checkmate = {:?}\n", result("checkmateValue", "loss")?));
    // materialCounting: only the draw-odds forms change a game's result here
    // (the others are adjudication by the engine and are ignored)
    match get("materialCounting").map(|o| o.value.as_str()) {
        Some("blackdrawodds") => t.push_str("draw_odds = \"black\"\n"),
        Some("whitedrawodds") => t.push_str("draw_odds = \"white\"\n"),
        _ => {}
    }
    t.push_str(&format!("flying_general = {}\n", flag("flyingGeneral", false)?));
    // immobilityIllegal: no move nor drop to a square where the piece could not
    // move on; without it a piece may stay there (where promotion is optional)
    let immobility = if flag("immobilityIllegal", false)? { "illegal" } else { "allowed" };
    t.push_str(&format!("immobility = {immobility:?}\n"));
    // checking = false: no move may give check; dropChecks = false: no drop
    if !flag("checking", true)? {
        t.push_str("giving_check = \"never\"\n");
    } else if !flag("dropChecks", true)? {
        t.push_str("giving_check = \"not_by_drops\"\n");
    }
    t.push_str(&format!("must_capture = {}\n", flag("mustCapture", false)?));
    // a count option within bounds, if given
    let bounded = |k: &str, lo: u16, hi: u16, what: &str| -> Result<Option<u16>, VariantError> {
        get(k)
            .map(|o| {
                o.value.parse::<u16>().ok().filter(|n| (lo..=hi).contains(n)).ok_or_else(|| {
                    err(
                        file,
                        o.line,
                        format!("{k} '{}' must be a number of {what} from {lo} to {hi}", o.value.escape_default()),
                    )
                })
            })
            .transpose()
    };
    // nFoldRule: the occurrences of a position that end the game (default 3)
    if let Some(n) = bounded("nFoldRule", 2, 10, "occurrences")? {
        t.push_str(&format!("n_fold = {n}\n"));
    }
    // nMoveRule: the n-move rule in moves, 0 for none (without it, the default)
    if let Some(n) = bounded("nMoveRule", 0, 1000, "moves")? {
        t.push_str(&format!("n_move_rule = {n}\n"));
    }
    let value = |k: &str| -> Result<Option<&'static str>, VariantError> {
        match get(k).map(|o| (o.value.as_str(), o.line)) {
            None | Some(("none", _)) => Ok(None),
            Some(("loss", _)) => Ok(Some("loss")),
            Some(("win", _)) => Ok(Some("win")),
            Some(("draw", _)) => Ok(Some("draw")),
            Some((v, line)) => Err(err(file, line, format!("{k} '{v}' is not supported"))),
        }
    };
    let mut rules_tables = String::new();
    // extinctionPseudoRoyal: Fairy-Stockfish's extinction pieces may not be
    // left attacked while a side has at most extinctionPieceCount + 1 of
    // them, and extinction then ends no game; with a count that every side
    // always keeps to (coregal's 64), they are royal pieces
    let pseudo_royal = if flag("extinctionPseudoRoyal", false)? {
        let o = get("extinctionPseudoRoyal").unwrap();
        let count = get("extinctionPieceCount").and_then(|c| c.value.parse::<u32>().ok()).unwrap_or(0);
        if count + 1 < u32::from(board.files) * u32::from(board.ranks) {
            return Err(err(
                file,
                o.line,
                "extinctionPseudoRoyal with an extinctionPieceCount below the number of squares minus one is not supported yet",
            ));
        }
        let types = get("extinctionPieceTypes").map(|o| o.value.replace(' ', "")).unwrap_or_default();
        if types.is_empty() || types.contains('*') {
            return Err(err(file, o.line, "extinctionPseudoRoyal needs extinctionPieceTypes given by letters"));
        }
        types.to_ascii_lowercase()
    } else {
        String::new()
    };
    if let Some(result) = value("extinctionValue")?.filter(|_| pseudo_royal.is_empty()) {
        let pieces = get("extinctionPieceTypes").map(|o| o.value.replace(' ', "")).unwrap_or_default();
        if pieces.is_empty() {
            return Err(err(file, get("extinctionValue").unwrap().line, "extinctionValue needs extinctionPieceTypes"));
        }
        let num = |k: &str| -> Result<u32, VariantError> {
            match get(k) {
                None => Ok(0),
                Some(o) => o.value.parse().map_err(|_| err(file, o.line, format!("{k} must be a number"))),
            }
        };
        rules_tables.push_str(&format!(
            "[rules.extinction]\npieces = {pieces:?}\ncount = {}\nopponent_count = {}\nclaim = {}\nresult = {result:?}\n",
            num("extinctionPieceCount")?,
            num("extinctionOpponentPieceCount")?,
            flag("extinctionClaim", false)?
        ));
    }
    if let Some(p) = flag_piece {
        rules_tables.push_str(&format!("[rules.flag]\npiece = {:?}\nzone = \"flag_zone\"\n", p.to_string()));
    }
    t.push_str(&format!("bikjang = {}\n", flag("bikjangRule", false)?));
    // gating: Seirawan's kind only (pieces from the hand onto vacated first-rank squares),
    // or the gates that keep cambodianMoves' first-move rights
    let seirawan = flag("seirawanGating", false)?;
    let cambodian = flag("cambodianMoves", false)?;
    if cambodian && !flag("gating", false)? {
        return Err(err(file, get("cambodianMoves").unwrap().line, "cambodianMoves needs gating = true"));
    }
    if flag("gating", false)? && !seirawan && !cambodian {
        return Err(err(file, get("gating").unwrap().line, "gating other than seirawanGating is not supported yet"));
    }
    // cambodianMoves: the king's first move may be a knight's leap one rank
    // forward, the fers's a two-square jump forward, neither capturing; the
    // king loses it once a rook attacks it, and may not leap out of check
    if cambodian {
        let rook = pieces.iter().find(|p| p.0 == "rook").map(|p| p.1);
        rules_tables.push_str("[rules.initial_rights]\nnot_in_check = true\n");
        if let Some(r) = rook {
            rules_tables.push_str(&format!("lost_to_attack_by = \"{r}\"\n"));
        }
    }
    let cambodian_moves = |pname: &str| -> &'static str {
        match (cambodian, pname) {
            (true, "king") => "imfsN",
            (true, "fers") => "imfD",
            _ => "",
        }
    };
    if seirawan {
        t.push_str("gating = true\n");
    }
    // walls: '*' squares in the start position
    if start_fen.split_whitespace().next().is_some_and(|b| b.contains('*')) {
        t.push_str("walls = true\n");
    }
    // check counting: the number of checks comes from the start FEN ("3+3")
    // without them in the FEN, Fairy-Stockfish's next check wins
    if flag("checkCounting", false)? {
        let n = start_fen
            .split_whitespace()
            .find_map(|f| f.split_once('+').and_then(|(w, b)| Some(w.parse::<u8>().ok()?.max(b.parse::<u8>().ok()?))))
            .unwrap_or(1);
        t.push_str(&format!("checks = {n}\n"));
    }
    match get("countingRule").map(|o| (o.value.as_str(), o.line)) {
        None | Some(("none", _)) => {}
        Some((style @ ("makruk" | "asean" | "cambodian"), line)) => {
            let letter = |names: &[&str]| -> Result<char, VariantError> {
                pieces.iter().find(|p| names.contains(&p.0.as_str())).map(|p| p.1).ok_or_else(|| {
                    err(file, line, format!("countingRule needs a {} piece type in the variant", names[0]))
                })
            };
            rules_tables.push_str(&format!(
                "[rules.counting]\nstyle = {style:?}\nrook = \"{}\"\nkhon = \"{}\"\nknight = \"{}\"\n",
                letter(&["rook"])?,
                letter(&["khon", "silver"])?,
                letter(&["knight"])?
            ));
        }
        Some((v, line)) => return Err(err(file, line, format!("countingRule '{v}' is not supported yet"))),
    }
    if flag("pass", false)? {
        t.push_str("pass = \"always\"\n");
    }
    t.push_str(&rules_tables);
    let has = |c: char| pieces.iter().any(|p| p.1 == c) || king.as_ref().is_some_and(|k| k.0 == c);
    if drops {
        t.push_str("[rules.drops]\n");
        t.push_str(&format!("captures_to_hand = {}\n", flag("capturesToHand", false)?));
        if let Some(o) = get("dropNoDoubled") {
            if o.value != "-" {
                t.push_str(&format!("no_doubled = {:?}\n", single_letter(o, file, "dropNoDoubled")?.to_string()));
                if let Some(n) = get("dropNoDoubledCount") {
                    let count: u8 = n
                        .value
                        .parse()
                        .ok()
                        .filter(|c| (1..=16).contains(c))
                        .ok_or_else(|| err(file, n.line, "dropNoDoubledCount must be a number from 1 to 16"))?;
                    t.push_str(&format!("no_doubled_count = {count}\n"));
                }
            }
        }
        if flag("shogiPawnDropMateIllegal", false)? {
            let pawns: String = pieces.iter().filter(|p| p.0 == "shogiPawn" || p.0 == "pawn").map(|p| p.1).collect();
            t.push_str(&format!("no_drop_mate = {pawns:?}\n"));
        }
        t.push_str(&format!("must_drop = {}\n", flag("mustDrop", false)?));
        if let Some(o) = get("mustDropType") {
            if o.value != "*" {
                return Err(err(file, o.line, "mustDropType other than '*' (any piece) is not supported yet"));
            }
        }
        if drop_region {
            t.push_str("zone = \"drop_region\"\n");
        }
    } else if flag("capturesToHand", false)? {
        return Err(err(file, get("capturesToHand").unwrap().line, "capturesToHand needs pieceDrops = true"));
    }
    if flag("castling", true)? {
        let kp = get("castlingKingPiece").map(|o| o.value.clone()).unwrap_or_else(|| "k".into());
        // the castling rook types the variant has (several: the outermost castles)
        let rp: String =
            letters_of("castlingRookPieces", "r").chars().map(|c| c.to_ascii_lowercase()).filter(|&c| has(c)).collect();
        let kf = get("castlingKingsideFile").map(|o| o.value.clone()).unwrap_or_else(|| "g".into());
        let qf = get("castlingQueensideFile").map(|o| o.value.clone()).unwrap_or_else(|| "c".into());
        // castlingRank, castlingRookKingsideFile/QueensideFile: Chimera castles
        // a king on the rank it starts on, with the outermost rook of that
        // rank; the options are read where they say the same of the start position
        let kl = kp.chars().next().unwrap_or('k').to_ascii_lowercase();
        let rank = match get("castlingRank") {
            None => 1,
            Some(o) => {
                let r = o.value.parse::<u8>().ok().filter(|r| (1..=board.ranks).contains(r)).ok_or_else(|| {
                    err(file, o.line, format!("castlingRank: '{}' is not a rank of the board", o.value))
                })?;
                let on = |rank: u8, c: char| fen_rank(&start_fen, board.ranks, rank).contains(&Some(c));
                if !(on(r, kl.to_ascii_uppercase()) && on(board.ranks + 1 - r, kl)) {
                    return Err(err(file, o.line, format!("castlingRank = {r}: the castling kings of the start position must stand on it, as Chimera castles a king on the rank it starts on")));
                }
                r
            }
        };
        for (key, kingside) in [("castlingRookKingsideFile", true), ("castlingRookQueensideFile", false)] {
            let Some(o) = get(key) else { continue };
            let f = match o.value.as_bytes() {
                [c] if c.is_ascii_lowercase() && *c < b'a' + board.files => (c - b'a') as usize,
                _ => return Err(err(file, o.line, format!("{key}: '{}' is not a file of the board", o.value))),
            };
            for (r, white) in [(rank, true), (board.ranks + 1 - rank, false)] {
                let row = fen_rank(&start_fen, board.ranks, r);
                let beyond = if kingside { row.get(f + 1..) } else { row.get(..f) }.unwrap_or(&[]);
                let rook = |c: &Option<char>| {
                    c.is_some_and(|c| c.is_ascii_uppercase() == white && rp.contains(c.to_ascii_lowercase()))
                };
                if beyond.iter().any(rook) {
                    return Err(err(file, o.line, format!("{key}: a castling rook of the start position stands beyond file '{}', and Chimera castles with the outermost rook", o.value)));
                }
            }
        }
        if has(kp.chars().next().unwrap_or('k')) && !rp.is_empty() {
            t.push_str(&format!(
                "[rules.castling]\nking = {kp:?}\nrook = {rp:?}\nkingside_file = {kf:?}\nqueenside_file = {qf:?}\n"
            ));
            if flag("chess960", false)? {
                t.push_str("chess960 = true\n");
            }
        }
    }
    for (pname, c, betza, _) in &pieces_sorted {
        let is_pawn = pname == "pawn";
        // without double steps no piece has initial moves
        let mut b = if double_step { betza.clone() } else { without_initial(betza) };
        if b.is_empty() {
            let line = options.iter().rev().find(|(k, _)| k == pname).map(|(_, o)| o.line).unwrap_or(0);
            return Err(err(
                file,
                line,
                format!(
                    "{pname}: with doubleStep = false it has no moves left (all are initial), which is not supported"
                ),
            ));
        }
        if pname == "soldier" && soldier_rank > 1 {
            b = "fW".to_string();
        }
        let special = cambodian_moves(pname);
        if double_step {
            if let Some(u) = long_initial_slide(&b) {
                let line = options
                    .iter()
                    .rev()
                    .find(|(k, o)| k.starts_with("customPiece") && o.value.ends_with(betza.as_str()))
                    .map(|(_, o)| o.line)
                    .unwrap_or(0);
                return Err(err(
                    file,
                    line,
                    format!("{pname}: the initial move '{u}' passes several squares, each an e.p. square in Fairy-Stockfish; not supported yet (three steps at most: two e.p. squares)"),
                ));
            }
        }
        if is_pawn && double_step && !triple {
            b.push_str("ifmnD");
        }
        t.push_str(&format!("[[piece]]\nname = {pname:?}\nletter = {:?}\nbetza = \"{b}{special}\"\n", c.to_string()));
        t.push_str(&points_line(pname));
        if is_pawn && triple {
            t.push_str("initial_zone = \"pawn_initial\"\n");
        } else if is_pawn && double_step && ep_split.is_some() {
            t.push_str("initial_zone = \"ep_double_step\"\n");
        } else if special.is_empty() && has_initial(&b) {
            t.push_str("initial_zone = \"double_step\"\n");
            // Fairy-Stockfish writes the e.p. field of its own pawn type when
            // the square is attacked, but after the initial move of a
            // Betza-defined piece it lists the whole path ("e3e4")
            if !is_pawn {
                t.push_str("ep_field = \"path\"\n");
            }
        }
        // enPassantTypes naming a piece type other than the pawn: pyffish
        // 0.0.90 then names the passed square after every double step of its
        // pawn (the legal moves stay those of the variant without it)
        if is_pawn && double_step {
            let ep_types = get("enPassantTypes").map(|o| o.value.to_ascii_lowercase()).unwrap_or_default();
            if ep_types.chars().any(|l| l != *c && has(l)) {
                t.push_str("ep_field = \"always\"\n");
            }
        }
        if n_move_types.contains(*c) {
            t.push_str("pawn = true\n");
        }
        if is_pawn && drops {
            t.push_str("no_drop_zone = \"no_pawn_drops\"\n");
        }
        if pseudo_royal.contains(*c) {
            t.push_str("royal = true\n");
        }
        if pname == "rook" && drops && flag("sittuyinRookDrop", false)? {
            t.push_str("drop_zone = \"first_rank\"\n");
        }
        if promo_pawns.contains(*c) {
            let (style, mandatory) = if sittuyin_promotion { ("sittuyin", false) } else { ("arrival", mandatory) };
            t.push_str(&format!(
                "promotion = {{ zone = \"promotion\", to = {promo_targets}, mandatory = {mandatory}, style = {style:?}, limits = {{ {promo_limits} }} }}\n"
            ));
        } else if let Some(&(_, _)) = promoted.iter().find(|(a, _)| a == c) {
            let m = flag("mandatoryPiecePromotion", false)?;
            t.push_str(&format!(
                "promotion = {{ zone = \"promotion\", to = \"+{c}\", style = \"shogi\", mandatory = {m} }}\n"
            ));
        }
        if confined.contains(pname) {
            t.push_str(&format!("confine = \"mobility_{pname}\"\n"));
            t.push_str("confine_mode = \"destination\"\n");
        }
        t.push_str(&zone_moves(pname, &b));
        if pname == "janggiCannon" {
            t.push_str(&format!("cannot_hop = \"{c}\"\ncannot_capture = \"{c}\"\n"));
        }
    }
    // the promoted types: moving as the type they promote to
    for (a, b) in &promoted {
        let target = pieces
            .iter()
            .find(|p| p.1 == *b)
            .map(|p| p.2.clone())
            .or_else(|| king.as_ref().filter(|k| k.0 == *b).map(|k| k.1.clone()))
            .ok_or_else(|| {
                err(file, get("promotedPieceType").unwrap().line, format!("promotedPieceType: no piece '{b}'"))
            })?;
        let target = if double_step { target } else { without_initial(&target) };
        t.push_str(&format!("[[piece]]\nname = \"promoted {a}\"\nletter = \"+{a}\"\nbetza = {target:?}\n"));
        t.push_str(&points_line(pname_of(*b)));
        // Fairy-Stockfish's promoted piece is of the type it moves as: where
        // that type promotes, so does the promoted piece (to the type's own
        // promoted form, which returns to the hand as that type)
        if promoted.iter().any(|(x, _)| x == b) {
            let m = flag("mandatoryPiecePromotion", false)?;
            t.push_str(&format!(
                "promotion = {{ zone = \"promotion\", to = \"+{b}\", style = \"shogi\", mandatory = {m} }}\n"
            ));
        }
    }
    if let Some((c, b)) = &king {
        let b = if double_step { b.clone() } else { without_initial(b) };
        if b.is_empty() {
            let line = options.iter().rev().find(|(k, _)| k == "king").map(|(_, o)| o.line).unwrap_or(0);
            return Err(err(file, line, "king: with doubleStep = false it has no moves left, which is not supported"));
        }
        let special = cambodian_moves("king");
        let b = &b;
        t.push_str(&format!(
            "[[piece]]\nname = \"king\"\nletter = {:?}\nbetza = \"{b}{special}\"\nroyal = true\n",
            c.to_string()
        ));
        if confined.iter().any(|n| n == "king") {
            t.push_str("confine = \"mobility_king\"\n");
            t.push_str("confine_mode = \"destination\"\n");
        }
        t.push_str(&zone_moves("king", b));
        if special.is_empty() && has_initial(b) {
            t.push_str("initial_zone = \"double_step\"\n");
        }
    }
    // with captures to the hand, promoted pawns are marked (Q~) and return to it as pawns
    if tilde_promotions {
        let pawn = promo_pawns.chars().next().unwrap_or('p');
        let mut all_choices: Vec<char> = promo_choices.chars().collect();
        all_choices.extend(promo_choices_black.chars().filter(|c| !promo_choices.contains(*c)));
        for c in all_choices {
            let betza = pieces.iter().find(|p| p.1 == c).map(|p| p.2.clone()).unwrap_or_default();
            t.push_str(&format!(
                "[[piece]]\nname = \"promoted {c}~\"\nletter = \"{c}~\"\nbetza = {betza:?}\ndemotes_to = \"{pawn}\"\n"
            ));
            t.push_str(&points_line(pname_of(c)));
            // a promoted piece keeps to the mobility region of its type
            if let Some(pname) = pieces.iter().find(|p| p.1 == c).map(|p| &p.0).filter(|n| confined.contains(n)) {
                t.push_str(&format!("confine = \"mobility_{pname}\"\n"));
                t.push_str("confine_mode = \"destination\"\n");
            }
        }
    }
    VariantDef::from_toml(&t, &format!("{file} [{name}] (as native format)")).map_err(|mut e| {
        // point at the section when the generated text is at fault
        e.message = format!("{} (in variant '{name}')", e.message);
        e.file = file.to_string();
        e.line = sections.get(name).map(|s| s.line).unwrap_or(0);
        e.column = 1;
        e
    })
}

/// The pieces of one rank (from 1) of a FEN's board, by file: the letters
/// as written, `None` for empty squares and walls.
fn fen_rank(fen: &str, ranks: u8, rank: u8) -> Vec<Option<char>> {
    let board = fen.split_whitespace().next().unwrap_or("").split('[').next().unwrap_or("");
    let Some(row) = board.split('/').nth(ranks.saturating_sub(rank) as usize) else { return Vec::new() };
    let (mut out, mut empty) = (Vec::new(), 0usize);
    for ch in row.chars() {
        if let Some(d) = ch.to_digit(10) {
            empty = empty * 10 + d as usize;
            continue;
        }
        out.extend(std::iter::repeat_n(None, std::mem::take(&mut empty)));
        match ch {
            '+' | '~' => {}
            '*' => out.push(None),
            c => out.push(Some(c)),
        }
    }
    out.extend(std::iter::repeat_n(None, empty));
    out
}

/// A Betza text without its initial (`i`) units.
fn without_initial(betza: &str) -> String {
    let Ok(b) = crate::betza::parse(betza) else { return betza.to_string() };
    let mut out = String::new();
    let mut last_offset = usize::MAX;
    for u in &b.units {
        // a compound atom (K, Q) is several units with one text
        if u.offset != last_offset && !u.initial {
            out.push_str(&u.text);
        }
        last_offset = u.offset;
    }
    out
}

/// The text of an initial non-capturing slide of more than three steps, if
/// the Betza text has one: Fairy-Stockfish makes each passed square an e.p.
/// square, and a position holds two.
fn long_initial_slide(betza: &str) -> Option<String> {
    let b = crate::betza::parse(betza).ok()?;
    b.units
        .iter()
        .find(|u| {
            let m = &u.legs[0].modality;
            u.initial
                && u.legs.len() == 1
                && u.atom.a.max(u.atom.b) == 1
                && m.moves
                && !m.captures
                && !matches!(u.range, crate::betza::Range::Leap | crate::betza::Range::Limited(0..=3))
        })
        .map(|u| u.text.clone())
}

/// True if a Betza text has initial (`i`) moves.
fn has_initial(betza: &str) -> bool {
    crate::betza::parse(betza).is_ok_and(|b| b.units.iter().any(|u| u.initial))
}

fn single_letter(o: &Opt, file: &str, key: &str) -> Result<char, VariantError> {
    let mut cs = o.value.trim().chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok(c.to_ascii_lowercase()),
        _ => Err(err(file, o.line, format!("{key}: expected one piece letter, not '{}'", o.value))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_options_name_themselves() {
        let e = variant_from_ini("[x:chess]\nblastOnCapture = true\n", "a.ini", "x").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("blastOnCapture"), "{e}");
        let e = variant_from_ini("[x:nonesuch]\n", "a.ini", "x").unwrap_err();
        assert!(e.message.contains("parent 'nonesuch'") && e.message.contains("shogi"), "{e}");
        assert!(variant_from_ini("[x:shogi]\n", "a.ini", "x").is_ok());
        let e = variant_from_ini("[x:chess]\ndoubleStepRegionWhite = *9\n", "a.ini", "x").unwrap_err();
        assert!(e.message.contains("doubleStepRegionWhite"), "{e}");
        assert!(variant_from_ini("[x:chess]\ndoubleStepRegionWhite = *3\n", "a.ini", "x").is_ok());
        let e = variant_from_ini("[x:chess]\ncustomPiece1 = a:fXW\n", "a.ini", "x").unwrap_err();
        assert!(e.message.contains("customPiece1"), "{e}");
    }

    #[test]
    fn inheritance_within_the_file() {
        let ini = "[a:chess]\ncustomPiece1 = a:BN\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RABQKBNR w KQkq - 0 1\n[b:a]\ncastling = false\n";
        let a = variant_from_ini(ini, "x.ini", "a").unwrap();
        let b = variant_from_ini(ini, "x.ini", "b").unwrap();
        assert!(a.rules.castling.is_some());
        assert!(b.rules.castling.is_none());
        assert_eq!(b.pieces.len(), 7);
        // the inherited start FEN's KQkq is dropped, as pyffish ignores it
        assert!(b.start_fen.contains(" w - - "), "{}", b.start_fen);
        crate::variant::Variant::new(b).unwrap();
    }

    #[test]
    fn result_and_drop_options() {
        let d = variant_from_ini("[x:chess]\ncheckmateValue = win\n", "a.ini", "x").unwrap();
        assert_eq!(d.rules.checkmate, crate::variant::StalemateResult::Win);
        let ini = "[x:crazyhouse]\ndropNoDoubled = p\ndropNoDoubledCount = 2\n";
        let d = variant_from_ini(ini, "a.ini", "x").unwrap();
        assert_eq!(d.rules.drops.as_ref().unwrap().no_doubled_count, 2);
        let ini = "[x:crazyhouse]\ndropNoDoubled = p\ndropNoDoubledCount = 0\n";
        let e = variant_from_ini(ini, "a.ini", "x").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("dropNoDoubledCount"), "{e}");
        let d = variant_from_ini("[x:chess]\nnFoldRule = 4\nnMoveRule = 70\n", "a.ini", "x").unwrap();
        assert_eq!((d.rules.n_fold, d.rules.n_move_rule), (4, Some(70)));
        for bad in ["nFoldRule = 1", "nFoldRule = 9\u{1b}[2J", "nMoveRule = 1001"] {
            let e = variant_from_ini(&format!("[x:chess]\n{bad}\n"), "a.ini", "x").unwrap_err();
            assert!(e.message.contains(&bad[..9]) && !e.message.contains('\u{1b}'), "{e}");
        }
        let e = variant_from_ini("[x:chess]\ncheckmateValue = maybe\n", "a.ini", "x").unwrap_err();
        assert!(e.message.contains("checkmateValue"), "{e}");
        let d = variant_from_ini("[x:chess]\nmaterialCounting = blackdrawodds\n", "a.ini", "x").unwrap();
        assert_eq!(d.rules.draw_odds, Some(crate::square::Color::Black));
    }

    #[test]
    fn variant_names_are_restricted() {
        let e = variant_from_ini("[x:chess]\n[evil\u{1b}name:chess]\n", "a.ini", "x").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("evil\\u{1b}name") && e.message.contains("A-Z"), "{e}");
        let long = "v".repeat(crate::variant::MAX_NAME_LEN + 1);
        let e = variant_names(&format!("[{long}:chess]\n"), "a.ini").unwrap_err();
        assert!(e.message.contains(&long), "{e}");
        let e = variant_names("[x:ch\ress]\n", "a.ini").unwrap_err();
        assert!(e.message.contains("parent") && e.message.contains("ch\\ress"), "{e}");
        let e = variant_from_ini("[x:chess]\n", "a.ini", "bad\nname").unwrap_err();
        assert!(!e.message.contains('\n') && e.message.contains("bad\\nname"), "{e}");
        assert!(variant_from_ini("[My_variant-2+:chess]\n", "a.ini", "My_variant-2+").is_ok());
    }

    /// The Betza texts of a definition's pieces, by letter.
    fn betza_of(def: &VariantDef, letter: &str) -> String {
        def.pieces[index_of(def, letter)].betza.text.clone()
    }

    /// The index of a piece type by its letter, `+` first for a promoted type.
    fn index_of(def: &VariantDef, letter: &str) -> usize {
        let (promoted, c) = match letter.strip_prefix('+') {
            Some(l) => (true, l.chars().next().unwrap()),
            None => (false, letter.chars().next().unwrap()),
        };
        def.pieces.iter().position(|p| p.letter == c && p.promoted == promoted && !p.tilde).unwrap()
    }

    #[test]
    fn no_double_steps_means_no_initial_moves() {
        let ini = "[x:chess]\ndoubleStep = false\ncustomPiece1 = a:WifmnD\nking = k:KifmnD\n[y:makruk]\ncustomPiece1 = a:ifmnDW\n[z:x]\ndoubleStep = true\n";
        let x = variant_from_ini(ini, "a.ini", "x").unwrap();
        assert_eq!(betza_of(&x, "a"), "W");
        assert_eq!(betza_of(&x, "k"), "K");
        assert_eq!(betza_of(&x, "p"), "fmWfceF");
        let y = variant_from_ini(ini, "a.ini", "y").unwrap();
        assert_eq!(betza_of(&y, "a"), "W");
        let z = variant_from_ini(ini, "a.ini", "z").unwrap();
        assert_eq!(betza_of(&z, "a"), "WifmnD");
        assert_eq!(betza_of(&z, "p"), "fmWfceFifmnD");
    }

    #[test]
    fn promoted_piece_types_add_to_the_parents() {
        let d = variant_from_ini("[x:shogi]\npromotedPieceType = p:s\n", "a.ini", "x").unwrap();
        // the pawn's promoted form moves as a silver; the others keep shogi's
        assert_eq!(betza_of(&d, "+p"), "FfW");
        assert_eq!(betza_of(&d, "+b"), "BW");
        assert_eq!(betza_of(&d, "+r"), "RF");
        // a silver promotes, so the promoted pawn (a silver) promotes to +s
        let (pp, ps) = (index_of(&d, "+p"), index_of(&d, "+s"));
        assert_eq!(d.pieces[pp].promotion.as_ref().unwrap().choices, vec![ps]);
        assert_eq!(d.pieces[ps].demotes_to, Some(index_of(&d, "s")));
        // an inherited entry for a removed piece is dropped; the section's own is an error
        let d = variant_from_ini("[x:shogi]\nrook = -\n", "a.ini", "x").unwrap();
        assert!(d.pieces.iter().all(|p| !(p.letter == 'r' && p.promoted)));
        let e = variant_from_ini("[x:shogi]\nrook = -\npromotedPieceType = r:d\n", "a.ini", "x").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("no piece 'r'"), "{e}");
    }

    #[test]
    fn immobility_and_optional_promotion() {
        use crate::variant::Immobility;
        let d = variant_from_ini("[x:chess]\nmandatoryPawnPromotion = false\n", "a.ini", "x").unwrap();
        assert_eq!(d.rules.immobility, Immobility::Allowed);
        let d = variant_from_ini("[x:chess]\nimmobilityIllegal = true\n", "a.ini", "x").unwrap();
        assert_eq!(d.rules.immobility, Immobility::Illegal);
        assert_eq!(variant_from_ini("[x:grand]\n", "a.ini", "x").unwrap().rules.immobility, Immobility::Illegal);
    }

    #[test]
    fn long_initial_slides_are_refused() {
        let e = variant_from_ini("[x:chess]\n\ncustomPiece1 = a:WimfW4\n", "a.ini", "x").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("imfW4"), "{e}");
        assert!(variant_from_ini("[x:chess]\ncustomPiece1 = a:WimfW2\n", "a.ini", "x").is_ok());
        assert!(variant_from_ini("[x:chess]\ncustomPiece1 = a:WimfW3\n", "a.ini", "x").is_ok());
        // without double steps the move is gone, and so is the problem
        assert!(variant_from_ini("[x:chess]\ndoubleStep = false\ncustomPiece1 = a:WimfW4\n", "a.ini", "x").is_ok());
        // a piece left without any move is an error on its line
        let e = variant_from_ini("[x:chess]\ndoubleStep = false\ncustomPiece1 = a:ifmnD\n", "a.ini", "x").unwrap_err();
        assert!(e.line == 3 && e.message.contains("no moves left"), "{e}");
    }

    #[test]
    fn options_naming_removed_pieces() {
        // capablanca's promotionPieceTypes names the chancellor: inherited, it is dropped
        let d = variant_from_ini("[x:capablanca]\nchancellor = -\n", "a.ini", "x").unwrap();
        let pawn = &d.pieces[index_of(&d, "p")];
        assert_eq!(pawn.promotion.as_ref().unwrap().choices.len(), 5);
        // in the section itself it is an error
        let e =
            variant_from_ini("[x:capablanca]\nchancellor = -\npromotionPieceTypes = qc\n", "a.ini", "x").unwrap_err();
        assert!(e.line == 3 && e.message.contains("no piece 'c'"), "{e}");
        let e = variant_from_ini("[x:chess]\nmobilityRegionWhiteFers = *1\n", "a.ini", "x").unwrap_err();
        assert!(e.line == 2 && e.message.contains("no fers"), "{e}");
        let e = variant_from_ini("[x:chess]\nmobilityRegionWhiteUnicorn = *1\n", "a.ini", "x").unwrap_err();
        assert!(e.message.contains("mobilityRegionWhiteUnicorn"), "{e}");
        // the xiangqi parent's regions for a removed elephant are dropped
        let ini = "[x:xiangqi]\nelephant = -\nstartFen = rn1aka1nr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RN1AKA1NR w - - 0 1\n";
        let d = variant_from_ini(ini, "a.ini", "x").unwrap();
        assert!(crate::variant::Variant::new(d).is_ok());
    }

    #[test]
    fn promotion_choices_per_side() {
        let ini =
            "[x:chess]\npromotionPieceTypesWhite = qn\npromotionPieceTypesBlack = rb\n[y:x]\npromotionPieceTypes = q\n";
        let d = variant_from_ini(ini, "a.ini", "x").unwrap();
        let pr = d.pieces[index_of(&d, "p")].promotion.clone().unwrap();
        assert_eq!(pr.choices, vec![index_of(&d, "q"), index_of(&d, "n")]);
        assert_eq!(pr.choices_black, Some(vec![index_of(&d, "r"), index_of(&d, "b")]));
        // a later section's common option replaces both
        let d = variant_from_ini(ini, "a.ini", "y").unwrap();
        let pr = d.pieces[index_of(&d, "p")].promotion.clone().unwrap();
        assert_eq!((pr.choices, pr.choices_black), (vec![index_of(&d, "q")], None));
    }

    #[test]
    fn drops_keep_to_mobility_regions() {
        use crate::position::Position;
        let ini = "[x:crazyhouse]\nmobilityRegionWhiteKnight = *1 *2\nmobilityRegionWhiteQueen = *1\n";
        let v =
            std::sync::Arc::new(crate::variant::Variant::new(variant_from_ini(ini, "a.ini", "x").unwrap()).unwrap());
        let mut pos = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/8/4K3[NQn] w - - 0 1").unwrap();
        let moves = pos.legal_moves();
        let drops: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).filter(|t| t.contains('@')).collect();
        // White's knight on its first two ranks, the queen on its first; Black's knight anywhere
        assert_eq!(drops.iter().filter(|t| t.starts_with("N@")).count(), 15, "{drops:?}");
        assert!(drops.iter().filter(|t| t.starts_with("Q@")).all(|t| t.ends_with('1')), "{drops:?}");
        assert_eq!(drops.iter().filter(|t| t.starts_with("Q@")).count(), 7, "{drops:?}");
        let mut pos = Position::from_fen(v, "4k3/8/8/8/8/8/8/4K3[NQn] b - - 0 1").unwrap();
        assert_eq!(pos.legal_moves().len(), 62 + 5);
        // a promoted queen (Q~) keeps to the queen's region
        let d = variant_from_ini(ini, "a.ini", "x").unwrap();
        let q = d.pieces.iter().find(|p| p.tilde && p.letter == 'q').unwrap();
        assert!(q.confine.is_some());
    }

    #[test]
    fn mobility_regions_filter_destinations_only() {
        use crate::position::Position;
        let ini = "[x:chess]\nmobilityRegionWhiteRook = *1 *2 *4 *5\n";
        let v =
            std::sync::Arc::new(crate::variant::Variant::new(variant_from_ini(ini, "a.ini", "x").unwrap()).unwrap());
        let texts = |fen: &str, from: &str| {
            let mut pos = Position::from_fen(v.clone(), fen).unwrap();
            let moves = pos.legal_moves();
            let mut t: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with(from)).collect();
            t.sort();
            t
        };
        // the rook rides across a3 to a4 and a5, and stops on neither a3 nor a6
        assert_eq!(texts("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1"), ["a1a2", "a1a4", "a1a5", "a1b1", "a1c1", "a1d1"]);
        // standing outside its region, it still moves into it
        assert_eq!(texts("4k3/8/8/8/8/R7/8/4K3 w - - 0 1", "a3"), ["a3a1", "a3a2", "a3a4", "a3a5"]);
        // and it gives no check on a square it may not stop on
        let mut pos = Position::from_fen(v.clone(), "8/8/8/8/8/8/k7/R3K3 b - - 0 1").unwrap();
        let moves = pos.legal_moves();
        let mut t: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        t.sort();
        assert_eq!(t, ["a2a1", "a2a3", "a2b2", "a2b3"]);
    }

    #[test]
    fn janggi_material_counting() {
        use crate::position::Position;
        use crate::square::Color;
        let ini = "[j:janggi]\n[c:chess]\npass = true\nmaterialCounting = janggi\n[n:chess]\npass = true\n";
        let pos = |name: &str, fen: &str| {
            let v = crate::variant::Variant::new(variant_from_ini(ini, "a.ini", name).unwrap()).unwrap();
            Position::from_fen(std::sync::Arc::new(v), fen).unwrap()
        };
        // the janggi parent counts: a chariot (13) against two cannons (14 + 1.5), and against a cannon
        let j = |fen: &str| pos("j", fen).point_count_winner();
        assert_eq!(j("9/3k5/9/2cc5/9/9/9/9/4K4/R8 w - - 0 1"), Some(Color::Black));
        assert_eq!(j("9/3k5/9/2c6/9/9/9/9/4K4/R8 w - - 0 1"), Some(Color::White));
        // on a chess board only Janggi's types score: a rook 13, a queen nothing
        let c = |fen: &str| pos("c", fen).point_count_winner();
        assert_eq!(c("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), Some(Color::White));
        assert_eq!(c("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), Some(Color::Black));
        assert_eq!(c("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), Some(Color::Black));
        // without it nothing is counted
        assert_eq!(pos("n", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").point_count_winner(), None);
    }

    #[test]
    fn en_passant_types_name_every_passed_square() {
        use crate::position::Position;
        let fen_after = |types: &str| {
            let ini = format!("[x:chess]\nenPassantTypes = {types}\n");
            let v = crate::variant::Variant::new(variant_from_ini(&ini, "a.ini", "x").unwrap()).unwrap();
            let mut pos = Position::start(std::sync::Arc::new(v));
            let m = pos.parse_move("e2e4").unwrap();
            pos.make(m);
            let fen = pos.fen();
            let again = Position::from_fen(pos.variant().clone(), &fen).unwrap();
            assert_eq!((again.fen(), again.hash()), (fen.clone(), pos.hash()));
            fen
        };
        // another type than the pawn: the passed square is always named
        assert_eq!(fen_after("n"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(fen_after("pn"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        // the pawn, none, or no piece of the variant: chess's rule
        for types in ["p", "-", "x"] {
            assert_eq!(fen_after(types), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "{types}");
        }
    }

    #[test]
    fn triple_steps_make_two_en_passant_squares() {
        use crate::position::Position;
        let ini = "[x:chess]\ntripleStepRegionWhite = *2\ntripleStepRegionBlack = *7\n";
        let v =
            std::sync::Arc::new(crate::variant::Variant::new(variant_from_ini(ini, "a.ini", "x").unwrap()).unwrap());
        for (fen, after) in [
            // both passed squares attacked, one, or none
            ("4k3/8/8/3p4/3p4/8/4P3/4K3 w - - 0 1", "4k3/8/8/3pP3/3p4/8/8/4K3 b - e3e4 0 1"),
            ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "4k3/8/8/4P3/3p4/8/8/4K3 b - e3 0 1"),
            ("4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 b - e4 0 1"),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "4k3/8/8/4P3/8/8/8/4K3 b - - 0 1"),
        ] {
            let mut pos = Position::from_fen(v.clone(), fen).unwrap();
            let (hash, m) = (pos.hash(), pos.parse_move("e2e5").unwrap());
            let undo = pos.make(m);
            assert_eq!(pos.fen(), after);
            // the FEN reads back as the same position, whose moves take e.p. on each square
            let again = Position::from_fen(v.clone(), after).unwrap();
            assert_eq!((again.fen(), again.hash()), (after.to_string(), pos.hash()), "{after}");
            let ep = after.split(' ').nth(3).unwrap();
            let takes: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|&m| pos.move_text(m))
                .filter(|t| t.ends_with("e3") || t.ends_with("e4"))
                .collect();
            assert_eq!(takes.len(), if ep == "-" { 0 } else { ep.len() / 2 }, "{after}: {takes:?}");
            pos.unmake(m, &undo);
            assert_eq!((pos.fen(), pos.hash()), (fen.to_string(), hash));
        }
        // a triple-step region apart from the double-step one: from there the
        // triple step only (pyffish 0.0.90's moves)
        let d = variant_from_ini("[x:chess]\ntripleStepRegionWhite = *3\n", "a.ini", "x").unwrap();
        let v = std::sync::Arc::new(crate::variant::Variant::new(d).unwrap());
        let mut pos = Position::from_fen(v, "4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1").unwrap();
        let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
        moves.sort();
        assert_eq!(moves, ["d2d3", "d2d4", "e1d1", "e1e2", "e1f1", "e1f2", "e3e4", "e3e6"]);
    }

    #[test]
    fn n_move_rule_types_reset_the_count() {
        let pawn = |ini: &str, l: &str| {
            let d = variant_from_ini(ini, "a.ini", "x").unwrap();
            d.pieces[index_of(&d, l)].pawn
        };
        assert!(pawn("[x:chess]\n", "p") && !pawn("[x:chess]\n", "n"));
        // a Betza pawn resets the count only where the option names it
        let ini = "[x:chess]\npawn = -\ncustomPiece1 = p:fmWfceF\n";
        assert!(!pawn(ini, "p"));
        assert!(pawn(&format!("{ini}nMoveRuleTypes = p\n"), "p"));
        assert!(!pawn("[x:chess]\nnMoveRuleTypes = -\n", "p"));
        assert!(pawn("[x:chess]\nnMoveRuleTypes = pn\n", "n"));
    }

    #[test]
    fn flag_pieces_per_side() {
        let zone = |ini: &str| {
            let d = variant_from_ini(ini, "a.ini", "x").unwrap();
            let z = d.rules.flag.as_ref().unwrap().zone;
            let count = |v: &[bool]| v.iter().filter(|&&b| b).count();
            let black = d.zones[z].black.as_deref().map(count).unwrap_or(count(&d.zones[z].white));
            (count(&d.zones[z].white), black)
        };
        // White's flag piece only: Black has no flag zone
        assert_eq!(zone("[x:chess]\nflagPieceWhite = n\nflagRegionWhite = *8\n"), (8, 0));
        assert_eq!(zone("[x:chess]\nflagPieceBlack = n\nflagRegionBlack = *1 *2\n"), (0, 16));
        assert_eq!(zone("[x:chess]\nflagPiece = n\nflagRegionWhite = *8\n"), (8, 8));
        let e = variant_from_ini("[x:chess]\nflagPieceWhite = n\nflagPieceBlack = b\nflagRegion = *4\n", "a.ini", "x")
            .unwrap_err();
        assert!(e.line == 3 && e.message.contains("flag pieces"), "{e}");
    }

    #[test]
    fn en_passant_regions_keep_double_steps_without_e_p() {
        use crate::position::Position;
        // Horde's rule: White's double step from its first rank makes no e.p. square
        let ini = "[x:chess]\ndoubleStepRegionWhite = *1 *2\nenPassantRegionBlack = *3\n";
        let v =
            std::sync::Arc::new(crate::variant::Variant::new(variant_from_ini(ini, "a.ini", "x").unwrap()).unwrap());
        let after = |fen: &str, m: &str| {
            let mut pos = Position::from_fen(v.clone(), fen).unwrap();
            let m = pos.parse_move(m).unwrap();
            pos.make(m);
            pos.fen()
        };
        assert_eq!(after("4k3/8/8/8/8/1p6/8/P3K3 w - - 0 1", "a1a3"), "4k3/8/8/8/8/Pp6/8/4K3 b - - 0 1");
        assert_eq!(after("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1", "a2a4"), "4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1");
        let e = variant_from_ini("[x:chess]\ntripleStepRegionWhite = *2\nenPassantRegion = *3\n", "a.ini", "x")
            .unwrap_err();
        assert!(e.line == 3 && e.message.contains("enPassantRegion"), "{e}");
        // georgian: an empty region, no e.p. at all (pyffish: no d4e3 after e2e4)
        let v = std::sync::Arc::new(
            crate::variant::Variant::new(variant_from_ini("[x:georgian]\n", "a.ini", "x").unwrap()).unwrap(),
        );
        let mut pos = Position::from_fen(v, "rnbakbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBAKBNR w - - 0 1").unwrap();
        let m = pos.parse_move("e2e4").unwrap();
        pos.make(m);
        assert_eq!(pos.fen(), "rnbakbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBAKBNR b - - 0 1");
        assert!(pos.parse_move("d4e3").is_err());
    }

    #[test]
    fn castling_rank_and_rook_files_follow_the_start_position() {
        let ini = "[x:chess]\nmaxRank = 10\nstartFen = 8/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1\n";
        assert!(variant_from_ini(&format!("{ini}castlingRank = 2\n"), "a.ini", "x").is_ok());
        let e = variant_from_ini(&format!("{ini}castlingRank = 1\n"), "a.ini", "x").unwrap_err();
        assert!(e.line == 4 && e.message.contains("castlingRank"), "{e}");
        let ok = format!("{ini}castlingRank = 2\ncastlingRookKingsideFile = h\ncastlingRookQueensideFile = a\n");
        assert!(variant_from_ini(&ok, "a.ini", "x").is_ok());
        let e = variant_from_ini(&format!("{ini}castlingRank = 2\ncastlingRookKingsideFile = g\n"), "a.ini", "x")
            .unwrap_err();
        assert!(e.line == 5 && e.message.contains("outermost"), "{e}");
    }

    #[test]
    fn drop_loop_keeps_promoted_types() {
        // crazyhouse's promoted pawn is a marked queen (Q~) that returns as a pawn
        let d = variant_from_ini("[x:crazyhouse]\n", "a.ini", "x").unwrap();
        assert!(d.pieces.iter().any(|p| p.tilde));
        // with dropLoop it is a queen, and returns as one
        let d = variant_from_ini("[x:crazyhouse]\ndropLoop = true\n", "a.ini", "x").unwrap();
        assert!(d.pieces.iter().all(|p| !p.tilde));
        let pawn = &d.pieces[index_of(&d, "p")];
        assert_eq!(pawn.promotion.as_ref().unwrap().choices.len(), 4);
    }

    #[test]
    fn cambodian_moves() {
        use crate::position::Position;
        let ini = "[x:makruk]\nstartFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1\ngating = true\ncambodianMoves = true\n[y:makruk]\ncambodianMoves = true\n";
        let d = variant_from_ini(ini, "a.ini", "x").unwrap();
        assert_eq!(betza_of(&d, "k"), "KimfsN");
        assert_eq!(betza_of(&d, "m"), "FimfD");
        let rights = d.rules.initial_rights.as_ref().unwrap();
        assert!(rights.not_in_check && rights.lost_to_attack_by == Some(index_of(&d, "r")));
        let v = std::sync::Arc::new(crate::variant::Variant::new(d).unwrap());
        let texts = |fen: &str| {
            let mut pos = Position::from_fen(v.clone(), fen).unwrap();
            let moves = pos.legal_moves();
            moves.iter().map(|&m| pos.move_text(m)).collect::<Vec<String>>()
        };
        // the king's leaps and the met's jump while the FEN keeps their rights
        let moves = texts("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1");
        for m in ["d1b2", "d1f2", "e1e3"] {
            assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
        }
        let moves = texts("4k3/8/8/8/8/8/8/3KM3 w - - 0 1");
        assert!(!moves.iter().any(|m| ["d1b2", "d1f2", "e1e3"].contains(&m.as_str())), "{moves:?}");
        // the rights are kept by the gates: without gating it is an error
        let e = variant_from_ini(ini, "a.ini", "y").unwrap_err();
        assert!(e.line == 6 && e.message.contains("gating"), "{e}");
    }

    #[test]
    fn check_counting_without_counts_in_the_fen() {
        // the next check wins, as Fairy-Stockfish assumes
        let d = variant_from_ini("[x:shogi]\ncheckCounting = true\n", "a.ini", "x").unwrap();
        assert_eq!(d.rules.checks, Some(1));
        let d = variant_from_ini("[x:3check]\n", "a.ini", "x").unwrap();
        assert_eq!(d.rules.checks, Some(3));
    }

    #[test]
    fn check_rules() {
        use crate::variant::GivingCheck;
        let g = |ini: &str| variant_from_ini(ini, "a.ini", "x").unwrap().rules.giving_check;
        assert_eq!(g("[x:chess]\n"), GivingCheck::Allowed);
        assert_eq!(g("[x:chess]\nchecking = false\n"), GivingCheck::Never);
        assert_eq!(g("[x:crazyhouse]\ndropChecks = false\n"), GivingCheck::NotByDrops);
    }

    #[test]
    fn n_move_rule_types_reset_the_clock() {
        use crate::position::Position;
        let ini =
            "[x:chess]\npawn = -\ncustomPiece1 = p:fmWfceF\n[y:x]\nnMoveRuleTypes = p\n[z:chess]\nnMoveRuleTypes = n\n";
        let after = |name: &str, mv: &str| {
            let v = crate::variant::Variant::new(variant_from_ini(ini, "a.ini", name).unwrap()).unwrap();
            let mut pos = Position::start(std::sync::Arc::new(v));
            let m = pos.parse_move(mv).unwrap();
            pos.make(m);
            pos.fen().split(' ').nth(4).unwrap().to_string()
        };
        // by default only Fairy-Stockfish's pawn type resets it, not a piece lettered p
        assert_eq!(after("x", "e2e3"), "1");
        assert_eq!(after("y", "e2e3"), "0");
        // naming the knight only: the pawn no longer resets it, and a knight's
        // move, one it could take back, does not either (pyffish 0.0.90)
        assert_eq!((after("z", "g1f3"), after("z", "e2e4")), ("1".to_string(), "1".to_string()));
    }

    #[test]
    fn pseudo_royal_extinction_pieces_are_royal() {
        let ini = "[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = q\nextinctionPseudoRoyal = true\nextinctionPieceCount = 64\n";
        let d = variant_from_ini(ini, "a.ini", "x").unwrap();
        assert!(d.pieces[index_of(&d, "q")].royal && d.pieces[index_of(&d, "k")].royal);
        assert!(!d.pieces[index_of(&d, "r")].royal);
        // the extinction rule itself is gone, as in Fairy-Stockfish
        assert!(d.rules.extinction.is_none());
        // royal only while few are left: not supported
        let e = variant_from_ini(&ini.replace("64", "1"), "a.ini", "x").unwrap_err();
        assert!(e.line == 4 && e.message.contains("extinctionPseudoRoyal"), "{e}");
    }

    #[test]
    fn castling_rank_is_checked() {
        use crate::position::Position;
        let ini = "[x:chess]\nmaxRank = 10\nstartFen = 8/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1\ncastlingRank = 2\n";
        let v = crate::variant::Variant::new(variant_from_ini(ini, "a.ini", "x").unwrap()).unwrap();
        let mut pos = Position::from_fen(std::sync::Arc::new(v), "8/r3k2r/8/8/8/8/8/8/R3K2R/8 w KQkq - 0 1").unwrap();
        let moves = pos.legal_moves();
        let texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        assert!(texts.contains(&"e2g2".to_string()) && texts.contains(&"e2c2".to_string()), "{texts:?}");
        let e = variant_from_ini(&ini.replace("castlingRank = 2", "castlingRank = 11"), "a.ini", "x").unwrap_err();
        assert!(e.line == 4 && e.message.contains("castlingRank"), "{e}");
    }
}
