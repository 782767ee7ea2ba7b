//! The XBetza compiler: piece definitions become flat trajectory tables.
//!
//! For every piece type, colour, virginity and square, the compiler builds the
//! tree of everything the piece could do from there, then lays the tree out as
//! a run of [`Cell`]s in one flat array. A cell names a target square, what the
//! piece may do there (its *rights*), and where the walk continues when the
//! square is empty (the next cell) or occupied (the `occ` fork). When a branch
//! ends, the walk jumps to `next`, the next sibling of the subtree.
//!
//! Off-board and out-of-zone squares simply do not appear, and zone-dependent
//! moves are baked into the lists of the squares where they apply, so the
//! generator tests nothing at run time but the board.

use crate::betza::{Atom, DirWord, Leg, Range, Unit};
use crate::definition::{ConfineMode, Immobility, VariantDef};
use crate::piece::Code;
use crate::square::{Color, Geometry, Square, NO_SQUARE};
use crate::width::TypeSet;
use std::fmt;

/// The piece may stop here if the square is empty.
pub const QUIET: u8 = 1;
/// The piece may stop here capturing an enemy piece.
pub const CAPTURE: u8 = 2;
/// The piece may stop here capturing a friendly piece.
pub const FRIEND: u8 = 4;
/// If the square is empty, the walk continues with the next cell.
pub const EMPTY_CHILD: u8 = 8;
/// If an enemy piece stands here, the walk continues at `occ`.
pub const OCC_FOE: u8 = 16;
/// If a friendly piece stands here, the walk continues at `occ`.
pub const OCC_FRIEND: u8 = 32;
/// The piece may capture en passant here, if this is the e.p. square.
pub const EP: u8 = 64;
/// The cell has `aux` flags that need a closer look.
pub const SPECIAL: u8 = 128;

/// `aux`: a quiet move ending here creates an e.p. square at `victim`.
pub const AUX_EP_CREATE: u8 = 1;
/// `aux`: the occupied fork is not taken over piece types the mover may not hop.
pub const AUX_NO_HOP: u8 = 2;
/// `aux`: a capture here is not allowed of piece types the mover may not capture.
pub const AUX_NO_CAPTURE: u8 = 4;
/// `aux`: a capture here attacks the square, but is no move: the piece would
/// stay where it cannot move on ([`Immobility::Illegal`]).
pub const AUX_NO_STAY: u8 = 8;
/// `aux`: a tame piece (`t`): a capture here may not take a royal piece.
pub const AUX_TAME: u8 = 16;
/// `aux`: the occupied fork (a capture of a friend on the way, `d`) is not
/// taken over a friendly royal piece.
pub const AUX_NO_FRIEND_ROYAL: u8 = 32;
/// `aux`: an unloading capture (`u`): the piece taken here is put on the
/// mover's square instead ([`crate::moves::Move::unload`]). Set together
/// with [`AUX_TAME`], so that it never takes a royal piece and never counts
/// as an attack on one; it keeps these cells apart from plain ones when
/// trees are merged. (The generator knows the swaps by the piece:
/// [`crate::variant::Variant::unloads_foes`].)
pub const AUX_UNLOAD: u8 = 128;
/// `aux`: the path has captured a second locust victim on its way, after
/// `victim`; its square is in [`Tables::victim2`] ([`Tables::second_victim`]).
pub const AUX_VICTIM2: u8 = 64;

/// The most trajectory nodes the compiler builds for one piece on one square
/// before merging them: a bound on the work a many-legged XBetza (`aaaaQ`)
/// can cause, checked while building, so that it fails fast with an error.
pub const MAX_NODES_PER_SQUARE: usize = 1 << 17;

/// The most trajectory nodes the compiler builds for a whole variant (all
/// pieces, colours and squares) before merging, however large: a bound on
/// the time (about a second) and memory a variant file can make the
/// compiler spend. See [`compile_budget`] for the budget of one variant.
///
/// In a build that lays plain rides out as rays ([`crate::width::RAYS`],
/// the wide build) the budget bounds the laid-out tables and the trees of
/// the piece being built instead, and the cap is twice as high (about 130
/// MB of tables), so that piece sets of Taikyoku Shogi's size fit; the
/// time is bounded by [`MAX_COMPILE_WORK`].
pub const MAX_COMPILE_NODES: usize = if crate::width::RAYS { 1 << 23 } else { 1 << 22 };

/// In a build that lays plain rides out as rays ([`crate::width::RAYS`]),
/// the most trajectory nodes the compiler builds for a whole variant before
/// laying each piece's rides out as rays: a bound on the time (a few
/// seconds) a variant file can make it spend. The budget
/// ([`compile_budget`]) then bounds the laid-out tables and the trees of
/// the piece being built.
pub const MAX_COMPILE_WORK: usize = 1 << 24;

/// The node budget every variant gets, however small: room for a piece
/// that moves twice as a queen (`aQ`) on a 12×12 board, or for Chu Shogi's
/// pieces several times over, and a failure within about half a second for
/// a definition that needs far more.
pub const MIN_COMPILE_NODES: usize = 1 << 21;

/// The nodes a variant's budget grows by for each piece type, colour,
/// virginity and square: about three times what Chu Shogi's pieces need on
/// average (a Chu-like set of 30 types needs 355,088 nodes on 12×12, about 21
/// each).
pub const NODES_PER_PIECE_SQUARE: usize = 64;

/// The trajectory nodes a variant with `types` piece types on `squares`
/// squares may build: [`NODES_PER_PIECE_SQUARE`] for each piece type,
/// colour, virginity and square, but never less than [`MIN_COMPILE_NODES`]
/// nor more than [`MAX_COMPILE_NODES`].
///
/// ```
/// use chimera::compile::{compile_budget, MAX_COMPILE_NODES, MIN_COMPILE_NODES};
/// assert_eq!(compile_budget(7, 64), MIN_COMPILE_NODES);
/// assert_eq!(compile_budget(60, 200), 60 * 4 * 200 * 64);
/// assert_eq!(compile_budget(120, 255), MAX_COMPILE_NODES);
/// ```
pub fn compile_budget(types: usize, squares: usize) -> usize {
    (types * 4 * squares * NODES_PER_PIECE_SQUARE).clamp(MIN_COMPILE_NODES, MAX_COMPILE_NODES)
}

/// The error message of a variant whose tables exceed its node budget.
fn budget_exceeded(budget: usize, types: usize, squares: usize) -> String {
    format!("the variant needs more than {budget} trajectory nodes (the budget of {types} piece types on {squares} squares)")
}

/// One cell of a trajectory table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub struct Cell {
    /// The square this cell reaches.
    pub to: Square,
    /// Rights and fork flags (`QUIET`, `CAPTURE`, …).
    pub flags: u8,
    /// Rare flags, looked at only when `SPECIAL` is set.
    pub aux: u8,
    /// The square of a piece captured on an earlier leg (a locust victim), or the
    /// e.p. square created by the move, or [`NO_SQUARE`].
    pub victim: Square,
    /// Index (within the list) of the cell that follows when the square is occupied.
    pub occ: u16,
    /// Index (within the list) where the walk goes when this subtree is done.
    pub next: u16,
}

/// Whether a cell is a ray cell (only in builds with [`crate::width::RAYS`]):
/// a plain ride of [`ray_len`] squares from `to`, [`ray_step`] apart, with
/// the cell's rights on each; the walk stops on the first occupied square,
/// and goes on at `next` when the ray is done. A ray cell has no occupied
/// fork and no rare flags, so its `occ` holds the step and its `aux` the
/// length; read as a plain cell, it is the ray's first square (a leaf).
#[inline(always)]
pub fn is_ray(c: &Cell) -> bool {
    crate::width::RAYS && c.occ != 0 && c.flags & (OCC_FOE | OCC_FRIEND) == 0
}

/// The number of squares of a ray cell.
#[inline(always)]
pub fn ray_len(c: &Cell) -> usize {
    c.aux as usize
}

/// The square-index step of a ray cell.
#[inline(always)]
pub fn ray_step(c: &Cell) -> isize {
    c.occ as i16 as isize
}

/// The `k`-th square of a ray cell, as the plain cell it stands for: the
/// same rights, an empty child except on the last square.
#[inline(always)]
pub fn ray_square(c: &Cell, k: usize) -> Cell {
    let to = c.to.offset(k as isize * ray_step(c));
    let flags = if k + 1 < ray_len(c) { c.flags | EMPTY_CHILD } else { c.flags & !EMPTY_CHILD };
    Cell { to, flags, aux: 0, victim: NO_SQUARE, occ: 0, next: c.next }
}

/// Every cell of a list as plain cells, each ray cell ([`is_ray`]) given as
/// the cells of its squares: for readers that look at targets and rights,
/// not at the walk's structure.
pub fn plain_cells(cells: &[Cell]) -> impl Iterator<Item = Cell> + '_ {
    cells.iter().flat_map(|c| {
        let (n, ray) = if is_ray(c) { (ray_len(c), true) } else { (1, false) };
        (0..n).map(move |k| if ray { ray_square(c, k) } else { *c })
    })
}

/// Whether the cell `c` of a list of a piece on `origin` makes at most one
/// plain move, the one [`Tables::countable`] lets perft count unlisted: no
/// friendly capture, no locust victim (the victim of a double step is the
/// e.p. square it creates), not back on the origin, and rare flags only on a
/// double step that neither captures nor hops.
fn countable_cell(c: &Cell, origin: Square) -> bool {
    let double_step = c.flags & SPECIAL != 0 && c.aux == AUX_EP_CREATE;
    let rare_ok = c.flags & SPECIAL == 0 || (double_step && c.flags & (CAPTURE | FRIEND | OCC_FOE | OCC_FRIEND) == 0);
    c.flags & FRIEND == 0 && c.to != origin && rare_ok && (c.victim == NO_SQUARE || double_step)
}

