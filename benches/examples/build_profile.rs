//! Times `build_frame_json` and its stages on the `node.token` frames of a corpus (what the JVM
//! fast path's `Native.build` runs per frame), best and median of several passes, µs a frame.
//! Usage: build_profile [CORPUS_NAME] [PASSES]   (docs/performance.md, "8. JVM fast path")
use std::hint::black_box;
use std::time::Instant;

use wirecontract::graphmind::{self, ParseOutcome};
use wirecontract_bench::{corpus_dir, Corpus};
use wirecontract_json as json;

/// A measured stage: its label and one call over a frame's parts.
type Stage<'a> = (&'a str, Box<dyn Fn(&Token) -> usize + 'a>);

struct Token {
    seq: u64,
    ts: u64,
    run_id: String,
    payload: String,
    frame: String,
    envelope: graphmind::Envelope,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("smoke", String::as_str);
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let corpus = Corpus::load(&corpus_dir(), name);
    let tokens: Vec<Token> = corpus
        .frames()
        .filter_map(|f| match graphmind::parse(f, &graphmind::ParseOptions::default()) {
            ParseOutcome::Ok(e) if e.message_type() == "node.token" => {
                // The corpus writes frames compactly, the payload last.
                let at = f.find(",\"payload\":").expect("payload member") + ",\"payload\":".len();
                let payload = f[at..f.len() - 1].to_owned();
                let frame =
                    String::from_utf8(graphmind::build_frame_json("node.token", &payload, e.seq, &e.run_id, Some(e.ts)).expect("build")).expect("utf-8");
                Some(Token { seq: e.seq, ts: e.ts, run_id: e.run_id.clone(), payload, frame, envelope: e })
            }
            _ => None,
        })
        .collect();
    assert!(!tokens.is_empty(), "no node.token frame in {name}");
    let reps = (100_000 / tokens.len()).max(1);
    let bytes: usize = tokens.iter().map(|t| t.payload.len()).sum();
    eprintln!("{name}: {} node.token frames, payload {} bytes on average, {reps} reps a pass", tokens.len(), bytes / tokens.len());

    let stages: Vec<Stage> = vec![
        ("build_frame_json (all)", Box::new(|t| graphmind::build_frame_json("node.token", &t.payload, t.seq, &t.run_id, Some(t.ts)).map_or(0, |v| v.len()))),
        ("  json::validate(payload)", Box::new(|t| usize::from(json::validate(&t.payload, json::DEFAULT_MAX_DEPTH).is_ok()))),
        (
            "  parse(frame)",
            Box::new(|t| match graphmind::parse(&t.frame, &graphmind::ParseOptions::default()) {
                ParseOutcome::Ok(e) => e.run_id.len(),
                _ => 0,
            }),
        ),
        (
            "  write_envelope(parsed envelope)",
            Box::new(|t| {
                let mut out = Vec::with_capacity(t.frame.len());
                graphmind::write_envelope(&t.envelope, &mut out).expect("write");
                out.len()
            }),
        ),
        ("  json::validate(frame)", Box::new(|t| usize::from(json::validate(&t.frame, json::DEFAULT_MAX_DEPTH).is_ok()))),
        ("  copy of the frame (Vec)", Box::new(|t| black_box(t.frame.as_bytes().to_vec()).len())),
        (
            "general: create_envelope_json + write_envelope",
            Box::new(|t| {
                let e = graphmind::create_envelope_json("node.token", &t.payload, t.seq, &t.run_id, Some(t.ts)).expect("build");
                let mut out = Vec::new();
                graphmind::write_envelope(&e, &mut out).expect("write");
                out.len()
            }),
        ),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); stages.len()];
    for (_, f) in &stages {
        for t in &tokens {
            black_box(f(black_box(t)));
        }
    }
    for _ in 0..passes {
        for (i, (_, f)) in stages.iter().enumerate() {
            let start = Instant::now();
            let mut n = 0;
            for _ in 0..reps {
                for t in &tokens {
                    n += f(black_box(t));
                }
            }
            black_box(n);
            times[i].push(start.elapsed().as_secs_f64() * 1e6 / (reps * tokens.len()) as f64);
        }
    }
    for ((label, _), mut v) in stages.iter().zip(times) {
        v.sort_by(f64::total_cmp);
        println!("{label:<48} {:7.3} | {:7.3} µs a frame (best | median of {passes})", v[0], v[v.len() / 2]);
    }
}
