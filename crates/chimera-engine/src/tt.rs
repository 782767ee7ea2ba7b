//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: the data word and the key XORed with the
//! data word (Hyatt's lockless hashing). A reader checks `key ^ data == hash`;
//! if another thread wrote one word of the pair in between, the check fails
//! and the entry reads as a miss, so a torn entry is never used. Relaxed
//! ordering is enough for that reason: no other memory depends on the entry.
//!
//! The table is allocated zeroed in one piece ([`Tt::try_new`]): a size the
//! system cannot give is an error, not an abort, and the system hands out
//! zeroed memory page by page as it is first used, so that even a table of
//! gigabytes is made at once. That allocation, the advice to back it with
//! huge pages on Linux and the prefetch hint ([`Tt::prefetch`]) are the
//! module's three `unsafe` blocks.
//!
//! A move takes the data word's low 32 bits. The moves of the wide build
//! (`chimera-engine-wide`, 64-bit moves) keep their high half in a third word
//! of the entry, which the check word covers too; in the narrow build that
//! word is an empty array and the entry stays 16 bytes.

use chimera::moves::Move;
use chimera::width::{MoveBits, WIDE};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// The score is exact.
pub const BOUND_EXACT: u8 = 3;
/// The score is a lower bound (a beta cut-off).
pub const BOUND_LOWER: u8 = 1;
/// The score is an upper bound (no move reached alpha).
pub const BOUND_UPPER: u8 = 2;

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best move found, if any (as stored: check it against the legal moves).
    pub mv: Option<Move>,
    /// The score, from the side to move's view (mate scores relative to this node).
    pub score: i32,
    /// The depth searched.
    pub depth: i32,
    /// One of the `BOUND_*` constants.
    pub bound: u8,
}

/// The words of an entry beyond the two, for the high half of a 64-bit move.
const HIGH_WORDS: usize = if WIDE { 1 } else { 0 };

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
    high: [AtomicU64; HIGH_WORDS],
}

impl Slot {
    /// The high half of the stored move (0 in the narrow build).
    #[inline(always)]
    fn high(&self) -> u64 {
        self.high.first().map_or(0, |w| w.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn set_high(&self, v: u64) {
        if let Some(w) = self.high.first() {
            w.store(v, Ordering::Relaxed);
        }
    }
}

/// A move from the low 32 bits of a data word and the high word.
#[inline(always)]
fn unpack_move(data: u64, high: u64) -> Option<Move> {
    let m = (high << 32 | (data & 0xffff_ffff)) as MoveBits;
    if m == 0 {
        None
    } else {
        Some(Move(m))
    }
}

/// The largest table, in MiB (64 GiB).
pub const MAX_MB: usize = 1 << 16;

/// `n` (at least 1) empty slots, or `None` if the memory cannot be had.
fn zeroed_slots(n: usize) -> Option<Box<[Slot]>> {
    let layout = std::alloc::Layout::array::<Slot>(n.max(1)).ok()?;
    // SAFETY: the layout has a non-zero size (n >= 1 slots of 16 or 24 bytes).
    // A null pointer (no memory) is checked. All-zero bytes are a valid Slot
    // (AtomicU64s holding 0), so the memory is initialised. The pointer
    // comes from the global allocator with the layout of `[Slot]` of this
    // length, which is what the Box frees it with.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if p.is_null() {
            return None;
        }
        advise_huge_pages(p.cast::<u8>(), layout.size());
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n.max(1))))
    }
}

/// Asks Linux to back the whole 2 MiB pages inside `len` bytes at `p` with
/// huge pages (transparent huge pages, `madvise` mode): a probe of a big
/// table then rarely misses the processor's address cache (TLB) as well as
/// its data cache. Only a hint: where it is refused, or on other systems,
/// the table works the same with small pages.
fn advise_huge_pages(p: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (p as usize).next_multiple_of(HUGE);
        let end = (p as usize).saturating_add(len) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside the allocation of `len` bytes at
            // `p`; the advice changes how the kernel backs those pages, not
            // what they hold (they stay zero until written).
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, len);
}

/// A hint to the processor to load the cache line holding `p` ahead of its
/// use; nothing on targets without such a hint. It never faults, whatever
/// the address.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The transposition table.
pub struct Tt {
    slots: Box<[Slot]>,
    mask: usize,
    age: AtomicU8,
}

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: u8, age: u8) -> u64 {
    let m = mv.map_or(0u64, |m| m.bits() & 0xffff_ffff);
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    let ba = (bound as u64 & 3) | ((age as u64 & 63) << 2);
    m | s << 32 | d << 48 | ba << 56
}

