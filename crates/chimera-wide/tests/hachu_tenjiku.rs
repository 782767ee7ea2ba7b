//! Tenjiku Shogi (16x16, the wide build) against HaChu 0.21
//! (tests/data/hachu_tenjiku.jsonl, made by scripts/hachu_cases.py with a
//! build of HaChu with two memory faults fixed, scripts/build-hachu.sh; see
//! tests/data/README.md). HaChu plays on until a King is taken, so its lists
//! are pseudo-legal, and its attack maps ignore burning: they are compared
//! with Chimera's pseudo-legal moves. Chimera's legal moves are checked
//! against its reference method in the same positions, and must be among
//! the pseudo-legal ones.
//!
//! HaChu simplifies four pieces (the Fire Demon, the Vice General, the Free
//! Eagle and the Heavenly Tetrarchs; variants/tenjikushogi.toml). The lists
//! are compared with the built-in definition with those four pieces' moves
//! as HaChu makes them (`hachu_flavour`), and the built-in must give the
//! same moves as that definition for every other piece.
mod common;

use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::variant::Variant;
use common::{hachu_flavour, HACHU_MOVES};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Case {
    variant: String,
    fen: String,
    moves: Vec<String>,
}

fn is_pass(m: &str) -> bool {
    let body = m.trim_end_matches('+');
    !body.contains(',') && body.len() >= 4 && {
        let cut = body[1..].find(|c: char| c.is_ascii_alphabetic()).map(|k| k + 1).unwrap_or(0);
        cut > 0 && body[..cut] == body[cut..]
    }
}

/// A move list as a set of texts, a pass written `pass`: Chimera lists a
/// position's pass once, on one of the pieces that can pass, and HaChu may
/// write it on another (a pass changes nothing but the side to move).
fn normalised(texts: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    texts.into_iter().map(|m| if is_pass(&m) { "pass".to_string() } else { m }).collect()
}

/// The squares (origin, destination) of a one-leg move text.
fn ends(v: &Variant, m: &str) -> Option<(chimera::square::Square, chimera::square::Square)> {
    let body = m.trim_end_matches('+');
    if body.contains(',') {
        return None;
    }
    let cut = body[1..].find(|c: char| c.is_ascii_alphabetic())? + 1;
    let g = v.def.geometry;
    Some((g.parse_square(&body[..cut])?, g.parse_square(&body[cut..])?))
}

/// HaChu's capture generator finds the pieces that take a victim along a
/// line by scanning outwards from it and counting them off against its
/// attack map, in which a jumping general attacks only pieces ranked below
/// it; the scan itself does not look at the victim's rank. So when a general
/// of a rank no higher than the victim's stands on the line in front of a
/// higher general that takes it (by HaChu's map as by Chimera's rule), HaChu
/// lists the lower general's capture in place of the higher one's
/// (hachu.c, GenCapts: the jump-capture test `jcapt < qval` and the count
/// `att`). Returns the pairs of such moves found: (HaChu's, Chimera's).
fn swapped_jumps(
    pos: &Position,
    v: &Variant,
    theirs: &BTreeSet<String>,
    ours: &BTreeSet<String>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let g = v.def.geometry;
    let rank = |sq| v.def.pieces[chimera::compile::type_of(pos.piece_at(sq))].rank;
    let (mut hachu, mut chimera) = (BTreeSet::new(), BTreeSet::new());
    for h in theirs.difference(ours) {
        let Some((from, to)) = ends(v, h) else { continue };
        if pos.piece_at(to).is_empty() || rank(from) == 0 || rank(to) < rank(from) {
            continue;
        }
        let (dx, dy) = (g.file_of(from) - g.file_of(to), g.rank_of(from) - g.rank_of(to));
        if dx != 0 && dy != 0 && dx.abs() != dy.abs() {
            continue;
        }
        let (sx, sy) = (dx.signum(), dy.signum());
        // the higher general behind it on the line, whose capture is missing
        let partner = ours.difference(theirs).find(|c| {
            ends(v, c).is_some_and(|(f, t)| {
                let (ex, ey) = (g.file_of(f) - g.file_of(to), g.rank_of(f) - g.rank_of(to));
                t == to
                    && (ex.signum(), ey.signum()) == (sx, sy)
                    && (ex == 0 || ey == 0 || ex.abs() == ey.abs())
                    && ex.abs().max(ey.abs()) > dx.abs().max(dy.abs())
                    && rank(f) > rank(to)
                    && !chimera.contains(*c)
            })
        });
        if let Some(c) = partner {
            hachu.insert(h.clone());
            chimera.insert(c.clone());
        }
    }
    (hachu, chimera)
}

fn tenjiku() -> Arc<Variant> {
    Arc::new(chimera::builtin::variant("tenjikushogi").unwrap())
}

/// The pseudo-legal moves of `fen` in `v`, as texts, without those of the
/// pieces HaChu simplifies and without the pass (listed once, on any of the
/// pieces that can pass, the Free Eagle among them).
fn others_moves(v: &Arc<Variant>, fen: &str) -> BTreeSet<String> {
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
    let simplified: Vec<String> = HACHU_MOVES.iter().map(|(id, _)| id.to_string()).collect();
    let mut list = MoveList::new();
    pos.generate_pseudo(&mut list);
    list.iter()
        .filter(|m| {
            let t = chimera::compile::type_of(pos.piece_at(m.from()));
            !simplified.contains(&v.def.pieces[t].token(chimera::square::Color::Black))
        })
        .map(|m| pos.move_text(m))
        .filter(|m| !is_pass(m))
        .collect()
}

