//! A variant's definition, as a variant file gives it, and the native
//! definition format (TOML): what [`crate::variant::Variant::new`] compiles.
//!
//! A variant is data: the board, named zones, the piece types with their
//! XBetza moves, the start position and the rule settings. Built-in variants
//! are files under `variants/`, read by the same parser as a user's file.
//!
//! ```
//! let v = chimera::variant::VariantDef::from_toml(r#"
//! name = "tiny"
//! files = 4
//! ranks = 4
//! start_fen = "k3/4/4/3K w - - 0 1"
//! [[piece]]
//! name = "king"
//! letter = "k"
//! betza = "K"
//! royal = true
//! "#, "tiny.toml").unwrap();
//! assert_eq!(v.pieces[0].name, "king");
//! ```

use crate::betza::{self, Betza};
use crate::square::{Color, Geometry, Square};
use serde::Deserialize;
use std::fmt;
use toml::Spanned;

/// An error in a variant definition, with the file, the line and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// The file (or built-in name) being read.
    pub file: String,
    /// The line, from 1, or 0 when the error concerns the whole file.
    pub line: usize,
    /// The column, from 1, or 0 when unknown.
    pub column: usize,
    /// What went wrong and what was expected.
    pub message: String,
    /// Whether the definition is wrong, or only too large for this build.
    pub kind: VariantErrorKind,
}

/// What kind of problem a [`VariantError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VariantErrorKind {
    /// The definition is wrong (or names something Chimera does not have).
    #[default]
    Invalid,
    /// The definition may be right, but exceeds a limit of this build (the
    /// board's size, the number of piece types) that `chimera-wide` raises.
    TooLarge,
}

impl VariantError {
    /// Whether the definition was refused for the limits of this build: in
    /// `chimera`, a board of more than 255 squares or more than 120 piece
    /// types (walls included), which `chimera-wide` (up to 36×36 and 512
    /// types) may hold. The board and the piece letters are checked before
    /// the rest of the definition, which is then unread. The error's
    /// [`VariantError::kind`] says so; the message is for people.
    pub fn is_too_large(&self) -> bool {
        self.kind == VariantErrorKind::TooLarge
    }

    /// The same error, marked as one of the build's limits
    /// ([`VariantErrorKind::TooLarge`]).
    pub fn too_large(mut self) -> VariantError {
        self.kind = VariantErrorKind::TooLarge;
        self
    }
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
        } else {
            write!(f, "{}: {}", self.file, self.message)
        }
    }
}

impl std::error::Error for VariantError {}

/// What the side to move gets when it has no legal move and is not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateResult {
    /// The game is drawn (chess).
    Draw,
    /// The side to move loses (Xiangqi, Janggi).
    Loss,
    /// The side to move wins.
    Win,
}

/// When a player may pass (make no move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassRule {
    /// Never.
    Never,
    /// At any turn, if the pass does not leave the player's royal piece attacked
    /// (Janggi). Two passes in a row end the game, as in Fairy-Stockfish.
    Always,
}

/// Castling, as the FIDE rules describe it, with configurable files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    /// The piece type index of the castling king.
    pub king: usize,
    /// The piece type index of the castling rook (the first of `rooks`).
    pub rook: usize,
    /// Every piece type that castles as the rook (Fairy-Stockfish's
    /// `castlingRookPieces = rq`); a right belongs to the outermost one.
    pub rooks: Vec<usize>,
    /// The file (from 0) the king lands on when castling on the h-side.
    pub kingside_file: u8,
    /// The file the king lands on when castling on the a-side.
    pub queenside_file: u8,
    /// Chess960 castling (Fischer Random): the king and the rooks may start
    /// on any files of the back rank, a castling right names its rook (the
    /// FEN writes the rooks' files, `HAha`, and reads `KQkq` as the outermost
    /// rooks too), and castling is written as the king's move onto its own
    /// rook (`e1h1`), since the king may already stand on its castling square.
    pub chess960: bool,
}

impl Castling {
    /// True if piece type `t` castles as the rook.
    pub fn is_rook(&self, t: usize) -> bool {
        self.rooks.contains(&t)
    }
}

/// Promotion of one piece type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// The zone (index into [`VariantDef::zones`]) where the piece promotes on arrival.
    pub zone: usize,
    /// The piece types it may promote to.
    pub choices: Vec<usize>,
    /// Black's choices, when they differ from White's.
    pub choices_black: Option<Vec<usize>>,
    /// Whether the promotion is compulsory on arrival in the zone.
    pub mandatory: bool,
    /// When the piece may promote.
    pub style: PromotionStyle,
    /// Per choice: the most pieces of that type a side may have for the
    /// promotion to be allowed (255: no limit). Grand Chess allows promotion
    /// only to pieces that were captured.
    pub limits: Vec<u8>,
}

/// When a piece may promote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionStyle {
    /// On arrival in the zone (chess); compulsory if `mandatory`.
    Arrival,
    /// Shogi: optionally, by a move that starts or ends in the zone; compulsory
    /// where the unpromoted piece would have no move left.
    Shogi,
    /// Chu Shogi (HaChu's default, "promote on entry"): a non-capturing move
    /// may promote only when it enters the zone, a capture when it starts or
    /// ends there; optional, compulsory where the unpromoted piece would have
    /// no move left (so a pawn stepping inside the zone onto the last rank
    /// without capturing stays a pawn there, as HaChu lets it).
    Chu,
    /// Sittuyin: never on arrival. A pawn in the zone, or a side's only pawn
    /// anywhere, may instead spend a move promoting: in place, or onto an empty
    /// square the new piece could step to. The new piece may not attack an
    /// enemy piece there, and the promotion may not give check.
    Sittuyin,
}

/// Drops and hands (shogi, crazyhouse).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drops {
    /// Captured pieces go to the capturer's hand, unpromoted.
    pub captures_to_hand: bool,
    /// Types that may not be dropped on a file with an unpromoted friendly one (nifu).
    pub no_doubled: Vec<usize>,
    /// How many friendly pieces of a `no_doubled` type a file may hold before
    /// no more are dropped there: 1 (nifu), 2 in Tori Shogi (swallows).
    pub no_doubled_count: u8,
    /// Types whose drop may not give checkmate (shogi's pawn).
    pub no_drop_mate: Vec<usize>,
    /// A piece may not be dropped where it would have no move (shogi).
    pub no_dead_drops: bool,
    /// While a side has pieces in hand it must drop one, if it can (Sittuyin's
    /// setup phase): other moves are legal only when no drop is.
    pub must_drop: bool,
    /// The zone drops must land in (Black's is mirrored), if drops are limited.
    pub zone: Option<usize>,
}

/// A named set of squares, given from White's side; Black's is its mirror image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    /// The name used in the definition.
    pub name: String,
    /// Membership per square, for White.
    pub white: Vec<bool>,
    /// Membership per square for Black, when it is not White's mirror image.
    pub black: Option<Vec<bool>>,
}

impl Zone {
    /// Whether `sq` is in the zone for side `c`.
    pub fn contains(&self, g: &Geometry, c: Color, sq: Square) -> bool {
        match (c, &self.black) {
            (Color::White, _) => self.white[sq],
            (Color::Black, Some(b)) => b[sq],
            (Color::Black, None) => self.white[g.flip(sq).index()],
        }
    }
}

impl PieceType {
    /// Every move unit of the piece: its own XBetza's, then those of its
    /// moves by zone (`zone_moves`).
    pub fn all_units(&self) -> impl Iterator<Item = &crate::betza::Unit> {
        self.betza.units.iter().chain(self.zone_moves.iter().flat_map(|zm| zm.betza.units.iter()))
    }

    /// Its FEN token for a side: `+L!`, `q~`, `n`, `(FD)` (White's letters uppercase).
    pub fn token(&self, color: Color) -> String {
        let l = if color == Color::White { self.letter.to_ascii_uppercase() } else { self.letter };
        let mark = if self.promoted {
            b'+'
        } else if self.tilde {
            b'~'
        } else {
            0
        };
        token_text(l, mark, self.dress)
    }
}

/// Extra moves a piece has while it stands in a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneMoves {
    /// The zone index.
    pub zone: usize,
    /// The moves.
    pub betza: Betza,
    /// If set, these moves may not leave this zone.
    pub confine: Option<usize>,
}

/// The marks that may follow a piece letter to make a different piece, as
/// HaChu and XBoard write the large shogis' pieces: `L'` and `L!` are two
/// types besides `L`, and `+L!` is the promoted form of `L!`.
pub const DRESS_MARKS: [u8; 2] = [b'\'', b'!'];

