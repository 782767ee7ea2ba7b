//! Fully legal moves by incremental check testing (H.G. Muller's method).
//!
//! Once per position, an *augmented check test* walks every trajectory of the
//! side not to move, with the mover's royal piece lifted off the board, and
//! records:
//! - the pseudo-attacks: every square an enemy capture reaches, empty or not;
//! - per square, the enemy trajectories whose walk depends on that square's
//!   occupancy: rides blocked there, hopper screens and locust forks;
//! - the checks: the trajectories that capture the royal piece.
//!
//! Then each candidate move is cheap. A royal move is a table lookup. Any other
//! move re-runs only the checks and the trajectories recorded on the squares it
//! changes (its origin, its destination and the squares of its locust
//! victims, up to two), on the board as it is after the move. Most moves
//! re-run nothing at all.
//!
//! A trajectory is recorded on a square only when the part of it that starts
//! there can reach the royal's square at all (a box of files and ranks
//! computed per cell when the tables are compiled): a change elsewhere on the
//! board can make a new capture only below the first cell whose walk it
//! changes. The same boxes prune the walk itself: a part of a trajectory
//! that reaches none of the squares the test reads (the royal's, its
//! destinations and the squares castling passes) is not walked at all.
//!
//! Castling reads the same table: the king's square (in check), the squares
//! it passes and its destination, with the trajectories recorded on the
//! rook's squares re-run after the move. A trajectory that can reach a
//! castling destination but not the royal's square is kept on a list of its
//! own that only castling reads, so that it slows no other move.
//!
//! The reference method of [`crate::legal`] stays as the oracle: positions this
//! method does not cover (several royals, a locust capture by the royal, an
//! attack that depends on a locust first leg or may take a second victim,
//! castling into a square the table shows attacked) are handed to it.

use crate::compile::{
    box_overlap, box_union, is_ray, ray_len, ray_square, type_of, Cell, Reach, AUX_NO_CAPTURE, AUX_TAME, CAPTURE,
    EMPTY_CHILD, OCC_FOE, OCC_FRIEND, SPECIAL,
};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Square, MAX_SQUARES, NO_SQUARE};

const E_FORK: u8 = 1;
const E_FACING: u8 = 2;

/// The boxes of squares (as [`Reach`]) a recorded subtree must reach.
#[derive(Clone, Copy)]
struct Target {
    /// The royal's square: trajectories re-run for every move.
    royal: Reach,
    /// The union of [`Target::royal`] and the royal's destinations by
    /// castling, of the rights it still has: trajectories that reach it but
    /// not the royal's square are re-run for castling only.
    any: Reach,
}

impl Target {
    /// The lists a subtree with the box `r` goes on: `Some(true)` the
    /// royal's, `Some(false)` castling's only, `None` none.
    #[inline(always)]
    fn lists(self, r: Reach) -> Option<bool> {
        if !box_overlap(r, self.any) {
            None
        } else {
            Some(box_overlap(r, self.royal))
        }
    }
}

/// One recorded trajectory: the subtree that starts at cell `root` of the list
/// of the enemy piece on `psq`, linked into a per-square list.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    psq: Square,
    code: Code,
    flags: u8,
    root: u16,
    next: u32,
}

