//! Legality by the reference method: play the move, then ask whether any
//! opponent move captures a royal piece. It is slow but has no special cases,
//! which makes it the oracle for faster methods.

use crate::moves::{Move, MoveKind, MoveList};

use crate::position::Position;
use crate::royal_capture::RoyalHit;
use crate::square::{Color, NO_SQUARE};
use crate::variant::{PassRule, RoyalRule, StalemateResult};

/// How a game ends when the side to move has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is checkmated; the variant scores it (a loss, except
    /// in misère games, where the mated side wins).
    Checkmate(StalemateResult),
    /// The side to move is checkmated by a drop the variant forbids to mate
    /// with (shogi's pawn-drop mate): the side to move wins.
    DropMate,
    /// The side to move is stalemated; the variant scores it.
    Stalemate(StalemateResult),
    /// The game ended by a rule of its history: two passes in a row, or
    /// bikjang twice in a row. (Janggi then counts material; that scoring
    /// belongs to the engine.)
    EndedByRule,
    /// A side is extinct under the variant's extinction rule; the result is
    /// for that side.
    Extinction(Color, StalemateResult),
    /// This side brought a flag piece into its flag zone and wins.
    Flag(Color),
    /// This side has given the checks the variant asks for (three-check) and wins.
    ChecksGiven(Color),
}

impl Position {
    /// True if any move of `c`'s opponent (pseudo-legal, ignoring whose turn it
    /// is) captures a royal piece of `c`, or if the variant forbids facing
    /// royals and `c`'s royal faces the enemy's on an open file.
    ///
    /// Under [`RoyalRule::Last`] a side with two or more royal pieces is
    /// never attacked in this sense: only its last royal must stay safe.
    pub fn royal_attacked(&mut self, c: Color) -> bool {
        if self.royals_unguarded(c) {
            return false;
        }
        let them = c.flip();
        let mut hit = RoyalHit { target: c };
        let n = self.lists[them.index()].len;
        for i in 0..n {
            let sq = self.lists[them.index()].sq[i];
            if self.walk_piece(sq, &mut hit) {
                return true;
            }
        }
        (self.variant().def.rules.flying_general && self.royals_face(c))
            || (self.variant().burners && self.burn_threatens(c))
    }

    /// The number of royal pieces `c` has on the board.
    pub fn royal_count(&self, c: Color) -> usize {
        let royal = &self.variant().royal;
        self.pieces(c).iter().filter(|&&s| royal[self.board[s]]).count()
    }

    /// True if the variant lets `c`'s royal pieces be attacked because `c`
    /// has several of them ([`RoyalRule::Last`]: two kings are no king).
    #[inline]
    pub fn royals_unguarded(&self, c: Color) -> bool {
        self.variant().def.rules.royals == RoyalRule::Last && self.royal_count(c) >= 2
    }

    /// True if the side to move has a royal piece under attack: the answer
    /// of [`Position::royal_attacked`], found by walking only the enemy
    /// trajectories that can end on or pass a royal piece's square (the
    /// box of files and ranks that holds them, tested against each
    /// subtree's reach box). `royal_attacked` itself walks everything and
    /// stays the reference.
    ///
    /// ```
    /// use chimera::{builtin, position::Position};
    /// use std::sync::Arc;
    /// let v = Arc::new(builtin::variant("xiangqi").unwrap());
    /// // the red cannon on e3 checks the black king over the pawn on e7
    /// let mut pos = Position::from_fen(v.clone(), "4k4/9/9/4p4/9/9/9/4C4/9/3K5 b - - 0 1").unwrap();
    /// assert!(pos.in_check());
    /// // without a screen it does not
    /// let mut pos = Position::from_fen(v, "4k4/9/9/9/9/9/9/4C4/9/3K5 b - - 0 1").unwrap();
    /// assert!(!pos.in_check());
    /// ```
    pub fn in_check(&mut self) -> bool {
        let us = self.side;
        match self.royal_box(us) {
            Some(zone) => self.royal_attacked_within(us, zone),
            None => self.royal_attacked(us),
        }
    }