/// One piece token of a FEN board, a hand or a piece list: an optional `+`,
/// a letter, then an optional dress mark (`'` or `!`) or, without `+`, a
/// `~`; or an optional `+` and a two-letter ID in parentheses (`(FD)`, see
/// [`two_letter_id`]). Returns (letter, mark: 0, `b'+'` or `b'~'`, dress: 0,
/// a dress mark or an ID's lowercase second letter, bytes read), or None
/// where `text` does not start with a token.
///
/// ```
/// use chimera::variant::piece_token;
/// assert_eq!(piece_token(b"+L!3"), Some((b'L', b'+', b'!', 3)));
/// assert_eq!(piece_token(b"q~"), Some((b'q', b'~', 0, 2)));
/// assert_eq!(piece_token(b"n'x"), Some((b'n', 0, b'\'', 2)));
/// assert_eq!(piece_token(b"+3"), None);
/// assert_eq!(piece_token(b"!a"), None);
/// assert_eq!(piece_token(b"+(FD)2"), Some((b'F', b'+', b'd', 5)));
/// ```
pub fn piece_token(text: &[u8]) -> Option<(u8, u8, u8, usize)> {
    let mut k = 0;
    let mut mark = 0;
    if text.first() == Some(&b'+') {
        mark = b'+';
        k = 1;
    }
    if text.get(k) == Some(&b'(') {
        let (c, second) = two_letter_id(&text[k..])?;
        return Some((c, mark, second, k + 4));
    }
    let c = *text.get(k).filter(|c| c.is_ascii_alphabetic())?;
    k += 1;
    let mut dress = 0;
    match text.get(k) {
        Some(&d) if DRESS_MARKS.contains(&d) => {
            dress = d;
            k += 1;
        }
        Some(b'~') if mark == 0 => {
            mark = b'~';
            k += 1;
        }
        _ => {}
    }
    Some((c, mark, dress, k))
}

/// A two-letter piece ID at the start of `text`: `(`, two letters of one
/// case, `)`. Returns the first letter as written (its case is the colour)
/// and the second one in lowercase, or None.
///
/// Piece IDs let a variant have more types than single letters and dress
/// marks can name (Taikyoku Shogi has about 300): a piece whose `letter` is
/// `"(fd)"` is written `(FD)` for White and `(fd)` for Black.
///
/// ```
/// use chimera::variant::two_letter_id;
/// assert_eq!(two_letter_id(b"(FD)3"), Some((b'F', b'd')));
/// assert_eq!(two_letter_id(b"(fd)"), Some((b'f', b'd')));
/// assert_eq!(two_letter_id(b"(Fd)"), None);
/// assert_eq!(two_letter_id(b"(F)"), None);
/// ```
pub fn two_letter_id(text: &[u8]) -> Option<(u8, u8)> {
    match text {
        [b'(', a, b, b')', ..]
            if a.is_ascii_alphabetic()
                && b.is_ascii_alphabetic()
                && a.is_ascii_uppercase() == b.is_ascii_uppercase() =>
        {
            Some((*a, b.to_ascii_lowercase()))
        }
        _ => None,
    }
}

/// A piece token written back: `+L!`, `q~`, `n`, `(FD)` (the letter in the
/// case given; an ID's second letter follows it).
pub fn token_text(letter: char, mark: u8, dress: u8) -> String {
    let mut s = String::with_capacity(5);
    push_token(&mut s, letter, mark, dress);
    s
}

/// [`token_text`] appended to `s`.
pub fn push_token(s: &mut String, letter: char, mark: u8, dress: u8) {
    if mark == b'+' {
        s.push('+');
    }
    if dress.is_ascii_alphabetic() {
        let second = if letter.is_ascii_uppercase() { dress.to_ascii_uppercase() } else { dress };
        s.push('(');
        s.push(letter);
        s.push(second as char);
        s.push(')');
        return;
    }
    s.push(letter);
    if dress != 0 {
        s.push(dress as char);
    }
    if mark == b'~' {
        s.push('~');
    }
}

/// One piece type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// Its name.
    pub name: String,
    /// Its FEN letter, lowercase (White's is the uppercase form).
    pub letter: char,
    /// It is a promoted type, written with a '+' before its letter (`+P`).
    pub promoted: bool,
    /// It is a crazyhouse-style promoted piece, written with a '~' after its letter (`Q~`).
    pub tilde: bool,
    /// HaChu's dressed letter: 0, or `b'\''` or `b'!'` written after the letter
    /// (`L'`, `l!`, `+L!`), so that a variant has up to three unpromoted types
    /// per letter (see [`DRESS_MARKS`]); or the lowercase second letter of a
    /// two-letter ID (`(FD)`, see [`two_letter_id`]).
    pub dress: u8,
    /// The type it becomes when captured into a hand (the unpromoted type).
    pub demotes_to: Option<usize>,
    /// A zone where it may not be dropped.
    pub no_drop_zone: Option<usize>,
    /// A zone it may only be dropped in (Sittuyin's rooks: the first rank).
    pub drop_zone: Option<usize>,
    /// Its value in centipawns, when the definition gives one (an engine
    /// derives a value from the moves otherwise).
    pub value: Option<i32>,
    /// Its points in a Janggi-style point count (see
    /// [`crate::position::Position::point_count_winner`]), when they differ
    /// from its value (Fairy-Stockfish's `materialCounting = janggi` scores
    /// only Janggi's piece types).
    pub points: Option<i32>,
    /// Its moves everywhere.
    pub betza: Betza,
    /// Whether losing it loses the game (it may not be left attacked).
    pub royal: bool,
    /// A pawn for the n-move rule: its moves reset the half-move clock.
    pub pawn: bool,
    /// A zone the piece may never leave (see [`PieceType::confine_mode`]).
    pub confine: Option<usize>,
    /// How [`PieceType::confine`] limits its moves.
    pub confine_mode: ConfineMode,
    /// A zone where its initial (`i`) moves are allowed whatever its history
    /// (Fairy-Stockfish's double-step region); without it they belong to
    /// pieces that have not moved.
    pub initial_zone: Option<usize>,
    /// How the FEN's e.p. field is kept and written after its double step.
    pub ep_field: EpField,
    /// Extra moves inside zones.
    pub zone_moves: Vec<ZoneMoves>,
    /// Piece types it may not hop over.
    pub cannot_hop: Vec<usize>,
    /// Piece types it may not capture.
    pub cannot_capture: Vec<usize>,
    /// How it promotes, if it does.
    pub promotion: Option<Promotion>,
    /// Its rank for the jumping pieces ([`PieceType::jump_capture`]): they
    /// jump only pieces of a lower rank. 0 unless the definition gives one.
    pub rank: u8,
    /// The lines on which it captures by jumping (Tenjiku Shogi's generals):
    /// beyond the first piece on such a line it may jump any number of
    /// pieces of either side whose rank is lower than its own, and capture
    /// an enemy piece of lower rank. Its own moves (XBetza) are unchanged;
    /// these captures are added to them.
    pub jump_capture: Option<JumpLines>,
    /// It burns (Tenjiku Shogi's Fire Demon): after each of its moves every
    /// enemy piece on the eight squares around the square it ends on is
    /// removed, royals included.
    pub burns: bool,
    /// It burns passively (Tenjiku Shogi's Fire Demon): an enemy piece that
    /// ends its move on one of the eight squares around it is removed after
    /// that move (a royal may not do so if it is its side's last one).
    pub burns_passively: bool,
}

/// The lines of a jumping capture ([`PieceType::jump_capture`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpLines {
    /// Files and ranks (`"R"`).
    Orthogonal,
    /// Diagonals (`"B"`).
    Diagonal,
    /// Both (`"Q"`).
    All,
}

impl JumpLines {
    /// The steps (files, ranks) of its lines.
    pub fn steps(self) -> &'static [(i32, i32)] {
        const ALL: [(i32, i32); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)];
        match self {
            JumpLines::Orthogonal => &ALL[..4],
            JumpLines::Diagonal => &ALL[4..],
            JumpLines::All => &ALL,
        }
    }
}