/// The per-position data of the augmented check test. It is reused from node
/// to node; computing it allocates nothing once its entry buffer has grown.
#[derive(Clone)]
pub struct CheckInfo {
    pub(crate) attack: [u8; MAX_SQUARES],
    pub(crate) uncertain: [bool; MAX_SQUARES],
    head: [u32; MAX_SQUARES],
    /// The recorded trajectories, with the square they are recorded on,
    /// that can reach the box of the royal's castling destinations (while it
    /// may castle) but not the royal's square: only castling re-runs them,
    /// so that they slow no other move.
    castle_entries: Vec<(Square, Entry)>,
    /// Perft's last ply only: the squares of the pieces of the side to move
    /// on which walks are recorded but that may leave their squares by any
    /// plain move ([`CheckInfo::leaves_safely`]).
    safe_leavers: Vec<Square>,
    /// The squares with a non-empty list (`head` not 0), each once: the
    /// next computation clears these only.
    recorded: Vec<Square>,
    /// Some square of `uncertain` is set (the next computation clears them).
    any_uncertain: bool,
    /// The number of squares of the board of the last computation: its
    /// `uncertain` marks and `head` lists lie below it.
    last_squares: usize,
    entries: Vec<Entry>,
    checks: Vec<Entry>,
    pub(crate) royal: Square,
    /// The box of files and ranks holding every square whose attack or
    /// locust data is read: the royal's own square and destinations, and,
    /// while it may castle, the squares from it to its castling
    /// destinations. Enemy pieces, and parts of their trajectories, that
    /// reach nothing in it are not walked.
    zone: Reach,
    /// The board's width (files), to place a square in `zone`.
    width: u8,
    /// Some recorded trajectory forks on its square's occupant (a hopper's
    /// screen, a locust's victim). Without one, a move onto an occupied
    /// square changes no recorded walk: the square stays occupied.
    any_fork: bool,
    /// The royal's table moves (kinds in [`CheckInfo::quick`]) are decided
    /// by the attack counts alone: the fast method applies, out of check,
    /// and no path of the variant captures on a square it passed.
    royal_quick: bool,
    /// The fast method applies (exactly one royal, no ambiguity at its square).
    fast: bool,
    /// The variant forbids some moves to give check (tested by playing them).
    check_banned: bool,
    /// The variant has the Lion anti-trading rules.
    lion_rules: bool,
    /// The side to move has several royals and only its last one must stay
    /// safe ([`crate::variant::RoyalRule::Last`]): every move is legal.
    unguarded: bool,
    pub(crate) in_check: bool,
    /// The move kinds (bit `k` for [`MoveKind`] `k`, ungated) whose moves of
    /// a non-royal piece are legal when no recorded trajectory passes their
    /// origin or destination: set only when the fast method applies, the
    /// side is not in check and no rule tests such moves by playing them.
    quick: u8,
    /// [`CheckInfo::quick`] for non-captures, which go to empty squares: the
    /// Lion trading rules restrict captures only.
    quick_quiet: u8,
}

impl Default for CheckInfo {
    fn default() -> Self {
        Self::new()
    }
}

impl CheckInfo {
    /// An empty structure.
    pub fn new() -> CheckInfo {
        CheckInfo {
            attack: [0; MAX_SQUARES],
            uncertain: [false; MAX_SQUARES],
            head: [0; MAX_SQUARES],
            castle_entries: Vec::with_capacity(64),
            safe_leavers: Vec::with_capacity(16),
            recorded: Vec::with_capacity(64),
            any_uncertain: false,
            last_squares: 0,
            entries: Vec::with_capacity(1024),
            checks: Vec::with_capacity(16),
            royal: NO_SQUARE,
            zone: crate::compile::EMPTY_BOX,
            width: 0,
            any_fork: false,
            royal_quick: false,
            fast: false,
            check_banned: false,
            lion_rules: false,
            unguarded: false,
            in_check: false,
            quick: 0,
            quick_quiet: 0,
        }
    }

    /// Whether the side to move was in check when this was computed (only
    /// meaningful when the fast method applies).
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// How many enemy captures reach `sq` (with the royal piece lifted), when
    /// `sq` is the royal's square, one of its destinations or, while it may
    /// castle, between it and a castling destination (both included);
    /// elsewhere the trajectories that reach no such square are not counted.
    pub fn attacks(&self, sq: Square) -> u8 {
        self.attack[sq]
    }

    /// Whether `sq` lies in the box of squares whose attacks are complete.
    #[inline]
    pub(crate) fn in_zone(&self, sq: Square) -> bool {
        let (f, r) = self.file_rank(sq);
        box_overlap([f, f, r, r], self.zone)
    }

    /// The file and rank of `sq`, as the reach boxes hold them.
    #[inline(always)]
    fn file_rank(&self, sq: Square) -> (u8, u8) {
        let w = self.width.max(1) as usize;
        ((sq.index() % w) as u8, (sq.index() / w) as u8)
    }

    /// Whether a plain move (kind [`MoveKind::Normal`], no gate) from `from`
    /// to `to` is legal by the quick test alone: a non-royal piece, out of
    /// check, and no recorded walk changes. False means "not decided
    /// here", not illegal.
    #[inline(always)]
    pub(crate) fn plain_legal(&self, from: Square, to: Square, capture: bool) -> bool {
        let quick = if capture { self.quick } else { self.quick_quiet };
        quick & 1 << MoveKind::Normal as u8 != 0 && from != self.royal && self.unchanged_walks(from, to)
    }

    /// Whether every plain move (or double step) of a piece that no
    /// recorded walk passes is legal: the quick test applies to both kinds,
    /// captures and non-captures, and no recorded walk forks on an occupant
    /// (so no destination changes a walk).
    #[inline(always)]
    pub(crate) fn counts_whole_pieces(&self) -> bool {
        let both = 1 << MoveKind::Normal as u8 | 1 << MoveKind::Double as u8;
        self.quick & both == both && self.quick_quiet & both == both && !self.any_fork
    }

