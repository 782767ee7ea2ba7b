//! Move text for people: SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`, `P@e5`,
//! `Nbd7`, `Qh4#`), LAN (`Ng1-f3`), the shogi notations (Hodges `P-7f`,
//! its numeric form `P-76`, Hosking `P76`), Janggi's numeric squares
//! (`R01-91`), Xiangqi's WXF (`H8+7`) and Thai SAN and LAN, each written as
//! pyffish (Fairy-Stockfish) writes it.
//!
//! A move that captures on its way (the Lion's of Chu Shogi and Mighty
//! Lion; pyffish has none) names the victim's square: `Lxd3-d2`, `Lxd3xd2`.
//!
//! [`Position::san`] writes one move, [`Position::san_line`] a sequence of
//! moves, [`Position::parse_san`] reads what a user types (the notation's
//! text with or without check marks, `0-0`, unambiguous case variations, SAN,
//! LAN or UCI text).
//!
//! ```
//! use std::sync::Arc;
//! use chimera::{builtin, position::Position, san::Notation};
//! let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
//! let m = p.parse_san("Nf3", Notation::San).unwrap();
//! assert_eq!(p.move_text(m), "g1f3");
//! assert_eq!(p.san(m, Notation::Lan), "Ng1-f3");
//! assert_eq!(p.san_line(&["f2f3", "e7e5", "g2g4", "d8h4"], Notation::San).unwrap(), "f3 e5 g4 Qh4#");
//! assert!(p.parse_san("Nf4", Notation::San).is_err());
//! ```

use crate::compile::type_of;
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Color, Square};
use crate::variant::{PromotionStyle, Variant};
use std::fmt;

pub use crate::definition::Notation;

impl Notation {
    /// The notation [`Notation::Default`] stands for in variant `v`: the
    /// variant file's `[notation] default` if it has one, else the numeric
    /// Hodges notation for variants with shogi-style promotions, else SAN.
    ///
    /// ```
    /// use chimera::{builtin, san::Notation};
    /// let shogi = builtin::variant("shogi").unwrap();
    /// assert_eq!(Notation::default_for(&shogi), Notation::ShogiHodgesNumber);
    /// assert_eq!(Notation::default_for(&builtin::variant("xiangqi").unwrap()), Notation::San);
    /// ```
    pub fn default_for(v: &Variant) -> Notation {
        if let Some(n) = v.def.notation.default.as_deref().and_then(Notation::from_name) {
            if n != Notation::Default {
                return n;
            }
        }
        let shogi_style =
            v.def.pieces.iter().any(|p| p.promotion.as_ref().is_some_and(|pr| pr.style == PromotionStyle::Shogi));
        if shogi_style {
            Notation::ShogiHodgesNumber
        } else {
            Notation::San
        }
    }

    fn resolve(self, v: &Variant) -> Notation {
        if self == Notation::Default {
            Notation::default_for(v)
        } else {
            self
        }
    }

    fn is_shogi(self) -> bool {
        matches!(self, Notation::ShogiHosking | Notation::ShogiHodges | Notation::ShogiHodgesNumber)
    }

    fn is_thai(self) -> bool {
        matches!(self, Notation::ThaiSan | Notation::ThaiLan)
    }
}

/// What is wrong with a move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanErrorKind {
    /// Nothing was written.
    Empty,
    /// The text starts with a piece letter that no piece of the variant has.
    UnknownPiece(char),
    /// No legal move is written so.
    NoSuchMove,
    /// Several legal moves fit the text; their texts in the notation asked
    /// for, each followed by its UCI text in parentheses.
    Ambiguous(Vec<String>),
    /// A move of a line is not legal or not UCI text (for [`Position::san_line`]
    /// and [`Position::san_line_moves`]); what is wrong.
    BadMove(String),
}

/// An error reading a move in a human notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanError {
    /// The text that was read.
    pub text: String,
    /// The position it was read in, as a FEN.
    pub fen: String,
    /// What is wrong.
    pub kind: SanErrorKind,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}' in {}: ", self.text, self.fen)?;
        match &self.kind {
            SanErrorKind::Empty => write!(f, "empty move"),
            SanErrorKind::UnknownPiece(c) => write!(f, "no piece of this variant is written '{c}'"),
            SanErrorKind::NoSuchMove => write!(f, "no legal move is written so"),
            SanErrorKind::Ambiguous(c) => write!(f, "ambiguous: it could be {}", c.join(", ")),
            SanErrorKind::BadMove(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for SanError {}

/// Thai piece names, by the Betza text of the piece's moves (but initial ones).
const THAI_PIECES: [(&str, &str); 5] = [("F", "ม็"), ("N", "ม"), ("R", "ร"), ("FfW", "ค"), ("RNF", "ว")];
/// The Thai king (khun).
const THAI_KING: &str = "ข";
/// The Thai pawn (bia).
const THAI_PAWN: &str = "บ";
/// Thai file letters, a to h.
const THAI_FILES: [char; 8] = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];

/// What one call needs about the position: its legal moves, made once.
struct Writer<'a> {
    pos: &'a mut Position,
    legal: Vec<Move>,
    /// The legal moves from the board (no drops, no castling) by destination.
    by_to: Vec<Vec<Move>>,
    n: Notation,
}

