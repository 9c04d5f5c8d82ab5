//! Where a shared-input parse's time goes, per frame: the UTF-8 check alone, one validating
//! JSON scan alone (`Cursor::skip_value` over the whole frame, nothing kept), the same scan
//! checking UTF-8 as it goes (`Cursor::new_bytes`), and the parse the Python binding runs on a
//! `bytes` input — before (a separate UTF-8 pass, then `parse` of `SharedText`) and now
//! (`parse` of `SharedBytes`, UTF-8 checked inside the single pass); the owned-copy
//! parses for comparison. The scans are work every validating parse of a bytes frame does, so
//! they bound how far below them a parse can go (docs/performance.md).
//!
//! Every variant runs once per round, interleaved, so load on the machine hits them alike;
//! each line gives the best and the median round, in on-CPU time of the thread (Linux
//! `/proc/thread-self/schedstat`, so time spent descheduled on a busy machine is not counted;
//! wall-clock time where that file is missing or `PARSE_FLOOR_WALL` is set).
//! Usage: parse_floor CORPUS_NAME [ROUNDS] [FRAMES] (the first FRAMES frames only: more,
//! shorter rounds give a steadier best on a busy machine). `PARSE_FLOOR_ONLY=N` runs the
//! N-th variant alone (0-based, as printed), e.g. under `valgrind --tool=callgrind` for
//! exact instruction counts.
use std::hint::black_box;
use std::time::Instant;

use wirecontract::graphmind::{parse, ParseOptions, SharedBytes, SharedText};
use wirecontract_bench::{corpus_dir, Corpus};
use wirecontract_json::cursor::Cursor;

/// A labelled pass over the corpus.
type Variant<'a> = (&'a str, Box<dyn Fn() + 'a>);

/// Nanoseconds this thread has run on a CPU, or wall-clock nanoseconds when the kernel does
/// not say or `PARSE_FLOOR_WALL` is set (some kernels count on-CPU time in ticks of a few ms,
/// too coarse for a round of a few tens of ms).
fn cpu_ns(wall: Instant) -> f64 {
    std::env::var_os("PARSE_FLOOR_WALL")
        .is_none()
        .then(|| std::fs::read_to_string("/proc/thread-self/schedstat").ok())
        .flatten()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| wall.elapsed().as_secs_f64() * 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("default", String::as_str);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let corpus = Corpus::load(&corpus_dir(), name);
    let limit: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let frames: Vec<&str> = corpus.frames().take(limit).collect();
    let shared: Vec<SharedText> = frames.iter().map(|f| SharedText::new((*f).to_owned())).collect();
    let shared_bytes: Vec<SharedBytes> = frames.iter().map(|f| SharedBytes::new(f.as_bytes().to_vec())).collect();
    let opts = ParseOptions::default();
    let n = frames.len();
    // The fast path must decide exactly as before on every frame (the verdicts are the
    // corpus labels'; here: the two bytes paths agree).
    for (b, t) in shared_bytes.iter().zip(&shared) {
        assert_eq!(parse(b, &opts), parse(t, &opts));
    }
    let variants: Vec<Variant<'_>> = vec![
        (
            "UTF-8 check alone (simdutf8)",
            Box::new(|| {
                for f in &frames {
                    black_box(simdutf8::basic::from_utf8(black_box(f.as_bytes())).is_ok());
                }
            }),
        ),
        (
            "validating JSON scan alone (skip_value, &str)",
            Box::new(|| {
                for f in &frames {
                    black_box(Cursor::new(black_box(f), opts.max_depth).skip_value().is_some());
                }
            }),
        ),
        (
            "the same scan checking UTF-8 (new_bytes)",
            Box::new(|| {
                for f in &frames {
                    black_box(Cursor::new_bytes(black_box(f.as_bytes()), opts.max_depth).skip_value().is_some());
                }
            }),
        ),
        (
            "before: simdutf8 + parse(&SharedText)",
            Box::new(|| {
                for (f, t) in frames.iter().zip(&shared) {
                    if simdutf8::basic::from_utf8(black_box(f.as_bytes())).is_ok() {
                        black_box(parse(t, &opts));
                    }
                }
            }),
        ),
        (
            "now: parse(&SharedBytes)",
            Box::new(|| {
                for b in &shared_bytes {
                    black_box(parse(b, &opts));
                }
            }),
        ),
        (
            "owned, before: simdutf8 + parse(&str)",
            Box::new(|| {
                for f in &frames {
                    if let Ok(t) = simdutf8::basic::from_utf8(black_box(f.as_bytes())) {
                        black_box(parse(t, &opts));
                    }
                }
            }),
        ),
        (
            "owned, now: parse(&[u8])",
            Box::new(|| {
                for f in &frames {
                    black_box(parse(f.as_bytes(), &opts));
                }
            }),
        ),
    ];
    run(name, rounds, n, &variants);
}

/// Runs the variants (interleaved rounds, or the one `PARSE_FLOOR_ONLY` names) and prints
/// best and median per frame.
fn run(name: &str, rounds: usize, n: usize, variants: &[Variant<'_>]) {
    if let Some(only) = std::env::var("PARSE_FLOOR_ONLY").ok().and_then(|v| v.parse::<usize>().ok()) {
        for _ in 0..rounds {
            (variants[only].1)();
        }
        println!("{}: ran {} rounds", variants[only].0, rounds);
        return;
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (i, (_, run)) in variants.iter().enumerate() {
            let wall = Instant::now();
            let t = cpu_ns(wall);
            run();
            times[i].push((cpu_ns(wall) - t) / 1e3 / n as f64);
        }
    }
    let clock = if std::env::var_os("PARSE_FLOOR_WALL").is_some() { "wall-clock" } else { "on-CPU" };
    println!("{name}: {n} frames, {rounds} interleaved rounds, {clock} us/frame: best | median");
    let mut stats = Vec::new();
    for ((label, _), t) in variants.iter().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        let (best, median) = (t[0], t[t.len() / 2]);
        stats.push(best);
        println!("  {label:<50} {best:9.3} | {median:9.3}");
    }
    println!("  UTF-8 + scan: the floor of a validating parse    {:9.3}", stats[0] + stats[1]);
    println!("  now / before (shared bytes parse, best)          {:9.3}", stats[4] / stats[3]);
}
