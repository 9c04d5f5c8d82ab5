//! Parses a corpus N times in a loop, for profilers (`perf record`, `valgrind --tool=callgrind`).
//! Usage: profile CORPUS_NAME [ROUNDS] [MAX_FRAMES] [reference]
//! (`reference`: time the two-pass reference reader alone, the pre-single-pass design.)
use std::hint::black_box;

use wirecontract_bench::{corpus_dir, Corpus};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("default", String::as_str);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let max: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let reference = args.get(4).is_some_and(|a| a == "reference");
    let corpus = Corpus::load(&corpus_dir(), name);
    let frames: Vec<&str> = corpus.frames().take(max).collect();
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        parse_all(&frames, reference);
    }
    let dt = t.elapsed().as_secs_f64();
    eprintln!("{} frames x {rounds} in {dt:.3}s = {:.0} frames/s", frames.len(), (frames.len() * rounds) as f64 / dt);
}

/// The measured loop, kept out of line so that `valgrind --tool=callgrind
/// --toggle-collect='*parse_all*'` counts parsing only, not loading the corpus.
#[inline(never)]
fn parse_all(frames: &[&str], reference: bool) {
    let opts = wirecontract::graphmind::ParseOptions::default();
    for f in frames {
        if reference {
            black_box(wirecontract::graphmind::parse_envelope_json_reference(f, &opts));
        } else {
            black_box(wirecontract::graphmind::parse_envelope_json(f));
        }
    }
}
