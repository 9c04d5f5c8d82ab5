//! The invariants the fuzz targets check, one function per target, so that each target in
//! `fuzz_targets/` is one line and the same checks can be replayed from a debugger.
//!
//! Every check states a rule of the contract (spec graphmind-v1 §5, graphorin-v1 §14); a
//! violation panics, which libFuzzer reports as a crash and saves under `fuzz/artifacts/`.

use arbitrary::Arbitrary;
use serde_json::Value;
use wirecontract::graphmind::{self as gm, create_envelope, create_envelope_json, parse, serialize_envelope, Message, ParseOptions, ParseOutcome};
use wirecontract::graphorin;
use wirecontract_json::RawJson;
use wirecontract_json::{self as json, JsonKind, Val};

// ---------------------------------------------------------------------------------------------
// graphmind_parse: text and bytes entry points, outcome shapes, limits.
// ---------------------------------------------------------------------------------------------

const TOO_BIG: &str = "frame exceeds ";
const TOO_DEEP: &str = "frame nests deeper than ";
const NOT_JSON: &str = "frame is not valid JSON: ";
const BAD_PAYLOAD: &str = "invalid payload for message type \"";

/// §5.2: every outcome has one of the fixed shapes.
pub fn check_outcome_shape(out: &ParseOutcome) {
    match out {
        ParseOutcome::Invalid { reason, issues, .. } => {
            let fixed_without_issues = reason.starts_with(NOT_JSON) || reason.starts_with(TOO_BIG) || reason.starts_with(TOO_DEEP);
            let fixed_with_issues = reason == gm::REASON_NOT_AN_ENVELOPE || reason.starts_with(BAD_PAYLOAD);
            assert!(fixed_without_issues || fixed_with_issues, "reason is not one of the fixed ones: {reason:?}");
            if fixed_without_issues {
                assert!(issues.is_none(), "{reason:?} must carry no issues, got {issues:?}");
            } else {
                let list = issues.as_ref().unwrap_or_else(|| panic!("{reason:?} must carry issues"));
                assert!(!list.is_empty(), "{reason:?} with an empty issue list");
                for i in list {
                    assert!(!i.message.is_empty(), "issue without a message at {:?}", i.path);
                }
            }
        }
        ParseOutcome::VersionMismatch { received, supported } => {
            assert_eq!(*supported, gm::PROTOCOL_VERSION);
            assert_ne!(*received, gm::PROTOCOL_VERSION);
            assert!(received.unsigned_abs() <= json::MAX_SAFE_INTEGER);
        }
        ParseOutcome::Ok(env) | ParseOutcome::UnknownType(env) => {
            let unknown = matches!(env.message, Message::Unknown { .. });
            assert_eq!(unknown, matches!(out, ParseOutcome::UnknownType(_)));
            assert_eq!(unknown, !gm::MESSAGE_TYPES.contains(&env.message_type()), "type {:?}", env.message_type());
            assert!(env.seq <= json::MAX_SAFE_INTEGER && env.ts <= json::MAX_SAFE_INTEGER);
            assert!(!env.run_id.contains('\0'));
        }
    }
}

