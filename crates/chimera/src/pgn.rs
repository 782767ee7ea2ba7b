//! PGN (Portable Game Notation), read and written for any variant.
//!
//! [`read_games`] reads a text of one or many games: the tag pairs (the
//! Seven Tag Roster and any others, kept in order), the `Variant` tag
//! (Fairy-Stockfish and pychess names in any case, and the obvious lichess
//! names: see [`variant_name`]), the `FEN` tag, and the movetext: moves in
//! the variant's notation as [`Position::parse_san`] reads it (SAN, LAN, the
//! shogi notations, WXF, the Janggi notation, Thai, or UCI text), move
//! numbers (`1.`, `1...`, read and not checked), comments (`{...}` and `;`
//! to the end of the line, kept with the move they follow), NAGs (`$1`, and
//! `!`, `?`, `!!`, `??`, `!?`, `?!` as `$1` to `$6`), variations `( ... )`
//! (kept, with the move they replace; their moves are checked too), lines
//! starting with `%` (skipped) and the result (`1-0`, `0-1`, `1/2-1/2`,
//! `*`). [`Game::to_pgn`] writes a game back: the Seven Tag Roster first,
//! then the other tags, then the movetext in the variant's default notation,
//! wrapped at 80 columns.
//!
//! Limits, so that no input makes the reader run away: at most
//! [`MAX_INPUT`] bytes of text, [`MAX_MOVES`] moves per game (counting the
//! moves of the variations) and variations nested at most [`MAX_DEPTH`]
//! deep. Errors ([`PgnError`]) name the game, the line and the token, and an
//! illegal move also the move number, the side and the position.
//!
//! ```
//! use chimera::pgn;
//! let text = r#"[Event "Example"]
//! [Variant "Xiangqi"]
//!
//! 1. Che3 {central cannon} Hg8 (1... Che8) 2. Hg3 $1 *"#;
//! let games = pgn::read_games(text).unwrap();
//! let g = &games[0];
//! assert_eq!(g.variant.name(), "xiangqi");
//! assert_eq!(g.uci_moves(), ["h3e3", "h10g8", "h1g3"]);
//! assert_eq!(g.moves()[0].comments, ["central cannon"]);
//! assert_eq!(g.moves()[1].variations[0].moves[0].san, "Che8");
//! // written and read back: the same moves and tags
//! let again = pgn::read_games(&g.to_pgn()).unwrap();
//! assert_eq!(again[0].uci_moves(), g.uci_moves());
//! assert_eq!(again[0].tag("Variant"), Some("Xiangqi"));
//! ```

use crate::builtin;
use crate::moves::Move;
use crate::position::Position;
use crate::san::Notation;
use crate::square::Color;
use crate::variant::Variant;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// The most bytes of PGN text [`read_games`] reads (16 MiB).
pub const MAX_INPUT: usize = 16 << 20;
/// The most moves one game may have, the moves of its variations included.
pub const MAX_MOVES: usize = 20_000;
/// The deepest nesting of variations: `1. e4 (1. d4 (1. c4))` nests 2 deep.
pub const MAX_DEPTH: usize = 64;
/// The width [`Game::to_pgn`] wraps the movetext at.
pub const LINE_WIDTH: usize = 80;