impl Tt {
    /// A table of about `mb` MiB (1 to [`MAX_MB`], rounded down to a power
    /// of two entries). Panics if the memory cannot be had; see [`Tt::try_new`].
    pub fn new(mb: usize) -> Tt {
        Tt::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` MiB (1 to [`MAX_MB`], rounded down to a power
    /// of two entries), or an error naming the size if the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Tt, String> {
        let mb = mb.clamp(1, MAX_MB);
        let bytes = mb * 1024 * 1024;
        let mut n = 1usize;
        while n * 2 * std::mem::size_of::<Slot>() <= bytes {
            n *= 2;
        }
        let slots = zeroed_slots(n).ok_or_else(|| format!("cannot allocate {mb} MiB for the hash table"))?;
        Ok(Tt { slots, mask: n - 1, age: AtomicU8::new(0) })
    }

    /// The table's size in MiB.
    pub fn size_mb(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()).div_ceil(1024 * 1024)
    }

    /// Empties the table in place (writing every entry: for a big table,
    /// replacing it by a new one is faster, as the engine does).
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
            s.set_high(0);
        }
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Asks the processor to bring `hash`'s slot into the cache, so that a
    /// [`Tt::probe`] a little later does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        // a pointer, not a reference: no bounds check (the mask keeps it inside anyway)
        prefetch(self.slots.as_ptr().wrapping_add(hash as usize & self.mask));
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        let s = &self.slots[hash as usize & self.mask];
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        let high = s.high();
        if data == 0 || check ^ data ^ high != hash {
            return None;
        }
        Some(TtEntry {
            mv: unpack_move(data, high),
            score: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32,
            bound: ((data >> 56) & 3) as u8,
        })
    }

    /// Stores a result. Keeps the move of an entry for the same position when
    /// the new result has none, and prefers deeper entries of the current search.
    #[inline]
    pub fn store(&self, hash: u64, mv: Option<Move>, score: i32, depth: i32, bound: u8) {
        let s = &self.slots[hash as usize & self.mask];
        let age = self.age.load(Ordering::Relaxed) & 63;
        let old = s.data.load(Ordering::Relaxed);
        let old_high = s.high();
        let same = old != 0 && s.check.load(Ordering::Relaxed) ^ old ^ old_high == hash;
        let old_depth = ((old >> 48) & 0xff) as i32;
        let old_age = ((old >> 58) & 63) as u8;
        if old != 0 && !same && old_age == age && old_depth > depth + 2 && bound != BOUND_EXACT {
            return;
        }
        let mv = if mv.is_none() && same { unpack_move(old, old_high) } else { mv };
        let data = pack(mv, score, depth, bound, age);
        let high = mv.map_or(0, |m| m.bits() >> 32);
        s.data.store(data, Ordering::Relaxed);
        s.set_high(high);
        s.check.store(hash ^ data ^ high, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && ((d >> 58) & 63) as u8 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::moves::MoveKind;
    use chimera::square::Square;

    #[test]
    fn store_then_probe() {
        let tt = Tt::new(1);
        let m = Move::plain(Square::new(12), Square::new(28), MoveKind::Double);
        tt.store(0xdead_beef_1234_5678, Some(m), -523, 7, BOUND_LOWER);
        let e = tt.probe(0xdead_beef_1234_5678).expect("hit");
        assert_eq!(e, TtEntry { mv: Some(m), score: -523, depth: 7, bound: BOUND_LOWER });
        // another key in the same slot misses
        let other = 0xdead_beef_1234_5678u64 ^ (1 << 60);
        assert!(tt.probe(other).is_none());
    }

    #[test]
    fn keeps_the_move_and_replaces_by_depth() {
        let tt = Tt::new(1);
        let h = 0x1111_2222_3333_4444u64;
        let m = Move::plain(Square::new(1), Square::new(2), MoveKind::Normal);
        tt.store(h, Some(m), 10, 5, BOUND_EXACT);
        tt.store(h, None, 20, 6, BOUND_UPPER);
        let e = tt.probe(h).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (Some(m), 20, 6, BOUND_UPPER));
        // a shallow entry of another position in the same slot does not evict a deep one
        let h2 = h ^ (1 << 62);
        tt.store(h2, None, 0, 1, BOUND_LOWER);
        assert!(tt.probe(h).is_some());
        assert!(tt.probe(h2).is_none());
        tt.clear();
        assert!(tt.probe(h).is_none());
    }

    /// A table the system cannot give is an error, not an abort: 2^60
    /// slots cannot be laid out, and 64 GiB (the most one may ask for) on a
    /// machine without them is refused by the allocator.
    #[test]
    fn a_table_too_big_is_an_error() {
        assert!(zeroed_slots(1 << 60).is_none());
        assert!(zeroed_slots(usize::MAX / std::mem::size_of::<Slot>()).is_none());
        match Tt::try_new(MAX_MB) {
            // the memory is there (lazily): the most slots, a power of two,
            // that fit (all of it with 16-byte slots; 48 GiB of the wide
            // build's 24-byte ones)
            Ok(t) => assert!(t.size_mb() <= MAX_MB && t.size_mb() * 2 > MAX_MB, "{} MiB", t.size_mb()),
            Err(e) => assert_eq!(e, format!("cannot allocate {MAX_MB} MiB for the hash table")),
        }
        let t = Tt::try_new(0).unwrap();
        assert_eq!(t.size_mb(), 1);
        t.store(7, None, 1, 1, BOUND_EXACT);
        assert!(t.probe(7).is_some());
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = Tt::new(1);
        let h = 0x0123_4567_89ab_cdefu64;
        tt.store(h, None, 1, 1, BOUND_EXACT);
        // simulate a half-finished write by another thread
        let s = &tt.slots[h as usize & tt.mask];
        s.data.store(s.data.load(Ordering::Relaxed) ^ 0xff00, Ordering::Relaxed);
        assert!(tt.probe(h).is_none());
    }
}