    /// The box of files and ranks holding every royal piece of `c`, when
    /// the trajectories that can capture one are found by their reach
    /// boxes alone: not with an e.p. victim that is royal (an e.p. capture
    /// ends on another square) or with moves of two victims. `None`: walk
    /// everything.
    fn royal_box(&self, c: Color) -> Option<crate::compile::Reach> {
        let v = self.variant();
        if v.tables.two_victims() {
            return None;
        }
        if self.ep_victim != NO_SQUARE && self.board[self.ep_victim].is_color(c) && v.royal[self.board[self.ep_victim]]
        {
            return None;
        }
        let g = self.geometry();
        let mut zone = crate::compile::EMPTY_BOX;
        for &sq in self.pieces(c) {
            if v.royal[self.board[sq]] {
                let (f, r) = (g.file_of(sq) as u8, g.rank_of(sq) as u8);
                zone = crate::compile::box_union(zone, [f, f, r, r]);
            }
        }
        Some(zone)
    }

    /// [`Position::royal_attacked`], walking only the subtrees whose reach
    /// box meets `zone` (which holds every royal piece of `c`).
    fn royal_attacked_within(&mut self, c: Color, zone: crate::compile::Reach) -> bool {
        if self.royals_unguarded(c) {
            return false;
        }
        let them = c.flip();
        let mut hit = RoyalHit { target: c };
        let variant = self.variant().clone();
        let tables = &variant.tables;
        for i in 0..self.lists[them.index()].len {
            let sq = self.lists[them.index()].sq[i];
            if let Some((true, _)) = self.walk_piece_within(tables, sq, zone, &mut hit) {
                return true;
            }
        }
        (variant.def.rules.flying_general && self.royals_face(c)) || (variant.burners && self.burn_threatens(c))
    }

    /// True if the game has ended by a rule that needs the move history: two
    /// passes in a row where passing is a rule (Janggi; a piece's pass, such
    /// as a Lion's, ends nothing), or (bikjang) facing royals in two positions
    /// in a row.
    pub fn ended_by_rule(&self) -> bool {
        let rules = &self.variant().def.rules;
        (rules.pass != PassRule::Never && self.pass_run >= 2)
            || self.bikjang_twice()
            || self.extinct_side().is_some()
            || self.flag_reached()
            || self.checks_given().is_some()
    }

    /// True if the side that just moved has a flag piece in its flag zone.
    pub fn flag_reached(&self) -> bool {
        let v = self.variant();
        let Some(f) = &v.def.rules.flag else { return false };
        let c = self.side.flip();
        let code = crate::compile::code_of(f.piece, c);
        let zone = &v.def.zones[f.zone];
        let g = self.geometry();
        self.pieces(c).iter().any(|&sq| self.board[sq] == code && zone.contains(&g, c, sq))
    }

    /// The side that is extinct under the variant's extinction rule, if any;
    /// under [`RoyalRule::Last`] also a side that has lost all its royal
    /// pieces (a Lion can take King and Crown Prince in one move).
    pub fn extinct_side(&self) -> Option<Color> {
        let v = self.variant();
        if v.def.rules.royals == RoyalRule::Last {
            if let Some(c) = [self.side, self.side.flip()].into_iter().find(|&c| self.royal_count(c) == 0) {
                return Some(c);
            }
        }
        let e = v.def.rules.extinction.as_ref()?;
        let count = |c: Color, t: Option<usize>| -> u32 {
            match t {
                None => {
                    self.pieces(c).len() as u32
                        + (0..v.def.pieces.len()).map(|t| self.pockets[c.index()][t] as u32).sum::<u32>()
                }
                Some(t) => self.count(crate::compile::code_of(t, c)) as u32 + self.pockets[c.index()][t] as u32,
            }
        };
        for c in [self.side.flip(), self.side] {
            let need = e.opponent_count + u32::from(e.claim && c == self.side);
            let extinct = |t: Option<usize>| count(c, t) <= e.count && count(c.flip(), t) >= need;
            let hit = match &e.pieces {
                None => extinct(None),
                Some(ts) => ts.iter().any(|&t| extinct(Some(t))),
            };
            if hit {
                return Some(c);
            }
        }
        None
    }

