//! A variants.ini file with many sections costs only the variants used: its
//! sections are split cheaply, and a variant is built only when chosen. The
//! file here has a 16x15 parent and 100 one-line children; the peak memory
//! of loading one child is compared with that of a file holding only that
//! child and its parent (this test binary counts its own allocations, so it
//! holds this one test).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its result, the peak bytes it added and its time.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, Duration) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let t = Instant::now();
    let r = f();
    (r, PEAK.load(Ordering::Relaxed) - base, t.elapsed())
}

/// A 16x15 parent with many piece types, and `children` one-line children.
fn big_file(children: &[usize]) -> String {
    let mut s = String::from(
        "[huge:chess]\nmaxFile = 16\nmaxRank = 15\ncastling = false\n\
         archbishop = a\nchancellor = c\namazon = m\ncustomPiece1 = w:mNN\ncustomPiece2 = x:mRcpR\n\
         startFen = rnbqkbnrcamwxnbr/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/\
         PPPPPPPPPPPPPPPP/RNBQKBNRCAMWXNBR w - - 0 1\n",
    );
    for i in children {
        s.push_str(&format!("[child{i}:huge]\nstalemateValue = loss\n"));
    }
    s
}

#[test]
fn one_section_of_a_large_file_is_built_alone() {
    let all: Vec<usize> = (0..100).collect();
    let text = big_file(&all);
    let alone = big_file(&[57]);
    let build = |text: &str| {
        let file = chimera::ini::IniFile::parse(text, "huge.ini").unwrap();
        let def = file.variant("child57").unwrap();
        chimera::variant::Variant::new(def).unwrap()
    };
    // listing the variants builds none of them
    let (names, listed, _) = measure(|| chimera::ini::variant_names(&text, "huge.ini").unwrap());
    assert_eq!(names.len(), 101);
    assert!(listed < 64 * text.len(), "listing 101 variants took {listed} bytes for a {}-byte file", text.len());
    let (one, one_peak, one_time) = measure(|| build(&alone));
    let (v, peak, time) = measure(|| build(&text));
    assert_eq!(v.def.geometry.squares(), one.def.geometry.squares());
    eprintln!("child57 alone: {one_peak} bytes, {one_time:?}; among 100: {peak} bytes, {time:?}");
    // the other 99 children may cost their text, not their tables
    assert!(peak < one_peak + 64 * text.len(), "{peak} bytes among 100 sections, {one_peak} alone");
    assert!(time < one_time * 3 + Duration::from_millis(200), "{time:?} among 100 sections, {one_time:?} alone");
}