/// The Seven Tag Roster, in the order PGN writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The result of a game, as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl Outcome {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Reads a result token; `None` if the text is none.
    ///
    /// ```
    /// use chimera::pgn::Outcome;
    /// assert_eq!(Outcome::parse("1/2-1/2"), Some(Outcome::Draw));
    /// assert_eq!(Outcome::parse("2-0"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Outcome> {
        Some(match s {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "1/2-1/2" => Outcome::Draw,
            "*" => Outcome::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One move of a game or a variation, with its annotations.
#[derive(Clone, Debug)]
pub struct PgnMove {
    /// The move.
    pub mv: Move,
    /// The move as it was written in the text read (without `!`/`?`
    /// suffixes), or, for a move added by [`Game::push`], in the variant's
    /// default notation.
    pub san: String,
    /// The move in Fairy-Stockfish's UCI notation.
    pub uci: String,
    /// Numeric annotation glyphs (`$1` is 1; `!` is read as 1, `?` as 2,
    /// `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// The comments after the move, in order, without their braces; runs of
    /// white space in them are read as one space.
    pub comments: Vec<String>,
    /// The variations: each an alternative to this move, played from the
    /// position before it.
    pub variations: Vec<Line>,
}

/// A line of moves: the main line of a game, or a variation.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// The comments before the first move.
    pub comments: Vec<String>,
    /// The moves, one after the other.
    pub moves: Vec<PgnMove>,
}

/// A game: its tags, variant, start position, moves and result.
#[derive(Clone, Debug)]
pub struct Game {
    /// The tag pairs, in the order read (or set).
    pub tags: Vec<(String, String)>,
    /// The variant played.
    pub variant: Arc<Variant>,
    /// The start position (the `FEN` tag's, else the variant's).
    pub start: Position,
    /// The main line.
    pub line: Line,
    /// The result token (the `Result` tag's if the movetext has none).
    pub result: Outcome,
}

impl Game {
    /// A game without moves from `start`, with the Seven Tag Roster's tags
    /// unknown (`?`), a `Variant` tag and, if `start` is not the variant's
    /// start position, `SetUp` and `FEN` tags.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, pgn::{self, Game, Outcome}, position::Position};
    /// let v = Arc::new(builtin::variant("shogi").unwrap());
    /// let mut g = Game::new(Position::start(v));
    /// g.push_uci("c3c4").unwrap();
    /// g.push_uci("g7g6").unwrap();
    /// g.set_tag("White", "Sente");
    /// g.result = Outcome::Unknown;
    /// let text = g.to_pgn();
    /// assert!(text.contains("[Variant \"shogi\"]"));
    /// assert!(text.contains("1. P-76 P-34 *"));
    /// assert_eq!(pgn::read_games(&text).unwrap()[0].uci_moves(), ["c3c4", "g7g6"]);
    /// ```
    pub fn new(start: Position) -> Game {
        let variant = start.variant().clone();
        let mut tags: Vec<(String, String)> = SEVEN_TAG_ROSTER
            .iter()
            .map(|&t| {
                let v = match t {
                    "Date" => "????.??.??",
                    "Result" => "*",
                    _ => "?",
                };
                (t.to_string(), v.to_string())
            })
            .collect();
        tags.push(("Variant".into(), variant.name().to_string()));
        if start.fen() != Position::start(variant.clone()).fen() {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), start.fen()));
        }
        Game { tags, variant, start, line: Line::default(), result: Outcome::Unknown }
    }

    /// The value of the first tag named `name` (exactly), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`: the first tag of that name if there is
    /// one, else a new tag at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The moves of the main line.
    pub fn moves(&self) -> &[PgnMove] {
        &self.line.moves
    }

    /// The main line's moves in Fairy-Stockfish's UCI notation.
    pub fn uci_moves(&self) -> Vec<String> {
        self.line.moves.iter().map(|m| m.uci.clone()).collect()
    }

    /// The position after the main line.
    pub fn final_position(&self) -> Position {
        let mut p = self.start.clone();
        for m in &self.line.moves {
            p.make(m.mv);
        }
        p
    }

    /// Adds `m` at the end of the main line; it must be legal there.
    pub fn push(&mut self, m: Move) -> Result<(), String> {
        let mut p = self.final_position();
        if !p.legal_moves().contains(&m) {
            return Err(format!("'{}' is not a legal move in {}", p.move_text(m), p.fen()));
        }
        self.line.moves.push(PgnMove {
            mv: m,
            san: p.san(m, Notation::Default),
            uci: p.move_text(m),
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        });
        Ok(())
    }

    /// Adds a move written in UCI text (or in the variant's notation) at the
    /// end of the main line.
    pub fn push_uci(&mut self, text: &str) -> Result<(), String> {
        let mut p = self.final_position();
        let m = read_move(&mut p, text)?;
        self.push(m)
    }

    /// The game as PGN text, the moves in the variant's default notation
    /// ([`Notation::default_for`]); see [`Game::to_pgn_with`].
    pub fn to_pgn(&self) -> String {
        self.to_pgn_with(Notation::Default)
    }

    /// The game as PGN text, moves in notation `n`: the Seven Tag Roster
    /// (`?` for a missing tag, `Result` the game's result), the other tags in
    /// order, a blank line, the movetext wrapped at [`LINE_WIDTH`] columns
    /// with comments, NAGs and variations, the result, and a blank line. A
    /// comment holding `}` is written as a `;` comment.
    pub fn to_pgn_with(&self, n: Notation) -> String {
        let mut s = String::new();
        for &t in &SEVEN_TAG_ROSTER {
            let v = if t == "Result" {
                self.result.as_str().to_string()
            } else {
                self.tag(t).map(str::to_string).unwrap_or_else(|| if t == "Date" { "????.??.??" } else { "?" }.into())
            };
            write_tag(&mut s, t, &v);
        }
        for (name, value) in &self.tags {
            if !SEVEN_TAG_ROSTER.contains(&name.as_str()) {
                write_tag(&mut s, name, value);
            }
        }
        s.push('\n');
        let mut units = Units::default();
        write_line(&self.line, Box::new(self.start.clone()), n, &mut units);
        units.push(self.result.as_str());
        let mut row = String::new();
        let mut width = 0;
        for (text, break_after) in units.list {
            let w = text.chars().count();
            if width > 0 && width + 1 + w > LINE_WIDTH {
                s.push_str(&row);
                s.push('\n');
                row.clear();
                width = 0;
            }
            if width > 0 {
                row.push(' ');
                width += 1;
            }
            row.push_str(&text);
            width += w;
            if break_after {
                s.push_str(&row);
                s.push('\n');
                row.clear();
                width = 0;
            }
        }
        if !row.is_empty() {
            s.push_str(&row);
            s.push('\n');
        }
        s.push('\n');
        s
    }
}

