//! Where a shared-input parse's time goes, per frame: the UTF-8 check alone, one validating
//! JSON scan alone (`Cursor::skip_value` over the whole frame, nothing kept), and the parse the
//! Python binding runs (`parse_envelope_shared_with`, opaque values as spans); the owned-copy
//! parse for comparison. The first two are work every validating parse of a bytes frame does,
//! so they bound how far below them a parse can go (docs/performance.md).
//! Usage: parse_floor CORPUS_NAME [ROUNDS]
use std::hint::black_box;
use std::time::Instant;

use wirecontract::core::cursor::Cursor;
use wirecontract::graphmind::{parse_envelope_json_bytes_with, parse_envelope_shared_with, ParseOptions, SharedText};
use wirecontract_bench::{corpus_dir, Corpus};

fn best(rounds: usize, frames: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
        * 1e6
        / frames as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("default", String::as_str);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let corpus = Corpus::load(&corpus_dir(), name);
    let frames: Vec<&str> = corpus.frames().collect();
    let shared: Vec<SharedText> = frames.iter().map(|f| SharedText::new((*f).to_owned())).collect();
    let opts = ParseOptions::default();
    let n = frames.len();
    let utf8 = best(rounds, n, || {
        for f in &frames {
            black_box(simdutf8::basic::from_utf8(black_box(f.as_bytes())).is_ok());
        }
    });
    let scan = best(rounds, n, || {
        for f in &frames {
            black_box(Cursor::new(black_box(f), opts.max_depth).skip_value().is_some());
        }
    });
    let parse_shared = best(rounds, n, || {
        for t in &shared {
            black_box(parse_envelope_shared_with(t, &opts));
        }
    });
    let parse_owned = best(rounds, n, || {
        for f in &frames {
            black_box(parse_envelope_json_bytes_with(f.as_bytes(), &opts));
        }
    });
    println!("{name}: {n} frames, best of {rounds}, us/frame");
    println!("  UTF-8 check alone (simdutf8)                  {utf8:9.3}");
    println!("  validating JSON scan alone (skip_value)       {scan:9.3}");
    println!("  UTF-8 + scan: the floor of a validating parse {:9.3}", utf8 + scan);
    println!("  parse_envelope_shared_with (the Python path)  {:9.3}  (+ UTF-8 check: {:.3})", parse_shared, parse_shared + utf8);
    println!("  parse_envelope_json_bytes_with (owned copies) {parse_owned:9.3}");
}
