//! The Lion Dog (`KADcavKmcpafmcpavK`, moves with up to two victims on the
//! way) against HaChu 0.21's Cashew Shogi Lion Dog, on every way to fill one
//! line of three squares (tests/data/hachu_liondog.jsonl, made by
//! scripts/hachu_liondog.py; see tests/data/README.md).
//!
//! HaChu's list does not follow its own XBetza on some of these lines, so
//! the test accepts exactly these differences and counts them:
//! - HaChu gives the Lion Dog a pass (`g7g7`); the XBetza has none (no path
//!   of it comes back to its square without a capture on the way).
//! - HaChu takes a friendly piece on the second square (its move
//!   `g7g9,g9g10` with a friend on g9 removes it, checked by playing it).
//! - HaChu lacks three kinds of the XBetza's line moves: stepping to an empty
//!   first square, taking the second and coming back; taking the first and
//!   going on to the third (`mcpaf` may pass an empty or hop a friendly
//!   second square); hopping an enemy on the first, taking the second and
//!   going on to the third, in four of the eight directions.
//!
//! Every other move of every line is the same in both lists.

use chimera::position::Position;
use chimera::variant::Variant;
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Line {
    dir: [i32; 2],
    line: String,
    fen: String,
    origin: String,
    moves: Vec<String>,
}

const VARIANT: &str = r#"name = "liondog"
files = 13
ranks = 13
start_fen = "12k/13/13/13/13/13/6W!6/13/13/13/13/13/K12 w - - 0 1"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "pawn"
letter = "p"
betza = "fW"

[[piece]]
name = "lion dog"
letter = "w!"
betza = "KADcavKmcpafmcpavK"
"#;

/// A move's destination and the victims named on its way.
fn legs(text: &str) -> (String, Vec<String>) {
    let ends: Vec<String> =
        text.split(',').map(|leg| leg[leg.rfind(char::is_alphabetic).unwrap()..].to_string()).collect();
    let (to, on_the_way) = ends.split_last().unwrap();
    (to.clone(), on_the_way.to_vec())
}

#[test]
fn lion_dog_matches_hachu_but_for_its_known_differences() {
    let path = format!("{}/../../tests/data/hachu_liondog.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = Arc::new(Variant::from_toml(VARIANT, "liondog.toml").unwrap());
    let g = v.def.geometry;
    // passes, friends taken; HaChu lacks: back to s1, s1 taken and on to s3, s2 taken over an enemy s1
    let mut counts = [0usize; 5];
    let mut lines = 0;
    for row in text.lines().filter(|l| !l.trim().is_empty()) {
        let line: Line = serde_json::from_str(row).unwrap();
        // the FEN with castling and e.p. fields, and the Lion Dog written `W!`
        // (HaChu's Cashew Shogi names it `+W'`, a promoted piece)
        let fields: Vec<&str> = line.fen.split_whitespace().collect();
        let fen = format!("{} {} - - 0 1", fields[0].replace("+W'", "W!"), fields[1]);
        let mut pos = Position::from_fen(v.clone(), &fen).unwrap();
        let o = g.parse_square(&line.origin).unwrap();
        let sq =
            |i: i32| g.square_name(g.square(g.file_of(o) + line.dir[0] * i, g.rank_of(o) + line.dir[1] * i).unwrap());
        let (s1, s2, s3) = (sq(1), sq(2), sq(3));
        let fill: Vec<char> = line.line.chars().collect();
        let ours: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| pos.move_text(m))
            .filter(|t| {
                t.starts_with(&line.origin) && !t[line.origin.len()..].starts_with(|c: char| c.is_ascii_digit())
            })
            .collect();
        let theirs: BTreeSet<String> = line.moves.iter().cloned().collect();
        for m in theirs.difference(&ours) {
            let (_, victims) = legs(m);
            if *m == format!("{0}{0}", line.origin) {
                counts[0] += 1;
            } else if victims.len() == 1 && victims[0] == s2 && fill[1] == 'P' {
                counts[1] += 1;
            } else {
                panic!("{fen}: HaChu's {m} is not Chimera's (line {:?} {})", line.dir, line.line);
            }
        }
        for m in ours.difference(&theirs) {
            let (to, victims) = legs(m);
            if to == s1 && victims == [s2.clone()] && fill[0] == '.' {
                counts[2] += 1;
            } else if to == s3 && victims == [s1.clone()] {
                counts[3] += 1;
            } else if to == s3 && victims == [s2.clone()] && fill[0] == 'p' {
                counts[4] += 1;
            } else {
                panic!("{fen}: Chimera's {m} is not HaChu's (line {:?} {})", line.dir, line.line);
            }
        }
        lines += 1;
    }
    assert_eq!(lines, 216);
    assert_eq!(counts, [216, 12, 24, 36, 8], "passes, friends taken, and the three kinds HaChu lacks");
}