/// Parses arbitrary bytes through every GraphMind entry point.
pub fn graphmind_parse(data: &[u8]) {
    let out = parse(data, &ParseOptions::default());
    // The bytes entry points check UTF-8 inside the single pass; the shared one keeps opaque
    // values as spans of the input. Both answer as the whole-frame check + reference reader.
    let shared = gm::parse(&gm::SharedBytes::new(data.to_vec()), &ParseOptions::default());
    assert_eq!(shared, out, "shared-bytes and bytes entry points disagree");
    match std::str::from_utf8(data) {
        Ok(text) => {
            assert_eq!(parse(text, &ParseOptions::default()), out, "text and bytes entry points disagree");
            // The single-pass fast path, when it decides, decides exactly as the reference reader.
            let reference = gm::oracle::reference(text, &ParseOptions::default());
            assert_eq!(out, reference, "fast path and reference reader disagree");
        }
        Err(e) if data.len() <= ParseOptions::default().max_frame_bytes => {
            let verdict = ParseOutcome::invalid(format!("{NOT_JSON}invalid UTF-8 at byte {}", e.valid_up_to()), None);
            assert_eq!(out, verdict, "invalid UTF-8 not reported as it always was");
        }
        Err(_) => {}
    }
    check_outcome_shape(&out);

    // The same frame under tight limits derived from its last byte: the verdict is unchanged
    // or it is the limit's own `invalid` (§5.8, §5.10).
    let last = data.last().copied().unwrap_or(0);
    let opts = ParseOptions { max_depth: 1 + usize::from(last % 8), max_frame_bytes: data.len().saturating_sub(usize::from(last >> 7)) };
    let tight = parse(data, &opts);
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(tight, gm::oracle::reference(text, &opts), "fast path and reference disagree under a depth cap of {}", opts.max_depth);
    }
    if opts.max_frame_bytes < data.len() {
        assert_eq!(tight, ParseOutcome::invalid(format!("{TOO_BIG}{} bytes", opts.max_frame_bytes), None));
    } else if tight != out {
        match &tight {
            ParseOutcome::Invalid { reason, issues: None, .. } if reason.starts_with(TOO_DEEP) => {}
            other => panic!("a depth cap of {} changed {out:?} into {other:?}", opts.max_depth),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// graphmind_roundtrip: serialize(parse(x)) parses back to the same value.
// ---------------------------------------------------------------------------------------------

/// §5.14: re-serializing a parsed frame is compact, parses back equal, and is a fixed point.
pub fn graphmind_roundtrip(data: &[u8]) {
    let out = parse(data, &ParseOptions::default());
    let Some(env) = out.envelope() else { return };
    let text = serialize_envelope(env).expect("a parsed envelope serializes");
    let again = parse(&text, &ParseOptions::default());
    assert_eq!(again, out, "re-parse of {text}");
    assert_eq!(serialize_envelope(again.envelope().unwrap_or(env)).ok(), Some(text.clone()), "serialize is not a fixed point");
    let mut compact = Vec::new();
    json::write_compact(&mut compact, &text);
    assert_eq!(compact, text.as_bytes(), "serialized text is not compact");
    // serde_json, a second reader, sees the same value wherever it can read both texts.
    if let (Ok(a), Ok(b)) = (serde_json::from_slice::<Value>(data), serde_json::from_str::<Value>(&text)) {
        assert!(same_value(&a, &b), "serde_json reads a different value:\n{a}\n{b}");
    }
}

/// JSON value equality as JavaScript sees it: numbers compare as doubles (tolerating serde_json's
/// last-bit rounding), objects as key sets.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => same_number(x.as_f64(), y.as_f64()),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w))),
        _ => a == b,
    }
}

