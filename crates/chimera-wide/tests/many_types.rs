//! More piece types than one-byte piece codes hold: 407 types on a 20×20
//! board, named in FEN by two-letter IDs (`(AB)` for White, `(ab)` for
//! Black). Each type's moves are counted by hand from its leap; FENs round
//! trip; a set of types above 128 (the narrow build's 128-bit sets) is
//! honoured; the incremental check test agrees with the reference method.
//! Run against `chimera-wide`, whose library is also called `chimera`.

use chimera::perft::{perft, perft_reference};
use chimera::position::Position;
use chimera::square::Square;
use chimera::variant::Variant;
use std::sync::Arc;

const N: i32 = 20;
const LETTERS: &[u8; 26] = b"abcdefghijklmnopqrstuvwxyz";

/// The leaps (x, y), 0 <= x <= y <= 15, but (0, 0).
fn leaps() -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for y in 0..16 {
        for x in 0..=y {
            if (x, y) != (0, 0) {
                out.push((x, y));
            }
        }
    }
    out
}

/// The modalities of the three groups of types: every leap plain, forward
/// only and capture only.
const GROUPS: [&str; 3] = ["", "f", "c"];

/// Type `i` (from 0, the king not counted): its group and leap.
fn kind(i: usize) -> (&'static str, (i32, i32)) {
    let l = leaps();
    (GROUPS[i / l.len()], l[i % l.len()])
}

/// The FEN ID of type `i`, lowercase: `(aa)`, `(ab)`, ...
fn id(i: usize) -> String {
    format!("({}{})", LETTERS[i / 26] as char, LETTERS[i % 26] as char)
}

/// The guard: a type beyond the 400th that the king may not capture.
const GUARD: &str = "(zz)";

fn count() -> usize {
    3 * leaps().len()
}

fn variant() -> Arc<Variant> {
    let mut toml = format!(
        "name = \"manytypes\"\nfiles = {N}\nranks = {N}\nstart_fen = \"{}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\ncannot_capture = \"{GUARD}\"\n",
        fen(&[((0, 19), "K"), ((19, 19), "k")])
    );
    for i in 0..count() {
        let (group, (x, y)) = kind(i);
        toml += &format!("\n[[piece]]\nname = \"p{i}\"\nletter = \"{}\"\nbetza = \"{group}({x},{y})\"\n", id(i));
    }
    toml += &format!("\n[[piece]]\nname = \"guard\"\nletter = \"{GUARD}\"\nbetza = \"mW\"\n");
    Arc::new(Variant::from_toml(&toml, "manytypes.toml").unwrap())
}

/// A FEN with the given (file, rank) -> token pieces, White to move.
fn fen(pieces: &[((i32, i32), &str)]) -> String {
    let mut rows = Vec::new();
    for r in (0..N).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..N {
            match pieces.iter().find(|p| p.0 == (f, r)) {
                Some(p) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row += p.1;
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

/// The squares a leap (x, y) reaches from `from` on an empty 20×20 board:
/// the eight (or four) sign and swap images; forward only if asked, as
/// docs/variant-format.md reads a single `f`: the step points up and is the
/// larger one (`fN` is the two narrow forward moves, `fF` both forward
/// diagonals, `fW` one move).
fn targets(from: (i32, i32), (x, y): (i32, i32), forward: bool) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let t = (from.0 + sa * a, from.1 + sb * b);
            if (0..N).contains(&t.0)
                && (0..N).contains(&t.1)
                && (!forward || (t.1 > from.1 && (t.1 - from.1) >= (t.0 - from.0).abs()))
                && !out.contains(&t)
            {
                out.push(t);
            }
        }
    }
    out
}

fn name(sq: (i32, i32)) -> String {
    format!("{}{}", LETTERS[sq.0 as usize] as char, sq.1 + 1)
}

