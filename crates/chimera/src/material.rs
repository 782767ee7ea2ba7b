//! Insufficient mating material: whether a side can no longer win by mate,
//! whatever the other side plays, derived from the pieces' move tables.
//!
//! Each piece type is classed by its moves:
//!
//! - **royal**: a royal type no piece promotes to (a king) does not count;
//! - **mating**: it promotes, or it is not colour-bound and either rides
//!   (captures two squares away along a rank, file or diagonal, but not
//!   through a piece) or attacks at least five of the eight squares around
//!   it (rook, queen, silver and gold generals, the commoner): a royal and
//!   this piece alone can mate;
//! - **colour-bound**: every square its moves reach, hops included, has the
//!   colour of its own (bishop, ferz, alfil);
//! - **minor**: anything else (knight, wazir, Xiangqi's horse and cannon).
//!
//! A piece does not count where it has no move at all (a pawn on its last
//! rank that cannot promote), nor if every square it may stand on (its
//! `confine` zone) lies outside the zones of the enemy's royal pieces
//! (Xiangqi's advisors and elephants can never attack the enemy general).
//!
//! A side has insufficient material when it has nothing in hand, no mating
//! piece, and its other pieces cannot mate even with the other side's help:
//!
//! - colour-bound pieces need colour-bound pieces on squares of both colours,
//!   or a piece that is not colour-bound, on the board (either side's);
//! - a minor piece needs a second counting piece on the board (either side's).
//!
//! Where a stalemate is not a draw, or checks are counted, any counting piece
//! suffices; so it does for the side with draw odds (armageddon). Variants
//! in which a game can be won otherwise than by mate — extinction, a flag
//! zone, no royal pieces — or in which captured pieces go to the hand do not
//! end for lack of material, except that (without extinction) a side without
//! any piece cannot win.
//!
//! These rules reproduce Fairy-Stockfish's `has_insufficient_material` on
//! the built-in variants (tests/data/pyffish_game_end), except where
//! Fairy-Stockfish counts the pieces it defines from Betza text as mating
//! pieces: Chimera finds Omicron's and Ten-cubed's wizard (camel and ferz)
//! colour-bound and Opulent's lion (fers, dabbaba, threeleaper) minor.

use crate::compile::{code_of, type_of, Cell};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Color, Square};
use crate::variant::{StalemateResult, Variant};
use crate::walk::Visitor;
use std::sync::Arc;

/// What a piece type contributes to mating material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceClass {
    /// A royal piece of a type no piece promotes to (a king): it does not count.
    Royal,
    /// It can mate with the help of its royal alone, or it promotes.
    Mating,
    /// Its moves keep the colour of its square.
    ColourBound,
    /// Any other piece.
    Minor,
}

/// The insufficient-material rule of one variant, computed once from its move tables.
#[derive(Clone, Debug)]
pub struct MaterialRules {
    /// No game of the variant ends for lack of material, but (without an
    /// extinction rule) a side without any piece cannot win.
    never: bool,
    /// The variant has an extinction rule.
    extinction: bool,
    /// Any counting piece suffices (stalemate not a draw, or check counting).
    any_piece: bool,
    /// The side with draw odds (armageddon), for which any counting piece
    /// suffices: a stalemate or any draw wins for it.
    draw_odds: Option<Color>,
    /// The class of each piece type.
    class: Vec<PieceClass>,
    /// The number of squares.
    nsq: usize,
    /// Per colour, per piece type and square: the piece counts there (it can
    /// move from it, and it may reach the enemy royal's zone).
    counts: [Vec<bool>; 2],
}

/// Records the squares a walk reaches.
struct Reach {
    quiet: Vec<bool>,
    capture: Vec<bool>,
}

impl Visitor for Reach {
    fn quiet(&mut self, _pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        self.quiet[c.to] = true;
        false
    }
    fn capture(&mut self, _pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        self.capture[c.to] = true;
        false
    }
    fn en_passant(&mut self, _pos: &Position, _from: Square, _c: &Cell) -> bool {
        false
    }
}

