//! Piece ids of more than one character, as HaChu writes the pieces of its
//! large shogis: a letter with a dress mark after it (`L'`, `L!`), also
//! promoted (`+L!`), in variant files, FENs, hands and move text, and the
//! errors for badly written ones.

use chimera::position::Position;
use chimera::variant::{Variant, VariantDef};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A 5x5 board with three lances: `l` (forward rider), `l'` (backward
/// rider), `l!` (sideways step, promoting to `+l!` in the last rank, which
/// moves as a king); `k` kings.
const LANCES: &str = r#"
name = "lances"
files = 5
ranks = 5
start_fen = "k4/5/5/5/L'L!LK1 w - - 0 1"
[zones]
far = "a5-e5"
[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true
[[piece]]
name = "lance"
letter = "l"
betza = "fR"
[[piece]]
name = "reverse lance"
letter = "l'"
betza = "bR"
[[piece]]
name = "side step"
letter = "l!"
betza = "sWfW"
promotion = { zone = "far", to = "+l!", style = "shogi" }
[[piece]]
name = "promoted side step"
letter = "+L!"
betza = "K"
"#;

fn lances() -> Arc<Variant> {
    Arc::new(Variant::from_toml(LANCES, "lances.toml").unwrap())
}

fn moves(pos: &mut Position) -> BTreeSet<String> {
    pos.legal_moves().into_iter().map(|m| pos.move_text(m)).collect()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn dressed_letters_are_different_types() {
    let v = lances();
    let d = &v.def;
    assert_eq!(d.pieces.len(), 5);
    let l = d.piece_by_token('l', 0).unwrap();
    let l1 = d.piece_by_dressed_token('L', 0, b'\'').unwrap();
    let l2 = d.piece_by_dressed_token('l', 0, b'!').unwrap();
    let l2p = d.piece_by_dressed_token('l', b'+', b'!').unwrap();
    assert_eq!(BTreeSet::from([l, l1, l2, l2p]).len(), 4);
    assert_eq!(d.pieces[l1].name, "reverse lance");
    assert_eq!(d.pieces[l2p].token(chimera::square::Color::White), "+L!");
    assert_eq!(d.pieces[l2p].token(chimera::square::Color::Black), "+l!");
    assert!(d.piece_by_dressed_token('l', b'+', b'\'').is_none());
    assert!(d.piece_by_dressed_token('k', 0, b'!').is_none());

    let mut pos = Position::from_fen(v.clone(), "k4/5/5/5/L'L!LK1 w - - 0 1").unwrap();
    // White: L' on a1, L! on b1, L on c1, K on d1; Black's king on a5.
    // L' on a1 (bR) has no square behind it; L! on
    // b1 (sWfW): a1 and c1 hold friends, so b2; L on c1 (fR): c2..c5; K on
    // d1: c2, d2, e2, e1 (c1 is a friend)
    let expected = set(&["b1b2", "c1c2", "c1c3", "c1c4", "c1c5", "d1c2", "d1d2", "d1e2", "d1e1"]);
    assert_eq!(moves(&mut pos), expected);
    assert_eq!(pos.fen(), "k4/5/5/5/L'L!LK1 w - - 0 1");

    // White +L! on c3 (moves as a king), K on e1; Black l' on a2 (bR: for
    // Black that is up the board, a3 and a4), l! on e5 (sWfW: d5 and e4),
    // k on a5: nothing of Black's reaches White's king or its squares.
    let fen = "k3l!/5/2+L!2/l'4/4K w - - 0 1";
    let mut pos = Position::from_fen(v.clone(), fen).unwrap();
    assert_eq!(pos.fen(), fen);
    // +L! (K) from c3: b2 b3 b4 c2 c4 d2 d3 d4; K from e1: d1 d2 e2 (there
    // is no f-file)
    let expected = set(&["c3b2", "c3b3", "c3b4", "c3c2", "c3c4", "c3d2", "c3d3", "c3d4", "e1d1", "e1d2", "e1e2"]);
    assert_eq!(moves(&mut pos), expected);
    let text = pos.board_text();
    assert!(text.contains("+L!") && text.contains("l'"), "{text}");

    // L! on b4 steps to a4, c4 or b5; b5 is in the promotion zone, and
    // shogi-style promotion there is optional (L! still moves from b5):
    // b4b5 and b4b5+
    let mut pos = Position::from_fen(v, "4k/1L!3/5/5/K4 w - - 0 1").unwrap();
    let got = moves(&mut pos);
    assert!(got.contains("b4b5+") && got.contains("b4b5") && got.contains("b4a4"), "{got:?}");
    let m = pos.parse_move("b4b5+").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "1+L!2k/5/5/5/K4 b - - 0 1");
}

#[test]
fn dressed_pieces_in_hand_and_drops() {
    // captured pieces go to the hand: the hand is written with the marks
    // (White's hand, then Black's, each in reverse order of definition)
    let toml = LANCES
        .replace("[zones]", "[rules.drops]\ncaptures_to_hand = true\n[zones]")
        .replace("start_fen = \"k4/5/5/5/L'L!LK1 w - - 0 1\"", "start_fen = \"k4/5/5/5/L'L!LK1[] w - - 0 1\"");
    let v = Arc::new(Variant::from_toml(&toml, "drops.toml").unwrap());
    let fen = "k4/5/5/5/4K[L'l!] w - - 0 1";
    let mut pos = Position::from_fen(v.clone(), fen).unwrap();
    assert_eq!(pos.fen(), fen);
    let got = moves(&mut pos);
    // White's L' may be dropped on an empty square such as c3
    assert!(got.contains("L'@c3"), "{got:?}");
    let m = pos.parse_move("L'@c3").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "k4/5/2L'2/5/4K[l!] b - - 0 1");
    // Black drops its l!
    let got = moves(&mut pos);
    assert!(got.contains("L!@b2"), "{got:?}");
    assert!(pos.parse_move("L!@b2").is_ok());
    // a hand letter with a mark no type has
    let e = Position::from_fen(v, "k4/5/5/5/4K[K!] w - - 0 1").unwrap_err().to_string();
    assert!(e.contains("'K!' is not a piece"), "{e}");
}

#[test]
fn bad_dressed_letters_are_errors() {
    let v = lances();
    for (fen, why) in [
        ("k4/5/5/5/'L3K w - - 0 1", "''' must follow a piece letter"),
        ("k4/5/5/5/!4K w - - 0 1", "'!' must follow a piece letter"),
        ("k4/5/5/5/L''3K w - - 0 1", "''' must follow a piece letter"),
        ("k4/5/5/5/L!!3K w - - 0 1", "'!' must follow a piece letter"),
        ("k4/5/5/5/K!4 w - - 0 1", "'K!' is not a piece of lances"),
        ("k4/5/5/5/+L'3K w - - 0 1", "'+L'' is not a piece of lances"),
        ("k4/5/5/5/+!4K w - - 0 1", "'+' must be followed by a piece letter"),
        ("k4/5/5/5/L'~3K w - - 0 1", "'~' must follow a piece letter"),
        ("k4/5/5/5/L'L'L'L'L'L'K w - - 0 1", "more than 5 files"),
    ] {
        let e = Position::from_fen(v.clone(), fen).map(|p| p.fen()).unwrap_err().to_string();
        assert!(e.contains(why), "{fen}: {e}");
    }

    // variant files: letters that are not a letter with one mark
    for (letter, why) in [
        ("l''", "a piece letter is one ASCII letter"),
        ("l'~", "a piece letter is one ASCII letter"),
        ("'l", "a piece letter is one ASCII letter"),
        ("+l!~", "a piece letter is one ASCII letter"),
        ("l?", "a piece letter is one ASCII letter"),
        ("l'", "is used twice"),
    ] {
        let toml = format!("{LANCES}[[piece]]\nname = \"bad\"\nletter = \"{letter}\"\nbetza = \"W\"\n");
        let e = VariantDef::from_toml(&toml, "bad.toml").unwrap_err().to_string();
        assert!(e.contains(why), "{letter}: {e}");
        assert!(e.starts_with("bad.toml:"), "{e}");
    }
    // piece lists name dressed types with their marks
    for (to, why) in [("+l'", "\"+l'\" is not the letter of a piece"), ("!", "'!' must follow a piece letter")] {
        let toml = LANCES.replace("to = \"+l!\"", &format!("to = \"{to}\""));
        let e = VariantDef::from_toml(&toml, "bad.toml").unwrap_err().to_string();
        assert!(e.contains(why), "{to}: {e}");
    }
    // move text: a mark no piece has, and marks in odd places, are refused
    let mut pos = Position::from_fen(v, "k4/5/5/5/L'L!LK1 w - - 0 1").unwrap();
    for text in ["b1b2!", "b1'b2", "L?@c3", "X'@c3"] {
        assert!(pos.parse_move(text).is_err(), "{text}");
    }
}

/// SAN keeps the dress mark after the letter, so that `L`, `L'` and `L!`
/// stay apart, and reads it back; `[notation] letters` may name a dressed
/// id on its left (`l!:Y`), which then replaces it in move text.
#[test]
fn dressed_letters_in_san() {
    use chimera::san::Notation;
    let mut pos = Position::from_fen(lances(), "k4/5/5/5/L'L!LK1 w - - 0 1").unwrap();
    let texts: BTreeSet<String> = pos.legal_moves().into_iter().map(|m| pos.san(m, Notation::San)).collect();
    assert!(texts.contains("L!b2") && texts.contains("Lc3"), "{texts:?}");
    for (san, uci) in [("L!b2", "b1b2"), ("Lc3", "c1c3")] {
        let m = pos.parse_san(san, Notation::San).unwrap_or_else(|e| panic!("{san}: {e}"));
        assert_eq!(pos.move_text(m), uci);
    }
    // `Lb2` names no move: the plain lance on c1 cannot reach b2
    assert!(pos.parse_san("Lb2", Notation::San).is_err());

    let renamed = LANCES.replace("[zones]", "[notation]\nletters = \"l!:Y\"\n[zones]");
    let v = Arc::new(Variant::from_toml(&renamed, "lances.toml").unwrap());
    let mut pos = Position::from_fen(v, "k4/5/5/5/L'L!LK1 w - - 0 1").unwrap();
    let m = pos.parse_san("Yb2", Notation::San).unwrap();
    assert_eq!((pos.move_text(m), pos.san(m, Notation::San)), ("b1b2".to_string(), "Yb2".to_string()));
    for bad in ["l?:Y", "k!:Y", "+l':Y", "l!:YY"] {
        let text = LANCES.replace("[zones]", &format!("[notation]\nletters = \"{bad}\"\n[zones]"));
        let e = Variant::from_toml(&text, "lances.toml").unwrap_err().to_string();
        assert!(e.contains(bad), "{bad}: {e}");
    }
}