/// The rule settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Castling, if the variant has it.
    pub castling: Option<Castling>,
    /// Royal pieces may not face each other on an open file or rank (Xiangqi's flying general).
    pub flying_general: bool,
    /// Janggi's bikjang: when the royals face each other at the start of a turn,
    /// the player must break the facing or pass (a pass is then legal even in
    /// check), and two positions in a row with facing royals end the game.
    pub bikjang: bool,
    /// When a player may pass.
    pub pass: PassRule,
    /// The result of a stalemate for the side to move.
    pub stalemate: StalemateResult,
    /// The result of a checkmate for the side to move: a loss, except in
    /// misère games (losers, misere), where the mated side wins.
    pub checkmate: StalemateResult,
    /// Draw odds (armageddon): every game that would be drawn is won by this
    /// side instead.
    pub draw_odds: Option<Color>,
    /// The side that wins a game ended by repetition (`[rules]
    /// repetition_winner`; Minishogi's sennichite is lost by the first
    /// player, White), unless perpetual check decides it; `None`: a draw.
    pub repetition_winner: Option<Color>,
    /// Chu Shogi's rules against trading Lions, if the variant has them.
    pub lion_trading: Option<LionTrading>,
    /// Contagion (Werewolf Chess): a piece that captures a contagious piece
    /// turns into one, if the variant has it.
    pub contagion: Option<Contagion>,
    /// Drops from hand, if the variant has them.
    pub drops: Option<Drops>,
    /// Extinction: the game ends when a side is down to few pieces of some kinds.
    pub extinction: Option<Extinction>,
    /// Captures are compulsory: when a side can capture, it must.
    pub must_capture: bool,
    /// Makruk-style counting, if the variant has it.
    pub counting: Option<Counting>,
    /// Capture the flag: a side wins at once when one of its flag pieces
    /// stands in its flag zone after its move (king of the hill, breakthrough).
    pub flag: Option<Flag>,
    /// Check counting (three-check): a side that has given this many checks
    /// wins. The FEN carries the checks each side still has to give (`3+3`,
    /// after the e.p. field).
    pub checks: Option<u8>,
    /// First-move rights written in the FEN (Cambodian), if the variant has them.
    pub initial_rights: Option<InitialRights>,
    /// Static walls: `*` in FENs, squares no piece may enter; they block riders
    /// and serve as hopper screens (a piece type "wall", the last one).
    pub walls: bool,
    /// Seirawan gating: a piece that leaves a square of its side's first rank
    /// that still has its gate may be followed by a piece from the hand on
    /// that square. The FEN's castling field holds the gates (`KQBCDFGkqbcdfg`).
    pub gating: bool,
    /// What happens where a piece would have no move left.
    pub immobility: Immobility,
    /// Which moves may give check.
    pub giving_check: GivingCheck,
    /// How a side with several royal pieces is protected.
    pub royals: RoyalRule,
    /// How a repeated position is judged (`[rules] repetition`).
    pub repetition: RepetitionRule,
    /// The n-move rule in moves (`[rules] n_move_rule`): `Some(0)` for none,
    /// `None` for the default that [`crate::outcome::n_move_plies`] derives.
    pub n_move_rule: Option<u16>,
    /// How many times a position must occur for a repetition to end the
    /// game (`[rules] n_fold`, the ini key `nFoldRule`): 3 by default, 4 for
    /// Sho Shogi's sennichite. Not used by `repetition = "repeater_loses"`.
    pub n_fold: u8,
}

/// How a repeated position is judged (`[rules] repetition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RepetitionRule {
    /// The engine's rules: threefold repetition, perpetual check where the
    /// variant family has it. The default.
    #[default]
    Standard,
    /// Chu Shogi: a move that repeats a position loses for the side that
    /// makes it, unless that side was in check (see [`crate::chu_repetition`]).
    RepeaterLoses,
}

/// How the royal pieces of a side count (`[rules] royals`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RoyalRule {
    /// No royal piece may be left attacked. The default.
    #[default]
    All,
    /// Chu Shogi's King and Crown Prince: only a side's last royal piece may
    /// not be left attacked (with two or more, check does not matter), and a
    /// side that has lost all its royal pieces has lost the game.
    Last,
}

/// Which moves may give check (Fairy-Stockfish's `checking` and `dropChecks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GivingCheck {
    /// Any move may give check. The default.
    #[default]
    Allowed,
    /// A drop may not give check (`dropChecks = false`).
    NotByDrops,
    /// No move may give check (`checking = false`).
    Never,
}

/// The rule for squares where a piece could not move on (a pawn on its last
/// rank, a shogi knight on the last two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Immobility {
    /// A piece that would have no move at all from where it arrives must
    /// promote there, if it can; nothing else is forbidden. The default.
    #[default]
    ForcedPromotion,
    /// Fairy-Stockfish's `immobilityIllegal`: no move and no drop may leave
    /// a piece on a square from which it has no non-capturing move on an
    /// empty board; arriving there, a piece that can promote must.
    Illegal,
    /// A piece may stay where it cannot move (an unpromoted pawn on its last
    /// rank where promotion is optional).
    Allowed,
}

/// The longest variant name, in bytes.
pub const MAX_NAME_LEN: usize = 64;

/// Checks a variant name: 1 to [`MAX_NAME_LEN`] characters from `A-Z a-z
/// 0-9 _ + -`. Names are printed in protocol lines and file names, so
/// anything else (spaces, newlines, control bytes) is refused; the error
/// shows the name escaped.
///
/// ```
/// assert!(chimera::variant::check_name("my-variant_2").is_ok());
/// assert!(chimera::variant::check_name("evil\nreadyok").unwrap_err().contains("evil\\nreadyok"));
/// ```
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'+' || b == b'-';
    if name.is_empty() || name.len() > MAX_NAME_LEN || !name.bytes().all(ok) {
        return Err(format!(
            "variant name \"{}\" must be 1 to {MAX_NAME_LEN} characters from A-Z a-z 0-9 _ + -",
            name.escape_default()
        ));
    }
    Ok(())
}

/// First-move rights kept in the FEN's castling field (Cambodian chess, whose
/// king may leap like a knight and whose met may step two squares on their
/// first moves): the field names, by file, the first-rank pieces that still
/// have their initial (`i`) moves (`DEde`), in place of their history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitialRights {
    /// A royal piece loses its right when a piece of this type moves to attack it.
    pub lost_to_attack_by: Option<usize>,
    /// A royal piece may not use its initial moves while in check.
    pub not_in_check: bool,
}

/// How a piece's `confine` zone limits its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ConfineMode {
    /// Every square a move visits lies in the zone: a rider stops at its
    /// edge, and a piece standing outside it has no moves (a palace).
    #[default]
    Path,
    /// Only the squares a move ends on (or captures on) lie in the zone: a
    /// rider passes squares outside it, and a piece standing outside it
    /// still has the moves that end inside (Fairy-Stockfish's mobility
    /// regions).
    Destination,
}

/// How the e.p. field of a FEN is kept and written after a double step,
/// following Fairy-Stockfish's two rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EpField {
    /// The passed square, only when an enemy piece could capture there
    /// (Fairy-Stockfish's rule for its own pawn type).
    #[default]
    Attacked,
    /// The passed square and the destination, run together in square order
    /// (`f3g4`), after every double step (Fairy-Stockfish's rule for pawns
    /// defined in Betza, as in berolina).
    Path,
    /// The passed square, after every double step, whether or not an enemy
    /// piece could capture there (Fairy-Stockfish's rule for its pawn when
    /// `enPassantTypes` names another piece type).
    Always,
}

impl Rules {
    /// True if the sides have hands (pockets), written in the FEN as `[...]`:
    /// for drops, or for gating.
    pub fn has_hand(&self) -> bool {
        self.drops.is_some() || self.gating
    }
}

/// The capture-the-flag win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The piece type that must reach the zone.
    pub piece: usize,
    /// The zone, given for White (mirrored for Black).
    pub zone: usize,
}

/// Which counting rule of the makruk family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountingStyle {
    /// Thai makruk: board's honour and pieces' honour counting.
    Makruk,
    /// The ASEAN rules: pieces' honour counting only.
    Asean,
    /// Cambodian (ouk chatrang): makruk's counting with limits one lower,
    /// and board's honour counting only for a side with at most three pieces.
    Cambodian,
}

/// The counting rules of makruk and its relatives. They never remove a legal
/// move (the count is a draw claim), but Fairy-Stockfish writes a running
/// count into the FEN: the count limit in place of the e.p. field and the
/// counted plies in place of the half-move clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counting {
    /// The rule.
    pub style: CountingStyle,
    /// The rook type, the khon (silver general) type and the knight type, whose
    /// numbers set the limit of pieces' honour counting.
    pub rook: usize,
    /// See `rook`.
    pub khon: usize,
    /// See `rook`.
    pub knight: usize,
}

/// The extinction rule (Fairy-Stockfish's model): the game ends as soon as a
/// side has at most `count` pieces of one of the listed kinds (board and hand
/// together) while the other side has at least `opponent_count` of them. With
/// `claim`, a side can only win this way while it is to move (the bare-king
/// rule of shatranj: the other side may still bare back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extinction {
    /// The piece types counted, each on its own; `None` counts all pieces together.
    pub pieces: Option<Vec<usize>>,
    /// The count at which a side is extinct.
    pub count: u32,
    /// The count the other side must have at least.
    pub opponent_count: u32,
    /// Only the side to move can win by extinction of the opponent.
    pub claim: bool,
    /// The result for the side that is extinct.
    pub result: StalemateResult,
}