    /// Whether a pseudo-legal move is legal, by the reference method.
    pub fn is_legal_reference(&mut self, m: Move) -> bool {
        let facing = self.bikjang_now();
        self.is_legal_reference_in(m, facing)
    }

    /// The reference test, given whether the royals face each other now (bikjang).
    fn is_legal_reference_in(&mut self, m: Move, facing: bool) -> bool {
        let us = self.side;
        if facing && m.kind() == MoveKind::Pass {
            // under bikjang a pass is always allowed, even in check
            return true;
        }
        if self.lion_rules_forbid(m) {
            return false;
        }
        let royal_castler = self.variant().royal[self.board[m.from()]];
        if m.kind() == MoveKind::Castle && royal_castler {
            // a royal king may not castle out of, or through, an attacked square
            if self.royal_attacked(us) {
                return false;
            }
            // the squares the king passes (its castling square is tested
            // after the move); in Chess960 the king may pass its own rook's
            // square, where the rook is lifted for the test
            let (from, to, rsq) = (m.from(), m.to(), m.extra());
            for sq in crate::castling::castle_transit(from, to) {
                let lifted = (sq == rsq).then(|| (self.index[rsq], self.remove(rsq)));
                let mut attacked = false;
                if self.board[sq].is_empty() {
                    self.shift(from, sq);
                    attacked = self.royal_attacked(us);
                    self.shift(sq, from);
                }
                if let Some((at, rook)) = lifted {
                    self.put_back(rsq, rook, at);
                }
                if attacked {
                    return false;
                }
            }
        }
        if self.is_royal_initial_move_banned_in_check(m) && self.in_check() {
            return false;
        }
        let banned_check = self.is_in_place_promotion(m) || self.may_not_give_check(m);
        // passive burning may take the mover itself, which must not be its
        // side's last royal
        let royals_before = if self.variant().burners { self.royal_count(us) } else { 0 };
        let undo = self.make(m);
        let ok = !(self.royal_attacked(us)
            || (facing && self.royals_face(us))
            || (banned_check && self.royal_attacked(us.flip()))
            || (royals_before > 0 && self.royal_count(us) == 0));
        self.unmake(m, &undo);
        ok
    }

    /// Cambodian: `m` is an initial-only move of a royal piece, which the
    /// variant forbids while in check (the caller tests the check).
    pub(crate) fn is_royal_initial_move_banned_in_check(&self, m: Move) -> bool {
        if !self.variant().def.rules.initial_rights.as_ref().is_some_and(|r| r.not_in_check) {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let code = self.board[from];
        if code.is_empty() || !self.variant().royal[code] || !self.is_virgin(from) {
            return false;
        }
        // an initial-only move: the piece could not make it without its right
        !crate::compile::plain_cells(self.variant().tables.list(code, false, from).0).any(|c| c.to == to)
    }

    /// True if the variant forbids `m` to give check: every move
    /// (`checking = false`), or a drop (`dropChecks = false`).
    pub(crate) fn may_not_give_check(&self, m: Move) -> bool {
        match self.variant().def.rules.giving_check {
            crate::variant::GivingCheck::Allowed => false,
            crate::variant::GivingCheck::NotByDrops => m.kind() == MoveKind::Drop,
            crate::variant::GivingCheck::Never => true,
        }
    }

    /// True if `m` is a Sittuyin-style promotion (which may not give check).
    pub(crate) fn is_in_place_promotion(&self, m: Move) -> bool {
        m.kind() == MoveKind::Promotion
            && self.variant().tables.promo[self.board[m.from()]].as_ref().is_some_and(|p| !p.in_place_zone.is_empty())
    }

    /// With a must-drop rule, keeps only the drops when there is a legal one.
    pub(crate) fn apply_must_drop(&self, out: &mut MoveList) {
        if self.variant().def.rules.drops.as_ref().is_some_and(|d| d.must_drop)
            && out.quiets().iter().any(|m| m.kind() == MoveKind::Drop)
        {
            out.retain(|m| m.kind() == MoveKind::Drop);
        }
    }

    /// True if the last move was a drop, of a type the variant names in
    /// `no_drop_mate`, that gave check (shogi's pawn-drop mate). Like
    /// Fairy-Stockfish, Chimera lists such a drop as a legal move; when it
    /// mates, the player who dropped loses ([`Outcome::DropMate`]).
    fn last_move_was_checking_banned_drop(&mut self) -> bool {
        let Some(m) = self.last_move.filter(|m| m.kind() == MoveKind::Drop) else { return false };
        let v = self.variant().clone();
        let Some(d) = &v.def.rules.drops else { return false };
        d.no_drop_mate.contains(&crate::compile::type_of(m.code())) && self.in_check()
    }

    /// Fills `out` with the legal moves, using `scratch` for the pseudo-legal ones.
    /// A game that has ended by rule ([`Position::ended_by_rule`]) has no legal moves.
    pub fn generate_legal_reference(&mut self, scratch: &mut MoveList, out: &mut MoveList) {
        out.clear();
        if self.ended_by_rule() {
            return;
        }
        self.generate_pseudo(scratch);
        out.clear_with_room(scratch.len());
        let facing = self.bikjang_now();
        for m in scratch.captures().iter().copied() {
            if self.is_legal_reference_in(m, facing) {
                out.push_capture(m);
            }
        }
        if self.variant().def.rules.must_capture && !out.captures().is_empty() {
            return;
        }
        for m in scratch.quiets().iter().rev().copied() {
            if self.is_legal_reference_in(m, facing) {
                out.push_quiet(m);
            }
        }
        self.apply_must_drop(out);
    }

    /// The legal moves, as a vector (convenient, but it allocates).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
    /// assert_eq!(p.legal_moves().len(), 20);
    /// ```
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut scratch = MoveList::new();
        let mut out = MoveList::new();
        let mut info = crate::check::CheckInfo::new();
        self.generate_legal(&mut scratch, &mut out, &mut info);
        out.iter().collect()
    }