fn same_number(x: Option<f64>, y: Option<f64>) -> bool {
    match (x, y) {
        (Some(x), Some(y)) => x == y || (x - y).abs() <= f64::EPSILON * 4.0 * x.abs().max(y.abs()),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// json_reader: the validator and reader against serde_json.
// ---------------------------------------------------------------------------------------------

/// Differential check of the engine's reference reader (`wirecontract-json`) against serde_json: same grammar; where serde_json reads
/// a value, the reader's walk yields the same tree. serde_json may refuse what `JSON.parse`
/// accepts only for its own limits: depth 128, lone surrogates, numbers beyond f64.
pub fn json_reader(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let ours = json::validate(text, json::DEFAULT_MAX_DEPTH);
    if let Err(e) = &ours {
        assert!(e.offset <= text.len(), "error offset {} past the end ({})", e.offset, text.len());
        assert!(!e.too_deep, "too deep below the default cap");
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) => {
            assert!(ours.is_ok(), "serde_json reads {text:?} but validate says {ours:?}");
            let root = Val::root(text);
            assert_eq!(root.raw(), text.trim_matches([' ', '\t', '\n', '\r']));
            assert!(val_equals(root, &v), "the reader's walk differs from serde_json for {text:?}");
        }
        Err(e) => {
            if ours.is_ok() {
                let m = e.to_string();
                let limit = m.contains("recursion limit exceeded") || m.contains("number out of range");
                let surrogate_msg = ["surrogate", "hex escape", "invalid unicode code point"].iter().any(|s| m.contains(s));
                assert!(limit || (surrogate_msg && has_surrogate_escape(text)), "validate accepts {text:?} which serde_json rejects: {m}");
            }
        }
    }
    if ours.is_ok() {
        // Dropping insignificant whitespace keeps a valid frame valid and is idempotent.
        let mut c = Vec::new();
        json::write_compact(&mut c, text.trim_matches([' ', '\t', '\n', '\r']));
        let c = String::from_utf8(c).expect("compact text is UTF-8");
        assert!(json::validate(&c, json::DEFAULT_MAX_DEPTH).is_ok(), "compact form {c:?} is invalid");
        let mut c2 = Vec::new();
        json::write_compact(&mut c2, &c);
        assert_eq!(c2, c.as_bytes());
    }
}

/// Whether the text has a `\\uD800`–`\\uDFFF` escape (which serde_json cannot always hold).
fn has_surrogate_escape(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| w[0] == b'\\' && w[1] == b'u' && matches!(w[2], b'd' | b'D') && matches!(w[3], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F'))
}

/// Compares a reader value with serde_json's (depth ≤ 128 here, so recursion is fine).
fn val_equals(v: Val<'_>, s: &Value) -> bool {
    match (v.kind(), s) {
        (JsonKind::Null, Value::Null) => true,
        (JsonKind::Bool, Value::Bool(b)) => v.as_bool() == Some(*b),
        (JsonKind::Number, Value::Number(n)) => same_number(v.as_f64(), n.as_f64()),
        (JsonKind::String, Value::String(t)) => v.string_raw().is_some_and(|raw| json::decode_string(raw).text == t.as_str()),
        (JsonKind::Array, Value::Array(items)) => {
            let ours: Vec<Val<'_>> = v.elements().collect();
            ours.len() == items.len() && ours.into_iter().zip(items).all(|(a, b)| val_equals(a, b))
        }
        (JsonKind::Object, Value::Object(map)) => {
            // Last duplicate wins in both.
            let mut last: Vec<(String, Val<'_>)> = Vec::new();
            for (k, val) in v.members() {
                let k = json::decode_string(k).text.into_owned();
                if let Some(slot) = last.iter_mut().find(|(n, _)| *n == k) {
                    slot.1 = val;
                } else {
                    last.push((k, val));
                }
            }
            last.len() == map.len() && last.into_iter().all(|(k, val)| map.get(&k).is_some_and(|s| val_equals(val, s)))
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// graphmind_build: create_envelope_json / create_unknown_envelope on structured input.
// ---------------------------------------------------------------------------------------------

/// Strings the generator prefers: every wire field name, enum value, message type and
/// capability, so generated payloads reach the typed readers instead of bouncing off them.
fn vocabulary() -> &'static [&'static str] {
    static VOCAB: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    VOCAB.get_or_init(|| {
        let mut v: Vec<&'static str> = Vec::new();
        for o in gm::PROTOCOL.objects() {
            v.extend(o.fields.iter().map(|f| f.wire));
        }
        for e in gm::PROTOCOL.enums() {
            v.extend(e.wire_values());
        }
        v.extend_from_slice(gm::MESSAGE_TYPES);
        v.extend_from_slice(gm::KNOWN_CAPABILITIES);
        v.extend_from_slice(&["", "*", "__proto__", "\u{0}", "\u{fffd}", "é", "😀"]);
        v.sort_unstable();
        v.dedup();
        v
    })
}

/// Number spellings that exercise §5.6.
const LEXEMES: &[&str] =
    &["0", "-0", "1.0", "1e3", "1E+2", "0.5", "-1", "1e400", "-1e400", "9007199254740991", "9007199254740992", "1e-400", "123456789012345678901234567890"];

/// A string: from the vocabulary or anything.
#[derive(Arbitrary, Debug)]
pub enum Text {
    /// `vocabulary()[i % len]`
    Known(u16),
    /// Any string.
    Any(String),
}

impl Text {
    fn get(&self) -> &str {
        match self {
            Text::Known(i) => {
                let v = vocabulary();
                v[usize::from(*i) % v.len()]
            }
            Text::Any(s) => s,
        }
    }
}

/// A JSON value as a host would hand it over.
#[derive(Arbitrary, Debug)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A small nonnegative integer (counts, `seq`).
    Small(u8),
    /// Any 64-bit integer.
    Int(i64),
    /// Any double; NaN and ±Infinity are written as `null`, as `JSON.stringify` does.
    Float(f64),
    /// A tricky number spelling from [`LEXEMES`].
    Lexeme(u8),
    /// A string.
    Str(Text),
    /// An array.
    Arr(Vec<Json>),
    /// An object (duplicate keys allowed).
    Obj(Vec<(Text, Json)>),
}

impl Json {
    /// Writes the value as compact JSON text.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Json::Null => out.extend_from_slice(b"null"),
            Json::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Json::Small(n) => out.extend_from_slice(n.to_string().as_bytes()),
            Json::Int(n) => out.extend_from_slice(n.to_string().as_bytes()),
            Json::Float(x) => json::write_f64(out, *x),
            Json::Lexeme(i) => out.extend_from_slice(LEXEMES[usize::from(*i) % LEXEMES.len()].as_bytes()),
            Json::Str(t) => json::write_string(out, t.get()),
            Json::Arr(items) => {
                out.push(b'[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    x.write(out);
                }
                out.push(b']');
            }
            Json::Obj(members) => {
                out.push(b'{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    json::write_string(out, k.get());
                    out.push(b':');
                    v.write(out);
                }
                out.push(b'}');
            }
        }
    }

    fn text(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out);
        String::from_utf8(out).expect("generated JSON is UTF-8")
    }
}

/// A counter: usually in range, sometimes anything.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Counter {
    /// Small.
    Small(u16),
    /// Near `2^53 − 1`.
    Edge(u8),
    /// Any `u64`.
    Any(u64),
}

