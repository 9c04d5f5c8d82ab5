//! Shared pieces of the throughput benchmarks: loading a corpus written by
//! `shared/bench/gen_corpus.py` and checking the parser's verdicts against its `.labels` file.
//!
//! The generator labels unknown-type frames whose envelope has `seq: -1` as `u` ("unknown
//! type wins over a bad envelope"). That contradicts spec graphmind-v1 §2 step 2 (Stage 1
//! runs before the type lookup) and the shared vector `unknown.bad_seq_first`, so the parser
//! says `invalid` there. [`check_labels`] recognises exactly that class and counts it as a
//! documented label error instead of a disagreement.

use std::path::{Path, PathBuf};

use wirecontract::graphmind::{self, ParseOptions, ParseOutcome, MESSAGE_TYPES, REASON_NOT_AN_ENVELOPE};

/// A corpus in memory: one text frame per line, plus the expected label of each.
pub struct Corpus {
    /// Corpus name (`default`, `large`, …).
    pub name: String,
    /// The whole file; frames are slices of it.
    text: String,
    /// `(start, end)` byte range of each frame in `text`.
    spans: Vec<(usize, usize)>,
    /// One of `o u v i` per frame.
    pub labels: Vec<u8>,
}

impl Corpus {
    /// Loads `DIR/NAME.jsonl` and `DIR/NAME.jsonl.labels`.
    ///
    /// # Panics
    /// When the files are missing or disagree in frame count.
    pub fn load(dir: &Path, name: &str) -> Corpus {
        let path = dir.join(format!("{name}.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (run scripts/bench to generate it)", path.display()));
        let labels = std::fs::read(dir.join(format!("{name}.jsonl.labels"))).expect("labels file");
        let mut spans = Vec::with_capacity(labels.len());
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                spans.push((start, i));
                start = i + 1;
            }
        }
        if start < text.len() {
            spans.push((start, text.len()));
        }
        assert_eq!(spans.len(), labels.len(), "{name}: frame count and label count differ");
        Corpus { name: name.to_owned(), text, spans, labels }
    }

    /// Frames as text.
    pub fn frames(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.spans.iter().map(|&(s, e)| &self.text[s..e])
    }

    /// Number of frames.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// `true` for an empty corpus.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Total frame bytes (newlines excluded).
    pub fn bytes(&self) -> usize {
        self.spans.iter().map(|&(s, e)| e - s).sum()
    }
}

/// The directory holding the corpora: `$WIRECONTRACT_BENCH_CORPUS_DIR`, else
/// `target/bench-corpus` at the workspace root.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("WIRECONTRACT_BENCH_CORPUS_DIR").map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-corpus"), PathBuf::from)
}

/// The label letter of an outcome.
pub fn label_of(out: &ParseOutcome) -> u8 {
    match out {
        ParseOutcome::Ok(_) => b'o',
        ParseOutcome::UnknownType(_) => b'u',
        ParseOutcome::VersionMismatch { .. } => b'v',
        ParseOutcome::Invalid { .. } => b'i',
    }
}

/// Whether a frame labelled `u` but parsed `invalid` is the generator's known label error:
/// a `gm: 1` envelope of an unknown type whose only structural issue is `seq: -1`.
pub fn is_seq_label_error(frame: &str, out: &ParseOutcome) -> bool {
    let ParseOutcome::Invalid { reason, issues: Some(issues), .. } = out else { return false };
    if reason != REASON_NOT_AN_ENVELOPE || issues.len() != 1 || issues[0].dotted_path() != "seq" {
        return false;
    }
    let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(frame) else { return false };
    let unknown_type = m.get("type").and_then(|t| t.as_str()).is_some_and(|t| !MESSAGE_TYPES.contains(&t));
    m.get("seq").and_then(serde_json::Value::as_i64) == Some(-1) && m.get("gm").and_then(serde_json::Value::as_i64) == Some(1) && unknown_type
}

/// Agreement of the parser with a corpus's labels.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    /// Frames whose verdict equals the label.
    pub agree: usize,
    /// Frames labelled `u` that are the documented `seq: -1` label error (parser: invalid).
    pub label_errors: usize,
    /// Any other difference (must be 0).
    pub disagree: usize,
    /// Frames where the single-pass parser and the two-pass reference differ (must be 0).
    pub fast_vs_reference: usize,
}

/// Parses every frame and compares with the labels, and with the reference reader; prints the
/// first few disagreements.
pub fn check_labels(corpus: &Corpus) -> Agreement {
    let mut a = Agreement::default();
    for (frame, &label) in corpus.frames().zip(&corpus.labels) {
        let out = graphmind::parse(frame, &graphmind::ParseOptions::default());
        if out != graphmind::oracle::reference(frame, &ParseOptions::default()) {
            a.fast_vs_reference += 1;
        }
        let got = label_of(&out);
        if got == label {
            a.agree += 1;
        } else if label == b'u' && is_seq_label_error(frame, &out) {
            a.label_errors += 1;
        } else {
            a.disagree += 1;
            if a.disagree <= 5 {
                let shown: String = frame.chars().take(200).collect();
                eprintln!("disagreement: label {} parser {} ({:?}) frame {shown}", label as char, got as char, out.kind());
            }
        }
    }
    a
}

/// Where `scripts/bench` collects results: `$WIRECONTRACT_BENCH_RESULTS`, else
/// `target/bench-results`.
pub fn results_dir() -> PathBuf {
    std::env::var_os("WIRECONTRACT_BENCH_RESULTS").map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-results"), PathBuf::from)
}

impl Agreement {
    /// The agreement as a small JSON object (for `benches/report.py`).
    pub fn to_json(&self, corpus: &Corpus) -> String {
        format!(
            "{{\"corpus\":{:?},\"frames\":{},\"bytes\":{},\"agree\":{},\"label_errors\":{},\"disagree\":{},\"fast_vs_reference\":{}}}\n",
            corpus.name,
            corpus.len(),
            corpus.bytes(),
            self.agree,
            self.label_errors,
            self.disagree,
            self.fast_vs_reference
        )
    }
}
