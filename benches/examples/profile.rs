//! Parses a corpus N times in a loop, for profilers (`perf record`, `valgrind --tool=callgrind`).
//! Usage: profile CORPUS_NAME [ROUNDS] [MAX_FRAMES]
use std::hint::black_box;

use wirecontract_bench::{corpus_dir, Corpus};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("default", String::as_str);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let max: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let corpus = Corpus::load(&corpus_dir(), name);
    let frames: Vec<&str> = corpus.frames().take(max).collect();
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        for f in &frames {
            black_box(wirecontract::graphmind::parse_envelope_json(f));
        }
    }
    let dt = t.elapsed().as_secs_f64();
    eprintln!("{} frames x {rounds} in {dt:.3}s = {:.0} frames/s", frames.len(), (frames.len() * rounds) as f64 / dt);
}
