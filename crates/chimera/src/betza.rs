//! The XBetza move language, parsed into a typed description.
//!
//! A piece's moves are a sequence of *units*, each a group of modifiers, an
//! atom and an optional range: `fmWfceFifmnD` is the FIDE pawn, three units.
//! Inside a unit the modifier `a` separates legs; the modifiers before an `a`
//! describe the earlier leg. All legs use the unit's atom, and the directions of
//! a later leg are relative to the step of the leg before it.
//!
//! Parsing only checks the syntax. [`crate::compile`] decides whether a
//! combination can be compiled, and names the piece and the token when it cannot.

use std::fmt;

/// The longest XBetza string accepted, in bytes (the longest built-in one has 13).
pub const MAX_LEN: usize = 256;

/// An error in an XBetza string, with the byte offset of the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The whole XBetza string.
    pub text: String,
    /// Byte offset of the token that could not be read.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad XBetza \"{}\" at column {}: {}", self.text, self.offset + 1, self.message)
    }
}

impl std::error::Error for BetzaError {}

/// A direction word written before an atom: one or two of `f b l r v s h`.
/// The half `h` is stored as the second letter of `fh`, `bh`, `lh`, `rh`
/// (the four moves of an oblique atom on that side), and as the first letter
/// of `hl`, `hr` (the four moves of one handedness, see [`crate::compile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirWord {
    /// The first letter.
    pub first: u8,
    /// The second letter of a pair such as `fl` or `fs`, if any.
    pub second: Option<u8>,
}

impl fmt::Display for DirWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.first as char)?;
        if let Some(s) = self.second {
            write!(f, "{}", s as char)?;
        }
        Ok(())
    }
}

/// What may happen at the end of a leg.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modality {
    /// `m`: move to an empty square.
    pub moves: bool,
    /// `c`: capture an enemy piece.
    pub captures: bool,
    /// `d`: capture a friendly piece.
    pub friend: bool,
    /// `e`: capture en passant.
    pub en_passant: bool,
    /// `p`: hop over an occupied square (cannon).
    pub hop: bool,
    /// `g`: hop, and switch from rider to leaper or back (grasshopper).
    pub grasshop: bool,
    /// `y` (non-final legs): end on an empty square, like `m`, and switch the
    /// legs after it from leaper to rider or back (the Griffon `FyafsF`).
    pub range_toggle: bool,
}

impl Modality {
    /// No modality letter was written.
    pub fn is_empty(&self) -> bool {
        *self == Modality::default()
    }
}

/// One leg of a move unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leg {
    /// The directions written for this leg, empty for "all".
    pub dirs: Vec<DirWord>,
    /// The modality letters written for this leg.
    pub modality: Modality,
    /// `n`: lame, the path must be empty.
    pub lame: bool,
    /// `j`: must jump (an occupied square on the path), or skip the first square of a ride.
    pub jump: bool,
    /// `o`: the board is a cylinder for this leg, its left and right edges joined.
    pub cylinder: bool,
    /// `z`: a crooked rider, every other step turned by 90° (`zB`, the Boyscout).
    pub crooked: bool,
    /// `q`: a circular rider, each step the next move of the atom around the
    /// circle (`qN`, the Rose).
    pub circular: bool,
    /// `t`: tame. On a final leg the piece may not capture a royal piece; on a
    /// non-final leg that hops (`p`, `g`) it may hop over friendly pieces only.
    pub tame: bool,
    /// `u`: unload. The piece a capture on this leg takes is not removed but
    /// put on the square the move started from (the swapper `udR`).
    pub unload: bool,
    /// `i` on a later leg: this leg makes exactly as many steps as the leg
    /// before it (`masimR` from d4 reaches the bishop's squares), as XBoard
    /// reads it. On the first leg `i` means an initial move ([`Unit::initial`]).
    pub iso: bool,
    /// Letters that were parsed but that this version does not compile (`x k w`),
    /// with their offsets, so that the compiler can name them.
    pub unsupported: Vec<(char, usize)>,
    /// Byte offset of the leg's first modifier, for error messages.
    pub offset: usize,
}

