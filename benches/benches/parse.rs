//! Single-thread parse + validate throughput over a whole corpus already in memory
//! (`scripts/bench` runs this and prints the table).
//!
//! Corpora: `$WIRECONTRACT_BENCH_CORPORA` (comma-separated names, default `default,large`)
//! under [`wirecontract_bench::corpus_dir`]. Every corpus is first checked against its labels;
//! a disagreement aborts the run. Criterion's estimates land in `target/criterion/`.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use wirecontract::graphmind;
use wirecontract_bench::{check_labels, corpus_dir, results_dir, Corpus};

fn bench(c: &mut Criterion) {
    let names = std::env::var("WIRECONTRACT_BENCH_CORPORA").unwrap_or_else(|_| "default,large".into());
    let samples: usize = std::env::var("WIRECONTRACT_BENCH_SAMPLES").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    for name in names.split(',').filter(|n| !n.is_empty()) {
        let corpus = Corpus::load(&corpus_dir(), name);
        let a = check_labels(&corpus);
        println!(
            "agreement {name}: frames={} bytes={} agree={} label_errors={} disagree={} fast_vs_reference={}",
            corpus.len(),
            corpus.bytes(),
            a.agree,
            a.label_errors,
            a.disagree,
            a.fast_vs_reference
        );
        assert_eq!(a.disagree, 0, "{name}: the parser disagrees with the labels");
        assert_eq!(a.fast_vs_reference, 0, "{name}: the single pass disagrees with the reference reader");
        let dir = results_dir();
        std::fs::create_dir_all(&dir).expect("results dir");
        std::fs::write(dir.join(format!("rust-{name}.json")), a.to_json(&corpus)).expect("write results");
        let frames: Vec<&str> = corpus.frames().collect();
        let max_len = frames.iter().map(|f| f.len()).max().unwrap_or(0);

        let mut g = c.benchmark_group(name);
        g.sampling_mode(SamplingMode::Flat);
        g.sample_size(samples);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(1));
        g.throughput(Throughput::Bytes(corpus.bytes() as u64));

        g.bench_function("serde_json_value", |b| {
            b.iter(|| {
                for f in &frames {
                    black_box(serde_json::from_slice::<serde_json::Value>(f.as_bytes()).ok());
                }
            });
        });
        let mut buf: Vec<u8> = Vec::with_capacity(max_len + 64);
        g.bench_function("simd_json_borrowed", |b| {
            b.iter(|| {
                for f in &frames {
                    buf.clear();
                    buf.extend_from_slice(f.as_bytes());
                    black_box(simd_json::to_borrowed_value(&mut buf).ok());
                }
            });
        });
        g.bench_function("wirecontract_str", |b| {
            b.iter(|| {
                for f in &frames {
                    black_box(graphmind::parse(f, &graphmind::ParseOptions::default()));
                }
            });
        });
        g.bench_function("wirecontract_bytes", |b| {
            b.iter(|| {
                for f in &frames {
                    black_box(graphmind::parse(f.as_bytes(), &graphmind::ParseOptions::default()));
                }
            });
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
