//! A piece set of Taikyoku Shogi's size: more than 200 piece types on a
//! 36x36 board (steppers, short and long rides, hook movers and Lion-like
//! pieces), which the wide build compiles with its plain rides laid out as
//! rays while the trees are built (`compile::MAX_COMPILE_NODES`,
//! `compile::MAX_COMPILE_WORK`). Each type's moves from the centre of the
//! empty board are counted by hand from the leaps and rides it is made of.
//! Run against `chimera-wide`, whose library is also called `chimera`.

use chimera::compile::{self, plain_cells};
use chimera::position::Position;
use chimera::variant::Variant;
use std::sync::Arc;

const N: i32 = 36;
const LETTERS: &[u8; 26] = b"abcdefghijklmnopqrstuvwxyz";

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
/// An unlimited ride.
const FAR: i32 = 99;

/// A piece made of plain leaps and rides: its XBetza and, for the count by
/// hand, each direction with its range (1 for a leap or step).
struct Kind {
    betza: &'static str,
    lines: Vec<((i32, i32), i32)>,
}

fn lines(dirs: &[(i32, i32)], range: i32) -> Vec<((i32, i32), i32)> {
    dirs.iter().map(|&d| (d, range)).collect()
}

fn kinds() -> Vec<Kind> {
    let k = |betza, parts: Vec<Vec<((i32, i32), i32)>>| Kind { betza, lines: parts.concat() };
    let f = |d: (i32, i32), r| vec![(d, r)];
    vec![
        k("K", vec![lines(&ORTH, 1), lines(&DIAG, 1)]),
        k("WfF", vec![lines(&ORTH, 1), f((1, 1), 1), f((-1, 1), 1)]),
        k("fR2bW", vec![f((0, 1), 2), f((0, -1), 1)]),
        k("sR2", vec![f((1, 0), 2), f((-1, 0), 2)]),
        k("vR3", vec![f((0, 1), 3), f((0, -1), 3)]),
        k("fB3", vec![f((1, 1), 3), f((-1, 1), 3)]),
        k("fR5sW", vec![f((0, 1), 5), f((1, 0), 1), f((-1, 0), 1)]),
        // a step and a ride that begins on the same square merge there
        k("WR2", vec![lines(&ORTH, 2)]),
        k("FB2", vec![lines(&DIAG, 2)]),
        k("WD", vec![lines(&ORTH, 1), lines(&[(2, 0), (-2, 0), (0, 2), (0, -2)], 1)]),
        k("N", vec![lines(&KNIGHT, 1)]),
        k("Q", vec![lines(&ORTH, FAR), lines(&DIAG, FAR)]),
        k("R", vec![lines(&ORTH, FAR)]),
        k("B", vec![lines(&DIAG, FAR)]),
        k("fR", vec![f((0, 1), FAR)]),
        k("vRsW", vec![f((0, 1), FAR), f((0, -1), FAR), f((1, 0), 1), f((-1, 0), 1)]),
        k("FvR", vec![lines(&DIAG, 1), f((0, 1), FAR), f((0, -1), FAR)]),
        k("WB", vec![lines(&ORTH, 1), lines(&DIAG, FAR)]),
        k("BfR", vec![lines(&DIAG, FAR), f((0, 1), FAR)]),
        k("sRvW3", vec![f((1, 0), FAR), f((-1, 0), FAR), f((0, 1), 3), f((0, -1), 3)]),
    ]
}

/// The hook mover and the Lion, the two kinds built as trees.
const HOOK: &str = "RmasR";
const LION: &str = "KNADcaKcabKmabK";

/// The piece set: each plain kind ten times, the hook mover and the Lion
/// four times each.
fn set() -> Vec<&'static str> {
    let mut out = Vec::new();
    for _ in 0..10 {
        out.extend(kinds().iter().map(|k| k.betza));
    }
    for _ in 0..4 {
        out.extend([HOOK, LION]);
    }
    out
}

/// The FEN ID of type `i`, lowercase: `(aa)`, `(ab)`, ...
fn id(i: usize) -> String {
    format!("({}{})", LETTERS[i / 26] as char, LETTERS[i % 26] as char)
}

fn variant() -> Arc<Variant> {
    let mut toml = format!(
        "name = \"largeset\"\nfiles = {N}\nranks = {N}\nstart_fen = \"{}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n",
        fen(&[((0, 1), "K".into()), ((35, 34), "k".into())], 'w')
    );
    for (i, betza) in set().iter().enumerate() {
        toml += &format!("\n[[piece]]\nname = \"p{i}\"\nletter = \"{}\"\nbetza = \"{betza}\"\n", id(i));
    }
    Arc::new(Variant::from_toml(&toml, "largeset.toml").unwrap())
}