impl Counter {
    fn get(self) -> u64 {
        match self {
            Counter::Small(n) => u64::from(n),
            Counter::Edge(d) => (json::MAX_SAFE_INTEGER - 2).saturating_add(u64::from(d % 4)),
            Counter::Any(n) => n,
        }
    }
}

/// One call to a builder.
#[derive(Arbitrary, Debug)]
pub struct BuildInput {
    /// The message type (known types come from the vocabulary most of the time).
    pub message_type: Text,
    /// The payload; for a known type usually an object.
    pub payload: Json,
    /// `seq`
    pub seq: Counter,
    /// `ts`; `None` means now.
    pub ts: Option<Counter>,
    /// `runId`
    pub run_id: Text,
    /// Unknown envelope members to add (known envelope keys are skipped: see
    /// docs/robustness.md, "Extras holding a known key").
    pub extra: Vec<(Text, Json)>,
}

const ENVELOPE_KEYS: &[&str] = &["gm", "seq", "ts", "runId", "type", "payload"];

/// §5.13: a built envelope serializes to a frame that parses back to it; a refused payload is
/// exactly one the parser calls invalid, with the same issues.
pub fn graphmind_build(input: &BuildInput) {
    let ty = input.message_type.get();
    let payload = input.payload.text();
    let (seq, ts) = (input.seq.get(), input.ts.map(Counter::get));
    let run_id = input.run_id.get();
    let counters_ok = seq <= json::MAX_SAFE_INTEGER && ts.unwrap_or(0) <= json::MAX_SAFE_INTEGER && !run_id.contains('\0');

    let built = if gm::MESSAGE_TYPES.contains(&ty) {
        let built = create_envelope_json(ty, &payload, seq, run_id, ts);
        // The same frame assembled by hand goes through the parser.
        let mut frame = format!("{{\"gm\":1,\"seq\":{seq},\"ts\":{},\"runId\":", ts.unwrap_or(0)).into_bytes();
        json::write_string(&mut frame, run_id);
        frame.extend_from_slice(b",\"type\":");
        json::write_string(&mut frame, ty);
        frame.extend_from_slice(b",\"payload\":");
        frame.extend_from_slice(payload.as_bytes());
        frame.push(b'}');
        let parsed = parse(&frame, &ParseOptions::default());
        match (&built, &parsed) {
            (Ok(env), ParseOutcome::Ok(p)) => {
                let mut p = p.clone();
                p.ts = env.ts;
                assert_eq!(&p, env, "builder and parser read {payload} differently");
            }
            (Err(e), ParseOutcome::Invalid { issues: Some(issues), .. }) if counters_ok => {
                assert_eq!(&e.issues, issues, "builder and parser report different issues for {payload}");
            }
            (Err(_), ParseOutcome::Invalid { .. }) => assert!(!counters_ok || payload.len() > gm::DEFAULT_MAX_FRAME_BYTES),
            (b, p) => panic!("builder says {b:?}, parser says {p:?} for {}", String::from_utf8_lossy(&frame)),
        }
        built
    } else {
        let raw = RawJson::from_json(&payload).expect("generated payload is JSON");
        let built = create_envelope(Message::Unknown { message_type: ty.to_owned(), payload: Some(raw) }, seq, run_id, ts);
        assert_eq!(built.is_ok(), counters_ok, "{built:?}");
        built
    };
    let Ok(mut env) = built else { return };
    for (k, v) in &input.extra {
        let k = k.get();
        if !ENVELOPE_KEYS.contains(&k) {
            env.extra.insert(k, RawJson::from_json(&v.text()).expect("generated value is JSON"));
        }
    }
    let text = serialize_envelope(&env).expect("a built envelope serializes");
    let again = parse(&text, &ParseOptions::default());
    let expected = if matches!(env.message, Message::Unknown { .. }) { ParseOutcome::UnknownType(env.clone()) } else { ParseOutcome::Ok(env.clone()) };
    assert_eq!(again, expected, "built envelope does not survive serialize → parse: {text}");
    assert_eq!(serialize_envelope(again.envelope().unwrap_or(&env)).ok(), Some(text));
}