impl Position {
    /// Writes `m`, a legal move here, in notation `n`, with the check (`+`)
    /// and mate (`#`) marks pyffish writes (none in the shogi notations and
    /// WXF). A move that is not legal here is written in UCI text, as
    /// [`Position::move_text`] writes it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position, san::Notation};
    /// let p = Position::start(Arc::new(builtin::variant("xiangqi").unwrap()));
    /// let m = p.clone().parse_move("b1c3").unwrap();
    /// assert_eq!(p.san(m, Notation::San), "Hc3");
    /// assert_eq!(p.san(m, Notation::XiangqiWxf), "H8+7");
    /// ```
    pub fn san(&self, m: Move, n: Notation) -> String {
        let mut p = self.clone();
        let mut w = Writer::new(&mut p, n);
        w.write(m)
    }

    /// Writes every legal move here in notation `n`, with the moves, in the
    /// order of [`Position::legal_moves`]. The legal moves are generated once.
    pub fn san_all(&self, n: Notation) -> Vec<(Move, String)> {
        let mut p = self.clone();
        let mut w = Writer::new(&mut p, n);
        let legal = w.legal.clone();
        legal.into_iter().map(|m| (m, w.write(m))).collect()
    }

    /// Plays `moves` (UCI text, as [`Position::parse_move`] reads it) from
    /// this position and writes them in notation `n`, separated by spaces,
    /// as pyffish's `get_san_moves` does. This position is left unchanged.
    pub fn san_line<S: AsRef<str>>(&self, moves: &[S], n: Notation) -> Result<String, SanError> {
        let mut p = self.clone();
        let mut out = Vec::with_capacity(moves.len());
        for text in moves {
            let text = text.as_ref();
            let m = p.parse_move(text).map_err(|e| SanError {
                text: text.to_string(),
                fen: e.fen.clone(),
                kind: SanErrorKind::BadMove(e.message),
            })?;
            out.push(Writer::new(&mut p, n).write(m));
            p.make(m);
        }
        Ok(out.join(" "))
    }

