//! The single-pass reader is an optimisation only: for every frame, `parse_envelope_json`
//! (single pass, bailing to the reference on anything unusual) must return exactly what the
//! two-pass reference reader returns — verdict, envelope, issues and messages; and so must
//! `parse_envelope_shared_with`, whose opaque values are spans of the shared frame text; and,
//! for frames given as bytes (UTF-8 checked inside the single pass), `parse_envelope_json_bytes`
//! and `parse_envelope_shared_bytes_with` must return what the whole-frame UTF-8 check
//! followed by the reference reader returns.

use crate::common;

use std::fmt::Write as _;

use proptest::prelude::*;
use wirecontract::graphmind::{oracle, parse, serialize_envelope, Message, ParseOptions, ParseOutcome, SharedBytes, SharedText};

fn same(frame: &str) {
    let opts = ParseOptions::default();
    let reference = oracle::reference(frame, &opts);
    assert_eq!(parse(frame, &ParseOptions::default()), reference, "frame {frame:?}");
    assert_eq!(parse(&SharedText::new(frame.to_owned()), &opts), reference, "shared, frame {frame:?}");
    if oracle::single_pass(frame, opts.max_depth).is_none() {
        after_a_bail(frame, &reference);
    }
}

/// A frame the single pass bailed on is decided after one validating pass
/// (`parse_bailed`) exactly as the reference decides it, unless it is not JSON within the
/// depth limit: only then may the reference reader alone decide it.
fn after_a_bail(frame: &str, reference: &ParseOutcome) {
    match oracle::bailed(frame, ParseOptions::default().max_depth) {
        Some(out) => assert_eq!(&out, reference, "after a bail, frame {frame:?}"),
        None => assert!(
            matches!(reference, ParseOutcome::Invalid { reason, .. } if reason.starts_with("frame is not valid JSON") || reason.starts_with("frame nests deeper")),
            "a JSON frame went to the reference reader whole: {frame:?} -> {reference:?}"
        ),
    }
}