/// Writes one tag pair line, escaping `\` and `"`.
fn write_tag(s: &mut String, name: &str, value: &str) {
    s.push('[');
    s.push_str(name);
    s.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' | '\t' => s.push(' '),
            _ => s.push(c),
        }
    }
    s.push_str("\"]\n");
}

/// The movetext as units that the line wrapper may not split: the text and
/// whether a line break must follow (after a `;` comment).
#[derive(Default)]
struct Units {
    list: Vec<(String, bool)>,
    /// The next unit is glued to the last one (after `(`).
    glue: bool,
}

impl Units {
    fn push(&mut self, t: &str) {
        match self.list.last_mut() {
            Some(last) if self.glue => last.0.push_str(t),
            _ => self.list.push((t.to_string(), false)),
        }
        self.glue = false;
    }

    fn open(&mut self) {
        self.push("(");
        self.glue = true;
    }

    fn close(&mut self) {
        match self.list.last_mut() {
            Some(last) if !last.1 => last.0.push(')'),
            _ => self.list.push((")".into(), false)),
        }
        self.glue = false;
    }

    fn comment(&mut self, c: &str) {
        if c.contains('}') {
            self.push(&format!(";{c}"));
            if let Some(last) = self.list.last_mut() {
                last.1 = true;
            }
            return;
        }
        let words: Vec<&str> = c.split_whitespace().collect();
        if words.is_empty() {
            self.push("{}");
            return;
        }
        for (i, w) in words.iter().enumerate() {
            let mut t = String::new();
            if i == 0 {
                t.push('{');
            }
            t.push_str(w);
            if i + 1 == words.len() {
                t.push('}');
            }
            self.push(&t);
        }
    }
}

/// The full-move number and the side to move of a position (from its FEN).
fn move_number(p: &Position) -> (u32, Color) {
    let n = p.fen().split_whitespace().last().and_then(|f| f.parse::<u32>().ok()).unwrap_or(1).max(1);
    (n, p.side_to_move())
}

// positions are boxed: a variation nested MAX_DEPTH deep keeps one pointer a
// level on the stack, not a position (several kilobytes on large boards)
fn write_line(line: &Line, mut pos: Box<Position>, n: Notation, out: &mut Units) {
    for c in &line.comments {
        out.comment(c);
    }
    let mut need_number = true;
    for m in &line.moves {
        let (num, side) = move_number(&pos);
        // a move number and its move are one unit: no line break between them
        let san = pos.san(m.mv, n);
        if side == Color::White {
            out.push(&format!("{num}. {san}"));
        } else if need_number {
            out.push(&format!("{num}... {san}"));
        } else {
            out.push(&san);
        }
        for g in &m.nags {
            out.push(&format!("${g}"));
        }
        for c in &m.comments {
            out.comment(c);
        }
        for v in &m.variations {
            out.open();
            write_line(v, pos.clone(), n, out);
            out.close();
        }
        need_number = !m.comments.is_empty() || !m.variations.is_empty();
        pos.make(m.mv);
    }
}

/// What is wrong with a PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The text is longer than [`MAX_INPUT`] bytes (its length).
    TooLarge(usize),
    /// The text does not follow PGN's syntax (what is wrong).
    Syntax(String),
    /// The `Variant` tag names no variant known (the reader's message).
    UnknownVariant(String),
    /// The `FEN` tag is not a position of the variant (the FEN reader's message).
    BadFen(String),
    /// A move is not legal, or not a move.
    IllegalMove {
        /// The full-move number.
        number: u32,
        /// The side that was to move.
        side: Color,
        /// The position, as a FEN.
        fen: String,
        /// Why the text is no move there.
        reason: String,
    },
    /// The game has more than [`MAX_MOVES`] moves.
    TooManyMoves,
    /// Variations are nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

/// An error reading PGN: the game (from 1), the line (from 1) and the token
/// it is at, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the text, from 1 (0 for an error about the
    /// whole text).
    pub game: usize,
    /// The line of the text, from 1 (0 for an error about the whole text).
    pub line: usize,
    /// The offending token (empty if there is none, as at the end of the text).
    pub token: String,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.game > 0 {
            write!(f, "game {}, line {}", self.game, self.line)?;
            if !self.token.is_empty() {
                write!(f, ", '{}'", self.token)?;
            }
            write!(f, ": ")?;
        }
        match &self.kind {
            PgnErrorKind::TooLarge(n) => write!(f, "the text is {n} bytes, more than the {MAX_INPUT} read"),
            PgnErrorKind::Syntax(m) => write!(f, "{m}"),
            PgnErrorKind::UnknownVariant(m) => write!(f, "Variant tag: {m}"),
            PgnErrorKind::BadFen(m) => write!(f, "FEN tag: {m}"),
            PgnErrorKind::IllegalMove { number, side, fen, reason } => {
                let (dots, who) = if *side == Color::White { (".", "White") } else { ("...", "Black") };
                write!(f, "illegal move at {number}{dots} ({who} to move) in {fen}: {reason}")
            }
            PgnErrorKind::TooManyMoves => write!(f, "more than {MAX_MOVES} moves in one game"),
            PgnErrorKind::TooDeep => write!(f, "variations nested more than {MAX_DEPTH} deep"),
        }
    }
}