/// The basic step of a unit, in its canonical form `(a, b)` with `a >= b >= 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The longer coordinate of the step.
    pub a: u8,
    /// The shorter coordinate of the step.
    pub b: u8,
}

impl Atom {
    /// A step along a rank or file (W, D, H, R).
    pub fn is_orthogonal(&self) -> bool {
        self.b == 0
    }
    /// A step along a diagonal (F, A, G, B).
    pub fn is_diagonal(&self) -> bool {
        self.a == self.b
    }
    /// Neither orthogonal nor diagonal (N, C, Z, …).
    pub fn is_oblique(&self) -> bool {
        !self.is_orthogonal() && !self.is_diagonal()
    }
}

/// How far a unit goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// One step (a leaper).
    Leap,
    /// At most this many steps (a limited rider).
    Limited(u8),
    /// As many steps as the board allows (a rider).
    Unlimited,
}

/// One unit: modifiers, an atom and a range. A compound atom such as `K` or `Q`
/// is split into one unit per basic atom, each with the same modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The legs, in order. There is always at least one.
    pub legs: Vec<Leg>,
    /// `i` (on the first leg): only a piece that has not moved yet has this
    /// move. On a later leg `i` means something else ([`Leg::iso`]).
    pub initial: bool,
    /// The basic step.
    pub atom: Atom,
    /// The range of the step.
    pub range: Range,
    /// The atom was written `K` or `Q` (eight directions): a later leg
    /// without a direction may then turn by any angle but 180°, while on
    /// every other atom it goes straight on or turns by 90° (XBoard's reading).
    pub eightfold: bool,
    /// The atom `U`: the universal leaper, which leaps to every square of the
    /// board but its own (`atom` is then (1,0) and means nothing).
    pub universal: bool,
    /// The text of the unit, for messages.
    pub text: String,
    /// Byte offset of the unit in the whole string.
    pub offset: usize,
}

/// A parsed XBetza string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Betza {
    /// The original text.
    pub text: String,
    /// The units, in the order written.
    pub units: Vec<Unit>,
}

const DIR_LETTERS: &[u8] = b"fblrvsh";

fn basic_atom(c: u8) -> Option<Vec<(Atom, bool)>> {
    // (atom, is_rider_by_default)
    let at = |a, b| Atom { a, b };
    Some(match c {
        b'W' => vec![(at(1, 0), false)],
        b'F' => vec![(at(1, 1), false)],
        b'D' => vec![(at(2, 0), false)],
        b'N' => vec![(at(2, 1), false)],
        b'A' => vec![(at(2, 2), false)],
        b'H' => vec![(at(3, 0), false)],
        b'C' | b'L' => vec![(at(3, 1), false)],
        b'Z' | b'J' => vec![(at(3, 2), false)],
        b'G' => vec![(at(3, 3), false)],
        b'K' => vec![(at(1, 0), false), (at(1, 1), false)],
        b'R' => vec![(at(1, 0), true)],
        b'B' => vec![(at(1, 1), true)],
        b'Q' => vec![(at(1, 0), true), (at(1, 1), true)],
        _ => return None,
    })
}