/// Chu Shogi's rules against trading Lions (also in Mighty Lion Chess):
/// - a Lion may capture a non-adjacent Lion only where the capturing Lion is
///   not attacked afterwards (as if it were royal for that move), unless it
///   captured a bridge piece on the way;
/// - after a non-Lion captures a Lion, the other side may not capture a Lion
///   with a non-Lion on the very next move (the counterstrike rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LionTrading {
    /// Piece types that are Lions.
    pub lions: Vec<usize>,
    /// Piece types whose capture on the way does not lift the restriction (Pawns).
    pub not_bridges: Vec<usize>,
    /// Whether protection by a royal piece counts (HaChu and Chu Shogi: yes;
    /// the Mighty Lion Chess rules page: no).
    pub king_protects: bool,
}

/// Contagion, as in H.G. Muller's Werewolf Chess: a piece that captures a
/// contagious piece (on its destination or as a locust victim on the way)
/// turns into a piece of that type and its own colour, after any promotion
/// of the move. Royal pieces and the `immune` types capture without turning,
/// and so does a piece that already is of that type. With several
/// contagious victims, the one on the destination counts first, then the
/// victims on the way in the move's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contagion {
    /// The contagious piece types.
    pub pieces: Vec<usize>,
    /// The types that capture them without turning (besides royal pieces).
    pub immune: Vec<usize>,
}

/// A complete variant definition, validated but not yet compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantDef {
    /// The variant's name (Fairy-Stockfish's where it has the variant).
    pub name: String,
    /// A one-line description.
    pub description: String,
    /// The board.
    pub geometry: Geometry,
    /// Named zones.
    pub zones: Vec<Zone>,
    /// The piece types.
    pub pieces: Vec<PieceType>,
    /// The start position.
    pub start_fen: String,
    /// The rules.
    pub rules: Rules,
    /// How moves are written for people (see [`crate::san`]).
    pub notation: NotationDef,
}

/// The variant's choices for human move notation (the `[notation]` table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotationDef {
    /// The notation used when none is asked for, by the name
    /// [`Notation::from_name`] reads (`"san"`, `"xiangqi_wxf"`,
    /// ...); `None`: derived from the rules (shogi-style promotions give the
    /// numeric shogi notation, anything else SAN).
    pub default: Option<String>,
    /// Letters that stand for piece types in move text instead of their FEN
    /// letter, by type (Xiangqi writes its horse `H` though the FEN says `n`).
    pub letters: Vec<(usize, char)>,
}