    /// Reads a line of moves separated by spaces (each as [`Position::parse_san`]
    /// reads it, so SAN and UCI may be mixed: `e2e4 e5 Nf3`), from this
    /// position, which is left unchanged. Move numbers (`1.`, `12...`) are
    /// skipped.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position, san::Notation};
    /// let p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
    /// let moves = p.parse_san_line("1. e4 e5 2. g1f3 Nc6", Notation::San).unwrap();
    /// assert_eq!(p.san_line_moves(&moves, Notation::Lan).unwrap(), "e2-e4 e7-e5 Ng1-f3 Nb8-c6");
    /// assert!(p.parse_san_line("e4 e4", Notation::San).is_err());
    /// ```
    pub fn parse_san_line(&self, text: &str, n: Notation) -> Result<Vec<Move>, SanError> {
        let mut p = self.clone();
        let mut out = Vec::new();
        for word in text.split_whitespace() {
            let number = word.trim_end_matches('.');
            if number.len() < word.len() && number.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let word = match word.split_once('.') {
                // "1.e4"
                Some((num, rest)) if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) => {
                    rest.trim_start_matches('.')
                }
                _ => word,
            };
            let m = p.parse_san(word, n)?;
            p.make(m);
            out.push(m);
        }
        Ok(out)
    }

    /// Writes `moves`, legal one after the other from this position, in
    /// notation `n`, separated by spaces; see [`Position::san_line`]. A move
    /// that is not legal where it is played is an error.
    pub fn san_line_moves(&self, moves: &[Move], n: Notation) -> Result<String, SanError> {
        let mut p = self.clone();
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut w = Writer::new(&mut p, n);
            if !w.legal.contains(&m) {
                return Err(SanError {
                    text: p.move_text(m),
                    fen: p.fen(),
                    kind: SanErrorKind::BadMove("not a legal move in this position".into()),
                });
            }
            out.push(w.write(m));
            p.make(m);
        }
        Ok(out.join(" "))
    }

    /// Reads a move as a user types it in notation `n` and checks that it is
    /// legal here. Accepted: the notation's text with or without check and
    /// mate marks (`Qh4#`, `Qh4`), `0-0` for `O-O`, SAN, LAN and UCI text
    /// (`Nf3`, `Ng1-f3`, `g1f3`; for a shogi or Thai notation also the
    /// others of its family), over- and under-specified SAN (`Ngf3`, and
    /// `Rb1` if only one rook can go there) and case variations that fit
    /// only one move (`nf3`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position, san::{Notation, SanErrorKind}};
    /// let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
    /// let m = p.parse_san("e4", Notation::San).unwrap();
    /// assert_eq!(p.move_text(m), "e2e4");
    /// let m = p.parse_san("g1f3", Notation::San).unwrap();
    /// assert_eq!(p.move_text(m), "g1f3");
    /// assert_eq!(p.parse_san("Zf3", Notation::San).unwrap_err().kind, SanErrorKind::UnknownPiece('Z'));
    /// ```
    pub fn parse_san(&mut self, text: &str, n: Notation) -> Result<Move, SanError> {
        let err = |pos: &Position, kind: SanErrorKind| SanError { text: text.to_string(), fen: pos.fen(), kind };
        let t = text.trim();
        if t.is_empty() {
            return Err(err(self, SanErrorKind::Empty));
        }
        let n = n.resolve(self.variant());
        let mut w = Writer::new(self, n);
        let legal = w.legal.clone();
        // every legal move with the texts that name it, without check marks
        // (so no move is made here)
        // (move, its texts, the looser SAN forms users type)
        let mut names: Vec<(Move, Vec<String>, Vec<String>)> = Vec::with_capacity(legal.len());
        // also read: SAN, LAN and the other notations of the same family
        let mut also: Vec<Notation> = vec![Notation::San, Notation::Lan];
        if n.is_shogi() {
            also.extend([Notation::ShogiHosking, Notation::ShogiHodges, Notation::ShogiHodgesNumber]);
        } else if n.is_thai() {
            also.extend([Notation::ThaiSan, Notation::ThaiLan]);
        }
        also.retain(|&o| o != n);
        for &m in &legal {
            let mut v = vec![w.unmarked(m)];
            for &other in &also {
                w.n = other;
                v.push(w.unmarked(m));
            }
            w.n = n;
            v.push(w.pos.move_text(m));
            names.push((m, v, w.loose_forms(m)));
        }
        let shogi = n.is_shogi();
        let norm = |s: &str| -> String {
            let s = s.trim();
            let s = if let Some(rest) = s.strip_prefix("0-0-0") {
                format!("O-O-O{rest}")
            } else if let Some(rest) = s.strip_prefix("0-0") {
                format!("O-O{rest}")
            } else {
                s.to_string()
            };
            let mut s = s.trim_end_matches(['!', '?']).to_string();
            if !shogi {
                while s.ends_with('+') || s.ends_with('#') {
                    s.pop();
                }
            }
            s
        };
        let input = norm(t);
        let found = |wanted: &str, fold: bool, loose: bool| -> Vec<Move> {
            let wanted = if fold { wanted.to_lowercase() } else { wanted.to_string() };
            let mut out: Vec<Move> = Vec::new();
            for (m, exact, forms) in &names {
                let v = if loose { forms } else { exact };
                let hit = v.iter().any(|s| if fold { s.to_lowercase() == wanted } else { *s == wanted });
                if hit && !out.contains(m) {
                    out.push(*m);
                }
            }
            out
        };
        // the moves' own texts before the looser forms; the text as typed,
        // then without marks; then the same ignoring case
        let mut hits = Vec::new();
        'search: for fold in [false, true] {
            for loose in [false, true] {
                for wanted in [t, input.as_str()] {
                    hits = found(wanted, fold, loose);
                    if !hits.is_empty() {
                        break 'search;
                    }
                }
            }
        }
        match hits.len() {
            1 => Ok(hits[0]),
            0 => {
                let first = input.chars().next().unwrap_or(' ');
                let known = |c: char| {
                    w.pos.variant().def.pieces.iter().enumerate().any(|(t, p)| {
                        p.letter.eq_ignore_ascii_case(&c) || w.pos.san_letter(t).contains(c.to_ascii_uppercase())
                    })
                };
                let kind = if first.is_ascii_uppercase() && first != 'O' && !known(first) {
                    SanErrorKind::UnknownPiece(first)
                } else {
                    SanErrorKind::NoSuchMove
                };
                Err(err(w.pos, kind))
            }
            _ => {
                let mut texts: Vec<String> =
                    hits.iter().map(|&m| format!("{} ({})", w.write(m), w.pos.move_text(m))).collect();
                texts.sort();
                Err(err(w.pos, SanErrorKind::Ambiguous(texts)))
            }
        }
    }

    /// The letter(s) a piece type is written with in SAN: the variant's
    /// `[notation] letters` if it names the type; for a promoted type, the
    /// letter of an unpromoted type that moves the same (a tokin is a gold,
    /// `G`), else its name's initial (`D` for the dragon); else the FEN
    /// letter, upper case. A dressed id keeps its mark (`X'`, `L!`), so that
    /// the types of one letter stay apart.
    fn san_letter(&self, t: usize) -> String {
        let def = &self.variant().def;
        if let Some(&(_, c)) = def.notation.letters.iter().find(|&&(ty, _)| ty == t) {
            return c.to_string();
        }
        let p = &def.pieces[t];
        if p.promoted {
            if let Some(q) = def.pieces.iter().find(|q| !q.promoted && q.betza.text == p.betza.text) {
                return dressed_upper(q);
            }
            if let Some(c) = p.name.chars().next() {
                return c.to_ascii_uppercase().to_string();
            }
        }
        dressed_upper(p)
    }

    /// True if SAN leaves out this type's letter: a pawn, whose every move
    /// either only moves, orthogonally, or only captures, diagonally (a
    /// Berolina pawn, moving diagonally, or a pawn that may move sideways or
    /// back keeps its letter, as in pyffish).
    fn is_pawn_like(&self, t: usize) -> bool {
        let units = &self.variant().def.pieces[t].betza.units;
        let modality = |u: &crate::betza::Unit| u.legs.last().map(|l| l.modality).unwrap_or_default();
        let mut moves = false;
        let mut captures = false;
        for u in units {
            let m = modality(u);
            if u.legs.len() != 1 {
                return false;
            }
            let forward = u.legs[0].dirs.iter().all(|d| d.first == b'f' && d.second.is_none());
            if !forward || u.legs[0].dirs.is_empty() {
                return false;
            }
            match (m.moves, m.captures || m.en_passant) {
                (true, false) if u.atom.is_orthogonal() => moves = true,
                (false, true) if u.atom.is_diagonal() => captures = true,
                _ => return false,
            }
        }
        moves && captures
    }
}