fn moves_from(pos: &mut Position, from: (i32, i32)) -> Vec<String> {
    let from = name(from);
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .filter(|t| t.starts_with(&from) && !t[from.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    out.sort();
    out
}

#[test]
fn the_wide_build_takes_hundreds_of_types() {
    let v = variant();
    assert_eq!(v.def.pieces.len(), 407);
    assert!(v.def.pieces.len() <= chimera::MAX_PIECE_TYPES);
    // the highest codes are beyond one byte
    assert!(chimera::compile::code_of(406, chimera::square::Color::Black).index() > 255);
}

#[test]
fn every_type_moves_by_its_own_leap() {
    let v = variant();
    // the piece on c3, the kings on a20 and t20, out of every leap's reach
    let at = (2, 2);
    let kings = [((0, 19), "K"), ((19, 19), "k")];
    for i in 0..count() {
        let (group, leap) = kind(i);
        let white = id(i).to_ascii_uppercase();
        let f = fen(&[(at, white.as_str()), kings[0], kings[1]]);
        let mut pos = Position::from_fen(v.clone(), &f).unwrap();
        assert_eq!(pos.fen(), f, "type {i}");
        let mut want: Vec<String> = match group {
            "c" => Vec::new(),
            g => targets(at, leap, g == "f").iter().map(|&t| format!("{}{}", name(at), name(t))).collect(),
        };
        want.sort();
        assert_eq!(moves_from(&mut pos, at), want, "type {i}: {group}{leap:?}");
        // a capture-only leaper takes a black piece of the last leaper type
        // (code above 800) on the first square it reaches, and nothing else
        if group == "c" {
            let t = targets(at, leap, false)[0];
            let victim = id(count() - 1);
            let f = fen(&[(at, white.as_str()), (t, victim.as_str()), kings[0], kings[1]]);
            let mut pos = Position::from_fen(v.clone(), &f).unwrap();
            assert_eq!(moves_from(&mut pos, at), vec![format!("{}{}", name(at), name(t))], "type {i}");
            let m = pos.parse_move(&format!("{}{}", name(at), name(t))).unwrap();
            let before = (pos.fen(), pos.hash());
            let (from_sq, to_sq) = ((at.0 + at.1 * N) as usize, (t.0 + t.1 * N) as usize);
            let mover = pos.piece_at(Square::new(from_sq));
            let undo = pos.make(m);
            assert_eq!(
                (pos.piece_at(Square::new(from_sq)), pos.piece_at(Square::new(to_sq))),
                (chimera::piece::Code::EMPTY, mover),
                "type {i}"
            );
            pos.unmake(m, &undo);
            assert_eq!((pos.fen(), pos.hash()), before);
        }
    }
}

#[test]
fn black_ids_are_lowercase_and_bad_ids_are_errors() {
    let v = variant();
    let f = fen(&[((5, 5), "(AB)"), ((6, 6), "(ab)"), ((0, 19), "K"), ((19, 19), "k")]);
    let pos = Position::from_fen(v.clone(), &f).unwrap();
    assert_eq!(pos.fen(), f);
    assert_ne!(pos.piece_at(Square::new(5 + 5 * 20)), pos.piece_at(Square::new(6 + 6 * 20)));
    for bad in ["(Ab)", "(a)", "(abc)", "(", "(qq)"] {
        let f = fen(&[((5, 5), bad), ((0, 19), "K"), ((19, 19), "k")]);
        let e = Position::from_fen(v.clone(), &f).err().unwrap_or_else(|| panic!("{bad} was read"));
        assert!(e.to_string().contains("piece"), "{bad}: {e}");
    }
}

#[test]
fn a_set_of_types_beyond_128_is_kept() {
    // the king on f6 may not take the guard (type 406, moving without
    // capturing) on f7, but takes the last leaper (c(15,15), attacking
    // nothing near) on g7: seven moves
    let v = variant();
    let last = id(count() - 1);
    let f = fen(&[((5, 5), "K"), ((5, 6), "(zz)"), ((6, 6), last.as_str()), ((19, 19), "k")]);
    let mut pos = Position::from_fen(v, &f).unwrap();
    let m = moves_from(&mut pos, (5, 5));
    assert!(m.contains(&"f6g7".to_string()), "{m:?}");
    assert!(!m.contains(&"f6f7".to_string()), "{m:?}");
    assert_eq!(m.len(), 7, "{m:?}");
}

#[test]
fn a_crowded_board_agrees_with_the_reference() {
    // one piece of every 9th type for each side, spread over the board
    let v = variant();
    // (a piece that would leave Black in check is left out)
    let mut pieces: Vec<((i32, i32), String)> = vec![((0, 0), "K".into()), ((19, 19), "k".into())];
    let mut sq = 3;
    for i in (0..count()).step_by(9) {
        for white in [true, false] {
            let t = if white { id(i).to_ascii_uppercase() } else { id(i) };
            pieces.push(((sq % N, sq / N), t));
            sq += 4;
            let refs: Vec<((i32, i32), &str)> = pieces.iter().map(|(s, t)| (*s, t.as_str())).collect();
            if Position::from_fen(v.clone(), &fen(&refs)).is_err() {
                pieces.pop();
            }
        }
    }
    assert!(pieces.len() > 60, "{}", pieces.len());
    let refs: Vec<((i32, i32), &str)> = pieces.iter().map(|(s, t)| (*s, t.as_str())).collect();
    let f = fen(&refs);
    let mut pos = Position::from_fen(v, &f).unwrap();
    assert_eq!(pos.fen(), f);
    let p1 = perft(&mut pos, 1);
    assert!(p1 > 50, "{p1}");
    assert_eq!(p1, perft_reference(&mut pos, 1));
    assert_eq!(perft(&mut pos, 2), perft_reference(&mut pos, 2));
    for m in pos.legal_moves() {
        let t = pos.move_text(m);
        assert_eq!(pos.parse_move(&t).ok(), Some(m), "{t}");
    }
}