// ----- the file format -----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDef {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    files: Spanned<u8>,
    ranks: Spanned<u8>,
    start_fen: Spanned<String>,
    #[serde(default)]
    zones: toml::value::Table,
    #[serde(default)]
    rules: FileRules,
    #[serde(default)]
    piece: Vec<FilePiece>,
    notation: Option<FileNotation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileNotation {
    default: Option<Spanned<String>>,
    letters: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileRules {
    castling: Option<FileCastling>,
    #[serde(default)]
    flying_general: bool,
    #[serde(default)]
    bikjang: bool,
    pass: Option<Spanned<String>>,
    stalemate: Option<Spanned<String>>,
    #[serde(default)]
    checkmate: Option<Spanned<String>>,
    #[serde(default)]
    draw_odds: Option<Spanned<String>>,
    repetition_winner: Option<Spanned<String>>,
    lion_trading: Option<FileLionTrading>,
    contagion: Option<FileContagion>,
    drops: Option<FileDrops>,
    extinction: Option<FileExtinction>,
    #[serde(default)]
    must_capture: bool,
    counting: Option<FileCounting>,
    flag: Option<FileFlag>,
    #[serde(default)]
    gating: bool,
    checks: Option<Spanned<u8>>,
    #[serde(default)]
    walls: bool,
    initial_rights: Option<FileInitialRights>,
    immobility: Option<Spanned<String>>,
    giving_check: Option<Spanned<String>>,
    royals: Option<Spanned<String>>,
    repetition: Option<Spanned<String>>,
    n_move_rule: Option<Spanned<u16>>,
    n_fold: Option<Spanned<u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileInitialRights {
    lost_to_attack_by: Option<Spanned<String>>,
    #[serde(default)]
    not_in_check: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLionTrading {
    lions: Spanned<String>,
    #[serde(default)]
    not_bridges: Option<Spanned<String>>,
    #[serde(default = "yes")]
    king_protects: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileContagion {
    pieces: Spanned<String>,
    #[serde(default)]
    immune: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCastling {
    king: Spanned<String>,
    rook: Spanned<String>,
    kingside_file: Spanned<String>,
    queenside_file: Spanned<String>,
    #[serde(default)]
    chess960: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePiece {
    name: String,
    letter: Spanned<String>,
    betza: Spanned<String>,
    #[serde(default)]
    royal: bool,
    #[serde(default)]
    pawn: bool,
    confine: Option<Spanned<String>>,
    confine_mode: Option<Spanned<String>>,
    initial_zone: Option<Spanned<String>>,
    ep_field: Option<Spanned<String>>,
    #[serde(default)]
    zone_moves: Vec<FileZoneMoves>,
    cannot_hop: Option<Spanned<String>>,
    cannot_capture: Option<Spanned<String>>,
    promotion: Option<FilePromotion>,
    demotes_to: Option<Spanned<String>>,
    no_drop_zone: Option<Spanned<String>>,
    drop_zone: Option<Spanned<String>>,
    value: Option<Spanned<i32>>,
    points: Option<Spanned<i32>>,
    #[serde(default)]
    rank: u8,
    jump_capture: Option<Spanned<String>>,
    #[serde(default)]
    burns: bool,
    #[serde(default)]
    burns_passively: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileZoneMoves {
    zone: Spanned<String>,
    betza: Spanned<String>,
    confine: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePromotion {
    zone: Spanned<String>,
    to: Spanned<String>,
    to_black: Option<Spanned<String>>,
    mandatory: Option<bool>,
    style: Option<Spanned<String>>,
    #[serde(default)]
    limits: std::collections::BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileFlag {
    piece: Spanned<String>,
    zone: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCounting {
    style: Spanned<String>,
    rook: Spanned<String>,
    khon: Spanned<String>,
    knight: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileExtinction {
    pieces: Spanned<String>,
    #[serde(default)]
    count: u32,
    #[serde(default)]
    opponent_count: u32,
    #[serde(default)]
    claim: bool,
    result: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDrops {
    #[serde(default)]
    captures_to_hand: bool,
    no_doubled: Option<Spanned<String>>,
    no_doubled_count: Option<Spanned<u8>>,
    no_drop_mate: Option<Spanned<String>>,
    #[serde(default)]
    no_dead_drops: bool,
    #[serde(default)]
    must_drop: bool,
    zone: Option<Spanned<String>>,
}

fn yes() -> bool {
    true
}

struct Ctx<'a> {
    file: &'a str,
    src: &'a str,
}

impl Ctx<'_> {
    fn at(&self, span: std::ops::Range<usize>, message: impl Into<String>) -> VariantError {
        let (line, column) = line_col(self.src, span.start);
        VariantError {
            file: self.file.to_string(),
            line,
            column,
            message: message.into(),
            kind: VariantErrorKind::Invalid,
        }
    }
    /// A field that takes one of some keywords: the first choice when the
    /// field is absent, an error naming the field and listing the choices
    /// when the value is none of them.
    fn keyword<T: Copy>(
        &self,
        what: &str,
        value: Option<&Spanned<String>>,
        choices: &[(&str, T)],
    ) -> Result<T, VariantError> {
        let Some(v) = value else { return Ok(choices[0].1) };
        if let Some(&(_, t)) = choices.iter().find(|(name, _)| name == v.get_ref()) {
            return Ok(t);
        }
        let names: Vec<String> = choices.iter().map(|(name, _)| format!("\"{name}\"")).collect();
        let (last, rest) = names.split_last().expect("a keyword field has choices");
        let list = if rest.is_empty() { last.clone() } else { format!("{} or {last}", rest.join(", ")) };
        Err(self.at(v.span(), format!("{what} must be {list}, not \"{}\"", v.get_ref().escape_default())))
    }
    fn whole(&self, message: impl Into<String>) -> VariantError {
        VariantError {
            file: self.file.to_string(),
            line: 0,
            column: 0,
            message: message.into(),
            kind: VariantErrorKind::Invalid,
        }
    }
}

fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    // a span may end inside a multi-byte character: count from its start
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let column = offset - before.rfind('\n').map(|p| p + 1).unwrap_or(0) + 1;
    (line, column)
}

/// Parses a zone description: squares (`e4`) and rectangles (`d1-f3`), separated by spaces.
pub fn parse_zone(g: &Geometry, text: &str) -> Result<Vec<bool>, String> {
    let mut set = vec![false; g.squares()];
    for word in text.split_whitespace() {
        let (a, b) = match word.split_once('-') {
            Some((a, b)) => (a, b),
            None => (word, word),
        };
        let sa = g.parse_square(a).ok_or_else(|| format!("'{a}' is not a square of this board"))?;
        let sb = g.parse_square(b).ok_or_else(|| format!("'{b}' is not a square of this board"))?;
        let (f0, f1) = (g.file_of(sa).min(g.file_of(sb)), g.file_of(sa).max(g.file_of(sb)));
        let (r0, r1) = (g.rank_of(sa).min(g.rank_of(sb)), g.rank_of(sa).max(g.rank_of(sb)));
        for r in r0..=r1 {
            for f in f0..=f1 {
                set[g.square(f, r).unwrap().index()] = true;
            }
        }
    }
    Ok(set)
}

impl VariantDef {
    /// Reads a definition in the native TOML format. `file` names the source in errors.
    pub fn from_toml(src: &str, file: &str) -> Result<VariantDef, VariantError> {
        let cx = Ctx { file, src };
        let fd: FileDef = toml::from_str(src).map_err(|e| {
            let (line, column) = e.span().map(|s| line_col(src, s.start)).unwrap_or((0, 0));
            VariantError {
                file: file.to_string(),
                line,
                column,
                message: e.message().to_string(),
                kind: VariantErrorKind::Invalid,
            }
        })?;
        check_name(fd.name.get_ref()).map_err(|m| cx.at(fd.name.span(), m))?;
        let geometry = Geometry::new(*fd.files.get_ref(), *fd.ranks.get_ref()).ok_or_else(|| {
            cx.at(
                fd.files.span(),
                format!(
                    "board {}x{} is outside 2x2 to {}x{} or has more than {} squares",
                    fd.files.get_ref(),
                    fd.ranks.get_ref(),
                    crate::square::MAX_FILES,
                    crate::square::MAX_RANKS,
                    crate::square::MAX_BOARD_SQUARES
                ),
            )
            .too_large()
        })?;

        // zones
        let mut zones = Vec::new();
        for (name, value) in &fd.zones {
            let bad = || {
                cx.whole(format!(
                    "zone '{name}' must be a string of squares and rectangles such as \"d1-f3 e4\", \
                     or a table {{ white = \"...\", black = \"...\" }}"
                ))
            };
            let (wtext, btext) = match value {
                toml::Value::String(t) => (t.as_str(), None),
                toml::Value::Table(t) => {
                    if let Some(k) = t.keys().find(|k| *k != "white" && *k != "black") {
                        return Err(cx.whole(format!("zone '{name}': unknown key '{k}', expected white or black")));
                    }
                    let w = t.get("white").and_then(|v| v.as_str()).ok_or_else(bad)?;
                    let b = t.get("black").and_then(|v| v.as_str()).ok_or_else(bad)?;
                    (w, Some(b))
                }
                _ => return Err(bad()),
            };
            let white = parse_zone(&geometry, wtext).map_err(|m| cx.whole(format!("zone '{name}': {m}")))?;
            let black = match btext {
                Some(b) => Some(parse_zone(&geometry, b).map_err(|m| cx.whole(format!("zone '{name}': {m}")))?),
                None => None,
            };
            zones.push(Zone { name: name.clone(), white, black });
        }
        let zone_index = |s: &Spanned<String>| -> Result<usize, VariantError> {
            zones.iter().position(|z| z.name == *s.get_ref()).ok_or_else(|| {
                let known: Vec<&str> = zones.iter().map(|z| z.name.as_str()).collect();
                cx.at(s.span(), format!("unknown zone '{}', expected one of: {}", s.get_ref(), known.join(", ")))
            })
        };

        // piece letters first, so that pieces can refer to each other; a
        // promoted type is written with a '+' before its letter ("+p"), a
        // crazyhouse-style promoted piece with a '~' after it ("q~"), and a
        // dress mark after the letter makes another type ("l'", "+l!")
        let mut letters: Vec<(char, u8, u8)> = Vec::new();
        for p in &fd.piece {
            let l = p.letter.get_ref();
            let (c, mark, dress) = match piece_token(l.as_bytes()) {
                Some((c, mark, dress, n)) if n == l.len() => (c.to_ascii_lowercase() as char, mark, dress),
                _ => {
                    return Err(cx.at(
                        p.letter.span(),
                        format!(
                            "a piece letter is one ASCII letter, optionally after '+', followed by an optional \
                             ' or ! (\"l'\", \"+l!\"), or before '~' (\"q~\"), or a two-letter ID in parentheses \
                             (\"(fd)\", \"+(fd)\"), not \"{l}\""
                        ),
                    ))
                }
            };
            if letters.contains(&(c, mark, dress)) {
                return Err(cx.at(p.letter.span(), format!("piece letter \"{l}\" is used twice")));
            }
            letters.push((c, mark, dress));
        }
        if letters.is_empty() {
            return Err(cx.whole("a variant needs at least one [[piece]]"));
        }
        if letters.len() > crate::MAX_PIECE_TYPES {
            return Err(cx.whole(format!("at most {} piece types are supported", crate::MAX_PIECE_TYPES)).too_large());
        }
        let piece_list = |s: &Spanned<String>| -> Result<Vec<usize>, VariantError> {
            let mut out = Vec::new();
            let text: Vec<u8> = s.get_ref().bytes().filter(|c| !c.is_ascii_whitespace()).collect();
            let mut i = 0;
            while i < text.len() {
                let Some((c, mark, dress, n)) = piece_token(&text[i..]) else {
                    let what = if text[i] == b'+' {
                        "'+' must be followed by a piece letter".to_string()
                    } else if DRESS_MARKS.contains(&text[i]) || text[i] == b'~' {
                        format!("'{}' must follow a piece letter", text[i] as char)
                    } else {
                        format!("'{}' is not a piece letter", String::from_utf8_lossy(&text[i..i + 1]))
                    };
                    return Err(cx.at(s.span(), what));
                };
                i += n;
                let c = c.to_ascii_lowercase() as char;
                let t = letters.iter().position(|&l| l == (c, mark, dress)).ok_or_else(|| {
                    let shown = token_text(c, mark, dress);
                    cx.at(s.span(), format!("\"{shown}\" is not the letter of a piece of this variant"))
                })?;
                out.push(t);
            }
            Ok(out)
        };
        let parse_betza = |s: &Spanned<String>| -> Result<Betza, VariantError> {
            betza::parse(s.get_ref()).map_err(|e| {
                let span = s.span();
                // +1 for the opening quote of the TOML string
                cx.at(span.start + 1 + e.offset..span.end, e.to_string())
            })
        };

        let mut pieces = Vec::new();
        for p in &fd.piece {
            let mut zone_moves = Vec::new();
            for zm in &p.zone_moves {
                zone_moves.push(ZoneMoves {
                    zone: zone_index(&zm.zone)?,
                    betza: parse_betza(&zm.betza)?,
                    confine: zm.confine.as_ref().map(&zone_index).transpose()?,
                });
            }
            let promotion = match &p.promotion {
                Some(fp) => Some(Promotion {
                    zone: zone_index(&fp.zone)?,
                    limits: {
                        let choices = piece_list(&fp.to)?;
                        let mut limits = vec![255u8; choices.len()];
                        for (letter, &n) in &fp.limits {
                            let key = Spanned::new(fp.to.span(), letter.clone());
                            let t = piece_list(&key)?;
                            match choices.iter().position(|&c| t.len() == 1 && c == t[0]) {
                                Some(i) => limits[i] = n,
                                None => {
                                    return Err(
                                        cx.at(fp.to.span(), format!("limits: '{letter}' is not a promotion choice"))
                                    )
                                }
                            }
                        }
                        limits
                    },
                    choices: piece_list(&fp.to)?,
                    choices_black: match &fp.to_black {
                        Some(b) if !fp.limits.is_empty() => {
                            return Err(cx.at(b.span(), "to_black cannot be combined with limits yet"))
                        }
                        Some(b) => Some(piece_list(b)?),
                        None => None,
                    },
                    style: match fp.style.as_ref().map(|s| s.get_ref().as_str()) {
                        None | Some("arrival") => PromotionStyle::Arrival,
                        Some("shogi") => PromotionStyle::Shogi,
                        Some("chu") => PromotionStyle::Chu,
                        Some("sittuyin") => PromotionStyle::Sittuyin,
                        Some(other) => {
                            let span = fp.style.as_ref().unwrap().span();
                            return Err(cx.at(
                                span,
                                format!(
                                    "style must be \"arrival\", \"shogi\", \"chu\" or \"sittuyin\", not \"{other}\""
                                ),
                            ));
                        }
                    },
                    // chess promotes on arrival by force; shogi only where stuck
                    mandatory: fp.mandatory.unwrap_or(
                        fp.style.as_ref().is_none_or(|s| !["shogi", "chu", "sittuyin"].contains(&s.get_ref().as_str())),
                    ),
                }),
                None => None,
            };
            pieces.push(PieceType {
                name: p.name.clone(),
                letter: letters[pieces.len()].0,
                promoted: letters[pieces.len()].1 == b'+',
                tilde: letters[pieces.len()].1 == b'~',
                dress: letters[pieces.len()].2,
                demotes_to: None,
                no_drop_zone: p.no_drop_zone.as_ref().map(&zone_index).transpose()?,
                drop_zone: p.drop_zone.as_ref().map(&zone_index).transpose()?,
                value: match &p.value {
                    Some(v) if !(0..=100_000).contains(v.get_ref()) => {
                        return Err(cx.at(v.span(), "value must be from 0 to 100000 centipawns"));
                    }
                    v => v.as_ref().map(|v| *v.get_ref()),
                },
                points: match &p.points {
                    Some(v) if !(0..=100_000).contains(v.get_ref()) => {
                        return Err(cx.at(v.span(), "points must be from 0 to 100000 (centipawns)"));
                    }
                    v => v.as_ref().map(|v| *v.get_ref()),
                },
                betza: parse_betza(&p.betza)?,
                royal: p.royal,
                pawn: p.pawn,
                confine: p.confine.as_ref().map(&zone_index).transpose()?,
                confine_mode: cx.keyword(
                    "confine_mode",
                    p.confine_mode.as_ref(),
                    &[("path", ConfineMode::Path), ("destination", ConfineMode::Destination)],
                )?,
                initial_zone: p.initial_zone.as_ref().map(&zone_index).transpose()?,
                ep_field: cx.keyword(
                    "ep_field",
                    p.ep_field.as_ref(),
                    &[("attacked", EpField::Attacked), ("path", EpField::Path), ("always", EpField::Always)],
                )?,
                zone_moves,
                cannot_hop: p.cannot_hop.as_ref().map(&piece_list).transpose()?.unwrap_or_default(),
                cannot_capture: p.cannot_capture.as_ref().map(&piece_list).transpose()?.unwrap_or_default(),
                promotion,
                rank: p.rank,
                burns: p.burns,
                burns_passively: p.burns_passively,
                jump_capture: match &p.jump_capture {
                    None => None,
                    Some(j) => Some(match j.get_ref().as_str() {
                        "R" => JumpLines::Orthogonal,
                        "B" => JumpLines::Diagonal,
                        "Q" => JumpLines::All,
                        other => {
                            return Err(cx.at(
                                j.span(),
                                format!("jump_capture must be \"R\", \"B\" or \"Q\" (the lines it jumps along), not \"{other}\""),
                            ))
                        }
                    }),
                },
            });
        }
        if fd.rules.walls {
            // walls: a type '*' without moves that no piece may capture; they
            // block riders and lame leapers and screen hoppers like any piece
            if pieces.len() >= crate::MAX_PIECE_TYPES {
                return Err(cx
                    .whole(format!(
                        "no room for the wall type: at most {} piece types are supported",
                        crate::MAX_PIECE_TYPES
                    ))
                    .too_large());
            }
            let wall = pieces.len();
            for p in pieces.iter_mut() {
                p.cannot_capture.push(wall);
            }
            pieces.push(PieceType {
                name: "wall".into(),
                letter: '*',
                promoted: false,
                tilde: false,
                dress: 0,
                demotes_to: None,
                no_drop_zone: None,
                drop_zone: None,
                value: Some(0),
                points: None,
                betza: crate::betza::Betza { text: String::new(), units: Vec::new() },
                royal: false,
                pawn: false,
                confine: None,
                confine_mode: ConfineMode::Path,
                initial_zone: None,
                ep_field: EpField::Attacked,
                zone_moves: Vec::new(),
                cannot_hop: Vec::new(),
                cannot_capture: Vec::new(),
                promotion: None,
                // no piece jumps a wall
                rank: u8::MAX,
                jump_capture: None,
                burns: false,
                burns_passively: false,
            });
        }

        let piece_of = |s: &Spanned<String>| -> Result<usize, VariantError> {
            let v = piece_list(s)?;
            if v.len() != 1 {
                return Err(cx.at(s.span(), "expected the letter of one piece"));
            }
            Ok(v[0])
        };
        let file_of = |s: &Spanned<String>| -> Result<u8, VariantError> {
            let t = s.get_ref();
            match t.as_bytes() {
                [c] if c.is_ascii_lowercase() && (c - b'a') < geometry.width => Ok(c - b'a'),
                _ => Err(cx.at(s.span(), format!("expected a file letter of this board, not '{t}'"))),
            }
        };
        let castling = match &fd.rules.castling {
            Some(c) => Some(Castling {
                king: piece_of(&c.king)?,
                rook: *piece_list(&c.rook)?.first().ok_or_else(|| cx.at(c.rook.span(), "expected piece letters"))?,
                rooks: piece_list(&c.rook)?,
                kingside_file: file_of(&c.kingside_file)?,
                queenside_file: file_of(&c.queenside_file)?,
                chess960: c.chess960,
            }),
            None => None,
        };
        let pass = match &fd.rules.pass {
            None => PassRule::Never,
            Some(s) => match s.get_ref().as_str() {
                "never" => PassRule::Never,
                "always" => PassRule::Always,
                other => return Err(cx.at(s.span(), format!("pass must be \"never\" or \"always\", not \"{other}\""))),
            },
        };
        let result_of = |what: &str, v: &Option<Spanned<String>>, default: StalemateResult| match v {
            None => Ok(default),
            Some(s) => match s.get_ref().as_str() {
                "draw" => Ok(StalemateResult::Draw),
                "loss" => Ok(StalemateResult::Loss),
                "win" => Ok(StalemateResult::Win),
                other => Err(cx.at(s.span(), format!("{what} must be \"draw\", \"loss\" or \"win\", not \"{other}\""))),
            },
        };
        let stalemate = result_of("stalemate", &fd.rules.stalemate, StalemateResult::Draw)?;
        let checkmate = result_of("checkmate", &fd.rules.checkmate, StalemateResult::Loss)?;
        let side_of = |key: &str, value: &Option<Spanned<String>>| match value {
            None => Ok(None),
            Some(s) => match s.get_ref().as_str() {
                "white" => Ok(Some(Color::White)),
                "black" => Ok(Some(Color::Black)),
                other => Err(cx
                    .at(s.span(), format!("{key} must be \"white\" or \"black\", not \"{}\"", other.escape_default()))),
            },
        };
        let draw_odds = side_of("draw_odds", &fd.rules.draw_odds)?;
        let repetition_winner = side_of("repetition_winner", &fd.rules.repetition_winner)?;
        let lion_trading = match &fd.rules.lion_trading {
            Some(l) => Some(LionTrading {
                lions: piece_list(&l.lions)?,
                not_bridges: l.not_bridges.as_ref().map(&piece_list).transpose()?.unwrap_or_default(),
                king_protects: l.king_protects,
            }),
            None => None,
        };
        let contagion = match &fd.rules.contagion {
            Some(c) => {
                let pieces = piece_list(&c.pieces)?;
                if pieces.is_empty() {
                    return Err(cx.at(c.pieces.span(), "contagion needs at least one piece in pieces"));
                }
                Some(Contagion { pieces, immune: c.immune.as_ref().map(&piece_list).transpose()?.unwrap_or_default() })
            }
            None => None,
        };
        let drops = match &fd.rules.drops {
            Some(d) => Some(Drops {
                captures_to_hand: d.captures_to_hand,
                no_doubled: d.no_doubled.as_ref().map(&piece_list).transpose()?.unwrap_or_default(),
                no_doubled_count: match &d.no_doubled_count {
                    None => 1,
                    Some(n) if (1..=16).contains(n.get_ref()) => *n.get_ref(),
                    Some(n) => return Err(cx.at(n.span(), "no_doubled_count must be from 1 to 16")),
                },
                no_drop_mate: d.no_drop_mate.as_ref().map(&piece_list).transpose()?.unwrap_or_default(),
                no_dead_drops: d.no_dead_drops,
                must_drop: d.must_drop,
                zone: d.zone.as_ref().map(&zone_index).transpose()?,
            }),
            None => None,
        };
        for (t, p) in fd.piece.iter().enumerate() {
            if let Some(d) = &p.demotes_to {
                let v = piece_list(d)?;
                if v.len() != 1 {
                    return Err(cx.at(d.span(), "demotes_to names one piece"));
                }
                pieces[t].demotes_to = Some(v[0]);
            }
        }
        let result_of = |s: &Spanned<String>| -> Result<StalemateResult, VariantError> {
            match s.get_ref().as_str() {
                "draw" => Ok(StalemateResult::Draw),
                "loss" => Ok(StalemateResult::Loss),
                "win" => Ok(StalemateResult::Win),
                other => Err(cx.at(s.span(), format!("expected \"draw\", \"loss\" or \"win\", not \"{other}\""))),
            }
        };
        let counting = match &fd.rules.counting {
            Some(c) => Some(Counting {
                style: match c.style.get_ref().as_str() {
                    "makruk" => CountingStyle::Makruk,
                    "asean" => CountingStyle::Asean,
                    "cambodian" => CountingStyle::Cambodian,
                    other => {
                        return Err(cx.at(
                            c.style.span(),
                            format!("counting style must be \"makruk\", \"asean\" or \"cambodian\", not \"{other}\""),
                        ))
                    }
                },
                rook: piece_of(&c.rook)?,
                khon: piece_of(&c.khon)?,
                knight: piece_of(&c.knight)?,
            }),
            None => None,
        };
        let flag = match &fd.rules.flag {
            Some(f) => Some(Flag { piece: piece_of(&f.piece)?, zone: zone_index(&f.zone)? }),
            None => None,
        };
        let extinction = match &fd.rules.extinction {
            Some(e) => Some(Extinction {
                pieces: if e.pieces.get_ref() == "*" { None } else { Some(piece_list(&e.pieces)?) },
                count: e.count,
                opponent_count: e.opponent_count,
                claim: e.claim,
                result: result_of(&e.result)?,
            }),
            None => None,
        };
        // a shogi-style promotion makes the promoted type demote back when
        // captured: to the first type in the file that promotes to it
        for t in (0..pieces.len()).rev() {
            if let Some(pr) = pieces[t].promotion.clone() {
                if matches!(pr.style, PromotionStyle::Shogi | PromotionStyle::Chu) {
                    for &c in &pr.choices {
                        pieces[c].demotes_to = Some(t);
                    }
                }
            }
        }
        let def = VariantDef {
            name: fd.name.get_ref().clone(),
            description: fd.description,
            geometry,
            zones,
            pieces,
            start_fen: fd.start_fen.get_ref().clone(),
            rules: Rules {
                castling,
                flying_general: fd.rules.flying_general,
                bikjang: fd.rules.bikjang,
                pass,
                stalemate,
                checkmate,
                draw_odds,
                repetition_winner,
                lion_trading,
                contagion,
                drops,
                extinction,
                must_capture: fd.rules.must_capture,
                counting,
                flag,
                gating: fd.rules.gating,
                walls: fd.rules.walls,
                immobility: cx.keyword(
                    "immobility",
                    fd.rules.immobility.as_ref(),
                    &[
                        ("forced_promotion", Immobility::ForcedPromotion),
                        ("illegal", Immobility::Illegal),
                        ("allowed", Immobility::Allowed),
                    ],
                )?,
                giving_check: cx.keyword(
                    "giving_check",
                    fd.rules.giving_check.as_ref(),
                    &[
                        ("allowed", GivingCheck::Allowed),
                        ("not_by_drops", GivingCheck::NotByDrops),
                        ("never", GivingCheck::Never),
                    ],
                )?,
                royals: cx.keyword(
                    "royals",
                    fd.rules.royals.as_ref(),
                    &[("all", RoyalRule::All), ("last", RoyalRule::Last)],
                )?,
                repetition: cx.keyword(
                    "repetition",
                    fd.rules.repetition.as_ref(),
                    &[("standard", RepetitionRule::Standard), ("repeater_loses", RepetitionRule::RepeaterLoses)],
                )?,
                initial_rights: match &fd.rules.initial_rights {
                    Some(r) => Some(InitialRights {
                        lost_to_attack_by: r.lost_to_attack_by.as_ref().map(&piece_of).transpose()?,
                        not_in_check: r.not_in_check,
                    }),
                    None => None,
                },
                n_move_rule: match &fd.rules.n_move_rule {
                    Some(n) if *n.get_ref() > 1000 => {
                        return Err(cx.at(n.span(), "n_move_rule must be from 0 (none) to 1000 moves"));
                    }
                    n => n.as_ref().map(|n| *n.get_ref()),
                },
                n_fold: match &fd.rules.n_fold {
                    Some(n) if !(2..=10).contains(n.get_ref()) => {
                        return Err(cx.at(n.span(), "n_fold must be from 2 to 10 occurrences"));
                    }
                    Some(n) => *n.get_ref(),
                    None => 3,
                },
                checks: match &fd.rules.checks {
                    Some(n) if !(1..=15).contains(n.get_ref()) => {
                        return Err(cx.at(n.span(), "checks must be from 1 to 15"));
                    }
                    n => n.as_ref().map(|n| *n.get_ref()),
                },
            },
            notation: NotationDef::default(),
        };
        let mut def = def;
        if let Some(n) = &fd.notation {
            if let Some(d) = &n.default {
                if Notation::from_name(d.get_ref()).is_none() {
                    return Err(cx.at(d.span(), format!("unknown notation '{}'", d.get_ref())));
                }
                def.notation.default = Some(d.get_ref().clone());
            }
            if let Some(l) = &n.letters {
                // pairs "n:H b:E +n:G": FEN letter (with its mark), then the letter used in move text
                for pair in l.get_ref().split_whitespace() {
                    let bad = || cx.at(l.span(), format!("'{pair}': letters are written like \"n:H b:E +n:G l!:Y\""));
                    let (fen, text) = pair.split_once(':').ok_or_else(bad)?;
                    // the FEN id whole, as piece_token reads it: `l!:Y`, `+x':Z`, `(fd):F`
                    let (f, mark, dress) = match piece_token(fen.as_bytes()) {
                        Some((c, mark, dress, n)) if n == fen.len() => (c as char, mark, dress),
                        _ => return Err(bad()),
                    };
                    let mut tc = text.chars();
                    let (Some(w), None) = (tc.next(), tc.next()) else {
                        return Err(bad());
                    };
                    let Some(t) = def.piece_by_dressed_token(f, mark, dress) else {
                        return Err(cx.at(l.span(), format!("'{pair}': no piece is written '{fen}' with that mark")));
                    };
                    if !w.is_ascii_alphabetic() {
                        return Err(cx.at(l.span(), format!("'{pair}': '{w}' is not an ASCII letter")));
                    }
                    def.notation.letters.push((t, w.to_ascii_uppercase()));
                }
            }
        }
        Ok(def)
    }

    /// The index of the (unmarked) piece type with this FEN letter (either case).
    pub fn piece_by_letter(&self, c: char) -> Option<usize> {
        self.piece_by_token(c, 0)
    }

    /// The piece type a FEN names with this letter and mark: the type of that
    /// letter ([`VariantDef::piece_by_token`]), else an unpromoted type whose
    /// move-text letter ([`NotationDef::letters`]) it is, as Fairy-Stockfish
    /// reads its letter synonyms (`h` and `e` for Xiangqi's horse and elephant).
    ///
    /// ```
    /// let v = chimera::builtin::variant("xiangqi").unwrap();
    /// assert_eq!(v.def.piece_by_fen_token('H', 0), v.def.piece_by_fen_token('n', 0));
    /// assert!(v.def.piece_by_fen_token('h', 0).is_some());
    /// assert!(v.def.piece_by_fen_token('z', 0).is_none());
    /// ```
    pub fn piece_by_fen_token(&self, c: char, mark: u8) -> Option<usize> {
        self.piece_by_token(c, mark).or_else(|| {
            let l = c.to_ascii_lowercase();
            (mark == 0)
                .then(|| {
                    self.notation
                        .letters
                        .iter()
                        .find(|&&(t, n)| n.to_ascii_lowercase() == l && !self.pieces[t].promoted)
                        .map(|&(t, _)| t)
                })
                .flatten()
        })
    }

    /// The index of the piece type with this FEN letter and mark: 0, `b'+'`
    /// (a promoted type, `+P`) or `b'~'` (a crazyhouse promoted piece, `Q~`).
    pub fn piece_by_token(&self, c: char, mark: u8) -> Option<usize> {
        self.piece_by_dressed_token(c, mark, 0)
    }

    /// The index of the piece type with this FEN letter, mark and dress (0,
    /// `b'\''` or `b'!'`: `L'`, `+L!`; see [`DRESS_MARKS`]).
    pub fn piece_by_dressed_token(&self, c: char, mark: u8, dress: u8) -> Option<usize> {
        let l = c.to_ascii_lowercase();
        self.pieces.iter().position(|p| {
            p.letter == l && p.promoted == (mark == b'+') && p.tilde == (mark == b'~') && p.dress == dress
        })
    }

    /// [`VariantDef::piece_by_fen_token`] with a dress mark: a dressed token
    /// names its type only (move-text letters are never dressed).
    pub fn piece_by_dressed_fen_token(&self, c: char, mark: u8, dress: u8) -> Option<usize> {
        if dress == 0 {
            self.piece_by_fen_token(c, mark)
        } else {
            self.piece_by_dressed_token(c, mark, dress)
        }
    }
}

/// Most pieces of one type one side can hold in its pocket.
pub const MAX_POCKET: usize = 64;

/// A notation for writing moves, named as pyffish names them
/// (`NOTATION_SAN`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// The variant's own notation: see [`Notation::default_for`].
    Default,
    /// Short algebraic notation: `Nf3`, `exd5`, `O-O`, `e8=Q`, `P@e5`.
    San,
    /// Long algebraic notation: `Ng1-f3`, `e4xd5`.
    Lan,
    /// Hosking's shogi notation: `P76`, `Bx22+`, `P*55`.
    ShogiHosking,
    /// Hodges' (Western) shogi notation: `P-7f`, `Bx2b+`, `P*5e`.
    ShogiHodges,
    /// Hodges' notation with numeric ranks: `P-76`.
    ShogiHodgesNumber,
    /// Janggi's numeric squares (rank digit, then file): `R01-91`.
    Janggi,
    /// The World Xiangqi Federation's notation: `H8+7`, `C2=5`, `R+-1`.
    XiangqiWxf,
    /// SAN with Thai piece names and squares: `ม-ค๓`.
    ThaiSan,
    /// LAN with Thai piece names and squares: `ม ข๑-ค๓`.
    ThaiLan,
}

impl Notation {
    /// All notations but [`Notation::Default`], with their names.
    pub const ALL: [(Notation, &'static str); 9] = [
        (Notation::San, "san"),
        (Notation::Lan, "lan"),
        (Notation::ShogiHosking, "shogi_hosking"),
        (Notation::ShogiHodges, "shogi_hodges"),
        (Notation::ShogiHodgesNumber, "shogi_hodges_number"),
        (Notation::Janggi, "janggi"),
        (Notation::XiangqiWxf, "xiangqi_wxf"),
        (Notation::ThaiSan, "thai_san"),
        (Notation::ThaiLan, "thai_lan"),
    ];

    /// The notation of a name: `"san"`, `"lan"`, `"shogi_hosking"`,
    /// `"shogi_hodges"`, `"shogi_hodges_number"`, `"janggi"`,
    /// `"xiangqi_wxf"`, `"thai_san"`, `"thai_lan"` or `"default"`.
    pub fn from_name(name: &str) -> Option<Notation> {
        if name == "default" {
            return Some(Notation::Default);
        }
        Notation::ALL.iter().find(|(_, n)| *n == name).map(|&(n, _)| n)
    }

    /// The name [`Notation::from_name`] reads.
    pub fn name(self) -> &'static str {
        Notation::ALL.iter().find(|(n, _)| *n == self).map(|&(_, s)| s).unwrap_or("default")
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
name = "mini"
files = 5
ranks = 5
start_fen = "k4/5/5/5/4K w - - 0 1"
[zones]
home = "a1-e2"
[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true
"#;

    #[test]
    fn reads_a_small_definition() {
        let v = VariantDef::from_toml(MINI, "mini.toml").unwrap();
        assert_eq!(v.geometry.width, 5);
        assert_eq!(v.zones[0].white.iter().filter(|&&b| b).count(), 10);
        assert!(v.pieces[0].royal);
    }

    #[test]
    fn unknown_key_names_file_and_line() {
        let src = MINI.replace("royal = true", "royal = true\ncolour = \"red\"");
        let e = VariantDef::from_toml(&src, "mini.toml").unwrap_err();
        assert_eq!(e.file, "mini.toml");
        assert_eq!(e.line, 13);
        assert!(e.message.contains("unknown field `colour`"), "{}", e.message);
        assert!(e.message.contains("expected one of"), "{}", e.message);
    }

    #[test]
    fn bad_betza_points_into_the_string() {
        let src = MINI.replace("betza = \"K\"", "betza = \"KQ!\"");
        let e = VariantDef::from_toml(&src, "mini.toml").unwrap_err();
        assert_eq!(e.line, 11);
        assert!(e.to_string().contains("unexpected character '!'"), "{e}");
    }

    #[test]
    fn unknown_zone_is_an_error() {
        let src = MINI.replace("royal = true", "royal = true\nconfine = \"palace\"");
        let e = VariantDef::from_toml(&src, "mini.toml").unwrap_err();
        assert!(e.message.contains("unknown zone 'palace'"), "{}", e.message);
        assert_eq!(e.line, 13);
    }

    #[test]
    fn board_size_is_checked() {
        let src = MINI.replace("files = 5", "files = 40");
        assert!(VariantDef::from_toml(&src, "x").is_err());
    }

    #[test]
    fn names_that_would_break_protocol_lines_are_refused() {
        let src = MINI.replace("name = \"mini\"", "name = \"evil\\nreadyok\\nbestmove e2e4\"");
        let e = VariantDef::from_toml(&src, "evil.toml").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("evil\\nreadyok\\nbestmove e2e4") && !e.message.contains('\n'), "{e}");
        let src = MINI.replace("name = \"mini\"", &format!("name = \"{}\"", "m".repeat(MAX_NAME_LEN + 1)));
        assert!(VariantDef::from_toml(&src, "long.toml").is_err());
        let src = MINI.replace("name = \"mini\"", "name = \"\"");
        assert!(VariantDef::from_toml(&src, "empty.toml").is_err());
        let src = MINI.replace("name = \"mini\"", "name = \"Mini_2-x+\"");
        assert!(VariantDef::from_toml(&src, "ok.toml").is_ok());
    }

    #[test]
    fn confine_mode_reads_and_rejects_unknown_values() {
        let src = MINI.replace("royal = true", "royal = true\nconfine = \"home\"\nconfine_mode = \"destination\"");
        let d = VariantDef::from_toml(&src, "m.toml").unwrap();
        assert!(d.pieces.iter().any(|p| p.confine_mode == ConfineMode::Destination));
        let d =
            VariantDef::from_toml(&MINI.replace("royal = true", "royal = true\nconfine = \"home\""), "m.toml").unwrap();
        assert!(d.pieces.iter().all(|p| p.confine_mode == ConfineMode::Path));
        let src = MINI.replace("royal = true", "royal = true\nconfine = \"home\"\nconfine_mode = \"edge\"");
        let e = VariantDef::from_toml(&src, "m.toml").unwrap_err();
        assert!(e.message.contains("confine_mode"), "{e}");
    }

    #[test]
    fn the_immobility_rule_reads_and_rejects_unknown_values() {
        let src = MINI.replace("[zones]", "[rules]\nimmobility = \"illegal\"\n[zones]");
        assert_eq!(VariantDef::from_toml(&src, "m.toml").unwrap().rules.immobility, Immobility::Illegal);
        let src = MINI.replace("[zones]", "[rules]\nimmobility = \"sometimes\"\n[zones]");
        let e = VariantDef::from_toml(&src, "m.toml").unwrap_err();
        assert!(e.message.contains("immobility") && e.line == 7, "{e}");
        assert_eq!(VariantDef::from_toml(MINI, "m.toml").unwrap().rules.immobility, Immobility::ForcedPromotion);
    }

    #[test]
    fn the_royals_rule_reads_and_rejects_unknown_values() {
        let src = MINI.replace("[zones]", "[rules]\nroyals = \"last\"\n[zones]");
        assert_eq!(VariantDef::from_toml(&src, "m.toml").unwrap().rules.royals, RoyalRule::Last);
        let src = MINI.replace("[zones]", "[rules]\nroyals = \"any\"\n[zones]");
        let e = VariantDef::from_toml(&src, "m.toml").unwrap_err();
        assert!(e.message.contains("royals must be \"all\" or \"last\"") && e.line == 7, "{e}");
        assert_eq!(VariantDef::from_toml(MINI, "m.toml").unwrap().rules.royals, RoyalRule::All);
    }

    #[test]
    fn chu_promotion_is_optional_and_demotes() {
        let src = MINI.replace(
            "royal = true\n",
            "royal = true\n[[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fW\"\n\
             promotion = { zone = \"home\", to = \"+p\", style = \"chu\" }\n\
             [[piece]]\nname = \"tokin\"\nletter = \"+p\"\nbetza = \"WfF\"\n",
        );
        let v = VariantDef::from_toml(&src, "m.toml").unwrap();
        let pr = v.pieces[1].promotion.as_ref().unwrap();
        assert_eq!(pr.style, PromotionStyle::Chu);
        assert!(!pr.mandatory);
        assert_eq!(v.pieces[2].demotes_to, Some(1));
        let e = VariantDef::from_toml(&src.replace("\"chu\"", "\"chuu\""), "m.toml").unwrap_err();
        assert!(e.message.contains("\"chu\""), "{e}");
    }
}
