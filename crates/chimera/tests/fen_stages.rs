//! Reading a FEN in three stages (`chimera::fen`): the typed fields
//! `Setup::parse` finds, the position `Position::from_setup` builds from
//! them, and a setup made in code that does not fit its variant.

use chimera::builtin;
use chimera::fen::{EnPassant, FenProblem, Setup, Validation};
use chimera::position::Position;
use std::sync::Arc;

fn variant(name: &str) -> Arc<chimera::variant::Variant> {
    Arc::new(builtin::variant(name).unwrap())
}

/// Parsing and building in two steps gives the position `from_fen` reads,
/// for every built-in start position and a few others with every field.
#[test]
fn parse_then_build_is_from_fen() {
    let mut fens: Vec<(String, String)> = builtin::playable_names()
        .into_iter()
        .map(|n| {
            let fen = builtin::definition(n).unwrap().start_fen.clone();
            (n.to_string(), fen)
        })
        .collect();
    for (v, f) in [
        ("chess", "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 9"),
        ("3check", "4k3/8/8/8/8/8/8/4K3 w - - 2+1 5 30"),
        ("makruk", "4k3/8/8/8/8/8/8/4K2R b - 88 7 40"),
        ("seirawan", "4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1"),
        ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"),
        ("berolina", "rnbqkbnr/pppppppp/8/8/5P2/8/PPPPP1PP/RNBQKBNR b KQkq e3f4 0 1"),
    ] {
        fens.push((v.to_string(), f.to_string()));
    }
    for (name, fen) in fens {
        let v = variant(&name);
        let setup = Setup::parse(&v.def, &fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        let built = Position::from_setup(v.clone(), &setup, Validation::Strict).unwrap();
        let read = Position::from_fen(v, &fen).unwrap();
        assert_eq!(built.fen(), read.fen(), "{name}");
        assert_eq!(built.hash(), read.hash(), "{name}");
    }
}

/// The fields as typed values: side, castling letters, e.p. squares or a
/// count limit, checks left, counters.
#[test]
fn fields_are_read_into_typed_values() {
    let chess = variant("chess");
    let g = chess.geometry();
    let s = Setup::parse(&chess.def, "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 3 9").unwrap();
    assert_eq!((s.castling.as_str(), s.halfmove, s.fullmove), ("Kq", 3, 9));
    assert_eq!(s.en_passant, EnPassant::Square(g.parse_square("d6").unwrap()));
    assert_eq!(s.board.iter().filter(|&&c| c != chimera::piece::Code::EMPTY).count(), 3 + 2 + 3);
    // a move number of 0 is read as 1; missing fields take their defaults
    let s = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/4K3 b - - 0 0").unwrap();
    assert_eq!((s.side, s.fullmove), (chimera::square::Color::Black, 1));
    let s = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/4K3").unwrap();
    assert_eq!((s.castling.as_str(), s.en_passant.clone(), s.halfmove, s.fullmove), ("", EnPassant::None, 0, 1));

    let check3 = variant("3check");
    let s = Setup::parse(&check3.def, "4k3/8/8/8/8/8/8/4K3 w - - 2+1 5 30").unwrap();
    assert_eq!((s.checks_left, s.halfmove, s.fullmove), (Some([2, 1]), 5, 30));

    let makruk = variant("makruk");
    let s = Setup::parse(&makruk.def, "4k3/8/8/8/8/8/8/4K2R b - 88 7 40").unwrap();
    assert_eq!(s.en_passant, EnPassant::CountLimit(88));

    let berolina = variant("berolina");
    let s = Setup::parse(&berolina.def, "4k3/8/8/8/5P2/8/8/4K3 b - e3f4 0 1").unwrap();
    let sq = |n| berolina.geometry().parse_square(n).unwrap();
    assert_eq!(s.en_passant, EnPassant::Squares(vec![sq("e3"), sq("f4")]));

    // shogi's short form "w 0 1": the two counters
    let shogi = variant("shogi");
    let s = Setup::parse(&shogi.def, &shogi.def.start_fen).unwrap();
    assert_eq!((s.castling.as_str(), s.halfmove, s.fullmove), ("", 0, 1));
}

/// Syntax errors are found by parsing, whatever the board holds; a
/// position no game reaches is refused by building, strictly only.
#[test]
fn parse_finds_syntax_build_finds_contents() {
    let chess = variant("chess");
    let e = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/4K3 w - - x 1").unwrap_err();
    assert_eq!(e.problem, FenProblem::HalfMoveClock);
    let e = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/4K3 w - z9 0 1").unwrap_err();
    assert_eq!(e.problem, FenProblem::EnPassant);
    let e = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 more").unwrap_err();
    assert_eq!(e.problem, FenProblem::FieldCount);
    // no white king: the syntax is fine, the contents are not
    let s = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap();
    let e = Position::from_setup(chess.clone(), &s, Validation::Strict).unwrap_err();
    assert_eq!(e.problem, FenProblem::RoyalCount);
    assert!(Position::from_setup(chess.clone(), &s, Validation::Permissive).is_ok());
    // a castling right without its rook is found while building
    let s = Setup::parse(&chess.def, "4k3/8/8/8/8/8/8/4K3 w K - 0 1").unwrap();
    let e = Position::from_setup(chess, &s, Validation::Permissive).unwrap_err();
    assert_eq!(e.problem, FenProblem::Castling);
}

/// A setup made in code is checked against its variant before anything is
/// placed: the board's size, the piece codes, the pockets and the fields
/// the variant's rules have.
#[test]
fn a_setup_that_does_not_fit_its_variant_is_an_error() {
    let chess = variant("chess");
    let xiangqi = variant("xiangqi");
    let start = Setup::parse(&chess.def, &chess.def.start_fen).unwrap();
    let refused = |v: &Arc<chimera::variant::Variant>, s: &Setup, what: &str| {
        let e = Position::from_setup(v.clone(), s, Validation::Permissive).unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
    };
    // a chess board (64 squares) for xiangqi (90)
    refused(&xiangqi, &start, "the setup has 64 squares, xiangqi has 90");
    // a code beyond the variant's pieces, and code 1 (no piece's)
    let mut s = start.clone();
    s.board[20] = chimera::piece::Code::new(200);
    refused(&chess, &s, "piece code 200 is not a piece of chess");
    s.board[20] = chimera::piece::Code::new(1);
    refused(&chess, &s, "piece code 1 is not a piece of chess");
    // pieces in hand of a type the variant does not have
    let mut s = start.clone();
    s.pockets[0][chess.def.pieces.len()] = 1;
    refused(&chess, &s, "the pockets do not fit the variant");
    // xiangqi has no castling field, chess no count limit and no checks
    let mut s = Setup::parse(&xiangqi.def, &xiangqi.def.start_fen).unwrap();
    s.castling = "KQ".into();
    refused(&xiangqi, &s, "xiangqi has no castling");
    // an e.p. square off the board
    let mut s = start.clone();
    s.en_passant = EnPassant::Square(chimera::square::Square::new(200));
    refused(&chess, &s, "square 200 is not on the 8x8 board");
    s.en_passant = EnPassant::Squares(vec![chimera::square::Square::new(20), chimera::square::Square::new(64)]);
    refused(&chess, &s, "square 64 is not on the 8x8 board");
    let mut s = start.clone();
    s.en_passant = EnPassant::CountLimit(16);
    refused(&chess, &s, "chess has no counting rule");
    let mut s = start;
    s.checks_left = Some([3, 3]);
    refused(&chess, &s, "chess does not count [3, 3] checks");
}
