//! XBetza constructs, one test each, with move lists derived by hand.
//!
//! Each test builds an 8×8 variant with a royal king `k`, a blocker `p` (a
//! plain Wazir) and the piece `x` under test, puts the piece on a square with
//! a few blockers, and compares its legal moves with a list reasoned from the
//! definition (see docs/variant-format.md, "Moves (XBetza)"). The kings stand
//! on a1 and h8, off every line the tests use unless a test says otherwise.

use chimera::position::Position;
use chimera::variant::Variant;
use std::collections::BTreeSet;
use std::sync::Arc;

fn custom(betza: &str) -> Arc<Variant> {
    Arc::new(try_custom(betza).unwrap_or_else(|e| panic!("{betza}: {e}")))
}

fn try_custom(betza: &str) -> Result<Variant, String> {
    let src = format!(
        r#"name = "test"
files = 8
ranks = 8
start_fen = "7k/8/8/8/8/8/8/K7 w - - 0 1"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "blocker"
letter = "p"
betza = "W"

[[piece]]
name = "xpiece"
letter = "x"
betza = "{betza}"
"#
    );
    Variant::from_toml(&src, "test.toml").map_err(|e| e.to_string())
}

/// The sorted legal moves from `from`; fails if a move is listed twice.
fn moves_from(v: &Arc<Variant>, fen: &str, from: &str) -> Vec<String> {
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    let ms = pos.legal_moves();
    let mut out: Vec<String> = ms
        .iter()
        .map(|&m| pos.move_text(m))
        .filter(|m| m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    out.sort();
    let set: BTreeSet<&String> = out.iter().collect();
    assert_eq!(set.len(), out.len(), "{fen}: a move from {from} is listed twice: {out:?}");
    out
}

#[track_caller]
fn check(betza: &str, fen: &str, from: &str, expected: &[&str]) {
    let v = custom(betza);
    let got = moves_from(&v, fen, from);
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{betza} in {fen}: moves from {from}");
}

#[track_caller]
fn refused(betza: &str, token: &str) {
    let e = try_custom(betza).err().unwrap_or_else(|| panic!("{betza} should be refused"));
    assert!(e.contains(token), "{betza}: the error should name {token}: {e}");
}

// ------------------------------------------------- later legs without a direction

#[test]
fn ca_w_continues_straight_or_sideways_never_back() {
    // enemy on d5: capture it, then one W step straight on (d6) or turned by
    // 90° (c5, e5); not back to d4, and no diagonal step
    check("caW", "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d5,d5c5", "d4d5,d5d6", "d4d5,d5e5"]);
    // a friend on d6 takes that continuation away; an enemy on e5 is captured
    // (d4d5,d5e5 takes both)
    check("caW", "7k/8/3P4/3pp3/3X4/8/8/K7 w - - 0 1", "d4", &["d4d5,d5c5", "d4d5,d5e5"]);
    // nothing to capture: no move
    check("caW", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &[]);
}

#[test]
fn ca_k_continues_in_seven_directions() {
    // caK = caW + caF; each continues as a K step in any direction but back
    check(
        "caK",
        "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4d5,d5c4", "d4d5,d5c5", "d4d5,d5c6", "d4d5,d5d6", "d4d5,d5e4", "d4d5,d5e5", "d4d5,d5e6"],
    );
}

#[test]
fn ma_w_reaches_the_dabbaba_and_ferz_squares() {
    // a W step to an empty square, then straight on (D squares) or sideways (F
    // squares): no pass back to d4, no knight squares
    check(
        "maW",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b4", "d4c3", "d4c5", "d4d2", "d4d6", "d4e3", "d4e5", "d4f4"],
    );
    // a piece on d5 blocks d6 (only reached through d5); c5 and e5 are still
    // reached through c4 and e4
    check("maW", "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4b4", "d4c3", "d4c5", "d4d2", "d4e3", "d4e5", "d4f4"]);
}

#[test]
fn hachu_lion_form_has_no_igui_under_xboard_reading() {
    // KNADcaKmabK: the 24 direct moves, the pass (mabK), and with an enemy on
    // e5 a capture there followed by a step to any neighbour of e5 but d4
    let mut want = vec![
        "d4b2", "d4b3", "d4b4", "d4b5", "d4b6", "d4c2", "d4c3", "d4c4", "d4c5", "d4c6", "d4d2", "d4d3", "d4d5", "d4d6",
        "d4e2", "d4e3", "d4e4", "d4e5", "d4e6", "d4f2", "d4f3", "d4f4", "d4f5", "d4f6", "d4d4",
    ];
    want.extend(["d4e5,e5d5", "d4e5,e5d6", "d4e5,e5e6", "d4e5,e5f6", "d4e5,e5f5", "d4e5,e5f4", "d4e5,e5e4"]);
    check("KNADcaKmabK", "7k/8/8/4p3/3X4/8/8/K7 w - - 0 1", "d4", &want);
    // cabK adds the igui
    want.push("d4e5,e5d4");
    check("KNADcaKcabKmabK", "7k/8/8/4p3/3X4/8/8/K7 w - - 0 1", "d4", &want);
}

// ------------------------------------------------------------ j and n on riders

#[test]
fn j_rook_skips_the_first_square() {
    // the first square of each ray is skipped, empty, friend or foe
    check(
        "jR",
        "7k/8/8/3P4/3Xp3/8/8/K7 w - - 0 1",
        "d4",
        &["d4a4", "d4b4", "d4d1", "d4d2", "d4d6", "d4d7", "d4d8", "d4f4", "d4g4", "d4h4"],
    );
    // after the skipped square it rides as a rook: captures g4 and stops
    check(
        "jR",
        "7k/8/8/8/3Xp1p1/8/8/K7 w - - 0 1",
        "d4",
        &["d4a4", "d4b4", "d4d1", "d4d2", "d4d6", "d4d7", "d4d8", "d4f4", "d4g4"],
    );
    // the range counts the skipped square: jR3 reaches the second and third
    check(
        "jR3",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4a4", "d4b4", "d4d1", "d4d2", "d4d6", "d4d7", "d4f4", "d4g4"],
    );
    // jB: the same on diagonals (e5 skipped though occupied; a friend on g7
    // and the king on a1 end two rides)
    check("jB", "7k/6P1/8/4p3/3X4/8/8/K7 w - - 0 1", "d4", &["d4a7", "d4b6", "d4b2", "d4f2", "d4g1", "d4f6"]);
}