/// Lays the plain rides of one list out as ray cells ([`is_ray`]): a run of
/// cells, each the only (empty) child of the one before, that ends in a leaf
/// and whose squares go on in one direction with the same rights, no rare
/// flags, no locust victims and not over the origin `from`. Appends the
/// compacted list to `out` (and its reach boxes and second victims).
/// Only builds with [`crate::width::RAYS`] call it.
fn compact_rays(
    cells: &[Cell],
    reach: &[Reach],
    victim2: &[Square],
    from: Square,
    g: &Geometry,
    out: (&mut Vec<Cell>, &mut Vec<Reach>, &mut Vec<Square>),
) {
    let n = cells.len();
    let plain = |c: &Cell, k: usize| {
        c.flags & (OCC_FOE | OCC_FRIEND | SPECIAL | EP) == 0
            && c.aux == 0
            && c.victim == NO_SQUARE
            && victim2[k] == NO_SQUARE
            && c.to != from
    };
    let delta = |a: Square, b: Square| (g.file_of(b) - g.file_of(a), g.rank_of(b) - g.rank_of(a));
    // the cells the ray that starts at cell i takes the place of (1: none),
    // and its length in squares
    let mut run = vec![1usize; n];
    let mut len = vec![1usize; n];
    let mut i = 0;
    while i < n {
        let c = &cells[i];
        if plain(c, i) && c.flags & EMPTY_CHILD != 0 {
            let rights = c.flags & (QUIET | CAPTURE | FRIEND);
            let mut j = i;
            let mut d = None;
            // (cells, squares) of the run, once it ends in a leaf or a ray
            let ok = loop {
                let cj = &cells[j];
                if cj.flags & EMPTY_CHILD == 0 {
                    break (j > i).then_some((j - i + 1, j - i + 1));
                }
                let k = j + 1;
                if k >= n || cells[k].next != cj.next {
                    break None;
                }
                let ck = &cells[k];
                let dk = delta(cj.to, ck.to);
                if is_ray(ck) {
                    // a ray built as one (a later leg's ride) that goes on
                    // the same way with the same rights ends the run
                    let same = ck.flags & (QUIET | CAPTURE | FRIEND | SPECIAL | EP) == rights
                        && d.is_none_or(|d| d == dk)
                        && delta(ck.to, ray_square(ck, 1).to) == dk;
                    break same.then_some((k - i + 1, k - i + ray_len(ck)));
                }
                if !plain(ck, k) || ck.flags & (QUIET | CAPTURE | FRIEND) != rights {
                    break None;
                }
                if d.is_some_and(|d| d != dk) {
                    break None;
                }
                d = Some(dk);
                j = k;
            };
            // the length must fit the cell's `aux` and the step its `occ`
            if let Some((cells_taken, squares)) = ok.filter(|&(_, squares)| squares <= u8::MAX as usize) {
                run[i] = cells_taken;
                len[i] = squares;
                i += cells_taken;
                continue;
            }
        }
        i += 1;
    }
    // old index -> new index (kept cells, and the end of the list)
    let mut map = vec![0u16; n + 1];
    let mut k = 0usize;
    let mut i = 0;
    while i < n {
        map[i] = k as u16;
        i += run[i];
        k += 1;
    }
    map[n] = k as u16;
    let (oc, or, ov) = out;
    oc.reserve(k);
    let mut i = 0;
    while i < n {
        let mut c = cells[i];
        c.next = map[c.next as usize];
        if c.flags & (OCC_FOE | OCC_FRIEND) != 0 {
            c.occ = map[c.occ as usize];
        } else if !is_ray(&c) {
            c.occ = 0;
        }
        if run[i] > 1 {
            let step = (cells[i + 1].to).index() as isize - (cells[i].to).index() as isize;
            c.flags &= !EMPTY_CHILD;
            c.occ = step as i16 as u16;
            c.aux = len[i] as u8;
        }
        oc.push(c);
        or.push(reach[i]);
        ov.push(victim2[i]);
        i += run[i];
    }
}

/// An error compiling a piece's moves: it names the piece and the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// The piece's name.
    pub piece: String,
    /// The XBetza unit (token) that could not be compiled.
    pub token: String,
    /// Why.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "piece '{}': cannot compile '{}': {}", self.piece, self.token, self.message)
    }
}

impl std::error::Error for CompileError {}

/// Where a list of cells lives in [`Tables::cells`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ListRef {
    /// Index of the first cell.
    pub start: u32,
    /// Number of cells.
    pub len: u16,
    /// The list can produce the same move along two paths, so the generator
    /// removes duplicates.
    pub dedup: bool,
    /// Some path passes over or ends on the piece's own square, so the generator
    /// lifts the piece off the board while walking.
    pub lift: bool,
}

/// Promotion data, per piece code.
#[derive(Clone, Debug, Default)]
pub struct PromoInfo {
    /// For each square: arriving there promotes.
    pub zone: Vec<bool>,
    /// The piece codes it may become.
    pub choices: Vec<Code>,
    /// Must promote on arrival.
    pub mandatory: bool,
    /// Shogi style: a move that starts in the zone may promote too, and the
    /// promotion is compulsory only where the piece would have no move left.
    pub shogi: bool,
    /// Chu style: a non-capturing move promotes only by entering the zone
    /// (see [`crate::definition::PromotionStyle::Chu`]); `shogi` is set too.
    pub chu: bool,
    /// For each square: the unpromoted piece would have no move from there.
    pub stuck: Vec<bool>,
    /// Per choice: the most pieces of that code the side may have (255: no limit).
    pub limits: Vec<u8>,
    /// Sittuyin style: the zone where the piece may promote by a move of its
    /// own (empty otherwise; `zone` is then empty too, as arrival never promotes).
    pub in_place_zone: Vec<bool>,
}

/// The compiled move tables of a variant.
#[derive(Clone, Debug)]
pub struct Tables {
    /// All cells of all lists.
    pub cells: Vec<Cell>,
    /// Some path captures on a square it passed while that square was
    /// occupied (hopped over or taken on the way, then come back to): the
    /// incremental legality test leaves the moves of a royal to the
    /// reference method, since the royal may become that screen.
    pub captures_own_screen: bool,
    /// Per cell (parallel to `cells`): the second locust victim of a path
    /// that captures twice on its way ([`AUX_VICTIM2`]), or [`NO_SQUARE`];
    /// empty when no piece of the variant captures twice.
    pub victim2: Vec<Square>,
    /// Indexed by `list_index(code, virgin, sq)`.
    pub lists: Vec<ListRef>,
    /// Promotion data by piece code, `None` when the piece never promotes.
    pub promo: Vec<Option<PromoInfo>>,
    /// Per piece code: the piece types it may not hop over.
    pub no_hop: Vec<TypeSet>,
    /// Per piece code: the piece types it may not capture.
    pub no_capture: Vec<TypeSet>,
    /// Per square, when the variant forbids facing royals: four orthogonal
    /// rays that capture (royals only, as the legality test reads them).
    pub facing: Vec<ListRef>,
    /// Some piece promotes in the Sittuyin style (by a move of its own).
    pub in_place_promotion: bool,
    /// Under [`Immobility::Illegal`], per piece code and square: the piece
    /// has no non-capturing move from there on an empty board, so it may
    /// not be dropped there (moves there are left out of the lists). Empty
    /// under the other rules.
    pub dead: Vec<Vec<bool>>,
    /// Per cell (parallel to `cells`): the smallest box of files and ranks
    /// that holds every square the cell's subtree can reach or capture on
    /// (its own, its children's, and locust victims'). The check test records
    /// a trajectory on a square only where the subtree from there can reach
    /// the royal piece.
    pub reach: Vec<Reach>,
    /// Per list (parallel to `lists`): the smallest box that holds every
    /// cell's reach box, empty (`[255, 0, 255, 0]`) for an empty list. The check
    /// test skips an enemy piece whose box misses every square it reads.
    pub list_box: Vec<Reach>,
    /// Per list (parallel to `lists`): the piece promotes and some move of
    /// the list starts or ends in its promotion zone. A list without it makes
    /// no promotion, which lets perft's last ply count its moves unlisted.
    pub may_promote: Vec<bool>,
    /// Per list (parallel to `lists`): every move of the list is one plain
    /// move (a non-capture, a capture of an enemy, a double step or an e.p.
    /// capture) and nothing else, so that perft's last ply may count the
    /// list's moves as it walks them: no duplicates, no lifted piece, no
    /// promotion, no friendly capture, no locust victim, no path back to
    /// the origin and no rare flag on a cell that may capture or hop.
    pub countable: Vec<bool>,
    /// No cell of any list forks on an occupant (no hopper, no locust, no
    /// piece that stops on a square but goes on past it): a piece put on a
    /// square can only end walks there, never start a new branch.
    pub no_forks: bool,
    nsq: usize,
}

/// A box of files and ranks, inclusive: `[low file, high file, low rank, high rank]`.
pub type Reach = [u8; 4];

/// The box that holds nothing.
pub const EMPTY_BOX: Reach = [u8::MAX, 0, u8::MAX, 0];

/// The smallest box holding both boxes.
#[inline]
pub fn box_union(a: Reach, b: Reach) -> Reach {
    [a[0].min(b[0]), a[1].max(b[1]), a[2].min(b[2]), a[3].max(b[3])]
}

/// Whether two boxes share a square (an empty box shares none).
#[inline(always)]
pub fn box_overlap(a: Reach, b: Reach) -> bool {
    a[0] <= b[1] && b[0] <= a[1] && a[2] <= b[3] && b[2] <= a[3]
}

/// The reach box of every cell of one list, from the subtree sizes that laid it out.
fn subtree_reach(cells: &[Cell], victim2: &[Square], sizes: &[u32], g: &Geometry) -> Vec<Reach> {
    let n = cells.len();
    let mut out = vec![[u8::MAX, 0, u8::MAX, 0]; n];
    let add = |r: &mut Reach, sq: Square| {
        if sq != NO_SQUARE {
            let (f, k) = (g.file_of(sq) as u8, g.rank_of(sq) as u8);
            *r = [r[0].min(f), r[1].max(f), r[2].min(k), r[3].max(k)];
        }
    };
    for i in (0..n).rev() {
        let mut r = out[i];
        add(&mut r, cells[i].to);
        if is_ray(&cells[i]) {
            add(&mut r, ray_square(&cells[i], ray_len(&cells[i]) - 1).to);
        }
        add(&mut r, cells[i].victim);
        add(&mut r, victim2[i]);
        let end = i + sizes[i] as usize;
        let mut j = i + 1;
        while j < end {
            let c = out[j];
            r = [r[0].min(c[0]), r[1].max(c[1]), r[2].min(c[2]), r[3].max(c[3])];
            j += sizes[j] as usize;
        }
        out[i] = r;
    }
    out
}

/// The piece code of a piece type and colour: 0 is an empty square, and codes
/// start at 2 so that `code & 1` is the colour.
#[inline]
pub fn code_of(piece_type: usize, color: Color) -> Code {
    Code::of(piece_type, color)
}

/// The piece type of a non-empty code.
#[inline]
pub fn type_of(code: Code) -> usize {
    code.piece_type()
}

impl Tables {
    /// The index of the list of `code` (virgin or not) on `sq`.
    #[inline(always)]
    pub fn list_index(&self, code: Code, virgin: bool, sq: Square) -> usize {
        ((code.index() - 2) * 2 + virgin as usize) * self.nsq + sq.index()
    }

    /// Whether some piece of the variant captures two locust victims in one move.
    #[inline]
    pub fn two_victims(&self) -> bool {
        !self.victim2.is_empty()
    }

    /// The second locust victim of a cell of [`Tables::cells`] (one that has
    /// [`AUX_VICTIM2`]), or [`NO_SQUARE`]. The cell is found by its address
    /// in `cells`, so the walkers need not carry cell indices.
    #[cold]
    pub fn second_victim(&self, c: &Cell) -> Square {
        let base = self.cells.as_ptr() as usize;
        let at = c as *const Cell as usize;
        if at < base {
            return NO_SQUARE;
        }
        let i = (at - base) / std::mem::size_of::<Cell>();
        self.victim2.get(i).copied().unwrap_or(NO_SQUARE)
    }

    /// The facing rays from `sq` (empty unless the variant has the flying-general rule).
    #[inline]
    pub fn facing_list(&self, sq: Square) -> &[Cell] {
        match self.facing.get(sq.index()) {
            Some(l) => &self.cells[l.start as usize..l.start as usize + l.len as usize],
            None => &[],
        }
    }