impl std::error::Error for PgnError {}

/// The built-in variant a `Variant` tag names: Fairy-Stockfish and pychess
/// names in any case (`Xiangqi`, `crazyhouse`, `shogi`), and lichess's
/// names (`Standard`, `From Position`, `Chess960`, `Three-check`, `King of
/// the Hill`). Spaces, `-` and `_` are ignored. `None` if no built-in
/// variant has that name.
///
/// ```
/// use chimera::pgn::variant_name;
/// assert_eq!(variant_name("Chess960"), Some("fischerandom"));
/// assert_eq!(variant_name("Three-check"), Some("3check"));
/// assert_eq!(variant_name("King of the Hill"), Some("kingofthehill"));
/// assert_eq!(variant_name("XiangQi"), Some("xiangqi"));
/// assert_eq!(variant_name("nonesuch"), None);
/// ```
pub fn variant_name(tag: &str) -> Option<&'static str> {
    let key: String = tag.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).map(|c| c.to_ascii_lowercase()).collect();
    let alias = match key.as_str() {
        "" | "standard" | "normal" | "fromposition" | "chess" => "chess",
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "freestyle" => "fischerandom",
        "threecheck" | "3check" => "3check",
        "fivecheck" | "5check" => "5check",
        "koth" | "kingofthehill" => "kingofthehill",
        other => other,
    };
    builtin::names().into_iter().find(|n| n.eq_ignore_ascii_case(alias))
}

/// How [`read_games_with`] finds a game's variant: given the `Variant`
/// tag's value (`None` if the game has none), the variant or a message.
pub type VariantLookup<'a> = dyn FnMut(Option<&str>) -> Result<Arc<Variant>, String> + 'a;

/// Reads every game of a PGN text (see the module's documentation), the
/// variants by [`variant_name`] (chess when a game has no `Variant` tag).
/// The first error ends the reading; [`read_games_each`] reads on.
///
/// ```
/// use chimera::pgn::{self, PgnErrorKind};
/// let e = pgn::read_games("1. e4 e5\n2. Ke3 *").unwrap_err();
/// assert_eq!((e.game, e.line, e.token.as_str()), (1, 2, "Ke3"));
/// assert!(matches!(e.kind, PgnErrorKind::IllegalMove { number: 2, .. }));
/// ```
pub fn read_games(text: &str) -> Result<Vec<Game>, PgnError> {
    read_games_each(text).into_iter().collect()
}

/// Reads every game of a PGN text, each to a game or to its error: a game
/// with an error does not stop the reading of the next games. An input
/// longer than [`MAX_INPUT`] is one error (game 0).
pub fn read_games_each(text: &str) -> Vec<Result<Game, PgnError>> {
    let mut cache: HashMap<&'static str, Arc<Variant>> = HashMap::new();
    let mut lookup = |tag: Option<&str>| -> Result<Arc<Variant>, String> {
        let name = match tag {
            None => "chess",
            Some(t) => variant_name(t).ok_or_else(|| builtin::LookupError::Unknown(t.to_string()).to_string())?,
        };
        if let Some(v) = cache.get(name) {
            return Ok(v.clone());
        }
        let v = Arc::new(builtin::variant(name).map_err(|e| e.to_string())?);
        cache.insert(name, v.clone());
        Ok(v)
    };
    read_games_with(text, &mut lookup)
}

/// [`read_games_each`] with the variants found by `lookup` (for variants
/// defined in a user's file).
pub fn read_games_with(text: &str, lookup: &mut VariantLookup<'_>) -> Vec<Result<Game, PgnError>> {
    if text.len() > MAX_INPUT {
        return vec![Err(PgnError {
            game: 0,
            line: 0,
            token: String::new(),
            kind: PgnErrorKind::TooLarge(text.len()),
        })];
    }
    split_games(&lex(text)).into_iter().enumerate().map(|(i, toks)| read_game(i + 1, toks, lookup)).collect()
}

/// A token of PGN text.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Tag(String, String),
    Comment(String),
    Nag(u8),
    Open,
    Close,
    Result(Outcome),
    Number,
    /// A move: the token's text.
    Move,
    /// A syntax error (what is wrong).
    Bad(String),
}

/// A token with its line and its text (borrowed from the text read).
#[derive(Clone, Debug)]
struct Token<'a> {
    tok: Tok,
    line: usize,
    text: &'a str,
}