#[test]
fn lame_nightrider_needs_each_step_open() {
    // empty board: the nightrider's twelve squares
    let all = ["d4b3", "d4b5", "d4b8", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5", "d4f8", "d4h2", "d4h6"];
    check("nNN", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &all);
    // d5 is the orthogonal-first square of the steps (±1,2): c6, b8, e6, f8 go
    check(
        "nNN",
        "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4c2", "d4e2", "d4f3", "d4f5", "d4h2", "d4h6"],
    );
    // g5 lies between f5 and h6 (the second (2,1) step): h6 goes too
    check("nNN", "7k/8/8/3p2p1/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4e2", "d4f3", "d4f5", "d4h2"]);
}

#[test]
fn jumping_dabbaba_rider_needs_each_step_screened() {
    // jDD: every (2,0) step must jump over an occupied square: d4-f4 over
    // e4, f4-h4 over g4; the other rays have nothing to jump
    check("jDD", "7k/8/8/8/3Xp1p1/8/8/K7 w - - 0 1", "d4", &["d4f4", "d4h4"]);
    check("jDD", "7k/8/8/8/3Xp3/8/8/K7 w - - 0 1", "d4", &["d4f4"]);
}

// ------------------------------------------------------------------ y: Griffon

/// The Griffon's moves from d4 on the empty board (see `griffon_and_manticore`).
const GRIFFON: [&str; 24] = [
    "d4c5", "d4e5", "d4c3", "d4e3", // F
    "d4e6", "d4e7", "d4e8", "d4f5", "d4g5", "d4h5", // through e5
    "d4c6", "d4c7", "d4c8", "d4b5", "d4a5", // through c5
    "d4f3", "d4g3", "d4h3", "d4e2", "d4e1", // through e3
    "d4b3", "d4a3", "d4c2", "d4c1", // through c3
];

/// The Griffon's moves from d4 with an enemy on e5 and a friend on c7.
const GRIFFON_BLOCKED: [&str; 16] = [
    "d4c5", "d4e5", "d4c3", "d4e3", "d4c6", "d4b5", "d4a5", "d4f3", "d4g3", "d4h3", "d4e2", "d4e1", "d4b3", "d4a3",
    "d4c2", "d4c1",
];

#[test]
fn griffon_and_manticore() {
    // Griffon FyafsF: a ferz step, or a ferz step to an empty square and then
    // a rook ride turned 45° outward
    check("FyafsF", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &GRIFFON);
    // an enemy on e5 is captured but stops the rides behind it; a friend on
    // c7 blocks c7 and c8
    check("FyafsF", "7k/2P5/8/4p3/3X4/8/8/K7 w - - 0 1", "d4", &GRIFFON_BLOCKED);
    // Manticore WyafsW: a wazir step, then a bishop ride turned 45° outward
    check(
        "WyafsW",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &[
            "d4d5", "d4e4", "d4d3", "d4c4", "d4c6", "d4b7", "d4a8", "d4e6", "d4f7", "d4g8", "d4f5", "d4g6", "d4h7",
            "d4f3", "d4g2", "d4h1", "d4e2", "d4f1", "d4c2", "d4b1", "d4b5", "d4a6", "d4b3", "d4a2",
        ],
    );
}

// ------------------------------------------------------- bracket notation

#[test]
fn bracket_groups_chain_simple_moves() {
    // [F?R] is the Griffon of the XBetza description: the same moves as
    // FyafsF above, on the empty board and with the blockers
    check("[F?R]", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &GRIFFON);
    check("[F?R]", "7k/2P5/8/4p3/3X4/8/8/K7 w - - 0 1", "d4", &GRIFFON_BLOCKED);
    // [W-F]: a wazir step to an empty square, then a ferz step 45° outward:
    // the Xiangqi horse; a piece on d5 blocks c6 and e6
    check("[W-F]", "7k/8/8/3P4/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4e2", "d4f3", "d4f5"]);
    // [R-F]: a rook ride over empty squares, then one ferz step 45° outward
    // (never from d4 itself); the pawn on d6 stops the ride up at d5
    check(
        "[R-F]",
        "7k/8/3P4/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &[
            "d4c6", "d4e6", // from d5
            "d4c2", "d4e2", "d4c1", "d4e1", // from d3, d2 (d1: nothing below)
            "d4b5", "d4b3", "d4a5", "d4a3", // from c4, b4
            "d4f5", "d4f3", "d4g5", "d4g3", "d4h5", "d4h3", // from e4, f4, g4
        ],
    );
    // [W-W?W]: two steps straight on, and optionally a third
    check(
        "[W-W?W]",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4d6", "d4d7", "d4f4", "d4g4", "d4d2", "d4d1", "d4b4", "d4a4"],
    );
    // directions: the first leg's are absolute, a later leg's relative;
    // [fF?R] keeps the forward ferz steps only, [F-bW] turns 135° back
    check(
        "[fF?R]",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4c5", "d4e5", "d4e6", "d4e7", "d4e8", "d4f5", "d4g5", "d4h5", "d4c6", "d4c7", "d4c8", "d4b5", "d4a5"],
    );
    check("[F-bW]", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4c4", "d4d3", "d4d5", "d4e4"]);
    // legs of one other leaper: [D?DD] is a dabbaba leap, or a leap to an
    // empty square and a dabbaba ride straight on; a friend on d6 blocks d6
    // and the ride behind it
    check("[D?DD]", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b4", "d4d2", "d4d6", "d4d8", "d4f4", "d4h4"]);
    check("[D?DD]", "7k/8/3P4/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b4", "d4d2", "d4f4", "d4h4"]);
    // three legs switch twice: a ferz step, a rook ride turned 45° outward,
    // then a ferz step turned 45° outward from the ride (from e5: up e6, e7
    // and on to d7 f7 d8 f8; right f5, g5 and on to g6 g4 h6 h4; the same
    // from c5, e3 and c3)
    check(
        "[F-R-F]",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &[
            "d4d7", "d4f7", "d4d8", "d4f8", "d4g6", "d4g4", "d4h6", "d4h4", // through e5
            "d4b7", "d4b8", "d4a6", "d4a4", // through c5 (d7, d8 again)
            "d4d1", "d4f1", "d4g2", "d4h2", // through e3 (g4, h4 again)
            "d4b1", "d4a2", // through c3 (d1, a4 again)
        ],
    );
    // a bracket group sits among other units
    check(
        "W[F-W]",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4d5", "d4d3", "d4c4", "d4e4", "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"],
    );
}

#[test]
fn bad_bracket_groups_are_errors() {
    refused("[F?R", "unclosed '['");
    refused("[F]", "two legs or more");
    refused("[N-W]", "use one atom, or king steps");
    refused("[N-N]", "names its turn");
    refused("[W-Q]", "not 'Q'");
    refused("[F-lW]", "'l' turns by a multiple of 90°");
    refused("[W-flW]", "'fl' turns by 45°");
    refused("[F+R]", "'-' or '?', not '+'");
    refused("[F-", "unclosed '['");
    refused("[F-R-]", "ends with a leg");
    refused("[nF-R]", "'n' is not read inside brackets");
    refused("[cF-R]", "a capturing leg may not be followed by one that rides");
    refused("[W-W-W-W-W]", "at most four legs");
    assert!(try_custom("[W-W-W?W]").is_ok());
}