    /// The cells of `code` (virgin or not) on `sq`, and the list's flags.
    #[inline(always)]
    pub fn list(&self, code: Code, virgin: bool, sq: Square) -> (&[Cell], ListRef) {
        let l = self.lists[self.list_index(code, virgin, sq)];
        (&self.cells[l.start as usize..l.start as usize + l.len as usize], l)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    sq: Square,
    flags: u8,
    aux: u8,
    victim: Square,
    /// A second locust victim (after `victim`), or [`NO_SQUARE`].
    victim2: Square,
    /// A ray ([`Builder::rays`]): this many squares from `sq` on, each
    /// `step` on from the one before, with the same rights, and no
    /// children; 0 for a plain node.
    ray: u8,
    /// A ray's step, as a difference of square indices.
    step: i16,
    empty: Vec<Node>,
    occ: Vec<Node>,
}

/// The locust victims of a path so far: the first and the second, each
/// [`NO_SQUARE`] until the path captures on its way.
type Victims = (Square, Square);

/// A path that has captured nothing on its way.
const NO_VICTIMS: Victims = (NO_SQUARE, NO_SQUARE);

impl Node {
    fn new(sq: Square, vic: Victims) -> Node {
        let mut n = Node {
            sq,
            flags: 0,
            aux: 0,
            victim: vic.0,
            victim2: vic.1,
            ray: 0,
            step: 0,
            empty: Vec::new(),
            occ: Vec::new(),
        };
        if vic.1 != NO_SQUARE {
            n.flags |= SPECIAL;
            n.aux |= AUX_VICTIM2;
        }
        n
    }
    fn occ_cond(&self) -> u8 {
        self.flags & (OCC_FOE | OCC_FRIEND)
    }
    /// The squares of the node: its own, or a ray's.
    fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ray.max(1) as isize).map(move |k| self.sq.offset(k * self.step as isize))
    }
    /// A ray as a plain node on its first square whose one empty child is
    /// the rest of the ray (a plain node if that is one square); other
    /// nodes as they are. Laid out, the two become one ray cell again (see
    /// [`compact_rays`]) if nothing merged into the first.
    fn split_first(self) -> Node {
        if self.ray == 0 {
            return self;
        }
        let mut head = Node::new(self.sq, NO_VICTIMS);
        head.flags = self.flags | EMPTY_CHILD;
        let mut rest = Node::new(self.sq.offset(self.step as isize), NO_VICTIMS);
        rest.flags = self.flags;
        if self.ray > 2 {
            (rest.ray, rest.step) = (self.ray - 1, self.step);
        }
        head.empty.push(rest);
        head
    }
    /// A ray as the chain of plain nodes it stands for; other nodes as they are.
    fn unray(self) -> Node {
        if self.ray == 0 {
            return self;
        }
        let mut node: Option<Node> = None;
        for k in (0..self.ray as isize).rev() {
            let mut n = Node::new(self.sq.offset(k * self.step as isize), NO_VICTIMS);
            n.flags = self.flags;
            if let Some(child) = node.take() {
                n.flags |= EMPTY_CHILD;
                n.empty.push(child);
            }
            node = Some(n);
        }
        node.expect("a ray has squares")
    }
}

/// Merges sibling nodes that test the same square under the same conditions,
/// so that shared path prefixes are walked once, and drops exact duplicates.
/// (A plain move and a double step to one square stay two nodes: the list is
/// marked for de-duplication, see [`endings`], and the generator keeps one move.)
fn merge_forest(nodes: Vec<Node>) -> Vec<Node> {
    let same = |m: &Node, n: &Node| {
        m.sq == n.sq
            && m.victim == n.victim
            && m.victim2 == n.victim2
            && m.aux == n.aux
            && (m.occ.is_empty() || n.occ.is_empty() || m.occ_cond() == n.occ_cond())
    };
    // most sibling lists have nothing to merge: they are kept as they are
    let merges = nodes.iter().enumerate().any(|(i, n)| nodes[..i].iter().any(|m| same(m, n)));
    let mut out: Vec<Node>;
    if !merges {
        out = nodes;
    } else {
        out = Vec::with_capacity(nodes.len());
        // a ray that merges does so on its first square (`WR`: the step
        // and the ride's first square), and its rest is a child ray; the
        // others stay as they are
        let merging: Vec<bool> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| nodes.iter().enumerate().any(|(j, m)| i != j && same(m, n)))
            .collect();
        for (n, merges) in nodes.into_iter().zip(merging) {
            let n = if merges { n.split_first() } else { n };
            match out.iter_mut().find(|m| same(m, &n)) {
                Some(m) => {
                    let occ_flags = if n.occ.is_empty() { 0 } else { n.occ_cond() };
                    m.flags |= (n.flags & !(OCC_FOE | OCC_FRIEND)) | occ_flags;
                    m.empty.extend(n.empty);
                    m.occ.extend(n.occ);
                }
                None => out.push(n),
            }
        }
    }
    for m in &mut out {
        m.empty = merge_forest(std::mem::take(&mut m.empty));
        m.occ = merge_forest(std::mem::take(&mut m.occ));
        if !m.empty.is_empty() {
            m.flags |= EMPTY_CHILD;
        }
    }
    out
}

/// A piece whose moves unload (`u`) may not also capture plainly the same
/// side's pieces (`udR` with `dR`, `ucR` with `R`): the two moves would go
/// between the same squares and be written the same way. It may not promote
/// either (an unloading move offers no promotion, so a piece that must
/// promote could be stuck).
fn check_unloading(p: &crate::definition::PieceType) -> Result<(), CompileError> {
    let units = || p.all_units();
    let Some(first) = units().find(|u| u.legs.iter().any(|l| l.unload)) else { return Ok(()) };
    let err = |message: String| CompileError { piece: p.name.clone(), token: first.text.clone(), message };
    if p.promotion.is_some() || p.jump_capture.is_some() {
        return Err(err("'u' (unload) on a piece that promotes or captures by jumping is not supported".into()));
    }
    // (foe, friend) captures of the final legs, unloading or not; a final
    // leg that hops (`pR`) captures as its modality without the hop says
    let captures = |unload: bool| {
        units().filter(|u| u.legs.last().is_some_and(|l| l.unload == unload)).fold((false, false), |acc, u| {
            let m = u.legs.last().unwrap().modality;
            let m = crate::betza::Modality { hop: false, grasshop: false, ..m };
            (acc.0 || m.is_empty() || m.captures, acc.1 || m.friend)
        })
    };
    let (u_foe, u_friend) = captures(true);
    let (foe, friend) = captures(false);
    if (u_foe && foe) || (u_friend && friend) {
        return Err(err(format!(
            "'u' (unload) on a piece that also captures {} without it: the two moves would be written alike",
            if u_foe && foe { "enemies" } else { "friends" }
        )));
    }
    Ok(())
}

/// The size of every subtree of `nodes`, in the order [`linearize`] lays
/// the nodes out (each node, then its empty children, then its occupied
/// ones); returns the size of the whole forest. One pass, so that laying out
/// deep trees (riders with several legs) costs time in proportion to them.
fn subtree_sizes(nodes: &[Node], out: &mut Vec<u32>) -> usize {
    let mut total = 0;
    for n in nodes {
        let i = out.len();
        out.push(0);
        let size = 1 + subtree_sizes(&n.empty, out) + subtree_sizes(&n.occ, out);
        out[i] = size as u32;
        total += size;
    }
    total
}

/// Lays `nodes` out as cells after `out`'s, given their subtree sizes from
/// [`subtree_sizes`] (indexed like the cells); the walk goes to `cont`
/// when the last of them is done.
fn linearize(nodes: &[Node], cont: usize, out: &mut Vec<Cell>, victim2: &mut Vec<Square>, sizes: &[u32]) {
    for (k, n) in nodes.iter().enumerate() {
        let idx = out.len();
        let next = if k + 1 == nodes.len() { cont } else { idx + sizes[idx] as usize };
        if n.ray != 0 {
            // a ray cell (see [`is_ray`]): `occ` the step, `aux` the length
            let c =
                Cell { to: n.sq, flags: n.flags, aux: n.ray, victim: NO_SQUARE, occ: n.step as u16, next: next as u16 };
            out.push(c);
            victim2.push(NO_SQUARE);
            continue;
        }
        out.push(Cell { to: n.sq, flags: n.flags, aux: n.aux, victim: n.victim, occ: 0, next: next as u16 });
        victim2.push(n.victim2);
        linearize(&n.empty, next, out, victim2, sizes);
        if !n.occ.is_empty() {
            out[idx].occ = out.len() as u16;
            linearize(&n.occ, next, out, victim2, sizes);
        }
    }
}

/// The endings (to, victim, needs an empty square) a forest can produce,
/// sorted; sets `dup` if one walk could produce one move along two paths,
/// and `lift` if a path comes back to `origin`.
///
/// Endings that need their square empty and ones that need it occupied
/// never both fire in one walk (the board does not change while a piece is
/// walked), and neither do the endings below a node's empty children and
/// those below its occupied ones: a hopper's capture behind its first screen
/// and the same capture behind a later screen are one path each. Sibling
/// nodes are all walked, so a repeat between siblings (or between a node and
/// its own children) is a possible duplicate.
/// Whether some path of the forest captures on a square it passed while
/// that square was occupied (it hopped over the piece there, or took it on
/// the way): `pafmcpavK` hops over d4 to d5 and comes back to take d4. A
/// royal stepping onto such a square becomes the screen of its own capture,
/// which an attack map taken before the step cannot show.
fn captures_own_screen(nodes: &[Node], occupied: &mut Vec<Square>) -> bool {
    nodes.iter().any(|n| {
        (n.flags & (CAPTURE | FRIEND) != 0 && n.squares().any(|s| occupied.contains(&s)))
            || captures_own_screen(&n.empty, occupied)
            || {
                occupied.push(n.sq);
                let r = captures_own_screen(&n.occ, occupied);
                occupied.pop();
                r
            }
    })
}

fn endings(nodes: &[Node], origin: Square, dup: &mut bool, lift: &mut bool) -> Vec<(Square, Square, bool)> {
    if *dup {
        // the endings matter no more, only whether a path comes back
        *lift |= passes(nodes, origin);
        return Vec::new();
    }
    let mut all: Vec<(Square, Square, bool)> = Vec::new();
    for n in nodes {
        if n.ray != 0 {
            // a ray's squares are all different and not the origin
            let mut own = Vec::with_capacity(2 * n.ray as usize);
            for sq in n.squares() {
                if n.flags & (CAPTURE | FRIEND) != 0 {
                    own.push((sq, NO_SQUARE, false));
                }
                if n.flags & (QUIET | EP) != 0 {
                    own.push((sq, NO_SQUARE, true));
                }
            }
            own.sort_unstable();
            all = merge_sorted(all, own, dup);
            continue;
        }
        if n.sq == origin {
            *lift = true;
        }
        // a double step's e.p. square does not make its text differ from
        // a plain move to the same square
        let ep_create = n.flags & SPECIAL != 0 && n.aux & AUX_EP_CREATE != 0;
        let victim = if ep_create { NO_SQUARE } else { n.victim };
        // sorted: (sq, victim, false) before (sq, victim, true)
        let mut own = Vec::with_capacity(2);
        if n.flags & (CAPTURE | FRIEND) != 0 {
            own.push((n.sq, victim, false));
        }
        if n.flags & (QUIET | EP) != 0 {
            own.push((n.sq, victim, true));
        }
        let below = merge_sorted(endings(&n.empty, origin, dup, lift), endings(&n.occ, origin, dup, lift), &mut false);
        let node = merge_sorted(own, below, dup);
        all = merge_sorted(all, node, dup);
    }
    all
}

