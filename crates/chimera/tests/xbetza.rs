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

#[test]
fn griffon_and_manticore() {
    // Griffon FyafsF: a ferz step, or a ferz step to an empty square and then
    // a rook ride turned 45° outward
    let griffon = [
        "d4c5", "d4e5", "d4c3", "d4e3", // F
        "d4e6", "d4e7", "d4e8", "d4f5", "d4g5", "d4h5", // through e5
        "d4c6", "d4c7", "d4c8", "d4b5", "d4a5", // through c5
        "d4f3", "d4g3", "d4h3", "d4e2", "d4e1", // through e3
        "d4b3", "d4a3", "d4c2", "d4c1", // through c3
    ];
    check("FyafsF", "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &griffon);
    // an enemy on e5 is captured but stops the rides behind it; a friend on
    // c7 blocks c7 and c8
    check(
        "FyafsF",
        "7k/2P5/8/4p3/3X4/8/8/K7 w - - 0 1",
        "d4",
        &[
            "d4c5", "d4e5", "d4c3", "d4e3", "d4c6", "d4b5", "d4a5", "d4f3", "d4g3", "d4h3", "d4e2", "d4e1", "d4b3",
            "d4a3", "d4c2", "d4c1",
        ],
    );
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

// ------------------------------------------------------------ still refused

#[test]
fn unsupported_constructs_are_refused_by_name() {
    refused("qN", "'q'");
    refused("zN", "'z' is supported only");
    refused("zW", "'z' is supported only");
    refused("xN", "'x'");
    refused("uN", "'u'");
    refused("tR", "'t'");
    refused("pN", "hopping leaper");
    refused("cpaW", "'c' together with 'p'");
    refused("cacaW", "more than one locust capture");
    refused("daW", "'d' on a non-final leg");
    refused("eaW", "'e' on a non-final leg");
    refused("yW", "'y' on a final leg");
    refused("gafR3", "limited range");
    refused("U", "'U'");
    refused("nR", "'n' on a one-step atom");
    refused("jW", "'j' on a one-step leaper");
}