// ------------------------------------------------------------------- o: cylinder

#[test]
fn cylinder_rook_and_knight() {
    // empty board: the whole rank and file, each square once
    check(
        "oR",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &[
            "d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7",
            "d4d8",
        ],
    );
    // a friend on b4: to the left only c4; to the right round the edge to a4
    check(
        "oR",
        "7k/8/8/8/1P1X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4a4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4d8"],
    );
    // a knight on h4 jumps over the right edge to the a- and b-files
    check(
        "oN",
        "7k/8/8/8/7X/8/8/K7 w - - 0 1",
        "h4",
        &["h4a2", "h4a6", "h4b3", "h4b5", "h4f3", "h4f5", "h4g2", "h4g6"],
    );
}

// ------------------------------------------------------------ z: crooked

#[test]
fn crooked_bishop_zigzags() {
    // zB (the Boyscout) from d4: each diagonal first step, then alternately
    // turned 90° one way and back, first to the left or first to the right:
    // NE e5-d6-e7-d8 and e5-f4-g5-h4, NW c5-b4-a5 and c5-d6-c7-d8,
    // SW c3-d2-c1 and c3-b4-a3, SE e3-f4-g3-h4 and e3-d2-e1
    let all = [
        "d4e5", "d4d6", "d4e7", "d4d8", "d4f4", "d4g5", "d4h4", "d4c5", "d4b4", "d4a5", "d4c7", "d4c3", "d4d2", "d4c1",
        "d4a3", "d4e3", "d4g3", "d4e1",
    ];
    check("zB", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &all);
    // a friend on e5 closes both NE zigzags: e5, e7 and g5 go, the squares
    // also reached another way (d6, d8, f4, h4) stay, each listed once
    let rest: Vec<&str> = all.iter().copied().filter(|m| !["d4e5", "d4e7", "d4g5"].contains(m)).collect();
    check("zB", "7k/8/8/4P3/3X4/8/8/K7 w - - 0 1", "d4", &rest);
}

// ------------------------------------------------------------ q: circular (the Rose)

#[test]
fn rose_circles_around_octagons() {
    // qN from d4 (file 3, rank 3). The knight moves in order around the
    // circle (counter-clockwise): (2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2)
    // (1,-2) (2,-1). Each ride starts with one of them and takes the next
    // (or the previous) one at every step, until a piece or the edge stops it:
    // (1,2) e6, then d8 (-1,2) [then (-2,1) is off]; or g7 (2,1) [then (2,-1) off]
    // (2,1) f5, then g7; or h4 (2,-1) [then (1,-2) off]
    // (2,-1) f3, then h4; or g1 (1,-2)
    // (1,-2) e2, then g1; [(-1,-2) off]
    // (-1,-2) c2, then (-2,-1) a1: the king, a friend, stops it
    // (-2,-1) b3, then a1 again (stop); [(-2,1) off]
    // (-2,1) b5, then a7 (-1,2)
    // (-1,2) c6, then a7 (-2,1); or d8 (1,2)
    let all = ["d4a7", "d4b3", "d4b5", "d4c2", "d4c6", "d4d8", "d4e2", "d4e6", "d4f3", "d4f5", "d4g1", "d4g7", "d4h4"];
    check("qN", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &all);
    // a friend on e6 and an enemy on f5: e6 is not reached, f5 is captured,
    // and the rides through them stop there; d8 still comes from c6, h4 from
    // f3, but g7 (reached only through e6 or f5) is gone
    check(
        "qN",
        "7k/8/4P3/5p2/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4a7", "d4b3", "d4b5", "d4c2", "d4c6", "d4d8", "d4e2", "d4f3", "d4f5", "d4g1", "d4h4"],
    );
    // a range shortens the circle. qN2 from b1 (file 1, rank 0): the first
    // leaps reach c3 (1,2), a3 (-1,2), d2 (2,1); the second leap is the
    // next move either way round: from c3 b5 (-1,2) or e4 (2,1); from a3 b5
    // (1,2) [(-2,1) is off]; from d2 e4 (1,2) or f1 (2,-1)
    check("qN2", "7k/8/8/8/8/8/8/KX6 w - - 0 1", "b1", &["b1a3", "b1b5", "b1c3", "b1d2", "b1e4", "b1f1"]);
}

#[test]
fn circular_wazir_goes_round_a_square() {
    // qW: four steps in order (1,0) (0,1) (-1,0) (0,-1): from d4 three steps
    // round each of the four 2×2 squares beside it, so all eight neighbours
    check(
        "qW",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"],
    );
    // a friend on e4 and one on d5: e5 is reached neither way (through e4 or
    // d5); c5 through c4, e3 through d3
    check("qW", "k7/8/8/3P4/3XP3/8/8/7K w - - 0 1", "d4", &["d4c3", "d4c4", "d4c5", "d4d3", "d4e3"]);
}

// ------------------------------------------------------------ z and q on later legs

#[test]
fn z_and_q_turn_against_or_with_the_last_bend() {
    // afsafzW: a W step, a 45° turn either way (an F step), then a 45° turn
    // the other way (a W step): d5, then c6 (left), then c7 (right again),
    // or d5, e6, e7; likewise round the other three first steps: the
    // camel-like (1,3) shapes
    let camel = ["d4a3", "d4a5", "d4c1", "d4c7", "d4e1", "d4e7", "d4g3", "d4g5"];
    check("afsafzW", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &camel);
    // afsafqW: the second turn goes the same way: d5, c6, b6 (left, left)
    // or d5, e6, f6: the (2,2) shapes
    let alfil = ["d4b2", "d4b6", "d4f2", "d4f6"];
    check("afsafqW", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &alfil);
    // afsafrW turns right the second time whatever the first turn was: the
    // two shapes mixed, one of each pair
    check(
        "afsafrW",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4a3", "d4b2", "d4b6", "d4c7", "d4e1", "d4f2", "d4f6", "d4g5"],
    );
    // with no bend before, z (and q) turn either way like s: afzW is the Mao
    check(
        "afzW",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"],
    );
    // a friend on c6 blocks the one path through it, d5-c6-c7; a5 comes
    // through c4 and b5, so only c7 goes
    check(
        "afsafzW",
        "7k/8/2P5/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &camel.iter().copied().filter(|m| *m != "d4c7").collect::<Vec<_>>(),
    );
}