/// Whether one walk of a forest could produce one move along two paths
/// (the list needs de-duplication), and whether a path comes back to
/// `origin`: see [`endings`]. A forest without occupied children (no hops,
/// no captures on the way) has all its endings in one walk, so they are
/// gathered in one pass and sorted, where [`endings`] would merge growing
/// lists at each step of a ride (a hook mover's).
fn repeats(forest: &[Node], origin: Square, nsq: usize) -> (bool, bool) {
    fn any_occ(nodes: &[Node]) -> bool {
        nodes.iter().any(|n| !n.occ.is_empty() || any_occ(&n.empty))
    }
    /// Endings without a victim are marked in `seen` (1 capture, 2 quiet),
    /// the others gathered in `out`; `dup` is set on a repeat.
    struct Gather<'a> {
        origin: Square,
        seen: &'a mut [u8],
        out: Vec<(Square, Square, bool)>,
        dup: bool,
        lift: bool,
    }
    fn gather(nodes: &[Node], g: &mut Gather) {
        for n in nodes {
            let ep_create = n.flags & SPECIAL != 0 && n.aux & AUX_EP_CREATE != 0;
            let victim = if ep_create { NO_SQUARE } else { n.victim };
            for sq in n.squares() {
                g.lift |= sq == g.origin;
                let rights = (n.flags & (CAPTURE | FRIEND) != 0) as u8 | (((n.flags & (QUIET | EP) != 0) as u8) << 1);
                if victim == NO_SQUARE {
                    g.dup |= g.seen[sq] & rights != 0;
                    g.seen[sq] |= rights;
                } else {
                    if rights & 1 != 0 {
                        g.out.push((sq, victim, false));
                    }
                    if rights & 2 != 0 {
                        g.out.push((sq, victim, true));
                    }
                }
            }
            gather(&n.empty, g);
        }
    }
    let (mut dup, mut lift) = (false, false);
    if any_occ(forest) {
        endings(forest, origin, &mut dup, &mut lift);
    } else {
        let mut seen = vec![0u8; nsq];
        let mut g = Gather { origin, seen: &mut seen, out: Vec::new(), dup: false, lift: false };
        gather(forest, &mut g);
        g.out.sort_unstable();
        dup = g.dup || g.out.windows(2).any(|w| w[0] == w[1]);
        lift = g.lift;
    }
    (dup, lift)
}

/// Whether a path of the forest passes `sq` (or ends there).
fn passes(nodes: &[Node], sq: Square) -> bool {
    nodes.iter().any(|n| n.squares().any(|s| s == sq) || passes(&n.empty, sq) || passes(&n.occ, sq))
}

/// The union of two sorted lists without repeats, sorted; sets `repeat` if
/// they share an element.
fn merge_sorted<T: Ord + Copy>(a: Vec<T>, b: Vec<T>, repeat: &mut bool) -> Vec<T> {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                *repeat = true;
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Clears the capture right of every ending on a square the path has
/// already passed while it was empty, or on the piece's own square (the
/// piece is lifted off it while it moves): nothing can be captured there.
/// The walker would find those squares empty anyway, but the check test
/// counts capture cells as attacks whatever the board, and must not count
/// these (a royal capturing the piece, or stepping next to it, would seem to
/// move into check).
fn no_capture_on_passed_squares(nodes: &mut [Node], passed: &mut Vec<Square>) {
    for n in nodes {
        if n.ray != 0 && n.squares().any(|s| passed.contains(&s)) {
            *n = std::mem::replace(n, Node::new(Square::new(0), NO_VICTIMS)).unray();
        }
        if passed.contains(&n.sq) {
            n.flags &= !CAPTURE;
        }
        passed.push(n.sq);
        no_capture_on_passed_squares(&mut n.empty, passed);
        passed.pop();
        no_capture_on_passed_squares(&mut n.occ, passed);
    }
}

/// Takes the rights to end a move (quiet, capturing or en passant) from
/// every node on a square outside `zone`, keeping the node as a square the
/// move passes, and drops the nodes left with neither rights nor children
/// (a destination zone: [`ConfineMode::Destination`]).
fn keep_destinations(nodes: &mut Vec<Node>, zone: &[bool]) {
    for n in nodes.iter_mut() {
        if n.ray != 0 && n.squares().any(|s| !zone[s]) {
            *n = std::mem::replace(n, Node::new(Square::new(0), NO_VICTIMS)).unray();
        }
        keep_destinations(&mut n.empty, zone);
        keep_destinations(&mut n.occ, zone);
        if !zone[n.sq] {
            n.flags &= !(QUIET | CAPTURE | FRIEND | EP);
        }
        if n.empty.is_empty() {
            n.flags &= !EMPTY_CHILD;
        }
        if n.occ.is_empty() {
            n.flags &= !(OCC_FOE | OCC_FRIEND);
        }
    }
    nodes.retain(|n| n.flags & (QUIET | CAPTURE | FRIEND | EP) != 0 || !n.empty.is_empty() || !n.occ.is_empty());
}

/// A compass direction index (0 = east, counter-clockwise) of a unit vector.
fn compass(dx: i32, dy: i32) -> usize {
    const DIRS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    DIRS.iter().position(|&d| d == (dx.signum(), dy.signum())).unwrap()
}

fn compass_vec(i: usize) -> (i32, i32) {
    const DIRS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    DIRS[i % 8]
}

fn all_vectors(atom: Atom) -> Vec<(i32, i32)> {
    let (a, b) = (atom.a as i32, atom.b as i32);
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let w = (x * sx, y * sy);
            if !v.contains(&w) {
                v.push(w);
            }
        }
    }
    v
}

/// Vectors with the largest component towards `letter` (f, b, l, r), in White's frame.
fn single(vs: &[(i32, i32)], letter: u8) -> Vec<(i32, i32)> {
    vs.iter()
        .copied()
        .filter(|&(x, y)| match letter {
            b'f' => y > 0 && y >= x.abs(),
            b'b' => y < 0 && -y >= x.abs(),
            b'l' => x < 0 && -x >= y.abs(),
            b'r' => x > 0 && x >= y.abs(),
            b'v' => y != 0 && y.abs() >= x.abs(),
            b's' => x != 0 && x.abs() >= y.abs(),
            _ => false,
        })
        .collect()
}

fn half(letter: u8, (x, y): (i32, i32)) -> bool {
    match letter {
        b'f' => y > 0,
        b'b' => y < 0,
        b'l' => x < 0,
        b'r' => x > 0,
        _ => false,
    }
}

