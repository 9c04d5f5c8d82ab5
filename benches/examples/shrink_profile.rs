//! Shrinks one payload (a file of JSON text) N times, for profilers (`perf record`,
//! `valgrind --tool=callgrind --toggle-collect='*run*'`), and prints the time per shrink.
//! Usage: shrink_profile FILE [ROUNDS] [MAX_BYTES] [TYPE]   (defaults 10, 524288, node.finished);
//! `SHRINK_ONLY=1` skips the second loop (`parse_js_value` alone), for a profile of the shrink.
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: shrink_profile FILE [ROUNDS] [MAX_BYTES] [TYPE]");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let max: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(524_288);
    let ty = args.get(4).map_or("node.finished", String::as_str);
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        run(&text, max, ty);
    }
    let dt = t.elapsed().as_secs_f64() / rounds as f64;
    eprintln!("{:.1} ms per shrink, {:.0} MB/s", dt * 1e3, text.len() as f64 / dt / 1e6);
    if std::env::var_os("SHRINK_ONLY").is_some() {
        return;
    }
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(wirecontract::graphmind::shrink::parse_js_value(&text).expect("JSON"));
    }
    eprintln!("parse_js_value alone: {:.1} ms", t.elapsed().as_secs_f64() / rounds as f64 * 1e3);
}

/// The measured call, kept out of line for the profilers.
#[inline(never)]
fn run(text: &str, max: usize, ty: &str) {
    black_box(wirecontract::graphmind::shrink_payload_json(text, max, Some(ty)).expect("JSON"));
}