// ------------------------------------------------------------ h: halves of oblique atoms

#[test]
fn half_knights() {
    // fhN: the four knight moves with a forward component: b5 c6 e6 f5
    check("fhN", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b5", "d4c6", "d4e6", "d4f5"]);
    // bhN for Black is White's turned 180°: Black's backward half is up the board
    check("bhN", "K7/8/8/8/3x4/8/8/7k b - - 0 1", "d4", &["d4b5", "d4c6", "d4e6", "d4f5"]);
    // rhN: the four moves to the right: f5 f3 e6 e2
    check("rhN", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4e2", "d4e6", "d4f3", "d4f5"]);
    // hrN: (1,2) and its 90° rotations (2,-1) (-1,-2) (-2,1): e6 f3 c2 b5;
    // hlN: (-1,2) and its rotations (2,1)... i.e. c6 f5 e2 b3
    check("hrN", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b5", "d4c2", "d4e6", "d4f3"]);
    check("hlN", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4c6", "d4e2", "d4f5"]);
    // the two handed halves make the whole knight
    check(
        "hlNhrN",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"],
    );
}

// ------------------------------------------------------------ hopping leapers

#[test]
fn hopping_knight_lands_a_leap_behind_the_screen() {
    // pN: the screen a knight's leap away, the landing square one more leap
    // on: over e6 (either side) to f8; c6 to b8; f5 (enemy) to h6 — a friend
    // on h6 there stops it; no screen elsewhere, no move
    check("pN", "7k/8/4p2P/5p2/3X4/8/8/K7 w - - 0 1", "d4", &["d4f8"]);
    check("pN", "7k/8/2P1p3/5p2/3X4/8/8/K7 w - - 0 1", "d4", &["d4b8", "d4f8", "d4h6"]);
    // the landing square may hold an enemy (captured): e6 screen, f8 enemy
    check("pN", "5p1k/8/4P3/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4f8"]);
    // gN is read the same way: the leg after the hop is one leap
    check("gN", "7k/8/2P1p3/5p2/3X4/8/8/K7 w - - 0 1", "d4", &["d4b8", "d4f8", "d4h6"]);
    // pD: the Dabbaba cannon: over f4 to h4
    check("pD", "7k/8/8/8/3X1p2/8/8/K7 w - - 0 1", "d4", &["d4h4"]);
}

// ------------------------------------------------------------ t: tame

#[test]
fn tame_rook_captures_no_king() {
    // tR on d4, the black king on d8: the rook may not take it, so d8 is
    // left out and the king is not in check
    let ranks = ["d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4d1", "d4d2", "d4d3"];
    let mut want = ranks.to_vec();
    want.extend(["d4d5", "d4d6", "d4d7"]);
    check("tR", "3k4/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &want);
    // it still captures other pieces: d7
    check("tR", "3k4/3p4/8/8/3X4/8/8/K7 w - - 0 1", "d4", &want);
    // the king may step onto the tame rook's file: d7 is not attacked
    // (with an ordinary rook it would be, see below)
    check("tR", "3k4/8/8/8/3X4/8/8/K7 b - - 0 1", "d8", &["d8c7", "d8c8", "d8d7", "d8e7", "d8e8"]);
    check("R", "3k4/8/8/8/3X4/8/8/K7 b - - 0 1", "d8", &["d8c7", "d8c8", "d8e7", "d8e8"]);
}

#[test]
fn tame_hop_needs_a_friendly_screen() {
    // tpafR: hop from a screen next to it, then ride straight on; tame on
    // the hop leg: only a friend may be the screen (XBoard's reading)
    check("tpafR", "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &[]);
    check("tpafR", "7k/8/8/3P4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d6", "d4d7", "d4d8"]);
    check("pafR", "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d6", "d4d7", "d4d8"]);
}

// ------------------------------------------------------------ c and p on one leg, d on a non-final leg

#[test]
fn capture_or_hop_on_one_leg() {
    // cpafW: a W step to an occupied square, where the piece either hops
    // (the square stays) or captures (a foe), then one W step straight on
    // enemy on d5: hop to d6 (d4d6), or capture d5 and step to d6 (d4d5,d5d6)
    check("cpafW", "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d5,d5d6", "d4d6"]);
    // a friend on d5: hop only
    check("cpafW", "7k/8/8/3P4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d6"]);
    // enemies on d5 and d6: the hop captures d6; the locust takes both
    check("cpafW", "7k/8/3p4/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d5,d5d6", "d4d6"]);
}

#[test]
fn destroy_a_friend_on_the_way() {
    // dafW: capture a friend on d5, then step on to d6
    check("dafW", "7k/8/8/3P4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d5,d5d6"]);
    // an enemy on d5 is no victim for d
    check("dafW", "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &[]);
    // the own king is never destroyed: the piece on b1, its king on b2
    // (b3 behind it is empty), no move
    // and a friendly blocker there is taken
    check("dafW", "7k/8/8/8/8/8/1P6/KX6 w - - 0 1", "b1", &["b1b2,b2b3"]);
}

// ------------------------------------------------------------ extended atoms