impl MaterialRules {
    /// The rule of a variant.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, material::{MaterialRules, PieceClass}};
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let m = MaterialRules::new(&v);
    /// let class = |l: char| m.class(v.def.piece_by_letter(l).unwrap());
    /// assert_eq!(class('r'), PieceClass::Mating);
    /// assert_eq!(class('b'), PieceClass::ColourBound);
    /// assert_eq!(class('n'), PieceClass::Minor);
    /// ```
    pub fn new(v: &Arc<Variant>) -> MaterialRules {
        let r = &v.def.rules;
        let n = v.def.pieces.len();
        let g = v.geometry();
        let nsq = g.squares();
        let kings = crate::validate::counted_royals(v);
        // a game won by taking the last royal (Sho and Chu Shogi) is an
        // extinction game: pyffish's Sho Shogi, an extinction variant, never
        // reports material short there, nor does HaChu end a game so
        let never = r.extinction.is_some()
            || r.royals == crate::variant::RoyalRule::Last
            || r.flag.is_some()
            || r.drops.as_ref().is_some_and(|d| d.captures_to_hand)
            || kings.is_empty();
        let any_piece = r.stalemate != StalemateResult::Draw || r.checks.is_some();
        let mut rules = MaterialRules {
            never,
            extinction: r.extinction.is_some(),
            any_piece,
            draw_odds: r.draw_odds,
            class: vec![PieceClass::Minor; n],
            nsq,
            counts: [vec![true; n * nsq], vec![true; n * nsq]],
        };
        let empty_rank = g.width.to_string();
        let fen = format!("{} w - - 0 1", vec![empty_rank.as_str(); g.height as usize].join("/"));
        let Ok(mut scratch) = Position::from_fen_permissive(v.clone(), &fen) else {
            // a board the reader cannot set up empty: count every piece as mating
            rules.class =
                (0..n).map(|t| if kings.contains(&t) { PieceClass::Royal } else { PieceClass::Mating }).collect();
            return rules;
        };
        // the squares each piece type of each colour may stand on
        let region = |t: usize, c: Color| -> Vec<bool> {
            match v.def.pieces[t].confine {
                Some(z) => (0..nsq).map(|s| v.def.zones[z].contains(&g, c, Square::new(s))).collect(),
                None => vec![true; nsq],
            }
        };
        let reach = |pos: &mut Position, code: Code, from: Square| {
            let mut r = Reach { quiet: vec![false; nsq], capture: vec![false; nsq] };
            pos.put(from, code);
            pos.walk_piece(from, &mut r);
            pos.remove(from);
            r
        };
        for c in [Color::White, Color::Black] {
            let enemy: Vec<Vec<bool>> = kings.iter().map(|&t| region(t, c.flip())).collect();
            for t in 0..n {
                let mine = region(t, c);
                let away = !enemy.iter().any(|e| (0..nsq).any(|s| mine[s] && e[s]));
                // a piece with no move at all from a square (a pawn on its last
                // rank) does not count there, unless it may still promote
                let promotes = v.def.pieces[t].promotion.is_some();
                for (s, &may_stand) in mine.iter().enumerate() {
                    let mobile = promotes || !v.tables.list(code_of(t, c), false, Square::new(s)).0.is_empty();
                    rules.counts[c.index()][t * nsq + s] = !away && may_stand && mobile;
                }
            }
        }
        // the enemy piece the walks capture: one every piece may capture
        let free = (0..n).find(|&b| v.def.pieces.iter().all(|p| !p.cannot_capture.contains(&b))).unwrap_or(0);
        let blocker = code_of(free, Color::Black);
        let parity = |s: Square| (g.file_of(s) + g.rank_of(s)) & 1;
        for t in 0..n {
            let p = &v.def.pieces[t];
            if kings.contains(&t) {
                rules.class[t] = PieceClass::Royal;
                continue;
            }
            if p.promotion.is_some() {
                rules.class[t] = PieceClass::Mating;
                continue;
            }
            let code = code_of(t, Color::White);
            let mine = region(t, Color::White);
            let mut colour_bound = true;
            let mut mates = false;
            for from in (0..nsq).map(Square::new).filter(|&s| mine[s]) {
                // every square its moves may reach, hops and all, keeps the colour
                if crate::compile::plain_cells(v.tables.list(code, false, from).0).any(|c| parity(c.to) != parity(from))
                {
                    colour_bound = false;
                }
                if mates {
                    continue;
                }
                let (f, rk) = (g.file_of(from), g.rank_of(from));
                let mut around = 0;
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (Some(near), far) = (g.square(f + df, rk + dr), g.square(f + 2 * df, rk + 2 * dr)) else {
                        continue;
                    };
                    scratch.put(near, blocker);
                    if reach(&mut scratch, code, from).capture[near] {
                        around += 1;
                    }
                    scratch.remove(near);
                    if let Some(far) = far {
                        if mates {
                            continue;
                        }
                        scratch.put(far, blocker);
                        let open = reach(&mut scratch, code, from).capture[far];
                        scratch.put(near, blocker);
                        let through = reach(&mut scratch, code, from).capture[far];
                        scratch.remove(near);
                        scratch.remove(far);
                        if open && !through {
                            mates = true;
                        }
                    }
                }
                if around >= 5 {
                    mates = true;
                }
            }
            rules.class[t] = if colour_bound {
                PieceClass::ColourBound
            } else if mates {
                PieceClass::Mating
            } else {
                PieceClass::Minor
            };
        }
        rules
    }

    /// The class of a piece type.
    pub fn class(&self, t: usize) -> PieceClass {
        self.class[t]
    }

    /// Whether each side, `[White, Black]`, lacks mating material in `pos`.
    /// Nothing is allocated.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, material::MaterialRules, position::Position};
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let m = MaterialRules::new(&v);
    /// let pos = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/8/4KR2 w - - 0 1").unwrap();
    /// assert_eq!(m.insufficient(&pos), [false, true]);
    /// let pos = Position::from_fen(v, "4k3/8/8/8/8/8/8/4KN2 w - - 0 1").unwrap();
    /// assert_eq!(m.insufficient(&pos), [true, true]);
    /// ```
    pub fn insufficient(&self, pos: &Position) -> [bool; 2] {
        let in_hand = |c: Color| (0..self.class.len()).any(|t| pos.pocket(c, t) > 0);
        if self.never {
            // a side without a single piece can win only by the extinction of the other
            let bare = |c: Color| !self.extinction && pos.pieces(c).is_empty() && !in_hand(c);
            return [bare(Color::White), bare(Color::Black)];
        }
        // per side: colour-bound pieces on each colour, other pieces, mating pieces
        let mut bound = [[false; 2]; 2];
        let mut unbound = false;
        let mut minor = [false; 2];
        let mut mating = [false; 2];
        let mut counting = 0;
        let g = pos.geometry();
        for c in [Color::White, Color::Black] {
            for &sq in pos.pieces(c) {
                let t = type_of(pos.piece_at(sq));
                if !self.counts[c.index()][t * self.nsq + sq.index()] {
                    continue;
                }
                match self.class[t] {
                    PieceClass::Royal => continue,
                    PieceClass::Mating => {
                        mating[c.index()] = true;
                        unbound = true;
                    }
                    PieceClass::ColourBound => bound[c.index()][((g.file_of(sq) + g.rank_of(sq)) & 1) as usize] = true,
                    PieceClass::Minor => {
                        minor[c.index()] = true;
                        unbound = true;
                    }
                }
                counting += 1;
            }
        }
        let both_colours = (bound[0][0] || bound[1][0]) && (bound[0][1] || bound[1][1]);
        let mut out = [true; 2];
        for c in [Color::White, Color::Black] {
            let i = c.index();
            let has_bound = bound[i][0] || bound[i][1];
            let any_piece = self.any_piece || self.draw_odds == Some(c);
            out[i] = !(in_hand(c)
                || mating[i]
                || (has_bound && (both_colours || unbound || any_piece))
                || (minor[i] && (counting >= 2 || any_piece)));
        }
        out
    }
}

