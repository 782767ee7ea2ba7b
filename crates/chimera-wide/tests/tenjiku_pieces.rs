//! The four Tenjiku Shogi pieces that HaChu simplifies, as the built-in
//! `tenjikushogi` defines them (variants/tenjikushogi.toml), with the
//! expected moves derived by hand on the 16x16 board: the Fire Demon and the
//! Vice General's area move of up to three King steps, the Free Eagle's
//! jumps and diagonal Lion powers, the Heavenly Tetrarchs' slides that skip
//! the first square and its capture without moving; and the Fire Demon's
//! passive burning.

use chimera::position::Position;
use chimera::variant::Variant;
use std::collections::BTreeSet;
use std::sync::Arc;

fn tenjiku() -> Arc<Variant> {
    static V: std::sync::OnceLock<Arc<Variant>> = std::sync::OnceLock::new();
    V.get_or_init(|| Arc::new(chimera::builtin::variant("tenjikushogi").unwrap())).clone()
}

/// A Tenjiku FEN with the given pieces (FEN token, square), White to move.
fn fen_with(pieces: &[(&str, &str)]) -> String {
    let v = tenjiku();
    let g = v.def.geometry;
    let mut rows = Vec::new();
    for r in (0..16).rev() {
        let (mut row, mut empty) = (String::new(), 0);
        for f in 0..16 {
            let here = pieces.iter().find(|(_, s)| g.parse_square(s) == g.square(f, r));
            match here {
                Some((token, _)) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row += token;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    format!("{} w - - 0 1", rows.join("/"))
}

/// The legal moves of the piece on `from`, as texts.
fn moves_from(pieces: &[(&str, &str)], from: &str) -> BTreeSet<String> {
    let v = tenjiku();
    let mut pos = Position::from_fen(v.clone(), &fen_with(pieces)).unwrap();
    let sq = v.def.geometry.parse_square(from).unwrap();
    pos.legal_moves().into_iter().filter(|m| m.from() == sq).map(|m| pos.move_text(m)).collect()
}

fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

/// The squares of a block of files and ranks, e.g. ("e", "k", 5, 11).
fn block(files: std::ops::RangeInclusive<char>, ranks: std::ops::RangeInclusive<u32>) -> Vec<String> {
    files.flat_map(|f| ranks.clone().map(move |r| format!("{f}{r}"))).collect()
}

/// Kings on e1 and e16, out of reach of the pieces tested on h8.
const KINGS: [(&str, &str); 2] = [("K", "e1"), ("k", "e16")];

#[test]
fn the_fire_demon_slides_six_ways_and_steps_three_times_on_an_empty_board() {
    // the area move covers e5-k11 but h8 itself (48 squares); beyond it the
    // diagonals go on to a1, o1, a15, p16 (4 + 4 + 4 + 5) and rank 8 to a8
    // and p8 (4 + 5), the file not beyond h5 and h11
    let ours = moves_from(&[KINGS[0], KINGS[1], ("D!", "h8")], "h8");
    let mut want: BTreeSet<String> = block('e'..='k', 5..=11).into_iter().filter(|s| s != "h8").collect();
    for s in ["d4", "c3", "b2", "a1", "l4", "m3", "n2", "o1", "d12", "c13", "b14", "a15"] {
        want.insert(s.into());
    }
    for s in ["l12", "m13", "n14", "o15", "p16", "a8", "b8", "c8", "d8", "l8", "m8", "n8", "o8", "p8"] {
        want.insert(s.into());
    }
    let want: BTreeSet<String> = want.iter().map(|s| format!("h8{s}")).collect();
    assert_eq!(want.len(), 74);
    assert_eq!(ours, want);
}

#[test]
fn the_area_move_goes_round_pieces_and_stops_on_a_capture() {
    // White pawns on seven of h8's neighbours, h9 open: one step to h9, two
    // to g10 h10 i10 (g8, i8, g9, i9 are White's), three to f9 f10 f11 g11
    // h11 i11 j9 j10 j11; no slide gets out
    let walls = [("P", "g7"), ("P", "h7"), ("P", "i7"), ("P", "g8"), ("P", "i8"), ("P", "g9"), ("P", "i9")];
    let mut pieces = vec![KINGS[0], KINGS[1], ("D!", "h8")];
    pieces.extend(walls);
    let want = set(&[
        "h8h9", "h8g10", "h8h10", "h8i10", "h8f9", "h8f10", "h8f11", "h8g11", "h8h11", "h8i11", "h8j9", "h8j10",
        "h8j11",
    ]);
    assert_eq!(moves_from(&pieces, "h8"), want);
    // a Black pawn on h9: the Fire Demon takes it and stops there
    pieces.push(("p", "h9"));
    assert_eq!(moves_from(&pieces, "h8"), set(&["h8h9"]));
}

#[test]
fn the_vice_general_has_the_area_move_and_jumping_diagonal_captures() {
    // Vice General h8, White pawns round it but on h9, a Black Gold on k5
    // behind the White pawn i7 on its diagonal: the area move as the Fire
    // Demon's, no sideways slide, and the jumping capture h8k5 (over i7,
    // ranked below it; j6 is empty)
    let walls = [("P", "g7"), ("P", "h7"), ("P", "i7"), ("P", "g8"), ("P", "i8"), ("P", "g9"), ("P", "i9")];
    let mut pieces = vec![KINGS[0], KINGS[1], ("V!", "h8"), ("g", "k5")];
    pieces.extend(walls);
    let want = set(&[
        "h8h9", "h8g10", "h8h10", "h8i10", "h8f9", "h8f10", "h8f11", "h8g11", "h8h11", "h8i11", "h8j9", "h8j10",
        "h8j11", "h8k5",
    ]);
    assert_eq!(moves_from(&pieces, "h8"), want);
}

#[test]
fn the_free_eagle_jumps_two_squares_and_has_lion_powers_on_the_diagonals() {
    // Free Eagle h8 with White pawns on seven neighbours and a Black pawn on
    // i9: its slides end there (h8i9); it jumps to the second square in all
    // eight directions (h10 h6 f8 j8 f10 j10 f6 j6); on the diagonal it
    // takes i9 and goes on to j10 (h8i9,i9j10) or back (h8i9,i9h8); no pass,
    // since no diagonal neighbour is empty
    let walls = [("P", "g7"), ("P", "h7"), ("P", "i7"), ("P", "g8"), ("P", "i8"), ("P", "g9"), ("P", "h9")];
    let mut pieces = vec![KINGS[0], KINGS[1], ("Q'", "h8"), ("p", "i9")];
    pieces.extend(walls);
    let want =
        set(&["h8i9", "h8h10", "h8h6", "h8f8", "h8j8", "h8f10", "h8j10", "h8f6", "h8j6", "h8i9,i9j10", "h8i9,i9h8"]);
    assert_eq!(moves_from(&pieces, "h8"), want);
    // with the pawn on g9 gone the Eagle may pass (g9 and back): one pass,
    // written h8h8, and the slides and the jumps toward g9 open up
    let pieces: Vec<(&str, &str)> = pieces.into_iter().filter(|p| p.1 != "g9").collect();
    let ours = moves_from(&pieces, "h8");
    assert!(ours.contains("h8h8") && ours.contains("h8g9") && ours.contains("h8a15"), "{ours:?}");
}

#[test]
fn the_heavenly_tetrarchs_skip_the_first_square_and_capture_without_moving() {
    // on an empty board from h8: the diagonals from the second square on
    // (f6-a1, j6-o1, f10-a15, j10-p16: 6 + 6 + 6 + 7), the file (h10-h16,
    // h6-h1: 7 + 6), the rank to three squares at most (f8 e8 j8 k8)
    let ours = moves_from(&[KINGS[0], KINGS[1], ("+C!", "h8")], "h8");
    assert_eq!(ours.len(), 42, "{ours:?}");
    for m in ["h8f6", "h8a1", "h8o1", "h8a15", "h8p16", "h8h16", "h8h1", "h8e8", "h8k8"] {
        assert!(ours.contains(m), "{m}");
    }
    for m in ["h8g7", "h8h9", "h8d8", "h8l8", "h8h8"] {
        assert!(!ours.contains(m), "{m}");
    }
    // a Black pawn on g8 and a White one on h9: g8 is taken without moving
    // (h8g8,g8h8) and skipped on the way to f8 and e8; h9 is skipped too
    let ours = moves_from(&[KINGS[0], KINGS[1], ("+C!", "h8"), ("p", "g8"), ("P", "h9")], "h8");
    assert_eq!(ours.len(), 43, "{ours:?}");
    assert!(ours.contains("h8g8,g8h8") && ours.contains("h8f8") && ours.contains("h8h10"));
    assert!(!ours.contains("h8g8"));
}

#[test]
fn a_piece_that_lands_next_to_an_enemy_fire_demon_burns() {
    // White Rook a7 to g7, next to the Black Fire Demon h8: the rook is gone
    // after the move; to f7 it stays
    let v = tenjiku();
    let fen = fen_with(&[KINGS[0], KINGS[1], ("d!", "h8"), ("R", "a7")]);
    let mut pos = Position::from_fen(v.clone(), &fen).unwrap();
    let m = pos.parse_move("a7g7").unwrap();
    let undo = pos.make(m);
    let burnt = fen_with(&[KINGS[0], KINGS[1], ("d!", "h8")]).replace(" w - - 0 1", " b - - 0 1");
    assert_eq!(pos.fen(), burnt);
    pos.unmake(m, &undo);
    assert_eq!(pos.fen(), fen);
    let m = pos.parse_move("a7f7").unwrap();
    pos.make(m);
    assert!(pos.fen().contains('R'));
}