#[test]
fn extended_and_universal_atoms() {
    // FX: the ferz lengthened by three orthogonal steps, (4,1), the giraffe:
    // from d4 (3,3): h5 h3 (±4 files), e8 c8 (+4 ranks); the others are off
    check("FX", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4c8", "d4e8", "d4h3", "d4h5"]);
    // WX = (4,0)
    check("WX", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4d8", "d4h4"]);
    // mU: to every empty square of the board (64 - d4 - a1 - h8 - the enemy on e5)
    let v = custom("mU");
    let got = moves_from(&v, "7k/8/8/4p3/3X4/8/8/K7 w - - 0 1", "d4");
    assert_eq!(got.len(), 60);
    assert!(!got.contains(&"d4e5".to_string()) && !got.contains(&"d4a1".to_string()));
    assert!(got.contains(&"d4a8".to_string()) && got.contains(&"d4h1".to_string()));
}

/// The sorted legal moves of the piece `x` with the moves `betza` on a
/// 12×12 board (kings on a1 and l12) with the pieces `placed` (FEN letters
/// at files and ranks counted from 0), from `from`.
fn moves_on_12x12(betza: &str, placed: &[(usize, usize, char)], from: &str) -> Vec<String> {
    let src = format!(
        "name = \"test12\"\nfiles = 12\nranks = 12\nstart_fen = \"11k/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1\"\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\
         [[piece]]\nname = \"blocker\"\nletter = \"p\"\nbetza = \"W\"\n\
         [[piece]]\nname = \"xpiece\"\nletter = \"x\"\nbetza = \"{betza}\"\n"
    );
    let v = Arc::new(Variant::from_toml(&src, "test12.toml").unwrap_or_else(|e| panic!("{betza}: {e}")));
    let mut all = vec![(0, 0, 'K'), (11, 11, 'k')];
    all.extend_from_slice(placed);
    let rows: Vec<String> = (0..12)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..12 {
                match all.iter().find(|p| p.0 == f && p.1 == r) {
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
            row
        })
        .collect();
    moves_from(&v, &format!("{} w - - 0 1", rows.join("/")), from)
}

#[track_caller]
fn check_12x12(betza: &str, placed: &[(usize, usize, char)], from: &str, expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|m| format!("{from}{m}")).collect();
    want.sort();
    assert_eq!(moves_on_12x12(betza, placed, from), want, "{betza}: moves from {from}");
}

/// The extended atoms as the table of the XBetza description draws them: `X`
/// adds three steps along the leap's longer axis, `Y` two along each axis.
/// From f6 (5,5) of a 12×12 board, a leap (x,y) reaches (5±x, 5±y) and
/// (5±y, 5±x) where those are on the board (files a-l, ranks 1-12).
#[test]
fn extended_atoms_x_and_y() {
    let x = [(5, 5, 'X')];
    // WX = (4,0): b6, j6, f2, f10
    check_12x12("WX", &x, "f6", &["b6", "j6", "f2", "f10"]);
    // FX = (4,1), the giraffe: b5 b7 j5 j7, e2 g2 e10 g10
    check_12x12("FX", &x, "f6", &["b5", "b7", "j5", "j7", "e2", "g2", "e10", "g10"]);
    // AX = (5,2): files 0 and 10 at ranks 3 and 7 (a4 a8 k4 k8); files 3 and 7
    // at ranks 0 and 10 (d1 h1 d11 h11)
    check_12x12("AX", &x, "f6", &["a4", "a8", "k4", "k8", "d1", "h1", "d11", "h11"]);
    // GX = (6,3): file 11 at ranks 2 and 8 (l3 l9; file -1 is off), rank 11
    // at files 2 and 8 (c12 i12; rank -1 is off)
    check_12x12("GX", &x, "f6", &["l3", "l9", "c12", "i12"]);
    // NY = (4,3): b3 b9 j3 j9, c2 c10 i2 i10
    check_12x12("NY", &x, "f6", &["b3", "b9", "j3", "j9", "c2", "c10", "i2", "i10"]);
    // DY = (4,2): b4 b8 j4 j8, d2 d10 h2 h10
    check_12x12("DY", &x, "f6", &["b4", "b8", "j4", "j8", "d2", "d10", "h2", "h10"]);
    // AY = (4,4): b2 b10 j2 j10
    check_12x12("AY", &x, "f6", &["b2", "b10", "j2", "j10"]);
    // KX = WX + FX
    check_12x12("KX", &x, "f6", &["b6", "j6", "f2", "f10", "b5", "b7", "j5", "j7", "e2", "g2", "e10", "g10"]);
    // KY = (3,2) + (3,3): c4 c8 i4 i8 d3 d9 h3 h9, c3 c9 i3 i9
    check_12x12("KY", &x, "f6", &["c4", "c8", "i4", "i8", "d3", "d9", "h3", "h9", "c3", "c9", "i3", "i9"]);
    // RX rides (4,0) leaps: from b2 (1,1) to f2, j2 and b6, b10 ...
    let b2 = [(1, 1, 'X')];
    check_12x12("RX", &b2, "b2", &["f2", "j2", "b6", "b10"]);
    // ... and a friend on f2 stops the ride there (j2 is not reached)
    check_12x12("RX", &[(1, 1, 'X'), (5, 1, 'P')], "b2", &["b6", "b10"]);
    // BY rides (3,3) leaps, as a G rider would: from b2 to e5, h8, k11
    check_12x12("BY", &b2, "b2", &["e5", "h8", "k11"]);
}

// ------------------------------------------------------------ gafW and gafR

#[test]
fn grasshopper_legs_generate() {
    // gafR: ride to the first piece (either side), land just behind it:
    // over d6 to d7; over b4 (friend) to a4; nothing on the other rays
    check("gafR", "7k/8/3p4/8/1P1X4/8/8/K7 w - - 0 1", "d4", &["d4a4", "d4d7"]);
    // gafW: a neighbour as the screen, then a rook ride straight on: over
    // d5 to d6, d7 (d8 holds a friend)
    check("gafW", "3P3k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4d6", "d4d7"]);
    // Black's gafR: the same, turned round
    check("gafR", "7K/8/8/8/3x4/8/3P4/k7 b - - 0 1", "d4", &["d4d1"]);
}

// ------------------------------------------------------------ incremental check test on the new pieces

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// Random playouts of 80 plies from the start of `v`: in every position the
/// incremental legality test gives the reference method's moves, and every
/// move played makes and unmakes to the same FEN and hash, the number of
/// pieces unchanged by a swap (`u`). A move that `favoured` picks is played
/// half the time when there is one. Returns the positions seen and the
/// favoured moves played.
fn playouts(
    v: &Arc<Variant>,
    seed: u64,
    games: usize,
    favoured: impl Fn(&Position, chimera::moves::Move) -> bool,
) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut positions, mut picked) = (0, 0);
    for _ in 0..games {
        let mut pos = Position::start(v.clone());
        for _ in 0..80 {
            let fast: BTreeSet<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
            let reference: BTreeSet<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
            assert_eq!(fast, reference, "incremental vs reference in {}", pos.fen());
            positions += 1;
            let ms = pos.legal_moves();
            if ms.is_empty() {
                break;
            }
            let best: Vec<_> = ms.iter().copied().filter(|&m| favoured(&pos, m)).collect();
            let m = if !best.is_empty() && rng.below(2) == 0 {
                best[rng.below(best.len())]
            } else {
                ms[rng.below(ms.len())]
            };
            picked += favoured(&pos, m) as usize;
            let (before, fen) = (pos.hash(), pos.fen());
            let pieces = fen.chars().filter(|c| c.is_ascii_alphabetic()).count();
            let undo = pos.make(m);
            if m.is_unload() {
                let after = pos.fen().chars().filter(|c| c.is_ascii_alphabetic()).count();
                assert_eq!(after, pieces, "a swap captures nothing: {fen} {}", pos.fen());
            }
            assert_eq!(pos.hash(), pos.compute_hash(), "hash after {fen}");
            pos.unmake(m, &undo);
            assert_eq!((pos.hash(), pos.fen()), (before, fen), "make/unmake of {}", pos.move_text(m));
            pos.make(m);
        }
    }
    (positions, picked)
}