#[test]
fn tenjiku_matches_hachu() {
    let path = format!("{}/../../tests/data/hachu_tenjiku.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = hachu_flavour();
    let builtin = tenjiku();
    let (mut n, mut burns, mut jumps, mut swaps, mut exposed) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).unwrap();
        assert_eq!(case.variant, "tenjiku");
        // a random game of pseudo-legal moves can leave the royal of the side
        // that moved attacked (HaChu plays on until it is taken): such a
        // position is read as it stands
        let mut pos = match Position::from_fen(v.clone(), &case.fen) {
            Ok(pos) => pos,
            Err(e) if e.problem == chimera::position::FenProblem::OpponentInCheck => {
                exposed += 1;
                Position::from_fen_permissive(v.clone(), &case.fen).unwrap()
            }
            Err(e) => panic!("{}: {e}", case.fen),
        };
        assert_eq!(
            others_moves(&v, &case.fen),
            others_moves(&builtin, &case.fen),
            "the built-in differs from HaChu's flavour in a piece HaChu does not simplify in {}",
            case.fen
        );
        let mut list = MoveList::new();
        pos.generate_pseudo(&mut list);
        let texts: Vec<String> = list.iter().map(|m| pos.move_text(m)).collect();
        let pseudo = normalised(texts);
        let theirs = normalised(case.moves.iter().cloned());
        let (hachu_only, ours_only) = swapped_jumps(&pos, &v, &theirs, &pseudo);
        swaps += hachu_only.len();
        let theirs_kept: BTreeSet<String> = theirs.difference(&hachu_only).cloned().collect();
        let ours_kept: BTreeSet<String> = pseudo.difference(&ours_only).cloned().collect();
        if ours_kept != theirs_kept {
            failures.push(format!(
                "{}\n  missing: {:?}\n  extra:   {:?}",
                case.fen,
                theirs_kept.difference(&ours_kept).collect::<Vec<_>>(),
                ours_kept.difference(&theirs_kept).collect::<Vec<_>>()
            ));
        }
        let legal: BTreeSet<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
        let reference: BTreeSet<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(legal, reference, "fast vs reference in {}", case.fen);
        assert!(normalised(legal).is_subset(&pseudo), "a legal move that is not pseudo-legal in {}", case.fen);
        // what the file exercises: Fire Demon moves next to an enemy, and
        // captures by a jumping general beyond the first piece on its line
        for m in list.iter() {
            let mover = pos.piece_at(m.from());
            let piece = &v.def.pieces[chimera::compile::type_of(mover)];
            let to = m.to();
            let g = v.def.geometry;
            if piece.burns {
                let near = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))).any(|(dx, dy)| {
                    g.square(g.file_of(to) + dx, g.rank_of(to) + dy).is_some_and(|s| {
                        s != to
                            && s != m.from()
                            && !pos.piece_at(s).is_empty()
                            && pos.piece_at(s).color() != mover.color()
                    })
                });
                burns += usize::from(near);
            }
            if piece.jump_capture.is_some() && !pos.piece_at(to).is_empty() {
                let (dx, dy) = (g.file_of(to) - g.file_of(m.from()), g.rank_of(to) - g.rank_of(m.from()));
                let (sx, sy) = (dx.signum(), dy.signum());
                let between = (1..dx.abs().max(dy.abs()))
                    .filter(|&k| {
                        g.square(g.file_of(m.from()) + k * sx, g.rank_of(m.from()) + k * sy)
                            .is_some_and(|s| !pos.piece_at(s).is_empty())
                    })
                    .count();
                jumps += usize::from(between > 0);
            }
        }
        n += 1;
    }
    eprintln!(
        "{n} positions ({exposed} with the royal of the side not to move attacked), {burns} burning moves, \
         {jumps} jumping captures, {swaps} HaChu jump captures swapped"
    );
    assert!(failures.is_empty(), "{} of {n} differ:\n{}", failures.len(), failures[..failures.len().min(8)].join("\n"));
    assert!(n >= 200, "only {n} positions");
    // the file must exercise both rule components
    assert!(burns >= 20 && jumps >= 20, "burning moves {burns}, jumping captures {jumps}");
}

#[test]
fn passes_are_recognised() {
    let passes: Vec<bool> =
        ["e5e5", "a10a10", "p16p16", "e5e6,e6e5", "a1a10", "a10a1"].iter().map(|m| is_pass(m)).collect();
    assert_eq!(passes, [true, true, true, false, false, false]);
}

/// The compiled tables stay far below the compile limit (as
/// crates/chimera/tests/limits.rs checks for the variants of the narrow
/// build): 66 types on 16x16, about 939,000 cells, most of them the
/// long-range pieces' rides and the Lions' and Eagles' two-leg trees.
#[test]
fn tenjiku_tables_are_far_below_the_compile_limit() {
    let v = tenjiku();
    let cells = v.tables.cells.len();
    assert!(cells < chimera::compile::MAX_COMPILE_NODES / 4, "{cells}");
}
