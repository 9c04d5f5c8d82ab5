//! Shrinks one payload (a file of JSON text) N times, for profilers (`perf record`,
//! `valgrind --tool=callgrind --toggle-collect='*run*'`) and for `scripts/bench`'s Rust shrink
//! row, and prints the best time per shrink.
//! Usage: shrink_profile FILE [ROUNDS] [MAX_BYTES] [TYPE] [--json OUT]   (defaults 10, 524288,
//! node.finished); `--json` writes the result for `benches/report.py`; `SHRINK_ONLY=1` skips
//! the second loop (`parse_js_value` alone), for a profile of the shrink.
use std::hint::black_box;

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let json_out = args.iter().position(|a| a == "--json").map(|i| {
        let out = args.get(i + 1).cloned().expect("--json needs a path");
        args.drain(i..=i + 1);
        out
    });
    let path = args.get(1).expect("usage: shrink_profile FILE [ROUNDS] [MAX_BYTES] [TYPE] [--json OUT]");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let max: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(524_288);
    let ty = args.get(4).map_or("node.finished", String::as_str);
    let shrunk = wirecontract::graphmind::shrink_payload_json(&text, max, Some(ty)).expect("JSON");
    let single_pass = wirecontract::graphmind::shrink::shrink_single_pass(&text, max, Some(ty)).is_some();
    // Best of `rounds` (a shared machine: the best round is the least disturbed one).
    let mut best = f64::INFINITY;
    for _ in 0..rounds.max(1) {
        let t = std::time::Instant::now();
        run(&text, max, ty);
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mb_s = text.len() as f64 / best / 1e6;
    eprintln!("{:.2} ms per shrink (best of {rounds}), {mb_s:.0} MB/s, tier {}, single pass {single_pass}", best * 1e3, shrunk.tier);
    if let Some(out) = json_out {
        let result = format!(
            "{{\"payload_bytes\":{},\"max_bytes\":{max},\"type\":\"{ty}\",\"rounds\":{rounds},\"tier\":{},\"single_pass\":{single_pass},\"seconds\":{best},\"profile\":\"{}\"}}\n",
            text.len(),
            shrunk.tier,
            if cfg!(debug_assertions) { "debug" } else { "release" },
        );
        std::fs::write(&out, result).unwrap_or_else(|e| panic!("{out}: {e}"));
    }
    if std::env::var_os("SHRINK_ONLY").is_some() || json_out_given() {
        return;
    }
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(wirecontract::graphmind::shrink::parse_js_value(&text).expect("JSON"));
    }
    eprintln!("parse_js_value alone: {:.1} ms", t.elapsed().as_secs_f64() / rounds as f64 * 1e3);
}

fn json_out_given() -> bool {
    std::env::args().any(|a| a == "--json")
}

/// The measured call, kept out of line for the profilers.
#[inline(never)]
fn run(text: &str, max: usize, ty: &str) {
    black_box(wirecontract::graphmind::shrink_payload_json(text, max, Some(ty)).expect("JSON"));
}