/// The NAG of a `!`/`?` suffix.
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Collapses runs of white space to one space and trims.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits a text into tokens. Never fails: what is not PGN becomes a
/// [`Tok::Bad`] token.
fn lex<'a>(text: &'a str) -> Vec<Token<'a>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let is_delim = |c: u8| c.is_ascii_whitespace() || b"{}()[];$\"!?".contains(&c);
    while i < b.len() {
        let c = b[i];
        let at_line_start = i == 0 || b[i - 1] == b'\n';
        let start_line = line;
        let push = |out: &mut Vec<Token<'a>>, tok: Tok, s: &'a str| out.push(Token { tok, line: start_line, text: s });
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b'%' if at_line_start => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => match text[i + 1..].find('}') {
                Some(end) => {
                    let body = &text[i + 1..i + 1 + end];
                    line += body.matches('\n').count();
                    push(&mut out, Tok::Comment(squeeze(body)), "{");
                    i += end + 2;
                }
                None => {
                    push(&mut out, Tok::Bad("a comment '{' is not closed by '}'".into()), "{");
                    i = b.len();
                }
            },
            b';' => {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                push(&mut out, Tok::Comment(squeeze(&text[i + 1..end])), ";");
                i = end;
            }
            b'(' => {
                push(&mut out, Tok::Open, "(");
                i += 1;
            }
            b')' => {
                push(&mut out, Tok::Close, ")");
                i += 1;
            }
            b'[' => {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                let (tok, used) = lex_tag(&text[i..end]);
                push(&mut out, tok, text[i..i + used].trim_end());
                i += used;
            }
            b'$' => {
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let t = &text[i..j];
                match t[1..].parse::<u8>() {
                    Ok(n) => push(&mut out, Tok::Nag(n), t),
                    Err(_) => push(&mut out, Tok::Bad("a NAG is '$' and a number from 0 to 255".into()), t),
                }
                i = j;
            }
            b'!' | b'?' => {
                let mut j = i;
                while j < b.len() && matches!(b[j], b'!' | b'?') {
                    j += 1;
                }
                let t = &text[i..j];
                match suffix_nag(t) {
                    Some(n) => push(&mut out, Tok::Nag(n), t),
                    None => push(&mut out, Tok::Bad("not an annotation (!, ?, !!, ??, !?, ?!)".into()), t),
                }
                i = j;
            }
            b'"' | b']' | b'}' => {
                push(&mut out, Tok::Bad(format!("unexpected '{}'", c as char)), &text[i..i + 1]);
                i += 1;
            }
            _ => {
                // a move number: digits and dots ("1.", "12...", also "1.e4")
                let mut j = i;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if j > i && j < b.len() && b[j] == b'.' {
                    while j < b.len() && b[j] == b'.' {
                        j += 1;
                    }
                    push(&mut out, Tok::Number, &text[i..j]);
                    i = j;
                    continue;
                }
                let mut j = i;
                while j < b.len() && !is_delim(b[j]) {
                    j += 1;
                }
                let t = &text[i..j];
                let tok = if let Some(r) = Outcome::parse(t) {
                    Tok::Result(r)
                } else if t.bytes().all(|d| d.is_ascii_digit()) {
                    Tok::Number
                } else {
                    Tok::Move
                };
                push(&mut out, tok, t);
                i = j;
            }
        }
    }
    out
}

/// Reads a tag pair `[Name "value"]` at the start of `s` (one line); the
/// token and the bytes used.
fn lex_tag(s: &str) -> (Tok, usize) {
    let b = s.as_bytes();
    let bad = |m: &str| (Tok::Bad(format!("tag pair: {m}")), s.len());
    let mut i = 1;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let name_start = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    let name = &s[name_start..i];
    if name.is_empty() {
        return bad("a tag name (letters, digits, '_') must follow '['");
    }
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i >= b.len() || b[i] != b'"' {
        return bad("the value must be in double quotes");
    }
    i += 1;
    let mut value = String::new();
    loop {
        let Some(c) = s[i..].chars().next() else {
            return bad("the value's closing '\"' is missing");
        };
        i += c.len_utf8();
        match c {
            '"' => break,
            '\\' => match s[i..].chars().next() {
                Some(e @ ('\\' | '"')) => {
                    value.push(e);
                    i += 1;
                }
                _ => value.push('\\'),
            },
            _ => value.push(c),
        }
    }
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i >= b.len() || b[i] != b']' {
        return bad("']' must close it");
    }
    (Tok::Tag(name.to_string(), value), i + 1)
}