/// Parses an XBetza string.
///
/// ```
/// use chimera::betza::{parse, Range};
/// let pawn = parse("fmWfceFifmnD").unwrap();
/// assert_eq!(pawn.units.len(), 3);
/// assert!(pawn.units[2].initial && pawn.units[2].legs[0].lame);
/// let lion = parse("KNADcaKmcabK").unwrap();
/// assert_eq!(lion.units.iter().filter(|u| u.legs.len() == 2).count(), 4);
/// assert_eq!(parse("R").unwrap().units[0].range, Range::Unlimited);
/// assert!(parse("fX").is_err());
/// ```
pub fn parse(text: &str) -> Result<Betza, BetzaError> {
    if text.len() > MAX_LEN {
        return Err(BetzaError {
            text: text.chars().take(40).collect::<String>() + "...",
            offset: MAX_LEN,
            message: format!("an XBetza string may have at most {MAX_LEN} characters, this one has {}", text.len()),
        });
    }
    let b = text.as_bytes();
    let err = |offset: usize, message: String| BetzaError { text: text.to_string(), offset, message };
    let mut units = Vec::new();
    let mut i = 0;
    if b.is_empty() {
        return Err(err(0, "empty move description".into()));
    }
    while i < b.len() {
        let start = i;
        // a bracket group, optionally after `i` (only an unmoved piece has it)
        let group_initial = b[i] == b'i' && b.get(i + 1) == Some(&b'[');
        if b[i] == b'[' || group_initial {
            i += group_initial as usize;
            let close = text[i..].find(']').map(|k| i + k).ok_or_else(|| err(i, "unclosed '['".into()))?;
            let group = &text[start..=close];
            for chain in expand_brackets(&text[i + 1..close]).map_err(|(k, m)| err(i + 1 + k, m))? {
                let parsed = parse(&chain)
                    .map_err(|e| err(start, format!("{group} reads as {chain}, which fails: {}", e.message)))?;
                // offsets, for the compiler's messages, point at the group
                units.extend(parsed.units.into_iter().map(|u| Unit {
                    legs: u.legs.into_iter().map(|l| Leg { offset: start, ..l }).collect(),
                    text: group.to_string(),
                    offset: start,
                    initial: group_initial,
                    ..u
                }));
            }
            i = close + 1;
            continue;
        }
        let mut legs = vec![Leg { offset: i, ..Leg::default() }];
        let mut initial = false;
        // modifiers
        while i < b.len() && b[i].is_ascii_lowercase() {
            let c = b[i];
            let later = legs.len() > 1;
            let leg = legs.last_mut().unwrap();
            match c {
                b'a' => {
                    legs.push(Leg { offset: i + 1, ..Leg::default() });
                }
                b'f' | b'b' | b'l' | b'r' | b'v' | b's' | b'h' => {
                    // a pair such as fl, fs, rf, lv: two direction letters in a row
                    let pairable = matches!(c, b'f' | b'b' | b'l' | b'r');
                    let next = b.get(i + 1).copied().unwrap_or(0);
                    let turn_pair = later && matches!(c, b'f' | b'b') && matches!(next, b'z' | b'q');
                    if pairable && (DIR_LETTERS.contains(&next) || turn_pair) {
                        // fl, fs, ... and the halves fh, bh, lh, rh
                        leg.dirs.push(DirWord { first: c, second: Some(next) });
                        i += 1;
                    } else if c == b'h' {
                        // the chiral halves hl and hr
                        if !matches!(next, b'l' | b'r') {
                            return Err(err(
                                i,
                                "'h' (half) goes after f, b, l or r (fh: the forward half) or before l or r (hl, hr)"
                                    .into(),
                            ));
                        }
                        leg.dirs.push(DirWord { first: c, second: Some(next) });
                        i += 1;
                    } else {
                        leg.dirs.push(DirWord { first: c, second: None });
                    }
                }
                b'm' => leg.modality.moves = true,
                b'c' => leg.modality.captures = true,
                b'd' => leg.modality.friend = true,
                b'e' => leg.modality.en_passant = true,
                b'p' => leg.modality.hop = true,
                b'g' => leg.modality.grasshop = true,
                b'n' => leg.lame = true,
                b'j' => leg.jump = true,
                b'o' => leg.cylinder = true,
                // on a later leg, z and q are turns against or with the last bend
                b'z' | b'q' if later => leg.dirs.push(DirWord { first: c, second: None }),
                b'z' => leg.crooked = true,
                b'y' => leg.modality.range_toggle = true,
                b'q' => leg.circular = true,
                b't' => leg.tame = true,
                // on a later leg: as many steps as the leg before
                b'i' if later => leg.iso = true,
                b'i' => initial = true,
                b'u' => leg.unload = true,
                b'x' | b'k' | b'w' => leg.unsupported.push((c as char, i)),
                _ => return Err(err(i, format!("unknown modifier '{}'", c as char))),
            }
            i += 1;
        }
        if i >= b.len() {
            return Err(err(start, "modifiers without an atom".into()));
        }
        // atom
        let atom_off = i;
        let mut atoms: Vec<(Atom, bool)>;
        let mut letter;
        let mut universal = false;
        if b[i] == b'(' {
            let close = text[i..].find(')').map(|k| i + k).ok_or_else(|| err(i, "unclosed '('".into()))?;
            let inner = &text[i + 1..close];
            let parts: Vec<&str> = inner.split(',').collect();
            if parts.len() != 2 {
                return Err(err(i, format!("a leap is written (x,y), not ({inner})")));
            }
            let x: u8 = parts[0].trim().parse().map_err(|_| err(i, format!("bad leap coordinate '{}'", parts[0])))?;
            let y: u8 = parts[1].trim().parse().map_err(|_| err(i, format!("bad leap coordinate '{}'", parts[1])))?;
            if x == 0 && y == 0 || x > 15 || y > 15 {
                return Err(err(i, format!("leap ({x},{y}) is out of range")));
            }
            atoms = vec![(Atom { a: x.max(y), b: x.min(y) }, false)];
            letter = None;
            i = close + 1;
        } else if b[i] == b'U' {
            // the universal leaper: every square but its own
            atoms = vec![(Atom { a: 1, b: 0 }, false)];
            letter = None;
            universal = true;
            i += 1;
        } else {
            let c = b[i];
            atoms = basic_atom(c).ok_or_else(|| {
                if c == b'O' {
                    err(i, "the castling atom 'O' is not supported: castling is a rule of the variant".into())
                } else if c == b'X' || c == b'Y' {
                    err(i, format!("the suffix '{}' follows an atom letter (FX, NY, KX)", c as char))
                } else if c == b'I' {
                    err(i, "the imitator atom 'I' (the moves of the last-moved piece) is not supported".into())
                } else if c.is_ascii_uppercase() {
                    err(i, format!("unsupported atom '{}'", c as char))
                } else {
                    err(i, format!("unexpected character '{}'", c as char))
                }
            })?;
            letter = Some(c);
            i += 1;
            // the suffixes of the extended atoms (the table of the XBetza
            // description): X lengthens each leap of the letter by three
            // steps along its longer axis (FX = (4,1), the giraffe; AX =
            // (5,2)), Y by two steps along each axis (NY = (4,3), AY = (4,4));
            // on K, R, B and Q every atom of the letter is extended and a
            // rider stays a rider (RX rides (4,0) leaps)
            if let Some(&suffix @ (b'X' | b'Y')) = b.get(i) {
                atoms = atoms
                    .into_iter()
                    .map(|(at, rider)| {
                        let at = if suffix == b'X' {
                            Atom { a: at.a + 3, b: at.b }
                        } else {
                            Atom { a: at.a + 2, b: at.b + 2 }
                        };
                        (at, rider)
                    })
                    .collect();
                letter = None;
                i += 1;
            }
        }
        // range: digits, or the same letter doubled
        let mut range = if atoms[0].1 { Range::Unlimited } else { Range::Leap };
        if let Some(l) = letter {
            if i < b.len() && b[i] == l && !atoms[0].1 && atoms.len() == 1 {
                range = Range::Unlimited;
                i += 1;
            }
        }
        if i < b.len() && b[i].is_ascii_digit() {
            let ds = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &text[ds..i];
            if digits.len() > 1 && digits.starts_with('0') {
                return Err(err(ds, format!("exact range '{digits}' is not supported")));
            }
            let n: u32 = digits.parse().map_err(|_| err(ds, format!("bad range '{digits}'")))?;
            range = match n {
                0 => Range::Unlimited,
                1 => Range::Leap,
                n if n <= 255 => Range::Limited(n as u8),
                _ => return Err(err(ds, format!("range {n} is too large"))),
            };
        }
        let _ = atom_off;
        let unit_text = text[start..i].to_string();
        let eightfold = matches!(letter, Some(b'K' | b'Q'));
        for (atom, _) in atoms {
            units.push(Unit {
                legs: legs.clone(),
                initial,
                atom,
                range,
                eightfold,
                universal,
                text: unit_text.clone(),
                offset: start,
            });
        }
    }
    Ok(Betza { text: text.to_string(), units })
}