// ---------------------------------------------------------------------------------------------
// graphorin_parse: both directions, text = bytes, serialize round trip.
// ---------------------------------------------------------------------------------------------

/// graphorin-v1 §13–14: parsing never panics; text and bytes agree; an accepted frame
/// serializes to text that parses back equal, and serializing is a fixed point.
pub fn graphorin_parse(data: &[u8]) {
    let server = graphorin::parse::<graphorin::ServerMessage>(data, &graphorin::ParseOptions::default());
    let client = graphorin::parse::<graphorin::ClientMessage>(data, &graphorin::ParseOptions::default());
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(graphorin::parse::<graphorin::ServerMessage>(text, &graphorin::ParseOptions::default()), server);
        assert_eq!(graphorin::parse::<graphorin::ClientMessage>(text, &graphorin::ParseOptions::default()), client);
    }
    if let Err(e) = &server {
        assert!(e.is_syntax_error() || !e.issues().is_empty(), "schema error without issues: {e:?}");
    }
    if let Err(e) = &client {
        assert!(e.is_syntax_error() || !e.issues().is_empty(), "schema error without issues: {e:?}");
    }
    if let Ok(m) = &server {
        let text = graphorin::serialize_server_message(m);
        let again = graphorin::parse::<graphorin::ServerMessage>(&text, &graphorin::ParseOptions::default());
        assert_eq!(again.as_ref(), Ok(m), "server re-parse of {text}");
        assert_eq!(graphorin::serialize_server_message(again.as_ref().unwrap_or(m)), text);
    }
    if let Ok(m) = &client {
        let text = graphorin::serialize_client_message(m);
        let again = graphorin::parse::<graphorin::ClientMessage>(&text, &graphorin::ParseOptions::default());
        assert_eq!(again.as_ref(), Ok(m), "client re-parse of {text}");
        assert_eq!(graphorin::serialize_client_message(again.as_ref().unwrap_or(m)), text);
    }
}