/// A FEN with the given pieces ((file, rank) from 0) and side to move.
fn fen(pieces: &[((i32, i32), String)], side: char) -> String {
    let mut rows = Vec::new();
    for r in (0..N).rev() {
        let (mut row, mut gap) = (String::new(), 0);
        for f in 0..N {
            match pieces.iter().find(|(sq, _)| *sq == (f, r)) {
                Some((_, p)) => {
                    if gap > 0 {
                        row += &gap.to_string();
                    }
                    gap = 0;
                    row += p;
                }
                None => gap += 1,
            }
        }
        if gap > 0 {
            row += &gap.to_string();
        }
        rows.push(row);
    }
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// The squares a kind reaches from `at` on an empty board, counted by hand:
/// each line as far as its range and the board's edge allow.
fn by_hand(kind: &Kind, at: (i32, i32)) -> usize {
    let on = |(f, r): (i32, i32)| (0..N).contains(&f) && (0..N).contains(&r);
    let mut squares = Vec::new();
    for &((dx, dy), range) in &kind.lines {
        let mut sq = at;
        for _ in 0..range {
            sq = (sq.0 + dx, sq.1 + dy);
            if !on(sq) {
                break;
            }
            squares.push(sq);
        }
    }
    squares.sort();
    squares.dedup();
    squares.len()
}

#[test]
fn a_taikyoku_sized_set_compiles_and_moves_as_counted_by_hand() {
    let v = variant();
    let types = set();
    assert!(types.len() > 200);
    // the tables: within the budget, and far fewer cells than the squares
    // they stand for (a queen's line is one cell)
    let cells = v.tables.cells.len();
    let all = plain_cells(&v.tables.cells).count();
    assert!(cells <= compile::compile_budget(types.len() + 1, (N * N) as usize), "{cells}");
    assert!(cells * 3 < all, "{cells} cells stand for {all}");
    // each plain kind alone on the centre square (17, 17) with White to
    // move: its squares by hand, and the king's five on a2 (a1, a3, b1, b2,
    // b3); the kings stand on none of the centre's lines or knight leaps
    let plain = kinds();
    for (i, betza) in types.iter().enumerate().step_by(7) {
        let Some(kind) = plain.iter().find(|k| k.betza == *betza) else { continue };
        let piece = id(i).to_uppercase();
        let f = fen(&[((0, 1), "K".into()), ((35, 34), "k".into()), ((17, 17), piece)], 'w');
        let mut pos = Position::from_fen(v.clone(), &f).unwrap();
        let n = pos.legal_moves().len();
        assert_eq!(n, by_hand(kind, (17, 17)) + 5, "{betza} (type {i})");
    }
}

#[test]
fn the_lion_and_the_hook_mover_on_the_large_board() {
    let v = variant();
    let types = set();
    let lion = id(types.iter().position(|&b| b == LION).unwrap()).to_uppercase();
    let hook = id(types.iter().position(|&b| b == HOOK).unwrap()).to_uppercase();
    // the Lion in the centre of the empty board: the 8 steps, the 16
    // squares two away (N, A and D leaps), and one pass; its locust
    // captures need an enemy next to it
    let f = fen(&[((0, 1), "K".into()), ((35, 34), "k".into()), ((17, 17), lion)], 'w');
    let mut pos = Position::from_fen(v.clone(), &f).unwrap();
    assert_eq!(pos.legal_moves().len(), 8 + 16 + 1 + 5);
    // the hook mover (a rook ride, then one more at right angles) reaches
    // every square of the board: with the black king in the corner behind
    // three of its own pieces, only that corner is out of reach, so it has
    // 1296 - 3 squares (its own, the corner and its king's on a1), three of
    // them captures; the king on a1 has a2, b1 and b2
    let guard = id(0);
    let hm = hook.clone();
    let pieces = [
        ((0, 0), "K".to_string()),
        ((35, 35), "k".into()),
        ((34, 35), guard.clone()),
        ((35, 34), guard.clone()),
        ((34, 34), guard.clone()),
        ((17, 17), hm),
    ];
    let mut pos = Position::from_fen(v.clone(), &fen(&pieces, 'w')).unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1296 - 3 + 3);
    // without the guards the hook mover attacks every square but its own:
    // the black king in the corner, in check, has no move
    let pieces = [((0, 0), "K".to_string()), ((35, 35), "k".into()), ((17, 17), hook)];
    let mut pos = Position::from_fen(v.clone(), &fen(&pieces, 'b')).unwrap();
    assert!(pos.in_check());
    assert_eq!(pos.legal_moves().len(), 0);
}

/// A set whose trees need more nodes than `compile::MAX_COMPILE_WORK`,
/// though the tables they merge into would fit the budget: refused with an
/// error that names the limit, rather than compiled for a long time.
#[test]
fn a_set_that_needs_too_much_work_is_refused() {
    // a king's move and then another, written nine times over: about 650
    // nodes per square on 36x36 that merge into 72 cells, 840,000 nodes per
    // colour; twelve such types need more than the work limit, and their
    // merged tables (about 2.2 million cells) would fit the budget
    let twice = "aK".repeat(9);
    let mut toml = format!(
        "name = \"toomuch\"\nfiles = {N}\nranks = {N}\nstart_fen = \"{}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n",
        fen(&[((0, 1), "K".into()), ((35, 34), "k".into())], 'w')
    );
    for i in 0..12 {
        toml += &format!("\n[[piece]]\nname = \"p{i}\"\nletter = \"{}\"\nbetza = \"{twice}\"\n", id(i));
    }
    assert!(2 * 12 * 72 * (N * N) as usize <= compile::compile_budget(13, (N * N) as usize));
    let e = Variant::from_toml(&toml, "toomuch.toml").unwrap_err().to_string();
    assert!(e.contains(&format!("more than {} trajectory nodes built", compile::MAX_COMPILE_WORK)), "{e}");
}
