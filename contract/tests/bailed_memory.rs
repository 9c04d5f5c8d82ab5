//! A frame the single pass bails on is decided without memory in proportion to its members:
//! the reference reader walks them lazily, and `decide_bailed` hands them to it as it reads
//! them (collecting them first once made a 16 MiB frame of 2.8 million members take 216 MiB).
//! One test in this binary, so the counting allocator sees no other test's allocations.
#![allow(unsafe_code)] // the counting global allocator below is this test's instrument

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use wirecontract::graphmind::{parse, ParseOptions, ParseOutcome, SharedBytes, SharedText};

/// Bytes allocated and not yet freed, and the most there were since the last reset.
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

struct Counting;

// SAFETY: every call goes to the system allocator unchanged; this only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(live, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One entry point, named.
type Run<'a> = (&'static str, Box<dyn Fn() -> ParseOutcome + 'a>);

/// Peak bytes allocated while `f` runs, above what was live before it.
fn peak_growth<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed) - base)
}

#[test]
fn a_bailed_frame_of_many_members_takes_no_memory_per_member() {
    // Valid JSON, 300,000 duplicate members, no envelope fields: the single pass reads it
    // to the end and bails (no `gm`), so every entry point decides it through the bail path.
    let members = 300_000;
    let mut frame = String::with_capacity(members * 6 + 8);
    frame.push('{');
    for _ in 0..members {
        frame.push_str(r#""a":0,"#);
    }
    frame.push_str(r#""b":0}"#);
    let opts = ParseOptions::default();
    let shared_text = SharedText::new(frame.clone());
    let shared_bytes = SharedBytes::new(frame.clone().into_bytes());
    let runs: [Run<'_>; 4] = [
        ("text", Box::new(|| parse(&frame, &ParseOptions::default()))),
        ("bytes", Box::new(|| parse(frame.as_bytes(), &ParseOptions::default()))),
        ("shared text", Box::new(|| parse(&shared_text, &opts))),
        ("shared bytes", Box::new(|| parse(&shared_bytes, &opts))),
    ];
    for (name, parse) in runs {
        let (out, grew) = peak_growth(parse);
        assert!(matches!(out, ParseOutcome::Invalid { .. }), "{name}: {out:?}");
        // The outcome and its issues are a few hundred bytes; a per-member allocation would
        // be tens of megabytes.
        assert!(grew < frame.len() / 16, "{name}: {grew} bytes allocated for a {}-byte frame", frame.len());
    }
}