impl<'a> Writer<'a> {
    fn new(pos: &'a mut Position, n: Notation) -> Writer<'a> {
        let n = n.resolve(pos.variant());
        let legal = pos.legal_moves();
        let mut by_to = vec![Vec::new(); crate::square::MAX_SQUARES];
        for &m in &legal {
            if m.kind() != MoveKind::Drop && m.kind() != MoveKind::Castle {
                by_to[m.to()].push(m);
            }
        }
        Writer { pos, legal, by_to, n }
    }

    fn mover(&self, m: Move) -> Code {
        if m.kind() == MoveKind::Drop {
            m.code()
        } else {
            self.pos.piece_at(m.from())
        }
    }

    fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant | MoveKind::Locust => true,
            MoveKind::Castle | MoveKind::Drop | MoveKind::Pass => false,
            _ => !m.is_unload() && self.pos.piece_at(m.to()) != Code::EMPTY,
        }
    }

    /// The other legal moves of a piece of the same kind to the same square,
    /// with the same promotion and gating (pyffish writes `Be2=H` when the
    /// other bishop that reaches e2 could not promote there).
    fn rivals(&self, m: Move) -> impl Iterator<Item = Move> + '_ {
        let code = self.mover(m);
        let promotion = |o: Move| (o.kind() == MoveKind::Promotion).then(|| o.code());
        self.by_to[m.to()].iter().copied().filter(move |&o| {
            o.from() != m.from()
                && o.gate() == m.gate()
                && promotion(o) == promotion(m)
                && self.pos.piece_at(o.from()) == code
        })
    }

    fn file(&self, sq: Square) -> i32 {
        self.pos.geometry().file_of(sq)
    }

    fn rank(&self, sq: Square) -> i32 {
        self.pos.geometry().rank_of(sq)
    }

    /// A square in this notation's coordinates.
    fn square(&self, sq: Square) -> String {
        let g = self.pos.geometry();
        let (f, r) = (g.file_of(sq), g.rank_of(sq));
        let (w, h) = (g.width as i32, g.height as i32);
        match self.n {
            Notation::ShogiHodges => format!("{}{}", w - f, (b'a' + (h - 1 - r) as u8) as char),
            Notation::ShogiHosking | Notation::ShogiHodgesNumber => format!("{}{}", w - f, h - r),
            Notation::Janggi => format!("{}{}", (h - r) % 10, f + 1),
            Notation::ThaiSan | Notation::ThaiLan => format!("{}{}", self.thai_file(f), thai_number(r + 1)),
            _ => g.square_name(sq),
        }
    }

    fn thai_file(&self, f: i32) -> String {
        match THAI_FILES.get(f as usize) {
            Some(c) => c.to_string(),
            None => ((b'a' + f as u8) as char).to_string(),
        }
    }

    /// The piece's name in this notation; empty for a SAN pawn.
    fn piece(&self, m: Move) -> String {
        let code = self.mover(m);
        let t = type_of(code);
        let def = &self.pos.variant().def;
        if self.n.is_shogi() {
            let p = &def.pieces[t];
            return match (p.promoted, p.demotes_to) {
                (true, Some(base)) => format!("+{}", dressed_upper(&def.pieces[base])),
                _ => self.pos.san_letter(t),
            };
        }
        if self.n.is_thai() {
            if self.pos.is_pawn_like(t) {
                return if self.n == Notation::ThaiLan && m.kind() != MoveKind::Drop {
                    THAI_PAWN.to_string()
                } else {
                    String::new()
                };
            }
            if def.pieces[t].royal {
                return THAI_KING.to_string();
            }
            // the moves but initial ones (Cambodia's met may start with a leap)
            let betza: String =
                def.pieces[t].betza.units.iter().filter(|u| !u.initial).map(|u| u.text.as_str()).collect();
            return match THAI_PIECES.iter().find(|(b, _)| *b == betza) {
                Some((_, name)) => name.to_string(),
                None => self.pos.san_letter(t),
            };
        }
        if m.kind() != MoveKind::Drop && matches!(self.n, Notation::San | Notation::Lan) && self.pos.is_pawn_like(t) {
            return String::new();
        }
        self.pos.san_letter(t)
    }

    /// The text of `m` without check marks (a move that is not legal here:
    /// its UCI text).
    fn unmarked(&self, m: Move) -> String {
        if !self.legal.contains(&m) {
            return self.pos.move_text(m);
        }
        match self.n {
            Notation::XiangqiWxf => self.wxf(m),
            _ => self.body(m),
        }
    }

    /// Writes `m` with its check marks.
    fn write(&mut self, m: Move) -> String {
        let mut s = self.unmarked(m);
        if !self.legal.contains(&m) {
            return s;
        }
        if !self.n.is_shogi() && self.n != Notation::XiangqiWxf {
            let undo = self.pos.make(m);
            if self.gives_check() {
                // mate, or the last of the checks a variant asks for
                let over = self.pos.checks_given().is_some() || !self.pos.has_legal_move();
                s.push(if over { '#' } else { '+' });
            }
            self.pos.unmake(m, &undo);
        }
        s
    }

    /// After a move: true if the side to move is in check. With several
    /// royal types and castling, only the castling king counts (a royal
    /// queen in Coregal chess may be attacked without check being written).
    fn gives_check(&mut self) -> bool {
        let v = self.pos.variant().clone();
        let royal_types: Vec<usize> = (0..v.def.pieces.len()).filter(|&t| v.def.pieces[t].royal).collect();
        let king = match &v.def.rules.castling {
            Some(c) if royal_types.len() > 1 && v.def.pieces[c.king].royal => c.king,
            _ => return self.pos.in_check(),
        };
        let them = self.pos.side_to_move();
        let kings: Vec<Square> =
            self.pos.pieces(them).iter().copied().filter(|&sq| type_of(self.pos.piece_at(sq)) == king).collect();
        if kings.is_empty() {
            return false;
        }
        let null = self.pos.make_null();
        let mut list = MoveList::new();
        self.pos.generate_pseudo(&mut list);
        let hit = list.iter().any(|o| {
            let victim = if o.kind() == MoveKind::Locust { o.extra() } else { o.to() };
            let second = o.second_victim(&self.pos.geometry());
            o.kind() != MoveKind::Drop
                && o.kind() != MoveKind::Castle
                && (kings.contains(&victim) || second.is_some_and(|sq| kings.contains(&sq)))
        });
        self.pos.unmake_null(&null);
        hit
    }

    fn gate_suffix(&self, m: Move, with_square: bool) -> String {
        match m.gate() {
            Some(t) => {
                let mut s = format!("/{}", self.pos.san_letter(t));
                if with_square {
                    if let Some(sq) = m.gate_square() {
                        s.push_str(&self.pos.geometry().square_name(sq));
                    }
                }
                s
            }
            None => String::new(),
        }
    }

    /// The text of every notation but WXF, without check marks.
    fn body(&self, m: Move) -> String {
        if m.kind() == MoveKind::Castle {
            let long = self.file(m.extra()) < self.file(m.from());
            let mut s = String::from(if long { "O-O-O" } else { "O-O" });
            s.push_str(&self.gate_suffix(m, true));
            return s;
        }
        let piece = self.piece(m);
        let to = self.square(m.to());
        if m.kind() == MoveKind::Drop {
            let sep = match self.n {
                Notation::ShogiHosking => '\'',
                Notation::ShogiHodges | Notation::ShogiHodgesNumber => '*',
                _ => '@',
            };
            let piece = if piece.is_empty() { self.pos.san_letter(type_of(m.code())) } else { piece };
            return format!("{piece}{sep}{to}");
        }
        let capture = self.is_capture(m);
        let from = self.square(m.from());
        let mut s = piece.clone();
        match self.n {
            Notation::Lan | Notation::ThaiLan => {
                if self.n == Notation::ThaiLan {
                    s.push(' ');
                }
                s.push_str(&from);
                s.push(if capture { 'x' } else { '-' });
            }
            Notation::Janggi => {
                s.push_str(&from);
                s.push(if capture { 'x' } else { '-' });
            }
            Notation::ShogiHosking | Notation::ShogiHodges | Notation::ShogiHodgesNumber => {
                let ambiguous = self.rivals(m).next().is_some();
                if ambiguous {
                    s.push_str(&from);
                }
                if capture {
                    s.push('x');
                } else if ambiguous || self.n != Notation::ShogiHosking {
                    s.push('-');
                }
            }
            _ => {
                // SAN and Thai SAN
                let rivals: Vec<Move> = self.rivals(m).collect();
                let pawn = piece.is_empty();
                let file_text = |sq: Square| -> String {
                    if self.n == Notation::ThaiSan {
                        self.thai_file(self.file(sq))
                    } else {
                        ((b'a' + self.file(sq) as u8) as char).to_string()
                    }
                };
                let rank_text = |sq: Square| -> String {
                    if self.n == Notation::ThaiSan {
                        thai_number(self.rank(sq) + 1)
                    } else {
                        (self.rank(sq) + 1).to_string()
                    }
                };
                if !rivals.is_empty() {
                    if !rivals.iter().any(|&o| self.file(o.from()) == self.file(m.from())) {
                        s.push_str(&file_text(m.from()));
                    } else if !rivals.iter().any(|&o| self.rank(o.from()) == self.rank(m.from())) {
                        s.push_str(&rank_text(m.from()));
                    } else {
                        s.push_str(&file_text(m.from()));
                        s.push_str(&rank_text(m.from()));
                    }
                } else if pawn && capture {
                    s.push_str(&file_text(m.from()));
                }
                if capture {
                    s.push('x');
                } else if self.n == Notation::ThaiSan && !pawn {
                    s.push('-');
                }
            }
        }
        if m.kind() == MoveKind::Locust {
            // a capture on the way (a Lion's igui or double capture) names
            // its victim: Lxd3-d2, Lxd3xd2, Lxd3-c4 back home
            s.push_str(&self.square(m.extra()));
            if let Some(sq) = m.second_victim(&self.pos.geometry()) {
                // two victims on the way: Dxg7xg8-g9
                s.push('x');
                s.push_str(&self.square(sq));
            }
            let second = m.to() != m.from() && self.pos.piece_at(m.to()) != Code::EMPTY;
            s.push(if second { 'x' } else { '-' });
        }
        s.push_str(&to);
        if m.kind() == MoveKind::Promotion {
            let t = type_of(m.code());
            if self.n.is_shogi() {
                s.push('+');
            } else {
                s.push('=');
                s.push_str(&self.pos.san_letter(t));
            }
        } else if self.n.is_shogi()
            && self.by_to[m.to()].iter().any(|&o| o.kind() == MoveKind::Promotion && o.from() == m.from())
        {
            s.push('=');
        }
        s.push_str(&self.gate_suffix(m, false));
        s
    }

    /// The SAN forms a user may type for a plain move: with no origin, the
    /// origin's file, rank or square, with `x` for a capture or without (`Rb1` when two
    /// rooks can go there is then found ambiguous, `Ngf3` and `Ng1f3` are
    /// read). Empty for castling, drops and other special moves.
    fn loose_forms(&self, m: Move) -> Vec<String> {
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::Double | MoveKind::Promotion | MoveKind::EnPassant) {
            return Vec::new();
        }
        let t = type_of(self.mover(m));
        let piece = if self.pos.is_pawn_like(t) { String::new() } else { self.pos.san_letter(t) };
        let g = self.pos.geometry();
        let from = g.square_name(m.from());
        let file = ((b'a' + self.file(m.from()) as u8) as char).to_string();
        let rank = (self.rank(m.from()) + 1).to_string();
        let mut tail = g.square_name(m.to());
        if m.kind() == MoveKind::Promotion {
            tail.push('=');
            tail.push_str(&self.pos.san_letter(type_of(m.code())));
        }
        tail.push_str(&self.gate_suffix(m, false));
        let capture = self.is_capture(m);
        let mut out = Vec::with_capacity(8);
        for origin in ["", file.as_str(), rank.as_str(), from.as_str()] {
            out.push(format!("{piece}{origin}{tail}"));
            if capture {
                out.push(format!("{piece}{origin}x{tail}"));
            }
        }
        out
    }

    /// WXF: piece, its file counted from the mover's right (or `+`/`-` for
    /// the front or rear of two on one file), the direction (`+` forward,
    /// `-` backward, `=` sideways) and the destination file, or the number
    /// of ranks for a move along a file.
    fn wxf(&self, m: Move) -> String {
        if m.kind() == MoveKind::Castle || m.kind() == MoveKind::Drop {
            return self.body(m);
        }
        let g = self.pos.geometry();
        let w = g.width as i32;
        let white = self.pos.side_to_move() == Color::White;
        let file_no = |f: i32| if white { w - f } else { f + 1 };
        let forward = |dr: i32| if white { dr } else { -dr };
        let code = self.mover(m);
        let mut s = self.pos.san_letter(type_of(code));
        let (ff, fr) = (self.file(m.from()), self.rank(m.from()));
        let (tf, tr) = (self.file(m.to()), self.rank(m.to()));
        // another piece of the same kind on the same file
        let tandem = self
            .pos
            .pieces(self.pos.side_to_move())
            .iter()
            .filter(|&&sq| sq != m.from() && self.pos.piece_at(sq) == code && self.file(sq) == ff)
            .map(|&sq| self.rank(sq))
            .next();
        match tandem {
            Some(r) => s.push(if forward(fr - r) > 0 { '+' } else { '-' }),
            None => s.push_str(&file_no(ff).to_string()),
        }
        let dr = forward(tr - fr);
        s.push(if dr > 0 {
            '+'
        } else if dr < 0 {
            '-'
        } else {
            '='
        });
        if ff == tf {
            s.push_str(&dr.abs().to_string());
        } else {
            s.push_str(&file_no(tf).to_string());
        }
        if m.kind() == MoveKind::Promotion {
            s.push('=');
            s.push_str(&self.pos.san_letter(type_of(m.code())));
        }
        s.push_str(&self.gate_suffix(m, false));
        s
    }
}