/// One leg of a bracket group: its modifiers and its atom.
struct BracketLeg<'a> {
    /// The modifier letters as written.
    modifiers: &'a str,
    /// The step: `W` or `F` for the king steps (`R`, `B` ride them), else the leaper letter.
    step: u8,
    /// Whether the leg rides (`R`, `B`, a doubled letter) or leaps once.
    rides: bool,
    /// Byte offset of the leg inside the group.
    offset: usize,
}

/// Expands the inside of a bracket group (`F?R`, the Griffon) into the
/// chains of `a`-joined legs that mean the same (`F`, `yafsF`).
///
/// The group is a sequence of simple moves made one after the other,
/// separated by `-` (the move goes on) or `?` (the move may also end there),
/// as the XBetza description writes the Griffon `[F?R]`. Each leg is one of
/// the king-step atoms `W`, `F`, `R`, `B`, or every leg the same other
/// leaper (`D`, `N`, ..., doubled for its rider), with modifiers; the directions of a
/// later leg are relative to the leg before it, and it goes straight on when
/// it names none (`f`). A later leg whose atom turns from orthogonal to
/// diagonal or back turns by 45° or 135°: there `f` means both 45° turns
/// (`fs`) and `b` both 135° turns (`bs`), `fl`, `fr`, `bl`, `br` one of them.
/// A leg that is passed through ends on an empty square (`m`) unless it says
/// otherwise; where the next leg rides and this one steps, or the other way
/// round, the chain switches with `y` (or `g` on a hopping leg). On the
/// error side, the offset is inside the group.
fn expand_brackets(inner: &str) -> Result<Vec<String>, (usize, String)> {
    let b = inner.as_bytes();
    let mut legs: Vec<BracketLeg> = Vec::new();
    let mut may_end_after: Vec<bool> = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        while i < b.len() && b[i].is_ascii_lowercase() {
            if !b"fblrvsmcdp".contains(&b[i]) {
                return Err((
                    i,
                    format!(
                        "'{}' is not read inside brackets (a leg there takes the directions f b l r v s and the modalities m c d p)",
                        b[i] as char
                    ),
                ));
            }
            i += 1;
        }
        let modifiers = &inner[start..i];
        let (step, rides) = match b.get(i) {
            Some(b'W') => (b'W', false),
            Some(b'F') => (b'F', false),
            Some(b'R') => (b'W', true),
            Some(b'B') => (b'F', true),
            // one of the other leapers, doubled for its rider (NN)
            Some(&c) if b"DNAHCLZJG".contains(&c) => {
                let rides = b.get(i + 1) == Some(&c);
                i += rides as usize;
                (c, rides)
            }
            Some(&c) => {
                return Err((
                    i,
                    format!("a leg inside brackets is W, F, R, B or a leaper letter (D, N, ...), not '{}'", c as char),
                ));
            }
            None => return Err((i, "a bracket group ends with a leg".into())),
        };
        if let Some(prev) = legs.last() {
            let kings = |c: u8| c == b'W' || c == b'F';
            if prev.step != step && !(kings(prev.step) && kings(step)) {
                return Err((
                    start,
                    "the legs of a bracket group use one atom, or king steps (W, F, R, B) mixed".into(),
                ));
            }
        }
        legs.push(BracketLeg { modifiers, step, rides, offset: start });
        if legs.len() > 4 {
            return Err((start, "a bracket group has at most four legs".into()));
        }
        i += 1;
        match b.get(i) {
            None => break,
            Some(b'-') => may_end_after.push(false),
            Some(b'?') => may_end_after.push(true),
            Some(&c) => return Err((i, format!("legs inside brackets are joined by '-' or '?', not '{}'", c as char))),
        }
        i += 1;
    }
    if legs.len() < 2 {
        return Err((0, "a bracket group joins two legs or more ([F?R]); a single move needs no brackets".into()));
    }
    let has_modality = |m: &str| m.bytes().any(|c| b"mcdp".contains(&c));
    let mut chains = Vec::new();
    for end in 1..=legs.len() {
        if end < legs.len() && !may_end_after[end - 1] {
            continue;
        }
        let mut chain = String::new();
        for k in 0..end {
            let leg = &legs[k];
            let mut dirs = String::new();
            let mut modality = String::new();
            for c in leg.modifiers.bytes() {
                if b"mcdp".contains(&c) {
                    modality.push(c as char);
                } else {
                    dirs.push(c as char);
                }
            }
            if k > 0 {
                if dirs.is_empty() && b"NCLZJ".contains(&leg.step) {
                    return Err((
                        leg.offset,
                        "a later leg of an oblique atom names its turn (l, r, s or b): it cannot go straight on".into(),
                    ));
                }
                let turned = legs[k - 1].step != leg.step;
                dirs = relative_dirs(&dirs, turned).map_err(|m| (leg.offset, m))?;
            }
            if k + 1 < end {
                // a leg passed through
                if legs[k + 1].rides != leg.rides {
                    if modality.contains('c') || modality.contains('d') {
                        return Err((
                            leg.offset,
                            "a capturing leg may not be followed by one that rides where it stepped, or steps where it rode"
                                .into(),
                        ));
                    }
                    modality = if modality.contains('p') { "g".into() } else { "y".into() };
                } else if !has_modality(&modality) {
                    modality = "m".into();
                }
                chain.push_str(&dirs);
                chain.push_str(&modality);
                chain.push('a');
            } else {
                chain.push_str(&dirs);
                chain.push_str(&modality);
            }
        }
        // the chain's atom is the first leg's, as a rider or a leaper
        match (legs[0].step, legs[0].rides) {
            (b'W', false) => chain.push('W'),
            (b'W', true) => chain.push('R'),
            (b'F', false) => chain.push('F'),
            (b'F', true) => chain.push('B'),
            (c, rides) => {
                chain.push(c as char);
                if rides {
                    chain.push(c as char);
                }
            }
        }
        chains.push(chain);
    }
    Ok(chains)
}