#[test]
fn new_constructs_agree_with_the_reference_legality_test() {
    // every new construct on one board: the Rose, a tame rook, a capturing
    // or hopping stepper, a destroyer, hopping and half knights, the
    // giraffe and a universal mover; along random playouts the incremental
    // check test must give exactly the reference method's legal moves
    let src = r#"name = "newxbetza"
files = 8
ranks = 8
start_fen = "tqcdkghu/pppppppp/8/8/8/8/PPPPPPPP/TQCDKGHU w - - 0 1"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "pawn"
letter = "p"
betza = "fmWfcFcpafW"

[[piece]]
name = "tame"
letter = "t"
betza = "tRtpafR"

[[piece]]
name = "rose"
letter = "q"
betza = "qN"

[[piece]]
name = "stepper"
letter = "c"
betza = "cpafWK"

[[piece]]
name = "destroyer"
letter = "d"
betza = "dafWdafFK"

[[piece]]
name = "hopper"
letter = "h"
betza = "pNgNhrN"

[[piece]]
name = "giraffe"
letter = "g"
betza = "FXfhN"

[[piece]]
name = "universal"
letter = "u"
betza = "mUcK"
"#;
    let v = Arc::new(Variant::from_toml(src, "newxbetza.toml").unwrap());
    // captures are played half the time
    let (positions, _) = playouts(&v, 7, 12, |pos, m| !pos.piece_at(m.to()).is_empty());
    assert!(positions > 500, "{positions}");
}

// ------------------------------------------------------------ u: unload (swappers)

#[test]
fn swapper_changes_places_with_a_friend() {
    // RudR on d4: a rook that may also change places with the first friend
    // on each rook line (`ud`: take a friend, and put it back on d4).
    // Friends on d6 and b4, an enemy on f4: up d5, swap d6; down d3 d2 d1;
    // left c4, swap b4; right e4, capture f4 (the rook's own capture)
    let fen = "7k/8/3P4/8/1P1X1p2/8/8/K7 w - - 0 1";
    check("RudR", fen, "d4", &["d4b4", "d4c4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4e4", "d4f4"]);
    let v = custom("RudR");
    let mut pos = Position::from_fen(v, fen).unwrap();
    let m = pos.parse_move("d4d6").unwrap();
    assert!(m.is_unload(), "{m:?}");
    // written as a move, not a capture, in SAN too
    assert_eq!(pos.san(m, chimera::san::Notation::San), "Xd6");
    assert_eq!(pos.parse_san("Xd6", chimera::san::Notation::San).unwrap(), m);
    let (hash, before) = (pos.hash(), pos.fen());
    let undo = pos.make(m);
    // the rook is on d6, the friend it took is back on d4: nothing was captured
    assert_eq!(pos.fen(), "7k/8/3X4/8/1P1P1p2/8/8/K7 b - - 1 1");
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake(m, &undo);
    assert_eq!((pos.hash(), pos.fen()), (hash, before));
    // the plain capture of f4 is no unloading move
    assert!(!pos.parse_move("d4f4").unwrap().is_unload());
    // highlighting: the swaps are moves, the capture a capture
    let g = pos.geometry();
    let sq = |s: &str| g.parse_square(s).unwrap();
    let targets = pos.legal_targets(sq("d4"));
    let kind_at = |s: &str| targets.iter().find(|t| t.square == sq(s)).map(|t| t.kinds);
    use chimera::highlight::kind;
    assert_eq!(
        (kind_at("d6"), kind_at("b4"), kind_at("f4")),
        (Some(kind::MOVE), Some(kind::MOVE), Some(kind::CAPTURE))
    );
}

#[test]
fn swapper_changes_places_with_an_enemy_but_never_a_royal() {
    // mKucK on d4: king steps to empty squares, and with an enemy next to
    // it, a swap: the enemy on d5 goes to d4
    let fen = "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1";
    check("mKucK", fen, "d4", &["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"]);
    let mut pos = Position::from_fen(custom("mKucK"), fen).unwrap();
    let m = pos.parse_move("d4d5").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "7k/8/8/3X4/3p4/8/8/K7 b - - 1 1");
    // next to the black king on h8 it swaps nothing, and gives no check
    let fen = "7k/6X1/8/8/8/8/8/K7 w - - 0 1";
    check("mKucK", fen, "g7", &["g7f6", "g7f7", "g7f8", "g7g6", "g7g8", "g7h6", "g7h7"]);
    let black = "7k/6X1/8/8/8/8/8/K7 b - - 0 1";
    let mut pos = Position::from_fen(custom("mKucK"), black).unwrap();
    assert!(!pos.in_check(), "an unloading piece gives no check");
}

#[test]
fn a_swap_that_puts_an_enemy_next_to_the_king_is_illegal() {
    // mRucR on b2, the white king on b1, a black Wazir on b5: the swap
    // b2b5 would put the Wazir on b2, next to the king: illegal
    let fen = "7k/8/8/1p6/8/8/1X6/1K6 w - - 0 1";
    let along_rank = ["b2a2", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "b2h2"];
    let mut want = along_rank.to_vec();
    want.extend(["b2b3", "b2b4"]);
    check("mRucR", fen, "b2", &want);
    // with the king on a1 instead (a diagonal neighbour) the swap is legal,
    // and b1 is free
    want.extend(["b2b5", "b2b1"]);
    check("mRucR", "7k/8/8/1p6/8/8/1X6/K7 w - - 0 1", "b2", &want);
}

#[test]
fn a_swap_with_a_lion_is_no_capture_under_the_lion_rules() {
    // Mighty Lion Chess with a rook that swaps with enemies instead of
    // taking them: after White's bishop takes a Lion, Black may not take
    // White's Lion at once (counterstrike), but may change places with it
    // (the king on a8, out of the reach of the Lion the swap puts on g8)
    let src = include_str!("../../../variants/mightylion.toml")
        .replace("letter = \"r\"\nbetza = \"R\"", "letter = \"r\"\nbetza = \"mRucR\"");
    assert!(src.contains("mRucR"));
    let v = Arc::new(Variant::from_toml(&src, "swaplion.toml").unwrap());
    let mut pos = Position::from_fen(v, "k5r1/8/8/5l2/6L1/3B4/8/4K3 w - - 0 1").unwrap();
    let m = pos.parse_move("d3f5").unwrap();
    pos.make(m);
    let fast: BTreeSet<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    let reference: BTreeSet<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
    assert_eq!(fast, reference);
    assert!(fast.contains("g8g4"), "{fast:?}");
}

