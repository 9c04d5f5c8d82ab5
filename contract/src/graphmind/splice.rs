//! The one-pass route of the builders that take a payload as JSON text
//! ([`super::create_envelope_json`], [`super::build_frame_json`]): the frame is spliced together
//! from its parts and read by the single-pass parser, instead of the payload being validated and
//! read by the reference reader (graphmind-v1 §5.13). Either gives the same envelope: the parser
//! agrees with the reference reader on every frame (`tests/single_pass.rs`), a spliced frame that
//! does not parse as exactly the parts given falls back to the general path, which says why, and
//! `tests/create_envelope_json.rs` compares the two builders.

use super::{json, parse, Envelope, ParseOptions, ParseOutcome, DEFAULT_MAX_DEPTH};
use wirecontract_json::cursor::Cursor;

/// The frame `{"gm":1,"seq":…,"ts":…,"runId":…,"type":…,"payload":…}` with `payload_json`
/// spliced in verbatim (not checked here: see [`read_spliced`]).
pub(super) fn splice_frame(message_type: &str, payload_json: &str, seq: u64, run_id: &str, ts: u64) -> Vec<u8> {
    let mut frame = Vec::with_capacity(80 + message_type.len() + run_id.len() + payload_json.len());
    frame.extend_from_slice(b"{\"gm\":1,\"seq\":");
    json::write_int(&mut frame, seq);
    frame.extend_from_slice(b",\"ts\":");
    json::write_int(&mut frame, ts);
    frame.extend_from_slice(b",\"runId\":");
    json::write_string(&mut frame, run_id);
    frame.extend_from_slice(b",\"type\":");
    json::write_string(&mut frame, message_type);
    frame.extend_from_slice(b",\"payload\":");
    frame.extend_from_slice(payload_json.as_bytes());
    frame.push(b'}');
    frame
}

/// The envelope of a [`splice_frame`] frame when it parses `ok` as exactly the parts given:
/// that type, counters and `runId`, no other envelope member. Then every rule
/// [`super::check_envelope`] checks holds (the parser checks the same ones). `None`: the
/// general path decides.
///
/// The parse read the payload as given only if `payload_json` is exactly one JSON value (text
/// such as `{…},"payload":{…}` splices in a second member, and the last one wins); the caller
/// makes sure of that, by comparing written bytes or with [`one_value`].
pub(super) fn read_spliced(frame: &[u8], message_type: &str, seq: u64, run_id: &str, ts: u64) -> Option<Envelope> {
    // Valid UTF-8 by construction (ASCII and three `&str`s); simdutf8 checks it in a fraction of
    // the time `std` takes on non-ASCII text.
    let text = simdutf8::basic::from_utf8(frame).ok()?;
    match parse(text, &ParseOptions::default()) {
        ParseOutcome::Ok(e) if e.seq == seq && e.ts == ts && e.run_id == run_id && e.extra.is_empty() && e.message_type() == message_type => Some(e),
        _ => None,
    }
}

/// Whether `text` is exactly one JSON value, whitespace around it allowed, nested at most
/// [`DEFAULT_MAX_DEPTH`] deep: what [`json::validate`] accepts (the single-pass scanner's
/// `skip_value`, which is held to accept exactly that), in one SIMD pass.
pub(super) fn one_value(text: &str) -> bool {
    let mut c = Cursor::new(text, DEFAULT_MAX_DEPTH);
    c.skip_value().is_some() && c.finish().is_some()
}

#[cfg(test)]
mod tests {
    use super::{json, one_value, read_spliced, splice_frame, DEFAULT_MAX_DEPTH};
    use crate::graphmind::create_envelope_json;

    /// The route is taken for the payloads it exists for (the differential test in
    /// `tests/create_envelope_json.rs` would pass if it never were), and builds what
    /// `create_envelope_json` returns.
    #[test]
    fn common_payloads_take_the_one_pass_route() {
        let cases = [
            ("node.token", r#"{"nodeId":"n2","deltas":[{"t":"text","v":"é because"},{"t":"text","v":"\n"}]}"#),
            ("node.token", r#" { "nodeId" : "n" , "deltas" : [ ] } "#),
            ("node.started", r#"{"nodeId":"n1","kind":"tool","name":"plan","instanceId":"i1","input":{"q":[1,2.5,null,"x"]}}"#),
            ("run.started", r#"{"app":"demo","sdk":{"name":"ai","version":"7.0.79","x-sdk":1},"futureField":{"deep":[1,"two",null,true]}}"#),
            ("exec.resume", r#"{"pauseId":"p","action":"abort"}"#),
            ("node.finished", r#"{"nodeId":"n","durationMs":0.125,"status":"ok"}"#),
        ];
        for (t, p) in cases {
            let frame = splice_frame(t, p, 7, "run-1", 5);
            let e = read_spliced(&frame, t, 7, "run-1", 5).filter(|_| one_value(p));
            assert_eq!(e.as_ref().ok_or(()), create_envelope_json(t, p, 7, "run-1", Some(5)).as_ref().map_err(|_| ()), "{t} {p}");
            assert!(e.is_some(), "{t} {p}");
        }
    }

    #[test]
    fn one_value_accepts_exactly_what_validate_accepts() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        let cases = [
            "",
            " ",
            "1",
            " 1 ",
            "{}",
            "{} {}",
            "{},{}",
            r#"{"a":1},"payload":{}"#,
            "[1,]",
            "\"\\x\"",
            "\"\t\"",
            "01",
            "-0",
            "1e400",
            "nul",
            "{\"a\":1,\"a\":2}",
            "\u{feff}{}",
            "[1] ]",
        ];
        for text in cases.iter().map(|s| (*s).to_owned()).chain([deep(DEFAULT_MAX_DEPTH), deep(DEFAULT_MAX_DEPTH + 1)]) {
            assert_eq!(one_value(&text), json::validate(&text, DEFAULT_MAX_DEPTH).is_ok(), "{:?}", text.get(..40));
        }
    }
}