    /// The legal moves by the reference method (for tests and comparisons).
    pub fn legal_moves_reference(&mut self) -> Vec<Move> {
        let mut scratch = MoveList::new();
        let mut out = MoveList::new();
        self.generate_legal_reference(&mut scratch, &mut out);
        out.iter().collect()
    }

    /// The result if the side to move has no legal move, `None` otherwise.
    /// Uses the incremental check test and stops at the first legal move found.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let mut scratch = MoveList::new();
        let mut info = crate::check::CheckInfo::new();
        self.outcome_in(&mut scratch, &mut info)
    }

    /// [`Position::outcome`] with the caller's buffers, for a search: nothing is allocated.
    pub fn outcome_in(&mut self, scratch: &mut MoveList, info: &mut crate::check::CheckInfo) -> Option<Outcome> {
        if let Some(c) = self.extinct_side() {
            // without an extinction rule: all royal pieces lost (RoyalRule::Last)
            let r = self.variant().def.rules.extinction.as_ref().map_or(StalemateResult::Loss, |e| e.result);
            return Some(Outcome::Extinction(c, self.with_draw_odds(r, c)));
        }
        if self.flag_reached() {
            return Some(Outcome::Flag(self.side.flip()));
        }
        if let Some(c) = self.checks_given() {
            return Some(Outcome::ChecksGiven(c));
        }
        if self.ended_by_rule() {
            return Some(Outcome::EndedByRule);
        }
        if self.has_legal_move_in(scratch, info) {
            return None;
        }
        if info.in_check() || self.in_check() {
            if self.last_move_was_checking_banned_drop() {
                return Some(Outcome::DropMate);
            }
            Some(Outcome::Checkmate(self.with_draw_odds(self.variant().def.rules.checkmate, self.side)))
        } else {
            Some(Outcome::Stalemate(self.with_draw_odds(self.variant().def.rules.stalemate, self.side)))
        }
    }

    /// A result for side `c`, where a draw becomes a win or a loss under the
    /// variant's draw odds (armageddon: Black wins every drawn game).
    pub fn with_draw_odds(&self, r: StalemateResult, c: Color) -> StalemateResult {
        match (r, self.variant().def.rules.draw_odds) {
            (StalemateResult::Draw, Some(w)) if w == c => StalemateResult::Win,
            (StalemateResult::Draw, Some(_)) => StalemateResult::Loss,
            _ => r,
        }
    }
}