impl Position {
    /// Whether each side, `[White, Black]`, lacks mating material (see
    /// [`MaterialRules`]; this builds the variant's rule first, so callers
    /// that ask often should keep a [`MaterialRules`]).
    pub fn insufficient_material(&self) -> [bool; 2] {
        MaterialRules::new(self.variant()).insufficient(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    fn rules(name: &str) -> (Arc<Variant>, MaterialRules) {
        let v = Arc::new(builtin::variant(name).unwrap());
        let m = MaterialRules::new(&v);
        (v, m)
    }

    #[test]
    fn classes_come_from_the_moves() {
        let (v, m) = rules("chess");
        let class = |l: char| m.class(v.def.piece_by_letter(l).unwrap());
        assert_eq!(
            ['k', 'q', 'r', 'b', 'n', 'p'].map(class),
            [
                PieceClass::Royal,
                PieceClass::Mating,
                PieceClass::Mating,
                PieceClass::ColourBound,
                PieceClass::Minor,
                PieceClass::Mating
            ]
        );
        let (_, m) = rules("shogi");
        assert!(m.never, "captures go to the hand");
        let (v, m) = rules("xiangqi");
        let counts_anywhere = |l: char, c: Color| {
            let t = v.def.piece_by_letter(l).unwrap();
            (0..m.nsq).any(|s| m.counts[c.index()][t * m.nsq + s])
        };
        for c in [Color::White, Color::Black] {
            assert!(!counts_anywhere('a', c) && !counts_anywhere('b', c), "they never reach the enemy palace");
            assert!(counts_anywhere('n', c));
        }
    }

    #[test]
    fn chess_endings() {
        let (v, m) = rules("chess");
        for (fen, want) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", [true, true]),
            ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", [true, true]),
            ("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1", [true, true]),
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", [false, true]),
            ("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", [false, false]),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", [false, true]),
            ("4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1", [false, false]),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", [false, true]),
        ] {
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            assert_eq!(m.insufficient(&pos), want, "{fen}");
        }
    }
}