/// A number in Thai digits.
/// A type's FEN letter in upper case with its dress mark (`N`, `X'`, `L!`),
/// or its two-letter ID (`(FD)`).
fn dressed_upper(p: &crate::variant::PieceType) -> String {
    crate::definition::token_text(p.letter.to_ascii_uppercase(), 0, p.dress)
}

fn thai_number(n: i32) -> String {
    n.to_string().chars().map(|c| char::from_u32(0x0E50 + c.to_digit(10).unwrap_or(0)).unwrap_or(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use std::sync::Arc;

    fn pos(v: &str, fen: Option<&str>) -> Position {
        let v = Arc::new(builtin::variant(v).unwrap());
        match fen {
            Some(f) => Position::from_fen(v, f).unwrap(),
            None => Position::start(v),
        }
    }

    #[test]
    fn names_round_trip() {
        for (n, name) in Notation::ALL {
            assert_eq!(Notation::from_name(name), Some(n));
            assert_eq!(n.name(), name);
        }
        assert_eq!(Notation::from_name("default"), Some(Notation::Default));
        assert_eq!(Notation::from_name("bogus"), None);
    }

    fn texts(p: &Position, n: Notation) -> Vec<String> {
        p.san_all(n).into_iter().map(|(_, s)| s).collect()
    }

    #[test]
    fn disambiguation_castling_and_mate() {
        let t = texts(&pos("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")), Notation::San);
        for want in ["O-O", "O-O-O", "Rxa8+", "Rb1", "Rf1", "Kd2"] {
            assert!(t.iter().any(|s| s == want), "{want} not in {t:?}");
        }
        let t = texts(&pos("chess", Some("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1")), Notation::San);
        assert!(t.iter().any(|s| s == "Rab1") && t.iter().any(|s| s == "Rfb1"), "{t:?}");
        let t = texts(&pos("chess", Some("7k/8/8/8/R7/8/8/R6K w - - 0 1")), Notation::San);
        assert!(t.iter().any(|s| s == "R1a2") && t.iter().any(|s| s == "R4a3"), "{t:?}");
        let t = texts(&pos("chess", Some("7k/R7/8/8/8/8/8/1R5K w - - 0 1")), Notation::San);
        assert!(t.iter().any(|s| s == "Rb8#") && t.iter().any(|s| s == "Ra8+"), "{t:?}");
        let t = texts(&pos("chess", Some("7k/R7/8/8/8/8/8/1R5K w - - 0 1")), Notation::Lan);
        assert!(t.iter().any(|s| s == "Rb1-b8#"), "{t:?}");
    }

    #[test]
    fn parsing_accepts_variants_of_the_text() {
        let mut p = pos("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
        for (text, uci) in [("0-0", "e1g1"), ("O-O-O", "e1c1"), ("Rxa8+", "a1a8"), ("Rxa8", "a1a8"), ("a1b1", "a1b1")] {
            let m = p.parse_san(text, Notation::San).unwrap();
            assert_eq!(p.move_text(m), uci, "{text}");
        }
        assert_eq!(p.parse_san("  ", Notation::San).unwrap_err().kind, SanErrorKind::Empty);
        assert_eq!(p.parse_san("Rb5", Notation::San).unwrap_err().kind, SanErrorKind::NoSuchMove);
        assert_eq!(p.parse_san("Xb1", Notation::San).unwrap_err().kind, SanErrorKind::UnknownPiece('X'));
        let mut p = pos("chess", Some("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"));
        let e = p.parse_san("Rb1", Notation::San).unwrap_err();
        assert_eq!(e.kind, SanErrorKind::Ambiguous(vec!["Rab1 (a1b1)".into(), "Rfb1 (f1b1)".into()]), "{e}");
        assert!(e.to_string().contains("ambiguous"), "{e}");
        let mut p = pos("chess", None);
        for text in ["ng1f3", "Ngf3", "Ng1f3", "Ng1-f3", "Nf3!?"] {
            let m = p.parse_san(text, Notation::San).unwrap();
            assert_eq!(p.move_text(m), "g1f3", "{text}");
        }
    }

    #[test]
    fn bad_text_gives_errors_not_panics() {
        let mut p = pos("shogi", None);
        for text in
            ["", "+", "#", "P*", "@", "x", "O-O-O-O", "P-00", "Z-76", "P-7f+=", "ก๓", "\u{0}", "e2e4e4e4", "0-0+"]
        {
            assert!(p.parse_san(text, Notation::Default).is_err(), "{text:?}");
        }
        let m = p.parse_san("P-76", Notation::Default).unwrap();
        assert_eq!(p.move_text(m), "c3c4");
        assert_eq!(p.san(m, Notation::ShogiHodges), "P-7f");
        assert_eq!(p.san(m, Notation::ShogiHosking), "P76");
    }

    #[test]
    fn every_notation_reads_back_what_it_writes_and_rejects_junk() {
        let junk = [
            "",
            "x",
            "+",
            "=",
            "@",
            "*",
            "'",
            "O-O-O-O",
            "Kx",
            "K@",
            "P*",
            "P'",
            "e",
            "e9=",
            "ข",
            "ก๙",
            "R+-",
            "H8+",
            "\u{1F600}",
        ];
        for v in ["chess", "shogi", "xiangqi", "janggi", "makruk", "seirawan", "crazyhouse", "grand"] {
            let mut p = pos(v, None);
            for (n, _) in Notation::ALL {
                for (m, text) in p.san_all(n) {
                    assert_eq!(p.parse_san(&text, n), Ok(m), "{v} {n} {text}");
                }
                for j in junk {
                    assert!(p.parse_san(j, n).is_err(), "{v} {n} {j:?}");
                }
            }
        }
    }

    #[test]
    fn the_notation_table_of_a_variant_file() {
        let src = builtin::source("xiangqi").unwrap();
        let with = |table: &str| src.replace("[notation]\n", &format!("[notation]\n{table}\n"));
        let v = Variant::from_toml(&with("default = \"xiangqi_wxf\""), "x.toml").unwrap();
        assert_eq!(Notation::default_for(&v), Notation::XiangqiWxf);
        let p = Position::start(Arc::new(v));
        let m = p.clone().parse_move("h3e3").unwrap();
        assert_eq!(p.san(m, Notation::Default), "C2=5");
        assert_eq!(p.san(m, Notation::San), "Che3");
        for (table, part) in [("default = \"wxf\"", "unknown notation 'wxf'"), ("", "letters are written like")] {
            let text = if table.is_empty() { src.replace("n:H b:E", "nH") } else { with(table) };
            let e = Variant::from_toml(&text, "x.toml").unwrap_err().to_string();
            assert!(e.contains(part), "{e}");
        }
        let e = Variant::from_toml(&src.replace("n:H b:E", "z:H"), "x.toml").unwrap_err().to_string();
        assert!(e.contains("no piece is written 'z'"), "{e}");
    }

    #[test]
    fn a_line_is_written_move_by_move() {
        let p = pos("chess", None);
        assert_eq!(p.san_line(&["e2e4", "e7e5", "g1f3"], Notation::San).unwrap(), "e4 e5 Nf3");
        let e = p.san_line(&["e2e4", "e2e4"], Notation::San).unwrap_err();
        assert!(matches!(e.kind, SanErrorKind::BadMove(_)), "{e}");
    }
}