/// The directions of a later bracket leg, relative to the leg before, as
/// an `a`-chain writes them: none means straight on (`f`); where the atom
/// turns between orthogonal and diagonal, `f` and `b` mean their two 45°
/// neighbours (`fs`, `bs`).
fn relative_dirs(dirs: &str, turned: bool) -> Result<String, String> {
    let dirs = if dirs.is_empty() { "f" } else { dirs };
    let b = dirs.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        let pair = matches!(c, b'f' | b'b') && matches!(next, Some(b'l' | b'r' | b's'));
        let word = if pair { &dirs[i..i + 2] } else { &dirs[i..i + 1] };
        i += word.len();
        let written = match (turned, word) {
            (false, "f" | "b" | "l" | "r" | "s" | "v") => word.to_string(),
            (true, "f" | "b") => format!("{word}s"),
            (true, "v") => "fsbs".into(),
            (true, "fl" | "fr" | "fs" | "bl" | "br" | "bs") => word.to_string(),
            (false, _) => {
                return Err(format!(
                    "'{word}' turns by 45°, which a leg of the same kind of step as the one before cannot (write f, b, l, r, s or v)"
                ))
            }
            (true, _) => {
                return Err(format!(
                    "'{word}' turns by a multiple of 90°, which a leg that turns from orthogonal to diagonal or back cannot (write f, b, fl, fr, bl or br)"
                ))
            }
        };
        out.push_str(&written);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brief_examples_parse() {
        let lion = parse("KNADcaKmcabK").unwrap();
        // K, N, A, D direct (K = W + F) and two-leg caK, mcabK (each split into W and F)
        assert_eq!(lion.units.len(), 9);
        let two: Vec<_> = lion.units.iter().filter(|u| u.legs.len() == 2).collect();
        assert_eq!(two.len(), 4);
        assert!(two[0].legs[0].modality.captures && !two[0].legs[0].modality.moves);
        assert_eq!(two[2].legs[1].dirs, vec![DirWord { first: b'b', second: None }]);

        let pawn = parse("fmWfceFifmnD").unwrap();
        assert_eq!(pawn.units.len(), 3);
        assert!(pawn.units[1].legs[0].modality.en_passant);
        assert!(pawn.units[2].initial);

        let mao = parse("afsW").unwrap();
        assert_eq!(mao.units[0].legs.len(), 2);
        assert_eq!(mao.units[0].legs[1].dirs, vec![DirWord { first: b'f', second: Some(b's') }]);

        let elephant = parse("mafsmafW").unwrap();
        assert_eq!(elephant.units[0].legs.len(), 3);
        assert!(elephant.units[0].legs[1].modality.moves);
    }

    #[test]
    fn ranges() {
        assert_eq!(parse("W3").unwrap().units[0].range, Range::Limited(3));
        assert_eq!(parse("NN").unwrap().units[0].range, Range::Unlimited);
        assert_eq!(parse("N0").unwrap().units[0].range, Range::Unlimited);
        assert_eq!(parse("R4").unwrap().units[0].range, Range::Limited(4));
        assert_eq!(parse("(4,1)").unwrap().units[0].atom, Atom { a: 4, b: 1 });
        assert_eq!(parse("KNAD").unwrap().units.len(), 5);
    }

    #[test]
    fn bracket_groups_read_as_chains() {
        let strip = |text: &str| -> Vec<Unit> {
            let unplaced = |u: Unit| Unit {
                legs: u.legs.into_iter().map(|l| Leg { offset: 0, ..l }).collect(),
                text: String::new(),
                offset: 0,
                ..u
            };
            parse(text).unwrap().units.into_iter().map(unplaced).collect()
        };
        // the Griffon, the Manticore, the Xiangqi horse, a ride then a step
        assert_eq!(strip("[F?R]"), strip("FyafsF"));
        assert_eq!(strip("[W?B]"), strip("WyafsW"));
        assert_eq!(strip("[W-F]"), strip("mafsW"));
        assert_eq!(strip("[R-F]"), strip("yafsR"));
        assert_eq!(strip("[W-W?W]"), strip("mafWmafmafW"));
        assert_eq!(strip("[R-pR]"), strip("mafpR"));
        assert_eq!(strip("[W-pB]"), strip("yafspW"));
        assert_eq!(strip("[pW-B]"), strip("gafsW"));
        assert_eq!(strip("[F-bW]"), strip("mabsF"));
        assert_eq!(strip("[F-flW]"), strip("maflF"));
        assert_eq!(strip("[D-D]"), strip("mafD"));
        assert_eq!(strip("[D?DD]"), strip("DyafD"));
        assert_eq!(strip("[N-sN]"), strip("masN"));
        assert_eq!(strip("[NN-rN]"), strip("yarNN"));
        assert_eq!(strip("i[W-W]"), strip("imafW"));
        assert!(parse("i[W-W]").unwrap().units.iter().all(|u| u.initial));
        assert!(parse("[W-W]").unwrap().units.iter().all(|u| !u.initial));
        let k = parse("K[F?R]").unwrap();
        assert_eq!(k.units.len(), 4);
        assert_eq!((k.units[3].text.as_str(), k.units[3].offset), ("[F?R]", 1));
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse("fmWqX").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.to_string().contains("'X'"));
        assert!(parse("").is_err());
        assert!(parse("fm").is_err());
        assert!(parse("(1,").is_err());
        assert!(parse("W03").is_err());
        // `i` on a later leg is that leg's, not the unit's
        let u = &parse("masimR").unwrap().units[0];
        assert!(!u.initial && !u.legs[0].iso && u.legs[1].iso);
        let u = &parse("imasmR").unwrap().units[0];
        assert!(u.initial && !u.legs[1].iso);
        assert!(parse("(0,0)").is_err());
        assert!(parse("W#").is_err());
    }
}
