//! The plain values the page's API returns (no type of the core in them),
//! shared by the game logic compiled over both cores ([`crate::narrow`],
//! [`crate::wide`]) and the bindings in the crate root.

/// A built-in variant's name and one-line description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The name to load it by.
    pub name: String,
    /// Its description (empty if the file gives none).
    pub description: String,
}

/// One highlighted square: where a piece may go, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetInfo {
    /// The square's name (`e4`).
    pub square: String,
    /// The kinds of the moves to it: `move`, `capture`, `promotion`,
    /// `victim` (a piece captured on the way: choose it to see the second
    /// legs), `second-leg`, `castle`, `pass`, `en-passant`, `drop`.
    pub kinds: Vec<&'static str>,
}

/// A legal move with everything a board needs to show and choose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetail {
    /// The move in Fairy-Stockfish's UCI notation, as `chimera moves` writes it.
    pub uci: String,
    /// The origin square; `None` for a drop.
    pub from: Option<String>,
    /// The destination square.
    pub to: String,
    /// `normal`, `promotion`, `en-passant`, `castle`, `double`, `locust`, `pass` or `drop`.
    pub kind: &'static str,
    /// Whether the move captures a piece.
    pub capture: bool,
    /// The square of a piece captured on the way (a locust move's first leg)
    /// or by en passant.
    pub victim: Option<String>,
    /// The piece promoted to, as a FEN token (`Q`, `+P`).
    pub promotion: Option<String>,
    /// The piece dropped, as a FEN token.
    pub drop: Option<String>,
    /// The piece gated in (Seirawan), as a FEN token.
    pub gate: Option<String>,
    /// The square the gated piece goes to.
    pub gate_square: Option<String>,
    /// The castling rook's square, for a castling move.
    pub rook: Option<String>,
    /// A short description to choose between moves that share their squares
    /// (`promote to queen`, `stay unpromoted`, `gate hawk on b1`, `pass`).
    pub label: String,
}

/// One square of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The square's name.
    pub square: String,
    /// Its file, 0 for the leftmost from White's side.
    pub file: u8,
    /// Its rank, 0 for White's first rank.
    pub rank: u8,
    /// The piece on it as a FEN token (`P`, `k`, `+p`, `Q~`, `L'`), if any.
    pub piece: Option<String>,
    /// The piece's colour: `white` or `black`.
    pub color: Option<&'static str>,
    /// The piece type's name (`knight`).
    pub name: Option<String>,
    /// The square is a wall (no piece may enter it).
    pub wall: bool,
}

/// Pieces of one type in one side's hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandPiece {
    /// `white` or `black`.
    pub color: &'static str,
    /// The FEN token, in the owner's case (`P` for White's pawns, `p` for Black's).
    pub piece: String,
    /// The type's name.
    pub name: String,
    /// How many.
    pub count: u8,
}

/// One piece type of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceTypeInfo {
    /// White's FEN token (`N`, `+P`).
    pub piece: String,
    /// The name.
    pub name: String,
    /// The moves in XBetza.
    pub betza: String,
    /// Whether losing it loses the game.
    pub royal: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `white`, `black`, or `None` for a draw.
    pub winner: Option<&'static str>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: &'static str,
    /// Why: `checkmate`, `stalemate`, `repetition`, `flag reached`, ...
    pub reason: String,
}

/// How a game has ended or may be ended, as `gameEnd` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndInfo {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why: `checkmate`, `stalemate`, `repetition`, `n-move rule`, ...
    pub reason: String,
    /// A player may claim this end (repetition, the n-move rule, a dead
    /// position); `false` when the rules end the game at once.
    pub claimable: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// The best move in UCI notation.
    pub best: String,
    /// The principal variation, in UCI notation.
    pub pv: Vec<String>,
    /// The score in centipawns from the side to move's view (mates are near ±31000).
    pub score: i32,
    /// The last iteration's depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used, in milliseconds.
    pub elapsed_ms: f64,
}

/// A game read from PGN: its tags and main line.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The tags in the order read.
    pub tags: Vec<(String, String)>,
    /// The main line in UCI notation.
    pub moves: Vec<String>,
    /// The main line as written in the variant's notation.
    pub san: Vec<String>,
    /// The variant's name.
    pub variant: String,
    /// The start FEN.
    pub start_fen: String,
    /// The result token (`*` if unknown).
    pub result: String,
}

/// Variant names as ffish.js lists them, one string separated by spaces:
/// `names` (the built-in ones), then each of `loaded` not among them.
pub fn name_list(mut names: Vec<String>, loaded: &[String]) -> String {
    for n in loaded {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    names.join(" ")
}