// ---------------------------------------------------------------------------------------------
// graphmind_shrink: payload shrinking (graphmind-shrink §3, §8).
// ---------------------------------------------------------------------------------------------

/// Payload shrinking on arbitrary text: never panics; the budget holds except for the tier-4
/// marker's documented floor; tier 1 iff the re-serialized payload fits; a tier-2/3 result of
/// an event type is a valid payload of it and a fixed point. The budget and type come from a
/// hash of the input, so seeds stay plain payload JSON.
pub fn graphmind_shrink(data: &[u8]) {
    use wirecontract::graphmind::shrink::{parse_js_value, TIER4_MAX_BYTES};
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(value) = parse_js_value(text) else {
        assert!(gm::shrink_payload_json(text, 0, None).is_err(), "reader and shrink disagree on {text:?}");
        return;
    };
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let full = value.to_json();
    let max_bytes = (h % (2 * full.len() as u64 + 64)) as usize;
    let types = gm::EVENT_TYPES;
    let ty = types.get((h >> 32) as usize % (types.len() + 2)).copied();
    let s = gm::shrink_payload(&value, max_bytes, ty);
    assert_eq!(s.tier == 1, full.len() <= max_bytes, "tier {} for {} bytes, budget {max_bytes}", s.tier, full.len());
    if s.tier == 4 {
        assert!(s.json.len() <= TIER4_MAX_BYTES, "tier-4 marker of {} bytes", s.json.len());
    } else {
        assert!(s.json.len() <= max_bytes, "tier {} of {} bytes over budget {max_bytes}", s.tier, s.json.len());
    }
    if matches!(s.tier, 2 | 3) {
        if let Some(m) = ty.and_then(|t| gm::PROTOCOL.message(t)) {
            assert!((m.payload.read_json)(&s.json).is_ok(), "tier {} is not a valid {}: {}", s.tier, m.wire, s.json);
        }
        let again = gm::shrink_payload_json(&s.json, max_bytes, ty).expect("a shrink result is JSON");
        assert_eq!((again.tier, again.json.as_str()), (1, s.json.as_str()), "not a fixed point");
    }
}

// ---------------------------------------------------------------------------------------------
// json_unescape: the engine's one string decoder under each lone-surrogate policy.
// ---------------------------------------------------------------------------------------------

/// Every string token in the input (found by the validator's walk when the input is JSON, else
/// the input itself taken as one string's content, when that is a valid string) decodes the
/// same under the three policies, up to what each does with a lone surrogate: `Keep` (WTF-8)
/// with each surrogate's three bytes made U+FFFD is `Replace`; `Reject` fails exactly when
/// `Replace` reports one, else gives the same text; without lone surrogates the text is what
/// serde_json reads. `unescape_body` on the whole token stops at its closing quote.
pub fn json_unescape(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if json::validate(text, json::DEFAULT_MAX_DEPTH).is_ok() {
        let mut stack = vec![Val::root(text)];
        while let Some(v) = stack.pop() {
            match v.kind() {
                JsonKind::String => check_unescape(v.raw()),
                JsonKind::Object => {
                    for (key, value) in v.members() {
                        check_unescape(&format!("\"{key}\""));
                        stack.push(value);
                    }
                }
                JsonKind::Array => stack.extend(v.elements()),
                _ => {}
            }
        }
    } else {
        let quoted = format!("\"{text}\"");
        if json::validate(&quoted, 1).is_ok() {
            check_unescape(&quoted);
        }
    }
}

