//! Parses a corpus N times in a loop, for profilers (`perf record`, `valgrind --tool=callgrind`
//! or `--tool=cachegrind` with `--toggle-collect='*parse_all*'`).
//! Usage: profile CORPUS_NAME [ROUNDS] [MAX_FRAMES] [MODE]
//! MODE is the frame kind handed to the parser: `text` (the default), `bytes`, `shared`
//! (shared text), `shared-bytes`; or `reference`, the two-pass reference reader alone (the
//! pre-single-pass design).
use std::hint::black_box;

use wirecontract::graphmind::{self, ParseOptions, SharedBytes, SharedText};
use wirecontract_bench::{corpus_dir, Corpus};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("default", String::as_str);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let max: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let mode = args.get(4).map_or("text", String::as_str);
    let corpus = Corpus::load(&corpus_dir(), name);
    let frames: Vec<&str> = corpus.frames().take(max).collect();
    let shared: Vec<SharedText> = frames.iter().map(|f| SharedText::new((*f).to_owned())).collect();
    let shared_bytes: Vec<SharedBytes> = frames.iter().map(|f| SharedBytes::new(f.as_bytes().to_vec())).collect();
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        match mode {
            "text" | "bytes" | "reference" => parse_all(&frames, mode),
            "shared" => parse_all_shared(&shared),
            "shared-bytes" => parse_all_shared_bytes(&shared_bytes),
            other => panic!("unknown mode {other}"),
        }
    }
    let dt = t.elapsed().as_secs_f64();
    eprintln!("{} frames x {rounds} in {dt:.3}s = {:.0} frames/s", frames.len(), (frames.len() * rounds) as f64 / dt);
}

/// The measured loops, kept out of line so that `valgrind --tool=callgrind
/// --toggle-collect='*parse_all*'` counts parsing only, not loading the corpus.
#[inline(never)]
fn parse_all(frames: &[&str], mode: &str) {
    let opts = ParseOptions::default();
    for f in frames {
        match mode {
            "reference" => black_box(graphmind::oracle::reference(f, &opts)),
            "bytes" => black_box(graphmind::parse(f.as_bytes(), &opts)),
            _ => black_box(graphmind::parse(f, &opts)),
        };
    }
}

#[inline(never)]
fn parse_all_shared(frames: &[SharedText]) {
    let opts = ParseOptions::default();
    for f in frames {
        black_box(graphmind::parse(f, &opts));
    }
}

#[inline(never)]
fn parse_all_shared_bytes(frames: &[SharedBytes]) {
    let opts = ParseOptions::default();
    for f in frames {
        black_box(graphmind::parse(f, &opts));
    }
}
