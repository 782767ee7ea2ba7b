//! A 36×36 board (Taikyoku Shogi's size): move counts derived by hand on an
//! almost empty board, square names beyond the 26th file, FEN round trips
//! and the incremental check test against the reference method. Run against
//! `chimera-wide`, whose library is also called `chimera`.

use chimera::perft::{perft, perft_reference};
use chimera::position::Position;
use chimera::variant::Variant;
use std::sync::Arc;

const N: usize = 36;

fn variant() -> Arc<Variant> {
    let toml = format!(
        "name = \"wide36\"\nfiles = {N}\nranks = {N}\nstart_fen = \"{}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"queen\"\nletter = \"q\"\nbetza = \"Q\"\n\n\
         [[piece]]\nname = \"rook\"\nletter = \"r\"\nbetza = \"R\"\n\n\
         [[piece]]\nname = \"knight\"\nletter = \"n\"\nbetza = \"N\"\n\n\
         [[piece]]\nname = \"lion\"\nletter = \"l\"\nbetza = \"KNADcaKmabK\"\n",
        fen(&[(1, 2, 'K'), (2, 35, 'k')])
    );
    Arc::new(Variant::from_toml(&toml, "wide36.toml").unwrap())
}

/// A FEN of the 36×36 board with pieces at (file, rank) from 0, White to move.
fn fen(pieces: &[(usize, usize, char)]) -> String {
    let mut rows = Vec::new();
    for r in (0..N).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..N {
            match pieces.iter().find(|p| p.0 == f && p.1 == r) {
                Some(p) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(p.2);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} w - - 0 1", rows.join("/"))
}

/// The legal moves of the piece on `from`, as text.
fn moves_from(pos: &mut Position, from: &str) -> Vec<String> {
    let mut out: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with(from)).collect();
    out.sort();
    out
}

#[test]
fn hand_counted_moves_on_an_empty_board() {
    let v = variant();
    // the white king on b3 and the black one on c36 stand on none of the
    // queen's lines from a1: rank 1 (35 squares), file a (35) and the long
    // diagonal to aj36 (35), so the queen has 3 * 35 = 105 moves
    let mut pos = Position::from_fen(v.clone(), &fen(&[(0, 0, 'Q'), (1, 2, 'K'), (2, 35, 'k')])).unwrap();
    let q = moves_from(&mut pos, "a1");
    assert_eq!(q.len(), 105, "{q:?}");
    // the ends of the three lines, named with the two-letter file `aj`
    for m in ["a1aj1", "a1a36", "a1aj36", "a1aa1", "a1z26"] {
        assert!(q.contains(&m.to_string()), "{m} in {q:?}");
    }
    // a knight in the centre (r18) has 8 moves; in the corner aj1 two (ai3, ah2)
    let mut pos =
        Position::from_fen(v.clone(), &fen(&[(17, 17, 'N'), (35, 0, 'N'), (1, 2, 'K'), (2, 35, 'k')])).unwrap();
    assert_eq!(moves_from(&mut pos, "r18").len(), 8);
    assert_eq!(moves_from(&mut pos, "aj1"), vec!["aj1ah2".to_string(), "aj1ai3".to_string()]);
    // a rook on aa18 (file 27): 35 squares along the rank and 35 along the file
    let mut pos = Position::from_fen(v, &fen(&[(26, 17, 'R'), (1, 2, 'K'), (2, 35, 'k')])).unwrap();
    assert_eq!(moves_from(&mut pos, "aa18").len(), 70);
}

#[test]
fn fen_round_trip_and_incremental_equals_reference() {
    let v = variant();
    let pieces = [
        (0, 0, 'Q'),
        (35, 35, 'q'),
        (26, 17, 'R'),
        (27, 18, 'n'),
        (30, 30, 'L'),
        (31, 32, 'l'),
        (17, 17, 'N'),
        (1, 2, 'K'),
        (2, 35, 'k'),
        (34, 1, 'r'),
    ];
    let f = fen(&pieces);
    let mut pos = Position::from_fen(v.clone(), &f).unwrap();
    assert_eq!(pos.fen(), f);
    let again = Position::from_fen(v, &pos.fen()).unwrap();
    assert_eq!((again.fen(), again.hash()), (pos.fen(), pos.hash()));
    let (p1, r1) = (perft(&mut pos, 1), perft_reference(&mut pos, 1));
    assert_eq!(p1, r1);
    assert!(p1 > 100, "{p1}");
    assert_eq!(perft(&mut pos, 2), perft_reference(&mut pos, 2));
    // every move's text reads back as the same move
    for m in pos.legal_moves() {
        let t = pos.move_text(m);
        assert_eq!(pos.parse_move(&t).ok(), Some(m), "{t}");
    }
}

#[test]
fn bad_wide_inputs_are_errors() {
    let v = variant();
    // 37 squares in a rank, a rank too many, a two-letter file beyond aj
    let long_rank = fen(&[(1, 2, 'K'), (2, 35, 'k')]).replacen("36", "37", 1);
    assert!(Position::from_fen(v.clone(), &long_rank).is_err());
    let mut pos = Position::from_fen(v.clone(), &fen(&[(0, 0, 'Q'), (1, 2, 'K'), (2, 35, 'k')])).unwrap();
    assert!(pos.parse_move("a1ak1").is_err());
    assert!(pos.parse_move("a1a37").is_err());
    assert!(pos.parse_move("zz1a1").is_err());
}

#[test]
fn table_memory_stays_small() {
    // five piece types, two colours, moved and unmoved, 1296 squares: the
    // cells and list heads stay below 40 MB
    let v = variant();
    let bytes = v.tables.cells.len() * std::mem::size_of::<chimera::compile::Cell>()
        + v.tables.lists.len() * std::mem::size_of::<chimera::compile::ListRef>();
    assert!(bytes < 40 << 20, "{bytes}");
}