    /// Whether the piece on `sq`, not the royal, on which walks are
    /// recorded, may leave its square by any plain move
    /// ([`Position::count_legal`] finds such pieces before it counts).
    #[cold]
    #[inline(never)]
    pub(crate) fn leaves_safely(&self, sq: Square) -> bool {
        self.safe_leavers.contains(&sq)
    }

    /// Whether the piece on `from` is not the royal and no recorded walk
    /// passes its square.
    #[inline(always)]
    pub(crate) fn piece_free(&self, from: Square) -> bool {
        from != self.royal && self.head[from] == 0
    }

    /// Whether a move of a non-royal piece from `from` to `to` (nothing
    /// else changed) leaves every recorded walk as it was: none is recorded
    /// on `from`, and none on `to` or none forks anywhere. (Without forks,
    /// an entry on `to` is a walk its occupant blocks, and the move leaves
    /// the square occupied: an empty square holds fork entries only.)
    #[inline(always)]
    fn unchanged_walks(&self, from: Square, to: Square) -> bool {
        self.head[from] == 0 && (self.head[to] == 0 || !self.any_fork)
    }

    /// Whether the royal may go to `to`, when the attack counts decide it
    /// (`to` in the zone whose counts are complete, no locust victim that
    /// the counts miss): `Some(legal)`, else `None`.
    #[inline(always)]
    fn royal_to_by_attacks(&self, to: Square) -> Option<bool> {
        (!self.uncertain[to] && self.in_zone(to)).then(|| self.attack[to] == 0)
    }

    /// Links `e` into the list of `sq` if `royal` (its walk from `sq` can
    /// reach the royal's square), else into [`CheckInfo::castle_entries`].
    #[inline(always)]
    fn push(&mut self, sq: Square, e: Entry, royal: bool) {
        self.any_fork |= e.flags & E_FORK != 0;
        if !royal {
            self.castle_entries.push((sq, e));
            return;
        }
        let mut e = e;
        e.next = self.head[sq];
        if e.next == 0 {
            self.recorded.push(sq);
        }
        self.entries.push(e);
        self.head[sq] = self.entries.len() as u32;
    }
}