#[test]
fn unloading_is_refused_where_it_is_not_defined() {
    refused("uafW", "one leg only");
    refused("upR", "together with 'p'");
    refused("umR", "needs a capture");
    refused("RucR", "also captures enemies");
    refused("dRudK", "also captures friends");
    // a cannon's capture is a plain capture too
    refused("ucKpR", "also captures enemies");
    refused("ucKgR", "also captures enemies");
}

#[test]
fn swappers_agree_with_the_reference_legality_test() {
    // swappers of both kinds in random playouts: the legal moves (the
    // unloading ones are tested by playing them) equal the reference
    // method's, and make/unmake restores FEN and hash
    let src = r#"name = "swappers"
files = 8
ranks = 8
start_fen = "rnsqksnr/pppppppp/8/8/8/8/PPPPPPPP/RNSQKSNR w - - 0 1"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "pawn"
letter = "p"
betza = "fmWfcF"

[[piece]]
name = "rook"
letter = "r"
betza = "R"

[[piece]]
name = "knight"
letter = "n"
betza = "N"

[[piece]]
name = "queen"
letter = "q"
betza = "Q"

[[piece]]
name = "swapper"
letter = "s"
betza = "mKudQucK"
"#;
    let v = Arc::new(Variant::from_toml(src, "swappers.toml").unwrap());
    let (positions, swaps) = playouts(&v, 11, 16, |_, m| m.is_unload());
    assert!(positions > 800 && swaps > 100, "{positions} positions, {swaps} swaps");
}

// ------------------------------------------------------------ still refused

#[test]
fn unsupported_constructs_are_refused_by_name() {
    refused("zN", "'z' is supported only");
    refused("zW", "'z' is supported only");
    refused("xN", "'x'");
    refused("kN", "'k'");
    refused("wN", "'w'");
    refused("cacacaW", "more than two locust captures");
    refused("cadacaW", "more than two locust captures");
    refused("cafcaR", "more than one file or rank from the first");
    refused("cacaD", "more than one file or rank from the first");
    refused("eaW", "'e' on a non-final leg");
    refused("yW", "'y' on a final leg");
    refused("gafR3", "limited range");
    refused("nR", "'n' on a one-step atom");
    refused("jW", "'j' on a one-step leaper");
    refused("qK", "'q' is supported on single atoms");
    refused("qaW", "'q' on a non-final leg");
    refused("fhW", "'h' (half) is defined only on oblique atoms");
    refused("hN", "'h' (half) goes after");
    refused("U2", "'U' takes only");
    refused("fU", "'U' takes only");
    refused("UX", "the suffix 'X'");
    refused("(1,4)X", "the suffix 'X'");
    refused("O2", "castling is a rule");
    refused("I", "imitator");
    refused("Y", "the suffix 'Y'");
    refused("W03", "exact range");
}

// ------------------------------------------------- `i` on a later leg: the same length

#[test]
fn i_on_a_later_leg_makes_as_many_steps_as_the_leg_before() {
    // masimR: a rook ride of k steps, a 90° turn, then exactly k more. From
    // d4 on an empty board (kings on a8 and h1, off its squares): 1+1 c5 e5
    // c3 e3, 2+2 b6 f6 b2 f2, 3+3 a7 g7 a1 g1 (a7 by a4 or by d7: each
    // square is listed once), 4+4 h8 (by d8 or by h4): the bishop's 13 squares
    let bishop =
        ["d4a1", "d4a7", "d4b2", "d4b6", "d4c3", "d4c5", "d4e3", "d4e5", "d4f2", "d4f6", "d4g1", "d4g7", "d4h8"];
    check("masimR", "k7/8/8/8/3X4/8/8/7K w - - 0 1", "d4", &bishop);
    // without `i` the turn may go any length: 47 squares, e6 among them
    let any = moves_from(&custom("masmR"), "k7/8/8/8/3X4/8/8/7K w - - 0 1", "d4");
    assert_eq!(any.len(), 47, "{any:?}");
    assert!(any.contains(&"d4e6".to_string()));
    // a range on the second leg caps both: masimR3 stops at 3+3 (no h8)
    let three: Vec<&str> = bishop.iter().copied().filter(|&m| m != "d4h8").collect();
    check("masimR3", "k7/8/8/8/3X4/8/8/7K w - - 0 1", "d4", &three);
    // the second leg ends with a capture (masiR: move, then move or capture)
    // on its k-th square only: an enemy on e6 is (1,2) away and not taken;
    // one on f6 is taken by d4-d6-f6 or d4-f4-f6 (e6 is then empty)
    let mut with_f6: Vec<&str> = bishop.to_vec();
    with_f6.retain(|&m| m != "d4f6");
    with_f6.push("d4f6");
    check("masiR", "k7/8/5p2/8/3X4/8/8/7K w - - 0 1", "d4", &with_f6);
    let e6 = moves_from(&custom("masiR"), "k7/8/4p3/8/3X4/8/8/7K w - - 0 1", "d4");
    assert!(!e6.contains(&"d4e6".to_string()), "{e6:?}");
    // the path of each leg must be empty: a friend on d5 and e4 blocks the
    // north and east first legs (and c5, e5 via d5); c5 and e3 remain via
    // c4 and d3, f2 via d2 (or f4, blocked), b6 via b4, f6 not at all
    check(
        "masimR",
        "k7/8/8/3P4/3XP3/8/8/7K w - - 0 1",
        "d4",
        &["d4a1", "d4a7", "d4b2", "d4b6", "d4c3", "d4c5", "d4e3", "d4f2", "d4g1"],
    );
}

#[test]
fn i_on_a_later_leg_of_a_turned_atom() {
    // mafsimR: a rook ride of k steps, then a bishop ride (a 45° turn) of
    // exactly k: (±1,2), (±2,4) north; (2,±1), (4,±2) east; (−2,±1) west;
    // (±1,−2) south; the rest leave the board
    check(
        "mafsimR",
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4b8", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5", "d4f8", "d4h2", "d4h6"],
    );
    // a leaper's first leg makes one step: masiW is the ferz
    check("masiW", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4c3", "d4c5", "d4e3", "d4e5"]);
}

// ------------------------------------------------------------ two locust victims