/// [`json_unescape`]'s checks on one string token (quotes included) of validated JSON.
fn check_unescape(token: &str) {
    let raw = &token[1..token.len() - 1];
    let mut replaced = String::new();
    let lone = json::unescape(raw, &mut replaced, json::LoneSurrogate::Replace);
    assert_eq!(json::decode_string(raw).text, replaced.as_str(), "decode_string differs from Replace for {raw:?}");
    let lone = lone.unwrap_or_else(|_| panic!("Replace into a String rejected {raw:?}"));
    let mut kept = Vec::new();
    assert_eq!(json::unescape(raw, &mut kept, json::LoneSurrogate::Keep), Ok(lone), "Keep and Replace disagree on {raw:?}");
    assert_eq!(surrogates_replaced(&kept), replaced.as_bytes(), "Keep differs from Replace for {raw:?}");
    let mut strict = String::new();
    match json::unescape(raw, &mut strict, json::LoneSurrogate::Reject) {
        Ok(false) => assert_eq!(strict, replaced, "Reject differs from Replace for {raw:?}"),
        Ok(true) => panic!("Reject reported a lone surrogate it kept for {raw:?}"),
        Err(_) => assert!(lone, "Reject refused {raw:?} without a lone surrogate"),
    }
    if !lone {
        let want: String = serde_json::from_str(token).unwrap_or_else(|e| panic!("serde_json refuses {token:?}: {e}"));
        assert_eq!(replaced, want, "the decoder differs from serde_json for {raw:?}");
    }
    let framed = format!("{token},\"x\"");
    let mut body = Vec::new();
    let read = json::unescape_body(&framed, 1, &mut body, json::LoneSurrogate::Keep);
    assert_eq!(read, Ok(json::Body { close: token.len() - 1, lone_surrogate: lone }), "unescape_body missed the close of {token:?}");
    assert_eq!(body, kept, "unescape_body differs from unescape for {raw:?}");
}

/// WTF-8 with every surrogate's three bytes (`ED A0..BF xx`) replaced by U+FFFD's.
fn surrogates_replaced(wtf8: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(wtf8.len());
    let mut i = 0;
    while let Some(&b) = wtf8.get(i) {
        if b == 0xED && wtf8.get(i + 1).is_some_and(|&c| c >= 0xA0) {
            out.extend_from_slice("\u{FFFD}".as_bytes());
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// utf32: UTF-8 to UTF-32 (contract/json's utf32.rs, the SIMD loops of utf32_x86.rs).
// ---------------------------------------------------------------------------------------------

/// `push_utf32` appends exactly `str::chars` as `u32` after what the vector already held
/// (0-19 elements, from the first byte), whatever the text: the rest of the input, made valid
/// UTF-8 lossily so that every input is used. Runs the loop this processor has (AVX-512 or
/// AVX2 on x86-64).
pub fn utf32(data: &[u8]) {
    let (head, rest) = data.split_first().map_or((0, data), |(h, r)| (*h, r));
    let text = String::from_utf8_lossy(rest);
    let prefix: Vec<u32> = (0..u32::from(head % 20)).collect();
    let mut out = prefix.clone();
    wirecontract_json::utf32::push_utf32(&text, &mut out);
    assert_eq!(out[..prefix.len()], prefix[..], "the elements already held changed");
    assert!(out[prefix.len()..].iter().copied().eq(text.chars().map(u32::from)), "UTF-32 differs from chars() for {text:?}");
}