impl Position {
    /// Runs the augmented check test for the side to move.
    pub fn compute_check_info(&mut self, info: &mut CheckInfo) {
        let us = self.side;
        let nsq = self.geometry().squares();
        info.attack[..nsq].fill(0);
        // the last computation (on a board of `last` squares, maybe of
        // another variant) set marks and lists below `last` only
        let last = info.last_squares;
        info.last_squares = nsq;
        if info.any_uncertain {
            info.uncertain[..last].fill(false);
            info.any_uncertain = false;
        }
        // the squares with a list are known: when they are few, only they are cleared
        if info.recorded.len() <= 8 {
            for &sq in &info.recorded {
                info.head[sq] = 0;
            }
        } else {
            info.head[..last].fill(0);
        }
        info.entries.clear();
        info.recorded.clear();
        info.checks.clear();
        info.castle_entries.clear();
        info.in_check = false;
        info.quick = 0;
        info.quick_quiet = 0;
        info.any_fork = false;
        info.royal_quick = false;
        // the variant is borrowed afresh after each board write (no handle clone per node)
        let variant = self.variant();
        info.lion_rules = variant.def.rules.lion_trading.is_some();
        info.check_banned = variant.def.rules.giving_check != crate::variant::GivingCheck::Allowed;
        let royal = &variant.royal;
        // how many royals the side has, from the counts per code (no scan)
        let nroyal: u32 = variant.royal_codes[us.index()].iter().map(|&c| self.counts[c.index()] as u32).sum();
        let first = if nroyal > 0 { self.pieces(us).iter().copied().find(|&s| royal[self.board[s]]) } else { None };
        // burning is left to the reference method
        info.fast = first.is_some() && nroyal == 1 && !variant.burners;
        info.unguarded = nroyal >= 2 && variant.def.rules.royals == crate::variant::RoyalRule::Last;
        let flying_general = variant.def.rules.flying_general;
        let Some(ksq) = first.filter(|_| info.fast) else {
            info.royal = NO_SQUARE;
            return;
        };
        info.royal = ksq;
        let kcode = self.board[ksq];
        self.board[ksq] = Code::EMPTY;
        let them = us.flip();
        // a trajectory is recorded on a square only if its subtree from there
        // can reach the royal's square or, with castling rights, the box of
        // the royal's castling destinations (castling re-runs those alone)
        let g = self.geometry();
        let (kf, kr) = (g.file_of(ksq) as u8, g.rank_of(ksq) as u8);
        let rights = self.castling >> (us.index() * 2) & 3;
        let castles = rights != 0;
        let mut target = Target { royal: [kf, kf, kr, kr], any: [kf, kf, kr, kr] };
        if castles {
            if let Some(cast) = &self.variant().def.rules.castling {
                let (k, q) = (cast.kingside_file, cast.queenside_file);
                let (lo, hi) = match rights {
                    1 => (k, k),
                    2 => (q, q),
                    _ => (k.min(q), k.max(q)),
                };
                target.any = box_union(target.any, [lo, hi, kr, kr]);
            }
        }
        // the squares whose attack and locust data the legality test reads:
        // the royal's (in check), its destinations and, with castling, the
        // squares from it to its castling destinations (those it passes); a
        // royal move elsewhere goes to the reference test
        let kvirgin = self.is_virgin(ksq);
        let ktables = &self.variant().tables;
        let zone = box_union(target.any, ktables.list_box[ktables.list_index(kcode, kvirgin, ksq)]);
        info.zone = zone;
        info.width = g.width;
        for i in 0..self.lists[them.index()].len {
            let psq = self.lists[them.index()].sq[i];
            let code = self.board[psq];
            let tables = &self.variant().tables;
            let idx = self.list_index_at(psq);
            if !box_overlap(tables.list_box[idx], zone) {
                // it attacks nothing that is read and is recorded nowhere
                continue;
            }
            let l = tables.lists[idx];
            if l.lift {
                self.board[psq] = Code::EMPTY;
            }
            let tables = &self.variant().tables;
            let range = l.start as usize..l.start as usize + l.len as usize;
            let (cells, reach) = (&tables.cells[range.clone()], &tables.reach[range]);
            self.record(cells, reach, target, code, psq, kcode, 0, info);
            if l.lift {
                self.board[psq] = code;
            }
        }
        if flying_general {
            let tables = &self.variant().tables;
            for i in 0..self.lists[them.index()].len {
                let psq = self.lists[them.index()].sq[i];
                let code = self.board[psq];
                if self.variant().royal[code] {
                    let l = tables.facing[psq];
                    let reach = &tables.reach[l.start as usize..l.start as usize + l.len as usize];
                    self.record(tables.facing_list(psq), reach, target, code, psq, kcode, E_FACING, info);
                }
            }
        }
        self.board[ksq] = kcode;
        if self.variant().tables.two_victims() {
            self.mark_second_victims(info);
        }
        if info.uncertain[ksq] {
            info.fast = false;
        }
        info.in_check = info.attack[ksq] > 0;
        if info.uncertain[ksq] {
            // the royal may be a locust victim, which the attack counts miss
            info.in_check = self.royal_attacked(us);
        }
        if info.fast && !info.in_check && !info.check_banned {
            let promotion = if self.variant().tables.in_place_promotion { 0 } else { 1 << MoveKind::Promotion as u8 };
            info.quick_quiet = 1 << MoveKind::Normal as u8 | 1 << MoveKind::Double as u8 | promotion;
            info.quick = if info.lion_rules { 0 } else { info.quick_quiet };
            info.royal_quick = !self.variant().tables.captures_own_screen;
        }
    }

    /// [`Position::is_legal_with`], with the common case decided inline: a
    /// plain move of a non-royal piece, out of check, between two squares no
    /// recorded trajectory passes, is legal (it can neither uncover nor block
    /// anything that reaches the royal).
    /// `quick` is [`CheckInfo::quick`] for a capture, [`CheckInfo::quick_quiet`] for a non-capture.
    #[inline(always)]
    fn legal_with(&mut self, m: Move, info: &CheckInfo, quick: u8) -> bool {
        let top = m.kind_bits(); // the kind, and above it the gate (a gated move is never quick)
        if top < 8 && quick >> top & 1 != 0 {
            if m.from() != info.royal {
                if info.unchanged_walks(m.from(), m.to()) {
                    return true;
                }
            } else if top == MoveKind::Normal as u64 && info.royal_quick {
                if let Some(legal) = info.royal_to_by_attacks(m.to()) {
                    return legal;
                }
            }
        }
        self.is_legal_with(m, info)
    }

    /// Marks every square where an enemy trajectory could take a second
    /// locust victim as uncertain (a royal there, or moving there, is left
    /// to the reference test): a conservative superset of what the walk
    /// could find, read from the tables alone.
    #[cold]
    #[inline(never)]
    fn mark_second_victims(&self, info: &mut CheckInfo) {
        let them = self.side.flip();
        let tables = &self.variant().tables;
        for i in 0..self.lists[them.index()].len {
            let psq = self.lists[them.index()].sq[i];
            let code = self.board[psq];
            let l = tables.lists[tables.list_index(code, self.is_virgin(psq), psq)];
            for &v in &tables.victim2[l.start as usize..l.start as usize + l.len as usize] {
                if v != NO_SQUARE {
                    info.uncertain[v] = true;
                    info.any_uncertain = true;
                }
            }
        }
    }