#[test]
fn shared_parse_keeps_compact_opaque_values_as_spans() {
    let frame = r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":[1,"é\n"]},"extraKey":{"b":true}}"#;
    let ParseOutcome::UnknownType(env) = parse(&SharedText::new(frame.to_owned()), &ParseOptions::default()) else { panic!() };
    let Message::Unknown { payload: Some(p), .. } = &env.message else { panic!() };
    assert!(p.is_shared());
    assert_eq!(p.as_str(), r#"{"a":[1,"é\n"]}"#);
    assert_eq!(serialize_envelope(&env).unwrap(), frame);
    // With whitespace inside, the value is copied compact, as the reference stores it.
    let spaced = frame.replace(r#"{"a":[1,"#, r#"{"a": [1, "#);
    let ParseOutcome::UnknownType(env) = parse(&SharedText::new(spaced), &ParseOptions::default()) else { panic!() };
    let Message::Unknown { payload: Some(p), .. } = &env.message else { panic!() };
    assert!(!p.is_shared());
    assert_eq!(serialize_envelope(&env).unwrap(), frame);
}

/// Inserts whitespace after every structural character outside strings.
fn spaced(frame: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut esc = false;
    for c in frame.chars() {
        out.push(c);
        if in_str {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        } else if matches!(c, ',' | ':' | '{' | '[') {
            out.push_str(" \n\t");
        }
    }
    format!(" {out}\r\n")
}

#[test]
fn single_pass_agrees_with_the_reference_on_every_vector() {
    let vectors = common::graphmind_vectors();
    let mut decided = 0;
    for v in &vectors {
        same(&v.frame);
        same(&spaced(&v.frame));
        if oracle::single_pass(&v.frame, 100_000).is_some() {
            decided += 1;
        }
    }
    // The fast path must actually decide the valid frames, not bail on everything.
    let ok = vectors.iter().filter(|v| v.expect == "ok" || v.expect == "unknown-type").count();
    assert!(decided * 10 >= ok * 9, "single pass decided only {decided} of {ok} valid frames");
}

#[test]
fn single_pass_agrees_on_truncations_reorderings_and_duplicates() {
    let vectors = common::graphmind_vectors();
    for v in vectors.iter().filter(|v| v.expect == "ok" && v.frame.len() <= 600).take(60) {
        let f = &v.frame;
        for cut in (0..f.len()).filter(|&i| f.is_char_boundary(i)) {
            same(&f[..cut]);
        }
        if let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(f) {
            // Payload first, type last.
            let mut keys: Vec<_> = m.keys().cloned().collect();
            keys.sort_by_key(|k| match k.as_str() {
                "payload" => 0,
                "type" => 2,
                _ => 1,
            });
            let body: Vec<String> = keys.iter().map(|k| format!("{}:{}", serde_json::to_string(k).unwrap(), m[k])).collect();
            same(&format!("{{{}}}", body.join(",")));
            // Duplicated members: an earlier bad value, a later good one, and the reverse.
            let inner = &f[1..f.len() - 1];
            same(&format!("{{\"type\":7,\"payload\":null,\"gm\":\"x\",{inner}}}"));
            same(&format!("{{{inner},\"type\":\"node.error\"}}"));
            same(&format!("{{{inner},\"gm\":2}}"));
            same(&format!("{{{inner},\"payload\":{{}}}}"));
        }
    }
}

/// Writes `v` with every object's members in key order or reversed (`style & 1`), each
/// key's first character as a `\u` escape (`& 2`), a space before each colon (`& 4`), and
/// an unknown member before each one named like it with a character dropped or added (`& 8`).
fn restyled(v: &serde_json::Value, style: u8, out: &mut String) {
    let quoted = |s: &str| serde_json::to_string(s).unwrap();
    match v {
        serde_json::Value::Object(m) => {
            out.push('{');
            let mut members: Vec<_> = m.iter().collect();
            if style & 1 != 0 {
                members.reverse();
            }
            for (i, (k, val)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if style & 8 != 0 {
                    let mut shorter = k.clone();
                    shorter.pop();
                    write!(out, "{}:0,{}:1,", quoted(&shorter), quoted(&format!("{k}x"))).unwrap();
                }
                match k.chars().next() {
                    Some(c) if style & 2 != 0 => {
                        out.push('"');
                        for unit in c.encode_utf16(&mut [0; 2]) {
                            write!(out, "\\u{unit:04x}").unwrap();
                        }
                        let rest = quoted(&k[c.len_utf8()..]);
                        out.push_str(&rest[1..]);
                    }
                    _ => out.push_str(&quoted(k)),
                }
                out.push_str(if style & 4 != 0 { " :" } else { ":" });
                restyled(val, style, out);
            }
            out.push('}');
        }
        serde_json::Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                restyled(e, style, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Rewrites the keys of compact `frame` in place, keeping member order: the first character
/// of each key as a `\u` escape (`style & 1`), a space before each colon (`& 2`), two unknown
/// members before each one, named like it with a character dropped and added (`& 4`); with
/// `& 8`, only the first key of each object is rewritten by 1 and 2.
fn rekeyed(frame: &str, style: u8) -> String {
    let b = frame.as_bytes();
    let mut out = String::new();
    let (mut i, mut copied) = (0, 0);
    // Whether the next string opens an object's first member.
    let mut first = false;
    while i < b.len() {
        match b[i] {
            b'{' => {
                first = true;
                i += 1;
            }
            b'"' => {
                let mut j = i + 1;
                while let Some(&c) = b.get(j).filter(|&&c| c != b'"') {
                    j += if c == b'\\' { 2 } else { 1 };
                }
                // An unterminated string (invalid vectors): the rest is copied as it is.
                let Some(key) = frame.get(i + 1..j).filter(|_| j < b.len()) else { break };
                if b.get(j + 1) == Some(&b':') && !key.contains('\\') {
                    out.push_str(&frame[copied..i]);
                    if style & 4 != 0 {
                        let mut shorter = key.to_owned();
                        shorter.pop();
                        write!(out, "\"{shorter}\":0,\"{key}x\":1,").unwrap();
                    }
                    let rewrite = style & 8 == 0 || first;
                    match key.chars().next() {
                        Some(c) if rewrite && style & 1 != 0 => {
                            out.push('"');
                            for unit in c.encode_utf16(&mut [0; 2]) {
                                write!(out, "\\u{unit:04x}").unwrap();
                            }
                            write!(out, "{}\"", &key[c.len_utf8()..]).unwrap();
                        }
                        _ => write!(out, "\"{key}\"").unwrap(),
                    }
                    out.push_str(if rewrite && style & 2 != 0 { " :" } else { ":" });
                    copied = j + 2;
                }
                first = false;
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&frame[copied..]);
    out
}

/// Keys are read by a byte compare when they arrive in declaration order and by a string scan
/// and a lookup otherwise (`Cursor::member_key`): members in any order and keys spelled any
/// way decide as the reference decides, in the envelope and in every declared object.
#[test]
fn single_pass_agrees_on_member_order_and_key_spelling() {
    let vectors = common::graphmind_vectors();
    let mut decided = 0;
    let mut valid = 0;
    for v in vectors.iter().filter(|v| v.frame.len() <= 800).take(200) {
        // Written order, keys respelled: the declared objects' readers see every spelling.
        for style in 0..16 {
            let text = rekeyed(&v.frame, style);
            same(&text);
            if v.expect == "ok" {
                valid += 1;
                decided += usize::from(oracle::single_pass(&text, 100_000).is_some());
            }
        }
        // Other orders (keys sorted, then reversed; `serde_json` keeps no order).
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&v.frame) {
            for style in 0..16 {
                let mut text = String::new();
                restyled(&value, style, &mut text);
                same(&text);
            }
        }
        // In the written order every key is the expected one: a wrong separator after one
        // must still be refused.
        for key in ["\"gm\"", "\"type\"", "\"payload\"", "\"nodeId\"", "\"t\"", "\"kind\""] {
            for wrong in ["=", " ", "\"", ""] {
                same(&v.frame.replacen(&format!("{key}:"), &format!("{key}{wrong}"), 1));
            }
        }
    }
    // The agreement above is the fast path's own, not a bail to the reference.
    assert!(decided * 10 >= valid * 9, "single pass decided only {decided} of {valid} respelled valid frames");
}

fn json_fragment() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\"gm\"",
        "1",
        "\"seq\"",
        "0",
        "\"ts\"",
        "\"runId\"",
        "\"r\"",
        "\"type\"",
        "\"node.token\"",
        "\"payload\"",
        "\"nodeId\"",
        "\"deltas\"",
        "\"t\"",
        "\"text\"",
        "\"v\"",
        "\"x\\u0041\"",
        "\"\\ud800\"",
        "null",
        "true",
        "-0",
        "1e3",
        "2.5",
        "\"kind\"",
        "\"llm\"",
        "\"extra\"",
    ]);
    prop::collection::vec(atoms, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn single_pass_agrees_on_token_soup(body in json_fragment()) {
        let frame = format!("{{\"gm\":1,\"seq\":1,\"ts\":2,\"runId\":\"r\",\"type\":\"node.token\",\"payload\":{{\"nodeId\":\"n\",\"deltas\":[{body}]}}}}");
        same(&frame);
        same(&body);
        let frame = format!("{{\"gm\":1,\"seq\":1,\"ts\":2,\"runId\":\"r\",\"type\":\"node.started\",\"payload\":{{\"nodeId\":\"n\",\"kind\":\"llm\",\"name\":\"x\",\"instanceId\":\"i\",\"input\":{body}}}}}");
        same(&frame);
    }
}

/// A NUL in `runId` (spec §5: banned) can only arrive escaped; every path refuses it
/// wherever it stands, and accepts the other escaped control characters.
#[test]
fn a_nul_in_run_id_is_refused_by_every_path() {
    for (run_id, ok) in [(r"\u0000", false), (r"a\u0000", false), (r"\u0000b", false), (r"a\n\u0000b", false), (r"\u0001", true), (r"a\nb", true)] {
        let frame = format!(r#"{{"gm":1,"seq":1,"ts":2,"runId":"{run_id}","type":"run.finished","payload":{{"status":"ok"}}}}"#);
        same(&frame);
        same_bytes(frame.as_bytes());
        assert_eq!(matches!(parse(&frame, &ParseOptions::default()), ParseOutcome::Ok(_)), ok, "runId {run_id}");
    }
}

#[test]
fn a_valid_frame_never_reaches_the_reference_path() {
    let frame = r#"{"gm":1,"seq":3,"ts":4,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"hi"}],"x":[1, 2]},"z":{}}"#;
    assert!(matches!(oracle::single_pass(frame, 100), Some(ParseOutcome::Ok(_))));
}

// ---------------------------------------------------------------------------------------------
// UTF-8 checked inside the single pass (bytes entry points): a frame the fast path decides
// has had every byte checked, and invalid UTF-8 anywhere gives the verdict it always gave.
// ---------------------------------------------------------------------------------------------

/// What a bytes frame parses to, by the reference: the whole-frame UTF-8 check (std's, for
/// the offset), then the two-pass reader. This is the bytes path as it was before the check
/// moved into the scan.
fn bytes_reference(frame: &[u8]) -> ParseOutcome {
    match std::str::from_utf8(frame) {
        Ok(text) => oracle::reference(text, &ParseOptions::default()),
        Err(e) => ParseOutcome::invalid(format!("frame is not valid JSON: invalid UTF-8 at byte {}", e.valid_up_to()), None),
    }
}

/// Every bytes entry point gives the reference's outcome for `frame`.
fn same_bytes(frame: &[u8]) {
    let reference = bytes_reference(frame);
    assert_eq!(parse(frame, &ParseOptions::default()), reference, "bytes, frame {:?}", String::from_utf8_lossy(frame));
    let shared = parse(&SharedBytes::new(frame.to_vec()), &ParseOptions::default());
    assert_eq!(shared, reference, "shared bytes, frame {:?}", String::from_utf8_lossy(frame));
}

/// Malformed UTF-8 of every kind (Unicode table 3-7's complement).
const MALFORMED: &[&[u8]] = &[
    b"\x80",             // continuation byte with no lead
    b"\xbf",             // the last continuation byte, alone
    b"\x80\x80\x80",     // several
    b"\xc0\x80",         // overlong NUL
    b"\xc1\xbf",         // overlong 2-byte
    b"\xe0\x80\x80",     // overlong 3-byte
    b"\xe0\x9f\xbf",     // overlong 3-byte, the highest
    b"\xf0\x80\x80\x80", // overlong 4-byte
    b"\xf0\x8f\xbf\xbf", // overlong 4-byte, the highest
    b"\xed\xa0\x80",     // surrogate U+D800
    b"\xed\xbf\xbf",     // surrogate U+DFFF
    b"\xf4\x90\x80\x80", // above U+10FFFF
    b"\xf5\x80\x80\x80", // lead byte F5
    b"\xf8\x88\x80\x80\x80",
    b"\xfe",
    b"\xff",
    b"\xc3",             // truncated 2-byte (an ASCII byte or the quote follows)
    b"\xe6\x9d",         // truncated 3-byte
    b"\xf0\x9f\x98",     // truncated 4-byte
    b"\xc3\xc3\xa9",     // a lead where a continuation belongs
    b"\xe6\x9d\xb1\x80", // a stray continuation after a whole character
];

/// Well-formed characters at the edges of each range.
const WELL_FORMED: &[&[u8]] = &[
    b"\xc2\x80",         // U+0080
    b"\xc3\xa9",         // é
    b"\xdf\xbf",         // U+07FF
    b"\xe0\xa0\x80",     // U+0800
    b"\xe6\x9d\xb1",     // 東
    b"\xed\x9f\xbf",     // U+D7FF
    b"\xee\x80\x80",     // U+E000
    b"\xef\xbf\xbf",     // U+FFFF
    b"\xf0\x90\x80\x80", // U+10000
    b"\xf0\x9f\x98\x80", // 😀
    b"\xf4\x8f\xbf\xbf", // U+10FFFF
];

/// Frames with `@` where the bytes under test go, one per position class.
const UTF8_SITES: &[&str] = &[
    // Keys: an unknown envelope member's, an unknown payload field's, a key inside an opaque
    // value, a known key's.
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"hi"}]},"x@y":1}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"hi"}],"k@":[1]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":{"a@b":1}}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"run@Id":"r","type":"node.token","payload":{"nodeId":"n","deltas":[]}}"#,
    // Typed strings: runId, type, nodeId, token text (at the start, the middle, the end, and
    // past the first eight-byte word).
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r@","type":"node.token","payload":{"nodeId":"n","deltas":[]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token@","payload":{"nodeId":"n","deltas":[]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"@","deltas":[]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"@hello"}]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"a long token text, well past a word @ then more text"}]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"é then @"}]}}"#,
    // Opaque strings: inside `input`, an unknown member's value, deep inside.
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":{"a":["x","y@"]}}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":"東京 @ 東京"}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[]},"extra":{"a":[[{"b":"@"}]]}}"#,
    // Skipped values: an unknown type's payload; a payload that comes before its type (read
    // after the envelope); a payload of an unknown protocol version.
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":"ü @","b":[1,"x"]}}"#,
    r#"{"payload":{"nodeId":"n","deltas":[{"t":"text","v":"@"}]},"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token"}"#,
    r#"{"gm":2,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"x":"@"}}"#,
    // Skipped values whose first non-ASCII byte is in an earlier string or key than `@` (the
    // value is checked once, from that byte to its end).
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":{"a":"é","b":"@"}}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":{"é":1,"k@":2}}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"llm","name":"x","instanceId":"i","input":["東京",{"x":["y","@"]}]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":"ü","b":[1,"@"]}}"#,
    // After backslash escapes.
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"a\n@"}]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"\u00e9@\\"}]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":"\"@\""}}"#,
    // Outside strings (always a syntax error), and at the end of the input.
    r#"{"gm":1,@"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[]}}"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[]}}@"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"@"#,
    r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":"@"#,
];