#[test]
fn lion_dog_line_takes_up_to_two_victims_on_its_way() {
    // leg 1 forward (move, capture or hop), leg 2 straight on (the same),
    // leg 3 straight on or back; from d3 with enemies on d4 and d5:
    // capture both and go on to d6; capture d4, hop d5, go on; hop d4,
    // capture d5 and go on or come back to d4 (taking it: the same move as
    // capturing both and coming back); hop both; hop both and come back to
    // d4 taking it (a plain capture, as is capturing d4, hopping d5 and
    // coming back)
    let line = "fmcpafmcpavW";
    check(
        line,
        "7k/8/8/3p4/3p4/3X4/8/K7 w - - 0 1",
        "d3",
        &["d3d4", "d3d4,d4d5,d5d6", "d3d4,d4d6", "d3d5,d5d4", "d3d5,d5d6", "d3d6"],
    );
    // a friend on d4 is only hopped, and not taken coming back
    check(line, "7k/8/8/3p4/3P4/3X4/8/K7 w - - 0 1", "d3", &["d3d5,d5d6", "d3d6"]);
    // d4 empty: step there; then capture d5 and go on or come back, or hop
    // it and go on (taking d6) or come back (a plain step to d4)
    check(line, "7k/8/3p4/3p4/8/3X4/8/K7 w - - 0 1", "d3", &["d3d4", "d3d5,d5d4", "d3d5,d5d6", "d3d6"]);
}

#[test]
fn a_royal_attacked_as_second_victim_is_in_check() {
    // White's line piece on d3 takes d4 and then the king on d5 on its way:
    // Black is in check; the king may not stay on the file (d6 is reached
    // over d4 and the empty d5), and the pawn may only take the attacker
    let v = custom("fmcpafmcpavW");
    let fen = "8/8/8/3k4/3p4/3X4/8/K7 b - - 0 1";
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
    assert!(pos.in_check());
    let mut got: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    got.sort();
    assert_eq!(got, ["d4d3", "d5c4", "d5c5", "d5c6", "d5e4", "d5e5", "d5e6"]);
}

#[test]
fn two_victim_moves_make_and_unmake_exactly() {
    // random playouts with Lion Dogs (HaChu's `KADcavKmcpafmcpavK`): every
    // move takes off the board exactly the pieces its text names, and
    // unmaking restores the position and its hash
    let src = r#"name = "liondogs"
files = 8
ranks = 8
start_fen = "ll2k1ll/pppppppp/8/8/8/8/PPPPPPPP/LL2K1LL w - - 0 1"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "pawn"
letter = "p"
betza = "fWfcF"

[[piece]]
name = "lion dog"
letter = "l"
betza = "KADcavKmcpafmcpavK"
"#;
    let v = Arc::new(Variant::from_toml(src, "liondogs.toml").unwrap());
    let g = v.def.geometry;
    let mut rng = Rng(11);
    let (mut doubles, mut positions) = (0, 0);
    for _ in 0..24 {
        let mut pos = Position::start(v.clone());
        for _ in 0..60 {
            let ms = pos.legal_moves();
            if ms.is_empty() {
                break;
            }
            positions += 1;
            let texts: BTreeSet<String> = ms.iter().map(|&m| pos.move_text(m)).collect();
            assert_eq!(texts.len(), ms.len(), "a move listed twice in {}", pos.fen());
            let caps: Vec<_> = ms.iter().copied().filter(|&m| m.second_victim(&g).is_some()).collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                ms[rng.below(ms.len())]
            };
            let text = pos.move_text(m);
            let count =
                |p: &Position| (0..64).filter(|&s| !p.piece_at(chimera::square::Square::new(s)).is_empty()).count();
            // the squares the legs end on, but the origin (an igui comes back to it)
            let named: BTreeSet<&str> = text.split(',').map(|leg| &leg[leg.len() - 2..]).collect();
            let taken = named
                .iter()
                .filter(|s| **s != &text[..2] && !pos.piece_at(g.parse_square(s).unwrap()).is_empty())
                .count();
            if m.second_victim(&g).is_some() {
                doubles += 1;
            }
            let (before, fen, n) = (pos.hash(), pos.fen(), count(&pos));
            let undo = pos.make(m);
            assert_eq!(count(&pos), n - taken, "{text} in {fen}");
            pos.unmake(m, &undo);
            assert_eq!((pos.hash(), pos.fen()), (before, fen.clone()), "make/unmake of {text}");
            pos.make(m);
        }
    }
    assert!(positions > 300 && doubles > 20, "{positions} positions, {doubles} two-victim moves");
}

/// The area move (Tenjiku Shogi's Fire Demon and Vice General) as written in
/// docs/variant-format.md: up to three King steps over empty squares, ending
/// on an empty square or a capture, never back on the piece's own square.
const AREA: &str = "KmaKmamfaKmamfsaKmamsafFmamsafsFmamsasFmamsabsF";

#[test]
fn area_move_reaches_what_a_search_of_all_paths_reaches() {
    // 300 boards with blockers of both colours at three densities (none next
    // to a king, so that no blocker gives check); the expected destinations
    // come from a breadth-first search of King steps
    let v = custom(AREA);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for trial in 0..300 {
        let mut board = [[' '; 8]; 8];
        board[0][0] = 'K';
        board[7][7] = 'k';
        let (xf, xr) = loop {
            let (f, r) = ((next() % 8) as usize, (next() % 8) as usize);
            if board[r][f] == ' ' {
                break (f, r);
            }
        };
        board[xr][xf] = 'X';
        let density = [20, 40, 60][trial % 3];
        for (r, row) in board.iter_mut().enumerate() {
            for (f, square) in row.iter_mut().enumerate() {
                let near_king = (f <= 1 && r <= 1) || (f >= 6 && r >= 6);
                if *square == ' ' && !near_king && next() % 100 < density {
                    *square = if next() % 2 == 0 { 'P' } else { 'p' };
                }
            }
        }
        let fen = (0..8)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut empty = 0;
                for &square in &board[r] {
                    if square == ' ' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(square);
                    }
                }
                if empty > 0 {
                    row += &empty.to_string();
                }
                row
            })
            .collect::<Vec<_>>()
            .join("/")
            + " w - - 0 1";
        // the search: squares reached in one, two or three steps
        let mut want = BTreeSet::new();
        let mut frontier = vec![(xf as i32, xr as i32)];
        for _ in 0..3 {
            let mut reached = Vec::new();
            for &(f, r) in &frontier {
                for (df, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                    let (tf, tr) = (f + df, r + dr);
                    if !(0..8).contains(&tf) || !(0..8).contains(&tr) || (tf, tr) == (xf as i32, xr as i32) {
                        continue;
                    }
                    let name = format!("{}{}", (b'a' + tf as u8) as char, tr + 1);
                    match board[tr as usize][tf as usize] {
                        ' ' => {
                            want.insert(name);
                            reached.push((tf, tr));
                        }
                        c if c.is_ascii_lowercase() => {
                            want.insert(name);
                        }
                        _ => {}
                    }
                }
            }
            frontier = reached;
        }
        let from = format!("{}{}", (b'a' + xf as u8) as char, xr + 1);
        let want: Vec<String> = want.into_iter().map(|to| format!("{from}{to}")).collect();
        assert_eq!(moves_from(&v, &fen, &from), want, "{fen}");
    }
}