    /// Walks one enemy list, recording attacks, occupancy-dependent trajectories and checks.
    /// `reach` is parallel to `cells`; a subtree is recorded if it overlaps
    /// one of the boxes of `target`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        cells: &[Cell],
        reach: &[Reach],
        target: Target,
        code: Code,
        psq: Square,
        kcode: Code,
        eflags: u8,
        info: &mut CheckInfo,
    ) {
        let them = code.bits() & 1;
        let ksq = info.royal;
        let zone = info.zone;
        let n = cells.len();
        let mut i = 0usize;
        let mut root_end = 0usize;
        let mut root = 0usize;
        while i < n {
            if i >= root_end {
                root = i;
                root_end = cells[i].next as usize;
            }
            let c = &cells[i];
            if !box_overlap(reach[i], zone) {
                // a subtree that reaches nothing read: no attack, entry or check to record
                i = c.next as usize;
                continue;
            }
            let entry = Entry { psq, code, flags: eflags, root: root as u16, next: 0 };
            if c.flags & CAPTURE != 0 {
                let allowed = c.flags & SPECIAL == 0
                    || (c.aux & AUX_TAME == 0
                        && (c.aux & AUX_NO_CAPTURE == 0
                            || !self.variant().tables.no_capture[code].contains(type_of(kcode))));
                if allowed {
                    let a = &mut info.attack[c.to];
                    *a = a.saturating_add(1);
                    if c.to == ksq {
                        info.checks.push(entry);
                    }
                }
            }
            let forks = c.flags & (OCC_FOE | OCC_FRIEND);
            if forks & OCC_FOE != 0 && cells[c.occ as usize].victim == c.to {
                // a locust capture could start here: whether it completes depends on the board
                info.uncertain[c.to] = true;
                info.any_uncertain = true;
            }
            let occ = self.board[c.to];
            // where the subtree from cell i is recorded: Some(true) on the
            // royal's lists, Some(false) on castling's, None nowhere
            let relevant = |i: usize| target.lists(reach[i]);
            if occ.is_empty() {
                if forks != 0 {
                    if let Some(royal) = relevant(i) {
                        info.push(c.to, Entry { flags: eflags | E_FORK, ..entry }, royal);
                    }
                }
                // a ray cell reads its first square as a leaf does; on an empty one the ray goes on
                i = if c.flags & EMPTY_CHILD != 0 {
                    i + 1
                } else {
                    if is_ray(c) {
                        Self::record_ray(&self.board, c, target, entry, info);
                    }
                    c.next as usize
                };
            } else {
                if forks != 0 {
                    if let Some(royal) = relevant(i) {
                        info.push(c.to, Entry { flags: eflags | E_FORK, ..entry }, royal);
                    }
                } else if c.flags & EMPTY_CHILD != 0 || is_ray(c) {
                    if let Some(royal) = relevant(i) {
                        info.push(c.to, entry, royal);
                    }
                }
                let foe = (occ.bits() & 1) != them;
                let mut fork = c.flags & if foe { OCC_FOE } else { OCC_FRIEND } != 0;
                if fork && c.flags & SPECIAL != 0 {
                    fork = self.special(code, c, occ, false, fork).1;
                }
                i = if fork { c.occ as usize } else { c.next as usize };
            }
        }
    }

    /// [`Position::record`] for a ray cell from its second square on: each
    /// square it reaches is attacked (a ray has no rare flags), and the ride
    /// is recorded on the square that blocks it if the rest of the ray from
    /// there meets `target`. (A ray's `reach` box holds the whole ray, the
    /// box its first square needs.)
    #[inline(always)]
    fn record_ray(board: &[Code], c: &Cell, target: Target, entry: Entry, info: &mut CheckInfo) {
        let len = ray_len(c);
        for k in 1..len {
            let to = ray_square(c, k).to;
            if c.flags & CAPTURE != 0 {
                let a = &mut info.attack[to];
                *a = a.saturating_add(1);
                if to == info.royal {
                    info.checks.push(entry);
                }
            }
            if !board[to].is_empty() {
                if k + 1 < len {
                    let last = ray_square(c, len - 1).to;
                    let ((f0, r0), (f1, r1)) = (info.file_rank(to), info.file_rank(last));
                    if let Some(royal) = target.lists([f0.min(f1), f0.max(f1), r0.min(r1), r0.max(r1)]) {
                        info.push(to, entry, royal);
                    }
                }
                return;
            }
        }
    }

    /// Re-runs one recorded trajectory on the current board: does it capture a royal of the side to move?
    #[inline]
    fn rerun(&mut self, e: &Entry) -> bool {
        if self.board[e.psq] != e.code {
            return false; // the piece was captured
        }
        let target = self.side;
        let mut hit = crate::royal_capture::RoyalHit { target };
        if e.flags & E_FACING != 0 {
            let cells = self.variant().tables.facing_list(e.psq);
            let end = cells[e.root as usize].next as usize;
            return self.walk_range(cells, e.root as usize, end, e.code, e.psq, &mut hit);
        }
        let l = self.variant().tables.list(e.code, self.is_virgin(e.psq), e.psq).1;
        if l.lift {
            self.board[e.psq] = Code::EMPTY;
        }
        let cells = &self.variant().tables.cells[l.start as usize..l.start as usize + l.len as usize];
        let end = cells[e.root as usize].next as usize;
        let r = self.walk_range(cells, e.root as usize, end, e.code, e.psq, &mut hit);
        if l.lift {
            self.board[e.psq] = e.code;
        }
        r
    }

    pub(crate) fn rerun_list(&mut self, info: &CheckInfo, sq: Square, forks_only: bool) -> bool {
        self.rerun_from(info, info.head[sq], forks_only)
    }

    /// Finds the pieces of the side to move (not its royal) on which walks
    /// are recorded but whose leaving keeps the royal safe, for
    /// [`CheckInfo::leaves_safely`]: out of check (the quick test set for
    /// plain moves) in a variant whose walks never fork on an occupant
    /// ([`crate::compile::Tables::no_forks`]), the walks recorded on the
    /// piece's square are re-run with the square empty, once per piece.
    /// Without forks the piece on its destination can only block more, so
    /// every plain move of such a piece is legal.
    fn find_safe_leavers(&mut self, info: &mut CheckInfo) {
        info.safe_leavers.clear();
        if !info.counts_whole_pieces() || !self.variant().tables.no_forks {
            return;
        }
        let us = self.side;
        for i in 0..info.recorded.len() {
            let sq = info.recorded[i];
            let code = self.board[sq];
            if code.is_empty() || code.color() != us || sq == info.royal {
                continue;
            }
            self.board[sq] = Code::EMPTY;
            let exposed = self.rerun_list(info, sq, false);
            self.board[sq] = code;
            if !exposed {
                info.safe_leavers.push(sq);
            }
        }
    }

    /// [`Position::rerun_list`] for castling: the trajectories recorded on
    /// any of `squares`, those that can reach a castling destination
    /// ([`CheckInfo::castle_entries`]) as well as those that reach the
    /// royal's square.
    pub(crate) fn rerun_lists_castling(&mut self, info: &CheckInfo, squares: &[Square]) -> bool {
        squares.iter().any(|&sq| self.rerun_list(info, sq, false))
            || info.castle_entries.iter().any(|(sq, e)| squares.contains(sq) && self.rerun(e))
    }

    /// Re-runs the linked entries from `k` (1-based; 0 ends the list).
    #[inline]
    fn rerun_from(&mut self, info: &CheckInfo, k: u32, forks_only: bool) -> bool {
        let mut k = k;
        while k != 0 {
            let e = info.entries[k as usize - 1];
            if (!forks_only || e.flags & E_FORK != 0) && self.rerun(&e) {
                return true;
            }
            k = e.next;
        }
        false
    }

    /// Whether a pseudo-legal move is legal, using the augmented check test
    /// computed for this position.
    pub fn is_legal_with(&mut self, m: Move, info: &CheckInfo) -> bool {
        if info.lion_rules && self.lion_rules_forbid(m) {
            return false;
        }
        if m.gate().is_some()
            || m.is_unload()
            || (m.kind() == MoveKind::Drop && self.variant().royal[m.code()])
            || (m.kind() == MoveKind::Promotion && self.is_in_place_promotion(m))
            || (info.check_banned && self.may_not_give_check(m))
        {
            // the gated piece may block or give check: rare, so test by playing it;
            // so are moves that may not give check, and unloading moves (the
            // piece put on the origin may be an enemy that gives check), and
            // drops of a royal piece (Sittuyin's set-up: it may not be dropped
            // where it is attacked, even with no royal on the board yet)
            return self.is_legal_reference(m);
        }
        if !info.fast {
            if info.unguarded {
                return true;
            }
            if info.royal == NO_SQUARE && !self.has_royal(self.side) {
                return true;
            }
            return self.is_legal_reference(m);
        }
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => return self.castle_legal_with(m, info),
            MoveKind::Pass => return !info.in_check,
            MoveKind::Drop => {
                // a drop only adds a piece: it can block checks, and screen hoppers
                let mut legal = true;
                if info.in_check || info.head[to] != 0 {
                    self.board[to] = m.code();
                    legal = !info.checks.iter().any(|e| self.rerun(e)) && !self.rerun_list(info, to, false);
                    self.board[to] = Code::EMPTY;
                }
                return legal;
            }
            _ => {}
        }
        if from == info.royal {
            if info.in_check && self.is_royal_initial_move_banned_in_check(m) {
                return false;
            }
            if m.kind() != MoveKind::Locust && !self.variant().tables.captures_own_screen {
                if let Some(legal) = info.royal_to_by_attacks(to) {
                    return legal;
                }
            }
            return self.is_legal_reference(m);
        }
        if m.has_second_victim() {
            return self.two_victims_legal_with(m, info);
        }
        let victim = match m.kind() {
            MoveKind::EnPassant | MoveKind::Locust => m.extra(),
            _ => NO_SQUARE,
        };
        let to_occupied = !self.board[to].is_empty() && to != from;
        let need = info.in_check
            || info.head[from] != 0
            || info.head[to] != 0
            || (victim != NO_SQUARE && info.head[victim] != 0);
        if !need {
            return true;
        }
        // play the move on the board only: the walks read nothing else
        let mover = self.board[from];
        let captured = self.board[to];
        let vcode = if victim != NO_SQUARE { self.board[victim] } else { Code::EMPTY };
        self.board[from] = Code::EMPTY;
        if victim != NO_SQUARE {
            self.board[victim] = Code::EMPTY;
        }
        self.board[to] = if m.kind() == MoveKind::Promotion { m.code() } else { mover };
        let mut illegal = false;
        for e in &info.checks {
            if self.rerun(e) {
                illegal = true;
                break;
            }
        }
        illegal = illegal
            || self.rerun_list(info, from, false)
            || self.rerun_list(info, to, to_occupied)
            || (victim != NO_SQUARE && self.rerun_list(info, victim, false));
        if victim != NO_SQUARE {
            self.board[victim] = vcode;
        }
        self.board[to] = captured;
        self.board[from] = mover;
        !illegal
    }

    /// [`Position::is_legal_with`] for a non-royal locust move with two
    /// victims: it changes four squares (origin, destination and both
    /// victims), and the checks and the trajectories recorded on each are
    /// re-run on the board after it.
    #[cold]
    #[inline(never)]
    fn two_victims_legal_with(&mut self, m: Move, info: &CheckInfo) -> bool {
        let (from, to, v1) = (m.from(), m.to(), m.extra());
        let Some(v2) = self.second_victim_of(m) else { return self.is_legal_reference(m) };
        let to_occupied = !self.board[to].is_empty() && to != from;
        if !info.in_check && [from, to, v1, v2].iter().all(|&s| info.head[s] == 0) {
            return true;
        }
        let saved = [from, v1, v2, to].map(|s| self.board[s]);
        let mover = saved[0];
        for s in [from, v1, v2] {
            self.board[s] = Code::EMPTY;
        }
        self.board[to] = mover;
        let illegal = info.checks.iter().any(|e| self.rerun(e))
            || self.rerun_list(info, from, false)
            || self.rerun_list(info, to, to_occupied)
            || self.rerun_list(info, v1, false)
            || self.rerun_list(info, v2, false);
        for (s, c) in [from, v1, v2, to].into_iter().zip(saved).rev() {
            self.board[s] = c;
        }
        !illegal
    }

    fn has_royal(&self, c: crate::square::Color) -> bool {
        let royal = &self.variant().royal;
        self.pieces(c).iter().any(|&s| royal[self.board[s]])
    }

    /// True if the side to move has at least one legal move (ignoring the
    /// history rules of [`Position::ended_by_rule`]). Stops at the first one.
    pub fn has_legal_move(&mut self) -> bool {
        let mut scratch = MoveList::new();
        let mut info = CheckInfo::new();
        self.has_legal_move_in(&mut scratch, &mut info)
    }

    /// [`Position::has_legal_move`] with the caller's buffers: it allocates nothing.
    pub fn has_legal_move_in(&mut self, scratch: &mut MoveList, info: &mut CheckInfo) -> bool {
        let facing = self.bikjang_now();
        self.generate_pseudo(scratch);
        self.compute_check_info(info);
        let found =
            scratch.iter().any(|m| if facing { self.legal_in_bikjang(m, info) } else { self.is_legal_with(m, info) });
        found
    }

    /// The legality of a pseudo-legal move while the royals face each other
    /// (bikjang, [`Position::bikjang_now`]): a pass is legal even in check;
    /// any other move must pass the incremental test and leave the royals
    /// no longer facing (tested by playing it).
    #[cold]
    #[inline(never)]
    fn legal_in_bikjang(&mut self, m: Move, info: &CheckInfo) -> bool {
        if m.kind() == MoveKind::Pass {
            return true;
        }
        if !self.is_legal_with(m, info) {
            return false;
        }
        let us = self.side;
        let undo = self.make(m);
        let facing = self.royals_face(us);
        self.unmake(m, &undo);
        !facing
    }

    /// Fills `out` with the legal moves, by incremental check testing.
    /// `scratch` receives the pseudo-legal moves; `info` the check data.
    pub fn generate_legal(&mut self, scratch: &mut MoveList, out: &mut MoveList, info: &mut CheckInfo) {
        self.compute_check_info(info);
        self.generate_legal_with_info(scratch, out, info);
    }

    /// [`Position::generate_legal`] with `info` already computed for this
    /// position by [`Position::compute_check_info`] (a search that asks
    /// whether the side is in check before it generates anything).
    pub fn generate_legal_with_info(&mut self, scratch: &mut MoveList, out: &mut MoveList, info: &CheckInfo) {
        out.clear();
        if self.ended_by_rule() {
            return;
        }
        // facing royals change the rules for this turn (a test per move)
        let facing = self.bikjang_now();
        self.generate_pseudo(scratch);
        out.clear_with_room(scratch.len());
        for &m in scratch.captures() {
            let legal = if facing { self.legal_in_bikjang(m, info) } else { self.legal_with(m, info, info.quick) };
            if legal {
                out.push_capture(m);
            }
        }
        if self.variant().def.rules.must_capture && !out.captures().is_empty() {
            return; // captures are compulsory
        }
        for &m in scratch.quiets().iter().rev() {
            let legal =
                if facing { self.legal_in_bikjang(m, info) } else { self.legal_with(m, info, info.quick_quiet) };
            if legal {
                out.push_quiet(m);
            }
        }
        self.apply_must_drop(out);
    }

    /// [`Position::count_legal`] while the royals face each other (bikjang).
    #[cold]
    #[inline(never)]
    fn count_legal_bikjang(&mut self, scratch: &mut MoveList, info: &mut CheckInfo) -> usize {
        let rules = &self.variant().def.rules;
        if rules.drops.as_ref().is_some_and(|d| d.must_drop) {
            // the compulsory drops are kept by the full list
            let mut out = MoveList::new();
            self.generate_legal(scratch, &mut out, info);
            return out.len();
        }
        let must_capture = rules.must_capture;
        self.generate_pseudo(scratch);
        self.compute_check_info(info);
        let captures = scratch.captures().iter().filter(|&&m| self.legal_in_bikjang(m, info)).count();
        if must_capture && captures > 0 {
            return captures; // captures are compulsory
        }
        captures + scratch.quiets().iter().filter(|&&m| self.legal_in_bikjang(m, info)).count()
    }

    /// The number of legal moves, as [`Position::generate_legal`] would list
    /// them, without listing them (perft's last ply). `scratch` receives the
    /// pseudo-legal moves; `info` the check data.
    pub fn count_legal(&mut self, scratch: &mut MoveList, info: &mut CheckInfo) -> usize {
        if self.ended_by_rule() {
            return 0;
        }
        if self.bikjang_now() {
            return self.count_legal_bikjang(scratch, info);
        }
        self.compute_check_info(info);
        self.find_safe_leavers(info);
        let (direct_captures, direct_quiets) = self.generate_counting(scratch, info);
        let mut captures = direct_captures;
        for &m in scratch.captures() {
            captures += self.legal_with(m, info, info.quick) as usize;
        }
        let rules = &self.variant().def.rules;
        if rules.must_capture && captures > 0 {
            return captures; // captures are compulsory
        }
        let must_drop = rules.drops.as_ref().is_some_and(|d| d.must_drop);
        let mut quiets = direct_quiets;
        if must_drop {
            let mut drops = 0;
            for &m in scratch.quiets() {
                if self.legal_with(m, info, info.quick_quiet) {
                    quiets += 1;
                    drops += (m.kind() == MoveKind::Drop) as usize;
                }
            }
            if drops > 0 {
                return drops; // only the drops are kept when there is one
            }
        } else {
            for &m in scratch.quiets() {
                quiets += self.legal_with(m, info, info.quick_quiet) as usize;
            }
        }
        captures + quiets
    }
}