/// Splits the tokens into games: a game ends with its result token (outside
/// variations), or where a tag follows movetext. Tokens of only comments
/// (after the last game) are no game.
fn split_games<'t>(tokens: &'t [Token<'t>]) -> Vec<&'t [Token<'t>]> {
    let mut games = Vec::new();
    let (mut start, mut depth, mut movetext) = (0, 0usize, false);
    for (i, t) in tokens.iter().enumerate() {
        match &t.tok {
            Tok::Tag(..) if movetext => {
                games.push(&tokens[start..i]);
                (start, depth, movetext) = (i, 0, false);
            }
            Tok::Result(_) if depth == 0 => {
                games.push(&tokens[start..=i]);
                (start, depth, movetext) = (i + 1, 0, false);
            }
            Tok::Open => {
                depth += 1;
                movetext = true;
            }
            Tok::Close => {
                depth = depth.saturating_sub(1);
                movetext = true;
            }
            Tok::Comment(_) | Tok::Tag(..) => {}
            _ => movetext = true,
        }
    }
    let rest = &tokens[start..];
    if rest.iter().any(|t| !matches!(t.tok, Tok::Comment(_))) {
        games.push(rest);
    }
    games
}

/// Reads a move as PGN writes it: the variant's notation (SAN, LAN, the
/// shogi notations, Thai, UCI), then WXF and the Janggi notation. On failure,
/// the message of the variant's notation.
fn read_move(pos: &mut Position, text: &str) -> Result<Move, String> {
    // the common case first: the text is exactly the move as the variant's
    // notation writes it (one pass over the legal moves)
    let n = Notation::default_for(pos.variant());
    if let Some((m, _)) = pos.san_all(n).into_iter().find(|(_, s)| s == text) {
        return Ok(m);
    }
    match pos.parse_san(text, Notation::Default) {
        Ok(m) => Ok(m),
        Err(e) => {
            for n in [Notation::XiangqiWxf, Notation::Janggi] {
                if let Ok(m) = pos.parse_san(text, n) {
                    return Ok(m);
                }
            }
            if let Ok(m) = pos.parse_move(text) {
                return Ok(m);
            }
            let why = match e.kind {
                crate::san::SanErrorKind::Empty => "empty move".to_string(),
                crate::san::SanErrorKind::UnknownPiece(c) => format!("no piece of this variant is written '{c}'"),
                crate::san::SanErrorKind::NoSuchMove => "no legal move is written so".to_string(),
                crate::san::SanErrorKind::Ambiguous(c) => format!("ambiguous: it could be {}", c.join(", ")),
                crate::san::SanErrorKind::BadMove(m) => m,
            };
            Err(why)
        }
    }
}

/// The state of reading one game's movetext.
struct Reader<'t> {
    tokens: &'t [Token<'t>],
    i: usize,
    game: usize,
    moves: usize,
}

impl Reader<'_> {
    fn err(&self, t: Option<&Token>, kind: PgnErrorKind) -> PgnError {
        let (line, token) = match t {
            Some(t) => (t.line, t.text.to_string()),
            None => (self.tokens.last().map_or(1, |t| t.line), String::new()),
        };
        PgnError { game: self.game, line, token, kind }
    }

    /// Reads a line from `pos` up to its end: `)` for a variation (eaten),
    /// the result token or the end of the tokens for the main line (not
    /// eaten).
    /// The positions are boxed, as in `write_line`.
    fn line(&mut self, mut pos: Box<Position>, depth: usize) -> Result<Line, PgnError> {
        let mut line = Line::default();
        let mut before: Option<Box<Position>> = None;
        while let Some(t) = self.tokens.get(self.i) {
            match &t.tok {
                Tok::Comment(c) => match line.moves.last_mut() {
                    Some(m) => m.comments.push(c.clone()),
                    None => line.comments.push(c.clone()),
                },
                Tok::Nag(n) => match line.moves.last_mut() {
                    Some(m) => m.nags.push(*n),
                    None => return Err(self.err(Some(t), PgnErrorKind::Syntax("an annotation before any move".into()))),
                },
                Tok::Number => {}
                Tok::Move => {
                    let s = t.text;
                    if self.moves >= MAX_MOVES {
                        return Err(self.err(Some(t), PgnErrorKind::TooManyMoves));
                    }
                    let m = read_move(&mut pos, s).map_err(|reason| {
                        let (number, side) = move_number(&pos);
                        self.err(Some(t), PgnErrorKind::IllegalMove { number, side, fen: pos.fen(), reason })
                    })?;
                    self.moves += 1;
                    let uci = pos.move_text(m);
                    before = Some(pos.clone());
                    pos.make(m);
                    line.moves.push(PgnMove {
                        mv: m,
                        san: s.to_string(),
                        uci,
                        nags: Vec::new(),
                        comments: Vec::new(),
                        variations: Vec::new(),
                    });
                }
                Tok::Open => {
                    if depth >= MAX_DEPTH {
                        return Err(self.err(Some(t), PgnErrorKind::TooDeep));
                    }
                    let Some(b) = before.clone() else {
                        return Err(self.err(Some(t), PgnErrorKind::Syntax("a variation before any move".into())));
                    };
                    self.i += 1;
                    let v = self.line(b, depth + 1)?;
                    if let Some(m) = line.moves.last_mut() {
                        m.variations.push(v);
                    }
                    continue;
                }
                Tok::Close => {
                    if depth == 0 {
                        return Err(self.err(Some(t), PgnErrorKind::Syntax("')' without '('".into())));
                    }
                    self.i += 1;
                    return Ok(line);
                }
                Tok::Result(_) => {
                    if depth > 0 {
                        return Err(self.err(Some(t), PgnErrorKind::Syntax("the result inside a variation".into())));
                    }
                    return Ok(line);
                }
                Tok::Tag(..) => {
                    return Err(self.err(Some(t), PgnErrorKind::Syntax("a tag pair inside the movetext".into())))
                }
                Tok::Bad(m) => return Err(self.err(Some(t), PgnErrorKind::Syntax(m.clone()))),
            }
            self.i += 1;
        }
        if depth > 0 {
            return Err(self.err(None, PgnErrorKind::Syntax("a variation '(' is not closed by ')'".into())));
        }
        Ok(line)
    }
}

