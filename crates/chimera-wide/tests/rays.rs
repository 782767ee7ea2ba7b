//! Plain rides laid out as ray cells (`chimera::width::RAYS`, on in the wide
//! build): which rides become rays, how many cells they save, and that the
//! walkers read a ray as the cells it stands for. That the moves stay the
//! same is checked by every other test of the core, which runs against this
//! build as well (perft, Fairy-Stockfish's and HaChu's move lists).

mod common;

use chimera::compile::{code_of, is_ray, plain_cells, ray_len, CAPTURE, EMPTY_CHILD, QUIET};
use chimera::position::Position;
use chimera::square::{Color, Square};
use chimera::variant::Variant;
use chimera::walk::{reach, Occupant};
use std::sync::Arc;

fn variant(files: usize, ranks: usize, betza: &str, fen: &str) -> Arc<Variant> {
    let toml = format!(
        "name = \"rays\"\nfiles = {files}\nranks = {ranks}\nstart_fen = \"{fen}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = \"{betza}\"\n"
    );
    Arc::new(Variant::from_toml(&toml, "rays.toml").unwrap())
}

#[test]
fn a_rook_in_the_corner_is_two_rays() {
    let v = builtin();
    let g = v.geometry();
    let rook = code_of(v.def.piece_by_letter('r').unwrap(), Color::White);
    let a1 = g.square(0, 0).unwrap();
    let (cells, _) = v.tables.list(rook, false, a1);
    assert_eq!(cells.len(), 2);
    assert!(cells.iter().all(is_ray));
    assert_eq!(cells.iter().map(ray_len).sum::<usize>(), 14);
    // read as plain cells: a2..a8 and b1..h1, each with both rights, an empty
    // child on all but the last square of each line
    let plain: Vec<_> = plain_cells(cells).collect();
    assert_eq!(plain.len(), 14);
    assert!(plain.iter().all(|c| c.flags & (QUIET | CAPTURE) == QUIET | CAPTURE));
    assert_eq!(plain.iter().filter(|c| c.flags & EMPTY_CHILD == 0).count(), 2);
    let mut to: Vec<String> = plain.iter().map(|c| g.square_name(c.to)).collect();
    to.sort();
    assert_eq!(to, ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]);
    // the evaluation's walker stops a ray on the first occupied square:
    // a friend on a4 and an enemy on e1 leave a2, a3, b1..d1 and the capture on e1
    let (a4, e1) = (g.square(0, 3).unwrap(), g.square(4, 0).unwrap());
    let (mut quiet, mut captures) = (0, 0);
    let occupant = |sq| match sq {
        s if s == a4 => Occupant::Friend,
        s if s == e1 => Occupant::Foe,
        _ => Occupant::Empty,
    };
    reach(cells, a1, occupant, |_, capture| if capture { captures += 1 } else { quiet += 1 });
    assert_eq!((quiet, captures), (5, 1));
}

fn builtin() -> Arc<Variant> {
    Arc::new(chimera::builtin::variant("chess").unwrap())
}

#[test]
fn a_bent_ride_keeps_its_step_as_a_cell() {
    // the Griffon (`FyafsF`) from a1: the diagonal step to b2 is a cell with
    // two children, the rook rides b3..b8 and c2..h2, which become rays
    let v = variant(8, 8, "FyafsF", "k7/8/8/8/8/8/8/X6K w - - 0 1");
    let x = code_of(1, Color::White);
    let (cells, _) = v.tables.list(x, false, Square::new(0));
    assert_eq!(cells.len(), 3);
    assert!(!is_ray(&cells[0]));
    assert!(is_ray(&cells[1]) && is_ray(&cells[2]));
    assert_eq!(plain_cells(cells).filter(|c| c.flags & QUIET != 0).count(), 1 + 6 + 6);
}

#[test]
fn rays_shrink_a_large_board_and_keep_the_moves() {
    // a queen on an empty 36x36 board: 8 rays per central square instead of
    // one cell per square of its lines
    let v = variant(36, 36, "Q", &format!("1k34/{}/X34K w - - 0 1", vec!["36"; 34].join("/")));
    let x = code_of(1, Color::White);
    let g = v.geometry();
    let mid = g.square(17, 17).unwrap();
    let (cells, _) = v.tables.list(x, false, mid);
    assert_eq!(cells.len(), 8);
    // 17 + 18 + 17 + 18 orthogonal squares; each diagonal as far as the nearer edge
    let diag: usize = [(18, 18), (18, 17), (17, 18), (17, 17)].iter().map(|&(a, b): &(usize, usize)| a.min(b)).sum();
    assert_eq!(plain_cells(cells).count(), 70 + diag);
    let all: usize = plain_cells(&v.tables.cells).count();
    assert!(v.tables.cells.len() * 5 < all, "{} cells stand for {all}", v.tables.cells.len());
    // the generator walks them: the queen on a1, its own king on the last
    // square of rank 1 (b1 to the 35th file: 34 squares), the a-file (35)
    // and the long diagonal (35) open; the king has 3 squares
    let mut pos = Position::from_fen(v.clone(), &v.def.start_fen).unwrap();
    assert_eq!(pos.legal_moves().len(), 34 + 35 + 35 + 3);
}

#[test]
fn tenjiku_tables_shrink() {
    // Tenjiku's ranging pieces on 16x16: the rays stand for most of the cells
    // (in the definition with HaChu's moves; the built-in's area moves add
    // about 490,000 cells of trees)
    let v = common::hachu_flavour();
    let all = plain_cells(&v.tables.cells).count();
    let rays = v.tables.cells.iter().filter(|c| is_ray(c)).count();
    println!("tenjikushogi: {} cells ({rays} rays) for {all}", v.tables.cells.len());
    assert!(v.tables.cells.len() * 2 < all, "{} cells stand for {all}", v.tables.cells.len());
}