fn first_leg_vectors(atom: Atom, dirs: &[DirWord]) -> Vec<(i32, i32)> {
    let all = all_vectors(atom);
    if dirs.is_empty() {
        return all;
    }
    let mut out: Vec<(i32, i32)> = Vec::new();
    let mut add = |v: Vec<(i32, i32)>| {
        for w in v {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    };
    let (a, b) = (atom.a as i32, atom.b as i32);
    for d in dirs {
        match d.second {
            // the half on one side: the moves with a component that way (fhN: the four forward moves)
            Some(b'h') => add(all.iter().copied().filter(|&v| half(d.first, v)).collect()),
            // one handedness: (b, a) or (-b, a) and their 90° rotations (hrN, hlN)
            Some(s) if d.first == b'h' => {
                let (x, y) = if s == b'r' { (b, a) } else { (-b, a) };
                add(vec![(x, y), (y, -x), (-x, -y), (-y, x)]);
            }
            None => add(single(&all, d.first)),
            Some(s) => {
                let cand: Vec<_> = single(&all, s).into_iter().filter(|&v| half(d.first, v)).collect();
                if cand.is_empty() {
                    add(single(&all, d.first));
                    add(single(&all, s));
                } else {
                    add(cand);
                }
            }
        }
    }
    // keep the atom's own order for determinism
    all.into_iter().filter(|v| out.contains(v)).collect()
}

/// Relative turns (in 45° steps, counter-clockwise) named by a later leg's
/// directions. A leg without directions may not go straight back; on an atom
/// written `K` or `Q` (`eightfold`) it takes the seven other turns, on any
/// other atom only straight on and the two 90° turns (XBoard's reading: `caW`
/// captures a neighbour and steps on or sideways, never back nor diagonally).
/// `z` and `q` turn against or with `bend`, the side (1 left, -1 right) of
/// the last turn before (the Interactive Diagram's reading); without one
/// they turn either way, like `s`.
fn relative_turns(dirs: &[DirWord], eightfold: bool, bend: i32) -> Result<Vec<i32>, String> {
    if dirs.is_empty() {
        return Ok(if eightfold { vec![0, 1, -1, 2, -2, 3, -3] } else { vec![0, 2, -2] });
    }
    let mut out = Vec::new();
    for d in dirs {
        // a turn by `k` 45° steps against (`z`) or with (`q`) the last bend
        let side = |k: i32, with: bool| -> Vec<i32> {
            match (bend, with) {
                (0, _) => vec![k, -k],
                (b, true) => vec![k * b],
                (b, false) => vec![-k * b],
            }
        };
        let fixed: &[i32] = match (d.first, d.second) {
            (b'z' | b'q', None) => {
                for t in side(2, d.first == b'q') {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
                continue;
            }
            (b'f' | b'b', Some(z @ (b'z' | b'q'))) => {
                let k = if d.first == b'f' { 1 } else { 3 };
                for t in side(k, z == b'q') {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
                continue;
            }
            (b'f', None) | (b'f', Some(b'f')) => &[0],
            (b'b', None) | (b'b', Some(b'b')) => &[4],
            (b'l', None) => &[2],
            (b'r', None) => &[-2],
            (b's', None) => &[2, -2],
            (b'v', None) => &[0, 4],
            (b'f', Some(b'l')) | (b'l', Some(b'f')) => &[1],
            (b'f', Some(b'r')) | (b'r', Some(b'f')) => &[-1],
            (b'b', Some(b'l')) | (b'l', Some(b'b')) => &[3],
            (b'b', Some(b'r')) | (b'r', Some(b'b')) => &[-3],
            (b'f', Some(b's')) => &[1, -1],
            (b'b', Some(b's')) => &[3, -3],
            _ => return Err(format!("direction '{d}' is not supported on a later leg")),
        };
        for &t in fixed {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    Ok(out)
}

/// The path of a lame leap: orthogonal steps first, then diagonal ones.
fn lame_path(v: (i32, i32)) -> Vec<(i32, i32)> {
    let (x, y) = v;
    let (ax, ay) = (x.abs(), y.abs());
    let (sx, sy) = (x.signum(), y.signum());
    let mut path = Vec::new();
    let (mut px, mut py) = (0, 0);
    let diag = ax.min(ay);
    let orth = ax.max(ay) - diag;
    for _ in 0..orth {
        if ax > ay {
            px += sx;
        } else {
            py += sy;
        }
        path.push((px, py));
    }
    for _ in 0..diag {
        px += sx;
        py += sy;
        path.push((px, py));
    }
    path.pop(); // the last one is the target
    path
}

struct Builder<'a> {
    g: Geometry,
    color: Color,
    /// Squares the moves may visit (confinement), already for this colour.
    allowed: Vec<bool>,
    piece: &'a str,
    no_hop: bool,
    no_capture: bool,
    ep_rule: bool,
    /// Nodes built so far on this square (see [`MAX_NODES_PER_SQUARE`]).
    nodes: std::cell::Cell<usize>,
    /// Nodes built so far for the whole variant, and its budget (see
    /// [`compile_budget`]).
    total: &'a std::cell::Cell<usize>,
    budget: usize,
    /// The variant's number of piece types (for the budget's error message).
    ntypes: usize,
    /// The square the unit being built starts from.
    origin: std::cell::Cell<Square>,
    /// Whether a plain ride of one leg is built as one ray node (a build
    /// with [`crate::width::RAYS`], when nothing later looks at the ride's
    /// squares one by one).
    rays: bool,
    /// The side of the last turn on the path being built (1 left, -1
    /// right, 0 none yet), for `z` and `q` on later legs.
    bend: std::cell::Cell<i32>,
}

impl Builder<'_> {
    fn err(&self, unit: &Unit, msg: impl Into<String>) -> CompileError {
        CompileError { piece: self.piece.to_string(), token: unit.text.clone(), message: msg.into() }
    }

    fn sq(&self, from: Square, (dx, dy): (i32, i32)) -> Option<Square> {
        // Black's moves are White's turned by 180 degrees, so that its left is the board's right
        let (dx, dy) = if self.color == Color::White { (dx, dy) } else { (-dx, -dy) };
        let f = self.g.file_of(from) + dx;
        let r = self.g.rank_of(from) + dy;
        let s = self.g.square(f, r)?;
        if self.allowed[s] {
            Some(s)
        } else {
            None
        }
    }

    /// The square `d` (White's frame) away from `from`, and whether the step
    /// crossed the left or right edge: with `wrap` (`o`, a cylinder) the files
    /// join around, otherwise such a square is off the board.
    fn step(&self, from: Square, d: (i32, i32), wrap: bool) -> Option<(Square, bool)> {
        if !wrap {
            return self.sq(from, d).map(|s| (s, false));
        }
        let (dx, dy) = if self.color == Color::White { d } else { (-d.0, -d.1) };
        let w = self.g.width as i32;
        let f = self.g.file_of(from) + dx;
        let r = self.g.rank_of(from) + dy;
        let s = self.g.square(f.rem_euclid(w), r)?;
        if self.allowed[s] {
            Some((s, !(0..w).contains(&f)))
        } else {
            None
        }
    }

    /// Counts `n` more nodes against the square's bound and the variant's
    /// budget.
    fn count_nodes(&self, unit: &Unit, n: usize) -> Result<(), CompileError> {
        let built = self.nodes.get() + n;
        if built > MAX_NODES_PER_SQUARE {
            return Err(self.err(
                unit,
                format!("more than {MAX_NODES_PER_SQUARE} trajectory nodes on one square: too many legs or steps"),
            ));
        }
        self.nodes.set(built);
        let total = self.total.get() + n;
        if total > self.budget {
            return Err(self.err(unit, budget_exceeded(self.budget, self.ntypes, self.g.squares())));
        }
        self.total.set(total);
        Ok(())
    }

    fn max_steps(&self, range: Range) -> i32 {
        match range {
            Range::Leap => 1,
            Range::Limited(n) => n as i32,
            Range::Unlimited => self.g.width.max(self.g.height) as i32,
        }
    }

    fn unit(&self, unit: &Unit, from: Square) -> Result<Vec<Node>, CompileError> {
        for leg in &unit.legs {
            if let Some(&(c, _)) = leg.unsupported.first() {
                return Err(self.err(unit, format!("the modifier '{c}' is not supported yet")));
            }
        }
        if unit.legs.iter().any(|l| l.unload) {
            if unit.legs.len() > 1 {
                return Err(self.err(unit, "'u' (unload) is supported on moves of one leg only (udR, ucK)"));
            }
            let m = unit.legs[0].modality;
            if m.hop || m.grasshop || m.en_passant || m.range_toggle {
                return Err(self.err(unit, "'u' (unload) together with 'p', 'g', 'y' or 'e' is not supported"));
            }
            if m.moves && !m.captures && !m.friend {
                return Err(self.err(unit, "'u' (unload) needs a capture to unload: 'c', 'd', or neither (umcR)"));
            }
        }
        self.origin.set(from);
        self.bend.set(0);
        if unit.universal {
            return self.universal(unit, from);
        }
        let half = unit.legs[0].dirs.iter().any(|d| d.first == b'h' || d.second == Some(b'h'));
        if half && !unit.atom.is_oblique() {
            return Err(self.err(unit, "'h' (half) is defined only on oblique atoms (fhN, hrN)"));
        }
        let mut legs: Vec<(Leg, Range)> = unit.legs.iter().map(|l| (l.clone(), unit.range)).collect();
        let last = legs.len() - 1;
        // A non-final leg with `g` ends on an occupied square (of either side), like `p`, and
        // switches the legs after it between leaper and rider (XBoard's reading: `gafR` is the
        // rook-line grasshopper, `gafW` hops over a neighbour and then rides on).
        // `y` does the same on a leg that ends on an empty square.
        for li in 0..last {
            if legs[li].0.modality.grasshop || legs[li].0.modality.range_toggle {
                let toggled = match legs[li + 1].1 {
                    Range::Leap => Range::Unlimited,
                    Range::Unlimited => Range::Leap,
                    Range::Limited(_) => {
                        return Err(self.err(
                            unit,
                            "'g' or 'y' before a leg of limited range: the range it toggles to is not defined",
                        ))
                    }
                };
                for later in &mut legs[li + 1..] {
                    later.1 = toggled;
                }
            }
        }
        // A final leg that hops is a leg ending on the screen, then a straight continuation.
        let (fl, final_range) = legs[last].clone();
        if fl.modality.hop || fl.modality.grasshop {
            // on a leaper (pN, gN) both parts are one leap: the screen a leap
            // away, the landing square a leap behind it
            if fl.circular || fl.crooked {
                return Err(self.err(unit, "'p' or 'g' together with 'q' or 'z' is not supported"));
            }
            let mut pre = fl.clone();
            pre.modality = crate::betza::Modality { hop: true, ..Default::default() };
            // a tame hopper may hop over any piece; it only may not capture a royal
            pre.tame = false;
            let mut post = Leg {
                dirs: vec![DirWord { first: b'f', second: None }],
                cylinder: fl.cylinder,
                tame: fl.tame,
                ..Leg::default()
            };
            post.modality = fl.modality;
            post.modality.hop = false;
            post.modality.grasshop = false;
            let post_range = if fl.modality.grasshop { Range::Leap } else { final_range };
            legs[last] = (pre, final_range);
            legs.push((post, post_range));
        }
        if unit.atom.is_oblique() && legs.len() > 1 {
            for (l, _) in &legs[1..] {
                for d in &l.dirs {
                    if d.second.is_some() || matches!(d.first, b'z' | b'q') {
                        return Err(self.err(unit, format!("direction '{d}' on a later leg of an oblique atom")));
                    }
                }
                if l.dirs.is_empty() {
                    return Err(self.err(unit, "a later leg of an oblique atom needs a direction (f, b, l, r, s or v)"));
                }
            }
        }
        let vectors = first_leg_vectors(unit.atom, &legs[0].0.dirs);
        let mut out = Vec::new();
        for v in vectors {
            out.extend(self.leg(unit, &legs, 0, from, v, NO_VICTIMS)?);
        }
        Ok(out)
    }

    /// [`Builder::leg`] for a later leg that starts with a turn by `turn`
    /// 45° steps, which sets the side of the last bend while it is built.
    #[allow(clippy::too_many_arguments)]
    fn turned_leg(
        &self,
        unit: &Unit,
        legs: &[(Leg, Range)],
        li: usize,
        at: Square,
        v: (i32, i32),
        vic: Victims,
        turn: i32,
    ) -> Result<Vec<Node>, CompileError> {
        let saved = self.bend.get();
        match turn.rem_euclid(8) {
            1..=3 => self.bend.set(1),
            5..=7 => self.bend.set(-1),
            _ => {}
        }
        let r = self.leg(unit, legs, li, at, v, vic);
        self.bend.set(saved);
        r
    }

    /// The nodes of leg `li` starting at `at` with step `v` (White's frame).
    fn leg(
        &self,
        unit: &Unit,
        legs: &[(Leg, Range)],
        li: usize,
        at: Square,
        v: (i32, i32),
        vic: Victims,
    ) -> Result<Vec<Node>, CompileError> {
        let (leg, range) = &legs[li];
        if leg.circular {
            return self.circular(unit, legs, li, at, v, vic);
        }
        if !leg.crooked {
            return self.leg_path(unit, legs, li, at, v, vic, None);
        }
        // `z`, a crooked rider: every other step turned by 90°, first to the
        // left or first to the right (`zB` is the Boyscout, `zR` the crooked rook)
        if li + 1 != legs.len() {
            return Err(self.err(unit, "'z' on a non-final leg is not supported"));
        }
        if unit.atom.is_oblique() || *range == Range::Leap || leg.lame || leg.jump || leg.cylinder {
            return Err(
                self.err(unit, "'z' is supported only on orthogonal and diagonal riders, without 'n', 'j' or 'o'")
            );
        }
        let steps = self.max_steps(*range) as usize;
        let mut out = Vec::new();
        for zig in [1, -1] {
            // odd steps: v turned by 90° (counter-clockwise for zig = 1)
            let path: Vec<(i32, i32)> =
                (0..steps).map(|k| if k % 2 == 1 { (-v.1 * zig, v.0 * zig) } else { v }).collect();
            out.extend(self.leg_path(unit, legs, li, at, v, vic, Some(&path))?);
        }
        Ok(out)
    }

    /// `q`, a circular rider: each step is the next move of the atom around
    /// the circle, turning one way or the other, until just before the piece
    /// would be back (`qN` is the Rose: up to seven knight leaps around an
    /// octagon; `qW` goes round a 2×2 square in three steps). A range
    /// shortens the circle (`qN3`).
    fn circular(
        &self,
        unit: &Unit,
        legs: &[(Leg, Range)],
        li: usize,
        at: Square,
        v: (i32, i32),
        vic: Victims,
    ) -> Result<Vec<Node>, CompileError> {
        let (leg, range) = &legs[li];
        if li + 1 != legs.len() {
            return Err(self.err(unit, "'q' on a non-final leg is not supported"));
        }
        if unit.eightfold || leg.lame || leg.jump || leg.cylinder || leg.crooked {
            return Err(self.err(unit, "'q' is supported on single atoms (qN, qW, qF), without 'n', 'j', 'o' or 'z'"));
        }
        // the atom's moves in order around the circle
        let mut ring = all_vectors(unit.atom);
        ring.sort_by(|p, q| (p.1 as f64).atan2(p.0 as f64).total_cmp(&(q.1 as f64).atan2(q.0 as f64)));
        let n = ring.len();
        let start = ring.iter().position(|&w| w == v).expect("a vector of the atom");
        let steps = match range {
            Range::Limited(r) => (*r as usize).min(n - 1),
            _ => n - 1,
        };
        let mut out = Vec::new();
        for sense in [1, n - 1] {
            let path: Vec<(i32, i32)> = (0..steps).map(|k| ring[(start + k * sense) % n]).collect();
            out.extend(self.leg_path(unit, legs, li, at, v, vic, Some(&path))?);
        }
        Ok(out)
    }

    /// `U`, the universal leaper: a leap to every square of the board but
    /// its own, with the unit's modality.
    fn universal(&self, unit: &Unit, from: Square) -> Result<Vec<Node>, CompileError> {
        let leg = &unit.legs[0];
        if unit.legs.len() > 1
            || !leg.dirs.is_empty()
            || unit.range != Range::Leap
            || leg.lame
            || leg.jump
            || leg.cylinder
            || leg.crooked
            || leg.circular
            || leg.modality.hop
            || leg.modality.grasshop
            || leg.modality.range_toggle
        {
            return Err(self.err(unit, "'U' takes only the modality modifiers m, c, d, e, t and i"));
        }
        let mut out = Vec::new();
        for sq in self.g.all_squares() {
            if sq == from || !self.allowed[sq] {
                continue;
            }
            let mut node = Node::new(sq, NO_VICTIMS);
            self.end_rights(leg, &mut node);
            out.push(node);
        }
        self.nodes.set(self.nodes.get() + out.len());
        self.total.set(self.total.get() + out.len());
        if self.total.get() > self.budget {
            return Err(self.err(unit, format!("the variant needs more than {} trajectory nodes", self.budget)));
        }
        Ok(out)
    }

    /// The rights of a final leg's end square: quiet, capture (of foes, of
    /// friends with `d`), e.p., and the restrictions that need a closer look.
    fn end_rights(&self, leg: &Leg, node: &mut Node) {
        let m = leg.modality;
        if m.is_empty() || m.moves {
            node.flags |= QUIET;
        }
        if m.is_empty() || m.captures {
            node.flags |= CAPTURE;
            if self.no_capture {
                node.flags |= SPECIAL;
                node.aux |= AUX_NO_CAPTURE;
            }
        }
        if m.friend {
            node.flags |= FRIEND;
        }
        if m.en_passant {
            node.flags |= EP;
        }
        if (leg.tame || leg.unload) && node.flags & (CAPTURE | FRIEND) != 0 {
            node.flags |= SPECIAL;
            node.aux |= AUX_TAME;
        }
        if leg.unload && node.flags & (CAPTURE | FRIEND) != 0 {
            node.aux |= AUX_UNLOAD;
        }
    }

    /// The nodes of leg `li` starting at `at` with step `v` (White's frame);
    /// with `path`, the ride takes these steps in turn instead (a crooked or
    /// circular rider), as far as they go.
    #[allow(clippy::too_many_arguments)]
    fn leg_path(
        &self,
        unit: &Unit,
        legs: &[(Leg, Range)],
        li: usize,
        at: Square,
        v: (i32, i32),
        vic: Victims,
        path: Option<&[(i32, i32)]>,
    ) -> Result<Vec<Node>, CompileError> {
        let (leg, range) = &legs[li];
        let is_final = li + 1 == legs.len();
        let m = leg.modality;
        if m.en_passant && !is_final {
            return Err(self.err(unit, "'e' on a non-final leg is not supported"));
        }
        if m.range_toggle && is_final {
            return Err(self.err(unit, "'y' on a final leg means nothing: it toggles the range of the legs after it"));
        }
        let steps = match path {
            Some(p) => p.len() as i32,
            None => self.max_steps(*range),
        };
        let leaper = *range == Range::Leap && path.is_none();
        let one_step = unit.atom.a == 1;
        let wrap = leg.cylinder;
        if leg.lame && leg.jump {
            return Err(self.err(unit, "'n' and 'j' on one leg contradict each other"));
        }
        if leg.lame && one_step {
            return Err(self.err(unit, "'n' on a one-step atom means nothing"));
        }
        if leg.jump && one_step && leaper {
            return Err(
                self.err(unit, "'j' on a one-step leaper means nothing ('jR' skips the first square of a ride)")
            );
        }
        // `j` on a one-step rider (`jR`, `jB`): the first square is skipped,
        // empty or not, as XBoard reads it
        let skip_first = leg.jump && one_step;
        // `n` and `j` on a longer atom: each step's intermediate squares (the
        // lame path, orthogonal first) must be empty (`n`) or, for a leap with
        // one square between, occupied (`j`); on a rider (`nNN`) every step
        let per_step = (leg.lame || leg.jump) && !one_step;
        let inter = if per_step { lame_path(v) } else { Vec::new() };
        if leg.jump && per_step && inter.len() != 1 {
            return Err(self.err(unit, "'j' is supported only on leaps with one square between"));
        }

        // The squares along the leg: the targets, and before each the
        // intermediate squares of its step.
        let origin = self.origin.get();
        let mut step_inter: Vec<Vec<Square>> = Vec::new();
        let mut targets: Vec<Square> = Vec::new();
        let mut prev = at;
        let mut looped = false;
        'ride: for k in 0..(if leaper { 1 } else { steps }) {
            let v = path.map_or(v, |p| p[k as usize]);
            let mut between = Vec::new();
            for &d in &inter {
                match self.step(prev, d, wrap) {
                    Some((s, w)) if !(w || looped) || s != origin => between.push(s),
                    _ => break 'ride,
                }
            }
            match self.step(prev, v, wrap) {
                Some((s, w)) => {
                    looped |= w;
                    // around the cylinder, the piece's own square blocks the ride
                    if looped && s == origin {
                        break;
                    }
                    targets.push(s);
                    step_inter.push(between);
                    prev = s;
                }
                None => break,
            }
        }
        let path_squares: Vec<Square> = step_inter.first().cloned().unwrap_or_default();
        if targets.is_empty() || leg.iso && (targets.len() as i32) < steps {
            // (a leg of an exact length that the board's edge cuts short goes nowhere)
            return Ok(Vec::new());
        }
        if self.rays
            && is_final
            && !leaper
            && path.is_none()
            && !wrap
            && !skip_first
            && inter.is_empty()
            && vic == NO_VICTIMS
            && !(unit.initial && self.ep_rule)
            && !leg.iso
            && (2..=u8::MAX as usize).contains(&targets.len())
            && !targets.contains(&origin)
        {
            // a plain ride: one ray node, which the walkers step along
            let mut node = Node::new(targets[0], NO_VICTIMS);
            self.end_rights(leg, &mut node);
            let step = targets[1].index() as isize - targets[0].index() as isize;
            let straight = targets.windows(2).all(|w| w[1].index() as isize - w[0].index() as isize == step);
            if node.flags & (SPECIAL | EP) == 0 && node.aux == 0 && straight && i16::try_from(step).is_ok() {
                node.ray = targets.len() as u8;
                node.step = step as i16;
                self.count_nodes(unit, 1)?;
                return Ok(vec![node]);
            }
        }
        self.count_nodes(unit, targets.len())?;

        // The nodes of each possible end square of this leg, innermost first.
        let mut chain: Vec<Node> = Vec::new();
        let jump = leg.jump;
        let prepend = |mut node: Node, squares: &[Square]| -> Node {
            for &p in squares.iter().rev() {
                let mut inter = Node::new(p, vic);
                if jump {
                    inter.flags = OCC_FOE | OCC_FRIEND;
                    inter.occ.push(node);
                } else {
                    inter.flags = EMPTY_CHILD;
                    inter.empty.push(node);
                }
                node = inter;
            }
            node
        };
        for (k, &t) in targets.iter().enumerate().rev() {
            // a move that ends on the square of one of its victims takes the
            // piece there (still on the board while the piece walks) as its
            // capture, and the other victim, if any, on its way: written so,
            // it is the same move as the path that hops that square and
            // comes back (`d4d5` for d4-d5-d6-d5 capturing on d5, not `d4d5,d5d5`)
            let end_vic = match vic {
                (a, b) if is_final && t == a => (b, NO_SQUARE),
                (a, b) if is_final && b != NO_SQUARE && t == b => (a, NO_SQUARE),
                _ => vic,
            };
            let mut node = Node::new(t, end_vic);
            if skip_first && k == 0 {
                // the skipped square: the ride goes on whether it is empty or not
                if chain.is_empty() {
                    return Ok(Vec::new());
                }
                node.flags = EMPTY_CHILD | OCC_FOE | OCC_FRIEND;
                if self.no_hop {
                    node.flags |= SPECIAL;
                    node.aux |= AUX_NO_HOP;
                }
                node.empty = chain.clone();
                node.occ = std::mem::take(&mut chain);
                chain.push(node);
                continue;
            }
            // a second node on the same square, when a leg both hops and
            // captures there (`cpa`): the two forks need different conditions
            let mut sibling: Option<Node> = None;
            // a leg of an exact length (`i` on a later leg) only passes the
            // squares before its last
            let passed_only = leg.iso && k + 1 < targets.len();
            if passed_only {
                // nothing ends here and no later leg starts here
            } else if is_final {
                self.end_rights(leg, &mut node);
                if unit.initial && self.ep_rule && leg.lame && m.moves && !m.captures && li == 0 && legs.len() == 1 {
                    // an initial lame multi-step non-capture (the pawn's double step) creates e.p. rights
                    if let Some(&passed) = path_squares.last() {
                        node.flags |= SPECIAL;
                        node.aux |= AUX_EP_CREATE;
                        node.victim = passed;
                    }
                }
                if unit.initial
                    && self.ep_rule
                    && matches!(unit.range, Range::Limited(2..=3))
                    && unit.atom.a == 1
                    && k >= 1
                    && m.moves
                    && !m.captures
                    && li == 0
                    && legs.len() == 1
                {
                    // an initial non-capturing slide of two or three steps
                    // (`imfW2`, `imfW3`) creates e.p. rights on the passed
                    // squares: the move names the last, make finds the other
                    node.flags |= SPECIAL;
                    node.aux |= AUX_EP_CREATE;
                    node.victim = targets[k - 1];
                }
            } else {
                // a later leg starts here; one of an exact length (`i`) makes
                // as many steps as this one has made (k + 1) if its own range
                // allows them, else none (and goes nowhere)
                let exact;
                let legs = if legs[li + 1].0.iso {
                    let n = k as i32 + 1;
                    let n = if n > self.max_steps(legs[li + 1].1) || n > u8::MAX as i32 { 0 } else { n };
                    let mut v = legs.to_vec();
                    v[li + 1].1 = Range::Limited(n as u8);
                    exact = v;
                    &exact[..]
                } else {
                    legs
                };
                let (next_leg, _) = &legs[li + 1];
                let turns =
                    relative_turns(&next_leg.dirs, unit.eightfold, self.bend.get()).map_err(|e| self.err(unit, e))?;
                let nv = |turn: i32| -> (i32, i32) {
                    if unit.atom.is_oblique() {
                        // 90° rotations only
                        match turn.rem_euclid(8) {
                            0 => v,
                            2 => (-v.1, v.0),
                            4 => (-v.0, -v.1),
                            6 => (v.1, -v.0),
                            _ => v,
                        }
                    } else {
                        let size = unit.atom.a as i32;
                        let c = compass(v.0, v.1) as i32;
                        let (ux, uy) = compass_vec((c + turn).rem_euclid(8) as usize);
                        (ux * size, uy * size)
                    }
                };
                let mut mods = m;
                if mods.is_empty() || mods.range_toggle {
                    mods.moves = true;
                }
                if mods.moves {
                    for &turn in &turns {
                        if unit.atom.is_oblique() && turn % 2 != 0 {
                            continue;
                        }
                        node.empty.extend(self.turned_leg(unit, legs, li + 1, t, nv(turn), vic, turn)?);
                    }
                }
                // `g` on a non-final leg hops like `p`; the range switch is in the later legs' ranges
                mods.hop |= mods.grasshop;
                // a piece taken on an earlier leg is not there to be taken again
                let destroys = (mods.captures || mods.friend) && t != vic.0;
                if destroys && vic.1 != NO_SQUARE {
                    return Err(self.err(unit, "more than two locust captures per move are not supported"));
                }
                if destroys && vic.0 != NO_SQUARE {
                    let (dx, dy) =
                        (self.g.file_of(t) - self.g.file_of(vic.0), self.g.rank_of(t) - self.g.rank_of(vic.0));
                    if crate::moves::second_victim_code(dx, dy).is_none() {
                        return Err(self.err(
                            unit,
                            "a second locust capture more than one file or rank from the first is not supported",
                        ));
                    }
                }
                let taken = if vic.0 == NO_SQUARE { (t, NO_SQUARE) } else { (vic.0, t) };
                let continuations = |vic: Victims| -> Result<Vec<Node>, CompileError> {
                    let mut out = Vec::new();
                    for &turn in &turns {
                        if unit.atom.is_oblique() && turn % 2 != 0 {
                            continue;
                        }
                        out.extend(self.turned_leg(unit, legs, li + 1, t, nv(turn), vic, turn)?);
                    }
                    Ok(out)
                };
                if mods.hop {
                    // hop from here: over any piece, or (`t`) over friends only
                    let occ = continuations(vic)?;
                    if !occ.is_empty() {
                        node.occ = occ;
                        node.flags |= if leg.tame { OCC_FRIEND } else { OCC_FOE | OCC_FRIEND };
                        if self.no_hop {
                            node.flags |= SPECIAL;
                            node.aux |= AUX_NO_HOP;
                        }
                    }
                }
                if destroys {
                    // capture here (`c` a foe, `d` a friend) and go on
                    let occ = continuations(taken)?;
                    if !occ.is_empty() {
                        let target = if node.occ.is_empty() { &mut node } else { sibling.insert(Node::new(t, vic)) };
                        target.occ = occ;
                        if mods.captures {
                            target.flags |= OCC_FOE;
                        }
                        if mods.friend {
                            target.flags |= OCC_FRIEND | SPECIAL;
                            target.aux |= AUX_NO_FRIEND_ROYAL;
                        }
                    }
                }
            }
            // a rider continues over empty squares
            if !leaper && k + 1 < targets.len() {
                node.empty.extend(chain.drain(..).map(|c| prepend(c, &step_inter[k + 1])));
            }
            if !node.empty.is_empty() {
                node.flags |= EMPTY_CHILD;
            }
            chain.clear();
            chain.push(node);
            chain.extend(sibling);
        }
        // lame or jumping steps: prepend the intermediate squares of the first
        Ok(chain.into_iter().map(|c| prepend(c, &step_inter[0])).collect())
    }
}

/// Whether a forest has a non-capturing move on an empty board: a quiet
/// node reached over empty squares only.
fn quiet_on_empty_board(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| n.flags & QUIET != 0 || quiet_on_empty_board(&n.empty))
}

/// Takes the quiet and e.p. rights from every node of the forest of the
/// piece on `from` that ends on a `dead` square where it may not promote
/// (see [`PromoInfo`]): a capture there stays, as an attack, but may not be
/// played. A ray over such a square becomes the nodes it stands for.
fn no_stay_on_dead_squares(nodes: &mut [Node], dead: &[bool], promo: Option<&PromoInfo>, from: usize) {
    let stays = |sq: Square| dead[sq] && !promo.is_some_and(|p| p.zone[sq] || (p.shogi && p.zone[from]));
    for n in nodes {
        if n.ray != 0 && n.squares().any(stays) {
            *n = std::mem::replace(n, Node::new(Square::new(0), NO_VICTIMS)).unray();
        }
        if stays(n.sq) {
            n.flags &= !(QUIET | EP);
            if n.flags & (CAPTURE | FRIEND) != 0 {
                n.flags |= SPECIAL;
                n.aux |= AUX_NO_STAY;
            }
        }
        no_stay_on_dead_squares(&mut n.empty, dead, promo, from);
        no_stay_on_dead_squares(&mut n.occ, dead, promo, from);
    }
}

/// Lays the plain rides of one piece code's lists out as ray cells
/// ([`compact_rays`]), in place: `lists` are its moved and unmoved lists
/// (the latter may share the former's cells), all laid out in `cells[at..]`,
/// which the compacted lists replace. A list never grows, so each is written
/// at or before where it was read.
fn compact_code(
    cells: &mut Vec<Cell>,
    reach: &mut Vec<Reach>,
    victim2: &mut Vec<Square>,
    lists: &mut [ListRef],
    mut at: usize,
    g: &Geometry,
) {
    let nsq = g.squares();
    let mut order: Vec<(u32, usize)> = lists.iter().enumerate().map(|(k, l)| (l.start, k)).collect();
    order.sort_unstable();
    let (mut c2, mut r2, mut v2) = (Vec::new(), Vec::new(), Vec::new());
    // lists that share their cells come one after the other here
    let mut last: Option<((u32, u16), (u32, u16))> = None;
    for (_, k) in order {
        let l = &mut lists[k];
        if let Some((_, new)) = last.filter(|(old, _)| *old == (l.start, l.len)) {
            (l.start, l.len) = new;
            continue;
        }
        if l.len == 0 {
            // (an empty list may sort between two that share their cells)
            l.start = at as u32;
            continue;
        }
        let old = (l.start, l.len);
        let r = l.start as usize..l.start as usize + l.len as usize;
        c2.clear();
        r2.clear();
        v2.clear();
        let from = Square::new(k % nsq);
        compact_rays(&cells[r.clone()], &reach[r.clone()], &victim2[r], from, g, (&mut c2, &mut r2, &mut v2));
        cells[at..at + c2.len()].copy_from_slice(&c2);
        reach[at..at + c2.len()].copy_from_slice(&r2);
        victim2[at..at + c2.len()].copy_from_slice(&v2);
        (l.start, l.len) = (at as u32, c2.len() as u16);
        last = Some((old, (l.start, l.len)));
        at += c2.len();
    }
    cells.truncate(at);
    reach.truncate(at);
    victim2.truncate(at);
}

/// Compiles the moves of every piece of a variant.
pub fn compile(def: &VariantDef) -> Result<Tables, CompileError> {
    let g = def.geometry;
    let nsq = g.squares();
    let ntypes = def.pieces.len();
    let ncodes = 2 * ntypes;
    let mut cells = Vec::new();
    let mut victim2: Vec<Square> = Vec::new();
    let mut reach = Vec::new();
    let total_nodes = std::cell::Cell::new(0usize);
    let budget = compile_budget(ntypes, nsq);
    // all nodes built, in a build that lays rides out as rays piece by piece
    let mut built = 0usize;
    let mut lists = vec![ListRef::default(); ncodes * 2 * nsq];
    let mut list_box = vec![EMPTY_BOX; ncodes * 2 * nsq];
    // double steps create e.p. squares if some piece captures e.p., or if the FEN lists them anyway
    let ep_rule = def.pieces.iter().any(|p| p.ep_field != crate::definition::EpField::Attacked)
        || def.pieces.iter().any(|p| p.betza.units.iter().any(|u| u.legs.iter().any(|l| l.modality.en_passant)));
    let mut promo = vec![None; ncodes + 2];
    let mut no_hop = vec![TypeSet::EMPTY; ncodes + 2];
    let mut no_capture = vec![TypeSet::EMPTY; ncodes + 2];
    let mut in_place_promotion = false;
    let mut own_screen = false;
    // squares where a piece has no non-capturing move on an empty board
    let mut dead = Vec::new();
    if def.rules.immobility == Immobility::Illegal {
        dead = vec![Vec::new(); ncodes + 2];
    }
    for p in &def.pieces {
        check_unloading(p)?;
    }
    for (t, p) in def.pieces.iter().enumerate() {
        for color in [Color::White, Color::Black] {
            let code = code_of(t, color);
            for &h in &p.cannot_hop {
                no_hop[code].insert(h);
            }
            for &h in &p.cannot_capture {
                no_capture[code].insert(h);
            }
            if let Some(pr) = &p.promotion {
                let zone = &def.zones[pr.zone];
                let members: Vec<bool> = (0..nsq).map(|s| zone.contains(&g, color, Square::new(s))).collect();
                let in_place = pr.style == crate::definition::PromotionStyle::Sittuyin;
                in_place_promotion |= in_place;
                promo[code] = Some(PromoInfo {
                    zone: if in_place { vec![false; nsq] } else { members.clone() },
                    in_place_zone: if in_place { members } else { Vec::new() },
                    choices: match (&pr.choices_black, color) {
                        (Some(b), Color::Black) => b.iter().map(|&c| code_of(c, color)).collect(),
                        _ => pr.choices.iter().map(|&c| code_of(c, color)).collect(),
                    },
                    mandatory: pr.mandatory,
                    shogi: matches!(
                        pr.style,
                        crate::definition::PromotionStyle::Shogi | crate::definition::PromotionStyle::Chu
                    ),
                    chu: pr.style == crate::definition::PromotionStyle::Chu,
                    stuck: Vec::new(),
                    limits: match (&pr.choices_black, color) {
                        (Some(b), Color::Black) => vec![255; b.len()],
                        _ => pr.limits.clone(),
                    },
                });
            }
            // the lists of an unmoved piece differ only where it has initial
            // moves that depend on being unmoved (not on a square zone): else
            // they are the moved piece's lists, shared
            let virgin_differs = p.initial_zone.is_none()
                && (p.betza.units.iter().any(|u| u.initial)
                    || p.zone_moves.iter().any(|zm| zm.betza.units.iter().any(|u| u.initial)));
            let nodes_before = total_nodes.get();
            let code_start = cells.len();
            // where the piece may go (confinement), the same from every square
            let zone: Vec<bool> = (0..nsq)
                .map(|s| p.confine.map(|z| def.zones[z].contains(&g, color, Square::new(s))).unwrap_or(true))
                .collect();
            // a destination zone only filters where the moves end:
            // the paths are those of an unconfined piece
            let by_destination = p.confine.is_some() && p.confine_mode == ConfineMode::Destination;
            let base_allowed = if by_destination { vec![true; nsq] } else { zone.clone() };
            let rays = crate::width::RAYS && !by_destination;
            let zone_allowed: Vec<Vec<bool>> = p
                .zone_moves
                .iter()
                .map(|zm| {
                    (0..nsq)
                        .map(|s| {
                            base_allowed[s]
                                && zm.confine.map(|z| def.zones[z].contains(&g, color, Square::new(s))).unwrap_or(true)
                        })
                        .collect()
                })
                .collect();
            for virgin in [false, true] {
                if virgin && !virgin_differs {
                    // counted again against the budget, which bounds the
                    // tables as if each list were its own
                    let total = 2 * total_nodes.get() - nodes_before;
                    if total > budget {
                        return Err(CompileError {
                            piece: p.name.clone(),
                            token: p.betza.text.clone(),
                            message: budget_exceeded(budget, ntypes, nsq),
                        });
                    }
                    total_nodes.set(total);
                    let moved = (code.index() - 2) * 2 * nsq;
                    lists.copy_within(moved..moved + nsq, moved + nsq);
                    list_box.copy_within(moved..moved + nsq, moved + nsq);
                    continue;
                }
                // the merged forest of the piece on one square
                let build = |sq: Square| -> Result<Vec<Node>, CompileError> {
                    let mut b = Builder {
                        g,
                        color,
                        allowed: base_allowed.clone(),
                        piece: &p.name,
                        no_hop: !p.cannot_hop.is_empty(),
                        no_capture: !p.cannot_capture.is_empty(),
                        ep_rule,
                        nodes: std::cell::Cell::new(0),
                        total: &total_nodes,
                        budget,
                        ntypes,
                        origin: std::cell::Cell::new(sq),
                        rays,
                        bend: std::cell::Cell::new(0),
                    };
                    let mut forest = Vec::new();
                    // initial moves: for an unmoved piece, or by square (a double-step region)
                    let initial = match p.initial_zone {
                        Some(z) => def.zones[z].contains(&g, color, sq),
                        None => virgin,
                    };
                    if b.allowed[sq] || p.confine.is_none() {
                        for unit in &p.betza.units {
                            if unit.initial && !initial {
                                continue;
                            }
                            forest.extend(b.unit(unit, sq)?);
                        }
                        for (zm, allowed) in p.zone_moves.iter().zip(&zone_allowed) {
                            if !def.zones[zm.zone].contains(&g, color, sq) {
                                continue;
                            }
                            b.allowed.clone_from(allowed);
                            for unit in &zm.betza.units {
                                if unit.initial && !initial {
                                    continue;
                                }
                                forest.extend(b.unit(unit, sq)?);
                            }
                            b.allowed.clone_from(&base_allowed);
                        }
                    }
                    if by_destination {
                        keep_destinations(&mut forest, &zone);
                    }
                    Ok(merge_forest(forest))
                };
                let illegal = def.rules.immobility == Immobility::Illegal;
                if illegal && !virgin {
                    // squares where the piece has no non-capturing move on an
                    // empty board, found in a first pass over the squares
                    // (not counted against the budget, which bounds the
                    // tables, but as work)
                    let before = total_nodes.get();
                    let mut d = Vec::with_capacity(nsq);
                    for sq in (0..nsq).map(Square::new) {
                        d.push(!quiet_on_empty_board(&build(sq)?));
                        built += total_nodes.get() - before;
                        total_nodes.set(before);
                    }
                    dead[code] = d;
                }
                for sq in (0..nsq).map(Square::new) {
                    let mut forest = build(sq)?;
                    no_capture_on_passed_squares(&mut forest, &mut vec![sq]);
                    let (dedup, lift) = repeats(&forest, sq, nsq);
                    own_screen |= captures_own_screen(&forest, &mut Vec::new());
                    if illegal {
                        // no move may end on a dead square, except one that may
                        // promote there (the captures stay, as attacks)
                        no_stay_on_dead_squares(&mut forest, &dead[code], promo[code].as_ref(), sq.index());
                    }
                    let start = cells.len();
                    let mut local = Vec::new();
                    let mut sizes = Vec::new();
                    let total = subtree_sizes(&forest, &mut sizes);
                    if total > u16::MAX as usize {
                        return Err(CompileError {
                            piece: p.name.clone(),
                            token: p.betza.text.clone(),
                            message: format!("{total} cells on one square is more than supported"),
                        });
                    }
                    let mut local2 = Vec::new();
                    linearize(&forest, total, &mut local, &mut local2, &sizes);
                    let boxes = subtree_reach(&local, &local2, &sizes, &g);
                    let idx = ((code.index() - 2) * 2 + virgin as usize) * nsq + sq.index();
                    list_box[idx] = boxes.iter().fold(EMPTY_BOX, |a, r| box_union(a, *r));
                    reach.extend(boxes);
                    cells.extend(local);
                    victim2.extend(local2);
                    lists[idx] = ListRef { start: start as u32, len: total as u16, dedup, lift };
                }
            }
            let code_lists = (code.index() - 2) * 2 * nsq..(code.index() - 1) * 2 * nsq;
            if crate::width::RAYS {
                built += total_nodes.get() - nodes_before;
                if built > MAX_COMPILE_WORK {
                    return Err(CompileError {
                        piece: p.name.clone(),
                        token: p.betza.text.clone(),
                        message: format!(
                            "the variant needs more than {MAX_COMPILE_WORK} trajectory nodes built (before laying out rides as rays)"
                        ),
                    });
                }
                compact_code(&mut cells, &mut reach, &mut victim2, &mut lists[code_lists], code_start, &g);
                // the budget bounds the tables laid out so far and the trees
                // of the piece being built
                total_nodes.set(cells.len());
            }
        }
    }
    // where the piece could not move on, it must promote (unless the variant allows it to stay)
    for info in promo.iter_mut().enumerate().filter_map(|(code, p)| p.as_mut().map(|p| (code, p))) {
        let (code, p) = info;
        p.stuck = match def.rules.immobility {
            Immobility::ForcedPromotion => (0..nsq).map(|sq| lists[((code - 2) * 2) * nsq + sq].len == 0).collect(),
            Immobility::Illegal => dead[code].clone(),
            Immobility::Allowed => vec![false; nsq],
        };
    }
    let mut facing = Vec::new();
    if def.rules.flying_general {
        let unit = crate::betza::parse("cR").expect("static XBetza").units.remove(0);
        for sq in (0..nsq).map(Square::new) {
            let b = Builder {
                g,
                color: Color::White,
                allowed: vec![true; nsq],
                piece: "facing royal",
                no_hop: false,
                no_capture: false,
                ep_rule: false,
                nodes: std::cell::Cell::new(0),
                total: &total_nodes,
                budget,
                ntypes,
                origin: std::cell::Cell::new(sq),
                rays: false,
                bend: std::cell::Cell::new(0),
            };
            let forest = merge_forest(b.unit(&unit, sq)?);
            let mut sizes = Vec::new();
            let total = subtree_sizes(&forest, &mut sizes);
            let start = cells.len();
            let (mut local, mut local2) = (Vec::new(), Vec::new());
            linearize(&forest, total, &mut local, &mut local2, &sizes);
            reach.extend(subtree_reach(&local, &local2, &sizes, &g));
            cells.extend(local);
            victim2.extend(local2);
            facing.push(ListRef { start: start as u32, len: total as u16, dedup: false, lift: false });
        }
    }
    if cells.len() > u32::MAX as usize / 2 {
        return Err(CompileError {
            piece: String::new(),
            token: String::new(),
            message: "the move tables are too large".into(),
        });
    }
    let may_promote: Vec<bool> = lists
        .iter()
        .enumerate()
        .map(|(idx, l)| {
            let (code, sq) = (idx / (2 * nsq) + 2, idx % nsq);
            promo[code].as_ref().is_some_and(|p| {
                let list = &cells[l.start as usize..l.start as usize + l.len as usize];
                p.zone[sq] || plain_cells(list).any(|c| p.zone[c.to])
            })
        })
        .collect();
    let countable: Vec<bool> = lists
        .iter()
        .enumerate()
        .map(|(idx, l)| {
            let sq = Square::new(idx % nsq);
            let list = &cells[l.start as usize..l.start as usize + l.len as usize];
            !l.dedup && !l.lift && !may_promote[idx] && list.iter().all(|c| countable_cell(c, sq))
        })
        .collect();
    let no_forks = cells.iter().all(|c| c.flags & (OCC_FOE | OCC_FRIEND) == 0 || is_ray(c));
    cells.shrink_to_fit();
    reach.shrink_to_fit();
    victim2.shrink_to_fit();
    if victim2.iter().all(|&v| v == NO_SQUARE) {
        victim2 = Vec::new();
    }
    Ok(Tables {
        cells,
        victim2,
        lists,
        promo,
        no_hop,
        no_capture,
        facing,
        in_place_promotion,
        dead,
        reach,
        list_box,
        may_promote,
        countable,
        no_forks,
        captures_own_screen: own_screen,
        nsq,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::betza;

    fn vecs(atom: &str) -> Vec<(i32, i32)> {
        let b = betza::parse(atom).unwrap();
        let u = &b.units[0];
        let mut v = first_leg_vectors(u.atom, &u.legs[0].dirs);
        v.sort();
        v
    }

    #[test]
    fn directions_on_orthogonal_diagonal_and_oblique_atoms() {
        assert_eq!(vecs("fW"), vec![(0, 1)]);
        assert_eq!(vecs("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(vecs("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(vecs("flF"), vec![(-1, 1)]);
        assert_eq!(vecs("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(vecs("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(vecs("frN"), vec![(2, 1)]);
        assert_eq!(vecs("rfN"), vec![(1, 2)]);
        assert_eq!(vecs("lvN"), vec![(-1, -2), (-1, 2)]);
        assert_eq!(vecs("N").len(), 8);
        assert_eq!(vecs("vW"), vec![(0, -1), (0, 1)]);
    }

    #[test]
    fn lame_paths_go_orthogonally_first() {
        assert_eq!(lame_path((1, 2)), vec![(0, 1)]);
        assert_eq!(lame_path((2, 2)), vec![(1, 1)]);
        assert_eq!(lame_path((3, 2)), vec![(1, 0), (2, 1)]);
        assert_eq!(lame_path((0, -2)), vec![(0, -1)]);
    }

    #[test]
    fn later_leg_turns() {
        let d = |s: &str| betza::parse(&format!("a{s}W")).unwrap().units[0].legs[1].dirs.clone();
        assert_eq!(relative_turns(&d("fs"), false, 0).unwrap(), vec![1, -1]);
        assert_eq!(relative_turns(&d("b"), true, 0).unwrap(), vec![4]);
        // z against the last bend, q with it; with no bend yet either way
        assert_eq!(relative_turns(&d("fz"), false, 1).unwrap(), vec![-1]);
        assert_eq!(relative_turns(&d("fq"), false, 1).unwrap(), vec![1]);
        assert_eq!(relative_turns(&d("z"), false, -1).unwrap(), vec![2]);
        assert_eq!(relative_turns(&d("bq"), false, 0).unwrap(), vec![3, -3]);
        // no direction: never straight back; 45° turns only on K and Q
        assert_eq!(relative_turns(&[], true, 0).unwrap(), vec![0, 1, -1, 2, -2, 3, -3]);
        assert_eq!(relative_turns(&[], false, 0).unwrap(), vec![0, 2, -2]);
    }
}