fn at_site(site: &str, bytes: &[u8]) -> Vec<u8> {
    let (before, after) = site.split_once('@').expect("a site has an @");
    assert!(!after.contains('@'), "a site has one @: {site}");
    [before.as_bytes(), bytes, after.as_bytes()].concat()
}

#[test]
fn invalid_utf8_anywhere_gives_the_verdict_it_always_gave() {
    for site in UTF8_SITES {
        for bad in MALFORMED {
            let frame = at_site(site, bad);
            let e = std::str::from_utf8(&frame).expect_err("malformed");
            let verdict = ParseOutcome::invalid(format!("frame is not valid JSON: invalid UTF-8 at byte {}", e.valid_up_to()), None);
            assert_eq!(bytes_reference(&frame), verdict);
            same_bytes(&frame);
            // Invalid bytes after well-formed characters in the same string or value.
            same_bytes(&at_site(site, &[b"\xc3\xa9".as_slice(), bad].concat()));
            same_bytes(&at_site(site, &[bad, b"\xe6\x9d\xb1".as_slice()].concat()));
        }
    }
}

#[test]
fn well_formed_utf8_at_every_site_is_decided_by_the_fast_path() {
    for site in UTF8_SITES {
        for good in WELL_FORMED {
            let frame = at_site(site, good);
            same_bytes(&frame);
            same(std::str::from_utf8(&frame).expect("well-formed"));
        }
    }
    // The fast path decided a valid frame (its opaque value is a span of the shared bytes,
    // which the fallback's reader never makes): no second UTF-8 pass ran.
    let frame = at_site(UTF8_SITES[13], "😀".as_bytes());
    let ParseOutcome::UnknownType(env) = parse(&SharedBytes::new(frame.clone()), &ParseOptions::default()) else { panic!() };
    let Message::Unknown { payload: Some(p), .. } = &env.message else { panic!() };
    assert!(p.is_shared());
    assert_eq!(p.as_str(), r#"{"a":"ü 😀","b":[1,"x"]}"#);
}

#[test]
fn malformed_utf8_at_every_offset_of_a_long_string() {
    // Every lane of the sixteen-byte block and the eight-byte word, in a typed string and in an
    // opaque one.
    for pad in 0..20 {
        let text = "a".repeat(pad);
        for site in [
            format!(r#"{{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{{"nodeId":"n","deltas":[{{"t":"text","v":"{text}@tail text"}}]}}}}"#),
            format!(r#"{{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{{"a":"{text}@tail text"}}}}"#),
        ] {
            for bytes in MALFORMED.iter().chain(WELL_FORMED) {
                same_bytes(&at_site(&site, bytes));
            }
        }
    }
}

#[test]
fn every_truncation_of_a_non_ascii_frame() {
    let frame = r#"{"gm":1,"seq":1,"ts":2,"runId":"r東","type":"node.started","payload":{"nodeId":"ü","kind":"llm","name":"😀","instanceId":"i","input":{"é":["東京😀"]}},"x":"ß"}"#.as_bytes();
    for cut in 0..=frame.len() {
        same_bytes(&frame[..cut]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// Token soup with raw bytes mixed in (well-formed characters, malformed sequences and
    /// single stray bytes), inside and outside strings.
    #[test]
    fn bytes_entry_points_agree_with_the_reference_on_byte_soup(
        body in json_fragment(),
        inserts in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(MALFORMED.iter().chain(WELL_FORMED).copied().collect::<Vec<_>>())), 0..3),
        stray in any::<Option<(prop::sample::Index, u8)>>(),
    ) {
        let mut frame = format!("{{\"gm\":1,\"seq\":1,\"ts\":2,\"runId\":\"r\",\"type\":\"node.token\",\"payload\":{{\"nodeId\":\"n\",\"deltas\":[{body}]}}}}").into_bytes();
        for (at, bytes) in inserts {
            let at = at.index(frame.len() + 1);
            frame.splice(at..at, bytes.iter().copied());
        }
        if let Some((at, b)) = stray {
            let at = at.index(frame.len() + 1);
            frame.insert(at, b);
        }
        same_bytes(&frame);
    }
}