/// Reads one game's tokens.
fn read_game(game: usize, tokens: &[Token<'_>], lookup: &mut VariantLookup<'_>) -> Result<Game, PgnError> {
    let mut r = Reader { tokens, i: 0, game, moves: 0 };
    let mut tags = Vec::new();
    let mut lead = Vec::new();
    while let Some(t) = tokens.get(r.i) {
        match &t.tok {
            Tok::Tag(n, v) => tags.push((n.clone(), v.clone())),
            Tok::Comment(c) => lead.push(c.clone()),
            _ => break,
        }
        r.i += 1;
    }
    let find = |name: &str| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
    let tag_token =
        |name: &str| tokens.iter().find(|t| matches!(&t.tok, Tok::Tag(n, _) if n.eq_ignore_ascii_case(name)));
    let variant = lookup(find("Variant")).map_err(|m| r.err(tag_token("Variant"), PgnErrorKind::UnknownVariant(m)))?;
    let start = match find("FEN") {
        Some(f) => Position::from_fen(variant.clone(), f)
            .map_err(|e| r.err(tag_token("FEN"), PgnErrorKind::BadFen(e.to_string())))?,
        None => Position::start(variant.clone()),
    };
    let mut line = r.line(Box::new(start.clone()), 0)?;
    lead.append(&mut line.comments);
    line.comments = lead;
    let result = match tokens.get(r.i).map(|t| &t.tok) {
        Some(Tok::Result(o)) => *o,
        _ => find("Result").and_then(Outcome::parse).unwrap_or(Outcome::Unknown),
    };
    Ok(Game { tags, variant, start, line, result })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Arc<Variant> {
        Arc::new(builtin::variant("chess").unwrap())
    }

    #[test]
    fn reads_tags_moves_comments_nags_and_result() {
        let text = "[Event \"Casual \\\"game\\\"\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"1\"]\n\
                    [White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Opening \"Scholar\"]\n\n\
                    {start} 1. e4 e5 2. Bc4!? Nc6 ; a comment to the end of the line\n\
                    3. Qh5 Nf6?? $4 4. Qxf7# 1-0\n";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Casual \"game\""));
        assert_eq!(g.tags.len(), 8);
        assert_eq!(g.tags[7], ("Opening".to_string(), "Scholar".to_string()));
        assert_eq!(g.result, Outcome::WhiteWins);
        assert_eq!(g.uci_moves(), ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]);
        assert_eq!(g.line.comments, ["start"]);
        assert_eq!(g.moves()[2].nags, [5]);
        assert_eq!(g.moves()[3].comments, ["a comment to the end of the line"]);
        assert_eq!(g.moves()[5].nags, [4, 4]);
        assert_eq!(g.final_position().fen(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
    }

    #[test]
    fn round_trip_keeps_moves_tags_comments_and_variations() {
        let text = "[Event \"E\"]\n[Variant \"crazyhouse\"]\n[Annotator \"me\"]\n\n\
                    1. e4 {a long comment that goes on and on and on, for more than eighty columns of text, to wrap} \
                    d5 (1... e5 2. Nf3 (2. d4 exd4) Nc6) (1... c5) 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 \
                    Nf6 5. Nf3 Bg4 6. Be2 e6 7. O-O Bxf3 8. Bxf3 c6 9. Be3 N@h3+ *";
        let g = read_games(text).unwrap().remove(0);
        assert_eq!(g.moves()[1].variations.len(), 2);
        assert_eq!(g.moves()[1].variations[0].moves[1].variations[0].moves.len(), 2);
        let out = g.to_pgn();
        for l in out.lines() {
            assert!(l.chars().count() <= LINE_WIDTH, "{l}");
        }
        assert!(out.contains("1... d5 (1... e5 2. Nf3 (2. d4 exd4) 2... Nc6) (1... c5)\n2. exd5"), "{out}");
        let h = read_games(&out).unwrap().remove(0);
        assert_eq!(h.uci_moves(), g.uci_moves());
        assert_eq!(h.moves()[0].comments, g.moves()[0].comments);
        assert_eq!(h.moves()[1].variations[0].moves.len(), 3);
        assert_eq!(h.tag("Annotator"), Some("me"));
        assert_eq!(h.tag("Variant"), Some("crazyhouse"));
        assert_eq!(h.to_pgn(), out);
        assert!(h.moves().last().unwrap().uci == "N@h3");
    }

    #[test]
    fn many_games_and_setups() {
        let text =
            "[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n\
                    9. g3 cxb2 *\n\n[Event \"second\"]\n\n1. d4 1/2-1/2\n\n{trailing comment}\n";
        let gs = read_games_each(text);
        assert_eq!(gs.len(), 2);
        let e = gs[0].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.token.as_str()), (1, 4, "cxb2"));
        assert!(e.to_string().contains("9... (Black to move)"), "{e}");
        let g2 = gs[1].as_ref().unwrap();
        assert_eq!(g2.result, Outcome::Draw);
        assert_eq!(g2.tag("Event"), Some("second"));
        let g = read_games("[Variant \"fischerandom\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n9. g3 Ne7 *")
            .unwrap()
            .remove(0);
        assert_eq!(g.variant.name(), "fischerandom");
        assert!(g.to_pgn().contains("9. g3 Ne7 *"));
        // black to move first
        let mut start = Position::start(chess());
        let m = start.parse_move("e2e4").unwrap();
        start.make(m);
        let mut g = Game::new(start);
        g.push_uci("c7c5").unwrap();
        let text = g.to_pgn();
        assert!(text.contains("[SetUp \"1\"]") && text.contains("\n1... c5 *\n"), "{text}");
        assert_eq!(read_games(&text).unwrap()[0].uci_moves(), ["c7c5"]);
    }

    #[test]
    fn errors_name_game_line_and_token() {
        let e = |t: &str| read_games(t).unwrap_err();
        assert!(matches!(e("[Variant \"nonesuch\"]\n1. e4 *").kind, PgnErrorKind::UnknownVariant(_)));
        assert!(matches!(e("[FEN \"8/8 w - - 0 1\"]\n*").kind, PgnErrorKind::BadFen(_)));
        assert!(matches!(e("1. e4 {open").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("1. e4 (1. d4").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("1. e4 ) *").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("( 1. e4 ) *").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("1. e4 (1. d4 *) *").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("[Event \"x]\n1. e4 *").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("1. e4 $999 *").kind, PgnErrorKind::Syntax(_)));
        assert!(matches!(e("1. e4 !!! *").kind, PgnErrorKind::Syntax(_)));
        let x = e("[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Bb5 *");
        assert_eq!((x.game, x.line, x.token.as_str()), (2, 6, "Bb5"));
        assert_eq!(
            x.to_string(),
            "game 2, line 6, 'Bb5': illegal move at 3... (Black to move) in \
             r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3: no legal move is written so"
        );
        let deep = format!("1. e4 {}1... d5{} *", "(1. d4 ".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
        assert_eq!(e(&deep).kind, PgnErrorKind::TooDeep);
        let ok = format!("1. e4 {}1... d5{} *", "(1. d4 ".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert!(read_games(&ok).is_ok());
        let many = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(MAX_MOVES / 4 + 1);
        assert_eq!(e(&many).kind, PgnErrorKind::TooManyMoves);
        let big = " ".repeat(MAX_INPUT + 1);
        assert_eq!(read_games_each(&big)[0].as_ref().unwrap_err().kind, PgnErrorKind::TooLarge(MAX_INPUT + 1));
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        for t in [
            "",
            "[",
            "[]",
            "[A",
            "[A \"",
            "[A \"\\",
            "]",
            "}",
            "\"",
            "$",
            "1.",
            "1...",
            "((",
            "))",
            "%x\n*",
            "ä ö",
            "[A \"é\"] ☃",
            "1.e4 e5",
            "1. e4 ; x",
            "\u{0e01}\u{0e02}",
        ] {
            let _ = read_games_each(t);
        }
        assert_eq!(read_games("%escape line\n1.e4 e5 *").unwrap()[0].uci_moves(), ["e2e4", "e7e5"]);
        assert!(read_games("").unwrap().is_empty());
    }

    #[test]
    fn uci_fallback_and_other_notations() {
        let g = read_games("[Variant \"janggi\"]\n\n1. a1a2 a10a9 2. Ra3 *").unwrap().remove(0);
        assert_eq!(g.uci_moves(), ["a1a2", "a10a9", "a2a3"]);
        let g = read_games("[Variant \"xiangqi\"]\n\n1. C2=5 H8+7 *").unwrap().remove(0);
        assert_eq!(g.uci_moves(), ["h3e3", "h10g8"]);
        let g = read_games("[Variant \"Shogi\"]\n\n1. P-7f P-3d 2. Bx2b+ Sx2b 3. B*4e *").unwrap().remove(0);
        assert_eq!(g.moves().len(), 5);
        let text = g.to_pgn();
        assert!(text.contains("1. P-76 P-34 2. Bx22+ Sx22 3. B*45"), "{text}");
    }

    #[test]
    fn brace_in_a_semicolon_comment_is_written_as_one() {
        let g = read_games("1. e4 ; a } here\ne5 *").unwrap().remove(0);
        assert_eq!(g.moves()[0].comments, ["a } here"]);
        let out = g.to_pgn();
        assert!(out.contains(";a } here\n"), "{out}");
        let h = read_games(&out).unwrap().remove(0);
        assert_eq!(h.moves()[0].comments, ["a } here"]);
        assert_eq!(h.uci_moves(), ["e2e4", "e7e5"]);
    }
}
