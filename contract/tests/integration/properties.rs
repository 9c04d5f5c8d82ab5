//! Property tests (proptest): arbitrary bytes never panic; every accepted frame re-serializes
//! to text that parses back to an equal value; generated envelopes of every known type, built
//! from the contract's own field tables, parse `ok` and round-trip.

use crate::common;

use std::fmt::Write as _;

use proptest::prelude::*;
use wirecontract::graphmind::{self as gm, parse, serialize_envelope, ParseOptions, ParseOutcome};
use wirecontract::registry::{FieldDesc, ObjectDesc, Scalar, Ty};
use wirecontract_json as json;

fn vectors() -> &'static [common::Vector] {
    static V: std::sync::OnceLock<Vec<common::Vector>> = std::sync::OnceLock::new();
    V.get_or_init(common::graphmind_vectors)
}

/// serialize → parse gives the same outcome, and serializing again is a fixed point.
fn assert_round_trip(out: &ParseOutcome, what: &str) {
    let Some(env) = out.envelope() else { return };
    let text = serialize_envelope(env).expect("a parsed envelope serializes");
    let again = parse(&text, &ParseOptions::default());
    assert_eq!(&again, out, "{what}: re-parse of {text}");
    assert_eq!(serialize_envelope(again.envelope().unwrap()).unwrap(), text, "{what}: not a fixed point");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        let out = parse(&data, &ParseOptions::default());
        assert_round_trip(&out, "bytes");
    }

    #[test]
    fn mutated_real_frames_never_panic_and_accepted_ones_round_trip(
        pick in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), 1..6),
    ) {
        let vectors = vectors();
        let mut bytes = vectors[pick.index(vectors.len())].frame.clone().into_bytes();
        for (at, op, b) in edits {
            let i = at.index(bytes.len() + 1);
            let token: &[u8] = match b % 8 { 0 => b"{", 1 => b"}", 2 => b"\"", 3 => b",", 4 => b"[1e400,\"\\ud800\"]", 5 => b"null", 6 => b"-0", _ => b":" };
            match op {
                0 if i < bytes.len() => { bytes.remove(i); }
                1 => bytes.insert(i, b),
                2 => { bytes.splice(i..i, token.iter().copied()); }
                _ if i < bytes.len() => bytes[i] = b,
                _ => {}
            }
        }
        let out = parse(&bytes, &ParseOptions::default());
        if let Ok(text) = std::str::from_utf8(&bytes) {
            prop_assert_eq!(&parse(text, &ParseOptions::default()), &out);
        }
        assert_round_trip(&out, "mutated frame");
    }

    #[test]
    fn generated_envelopes_of_every_known_type_parse_ok_and_round_trip(seed in any::<u64>(), which in 0usize..gm::MESSAGE_TYPES.len()) {
        let ty = gm::MESSAGE_TYPES[which];
        let mut g = Gen(seed | 1);
        let payload = g.object(gm::PROTOCOL.message(ty).unwrap().payload);
        let frame = format!(r#"{{"gm":1,"seq":{},"ts":{},"runId":{},"type":"{ty}","payload":{payload}{}}}"#, g.safe_int(), g.safe_int(), g.string(), g.extras(&["gm", "seq", "ts", "runId", "type", "payload"], true));
        let out = parse(&frame, &ParseOptions::default());
        prop_assert!(matches!(&out, ParseOutcome::Ok(e) if e.message_type() == ty), "{frame}\n{out:?}");
        assert_round_trip(&out, ty);
    }
}

/// Fuzz finding (harness, `json_reader`): serde_json refuses a lone surrogate right before a
/// closing quote ("unexpected end of hex escape"); `JSON.parse` and our reader accept it, and
/// the verdict comes from the `runId` rule (§5.9), not from JSON syntax.
#[test]
fn a_lone_surrogate_before_a_quote_is_json_and_runid_rejects_it() {
    let frame = r#"{"gm":1,"seq":1,"ts":1756200000000,"runId":"\ud800","type":"future.event","payload":{}}"#;
    assert!(serde_json::from_str::<serde_json::Value>(frame).is_err());
    let ParseOutcome::Invalid { reason, issues: Some(issues), .. } = parse(frame, &ParseOptions::default()) else { panic!("expected invalid") };
    assert_eq!(reason, gm::REASON_NOT_AN_ENVELOPE);
    assert_eq!(
        issues.iter().map(|i| (i.dotted_path(), i.message.as_str())).collect::<Vec<_>>(),
        [("runId".to_owned(), "runId must not contain a lone surrogate")]
    );
}

/// A tiny deterministic generator (xorshift) of wire values, driven by the contract's own
/// field tables (`OBJECTS`, `ENUMS`): every generated payload is valid by the rules.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn safe_int(&mut self) -> String {
        let n = match self.below(4) {
            0 => 0,
            1 => self.below(1000),
            2 => json::MAX_SAFE_INTEGER - self.below(3),
            _ => self.below(json::MAX_SAFE_INTEGER),
        };
        // Any spelling of an integer is an integer (§5.6).
        match self.below(6) {
            0 if n < 1_000_000 => format!("{n}.0"),
            1 if n > 0 && n % 1000 == 0 => format!("{}e3", n / 1000),
            _ => n.to_string(),
        }
    }

    fn number(&mut self) -> String {
        match self.below(5) {
            0 => "0".into(),
            1 => format!("{}.{}", self.below(100_000), self.below(1000)),
            2 => format!("{}e-{}", self.below(100) + 1, self.below(300)),
            3 => "1.7976931348623157e308".into(),
            _ => self.below(1 << 40).to_string(),
        }
    }

    fn string(&mut self) -> String {
        const PIECES: &[&str] = &["a", "é", "😀", "\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", "\\u0001", " ", "*", "__proto__", "\\/"];
        let mut s = String::from("\"");
        for _ in 0..self.below(5) {
            s.push_str(PIECES[self.below(PIECES.len() as u64) as usize]);
        }
        s.push('"');
        s
    }

    /// Any JSON value, opaque (lone surrogates and `1e400` included).
    fn any(&mut self, depth: u32) -> String {
        match self.below(if depth > 3 { 6 } else { 8 }) {
            0 => "null".into(),
            1 => ["true", "false"][self.below(2) as usize].into(),
            2 => self.number(),
            3 => ["1e400", "-0", "123456789012345678901234567890", "1E+2"][self.below(4) as usize].into(),
            4 => self.string(),
            5 => "\"\\ud800\\udfff\\udc00\"".into(),
            6 => format!("[{}]", (0..self.below(4)).map(|_| self.any(depth + 1)).collect::<Vec<_>>().join(",")),
            _ => {
                let members: Vec<String> = (0..self.below(4)).map(|_| format!("{}:{}", self.string(), self.any(depth + 1))).collect();
                format!("{{{}}}", members.join(","))
            }
        }
    }

    /// `,"x1":…` unknown members whose names are none of `known`.
    fn extras(&mut self, known: &[&str], leading_comma: bool) -> String {
        let mut out = String::new();
        for i in 0..self.below(3) {
            let name = format!("x{}_{i}", self.below(1000));
            debug_assert!(!known.contains(&name.as_str()));
            if leading_comma || !out.is_empty() {
                out.push(',');
            }
            let value = self.any(1);
            let _ = write!(out, "\"{name}\":{value}");
        }
        out
    }

    fn field(&mut self, f: &FieldDesc) -> Option<String> {
        if !f.required && !self.chance(50) {
            return None;
        }
        Some(self.value(&f.ty))
    }

    fn value(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::List(inner) => {
                let items: Vec<String> = (0..self.below(4)).map(|_| self.value(inner)).collect();
                format!("[{}]", items.join(","))
            }
            Ty::Enum(e) => format!("\"{}\"", e.values[self.below(e.values.len() as u64) as usize].wire),
            Ty::Object(o) => self.object(o),
            Ty::Scalar(s) => match s {
                Scalar::String => self.string(),
                Scalar::Bool => ["true", "false"][self.below(2) as usize].into(),
                Scalar::SafeUInt | Scalar::SafeInt => self.safe_int(),
                Scalar::PositiveSafeUInt => (self.below(1000) + 1).to_string(),
                Scalar::Finite | Scalar::NonNegativeFinite => self.number(),
                Scalar::Opaque => self.any(0),
                Scalar::OpaqueObject => {
                    let members: Vec<String> = (0..self.below(4)).map(|i| format!("\"k{i}\":{}", self.any(1))).collect();
                    format!("{{{}}}", members.join(","))
                }
                other => panic!("no GraphMind field has the scalar {other:?}"),
            },
        }
    }

    fn object(&mut self, o: &ObjectDesc) -> String {
        let fields = o.fields;
        let mut members: Vec<String> = fields.iter().filter_map(|f| self.field(f).map(|v| format!("\"{}\":{v}", f.wire))).collect();
        // Wire order is free: shuffle a little.
        if members.len() > 1 && self.chance(30) {
            let i = self.below(members.len() as u64) as usize;
            members.swap(0, i);
        }
        let known: Vec<&str> = fields.iter().map(|f| f.wire).collect();
        format!("{{{}{}}}", members.join(","), self.extras(&known, !members.is_empty()))
    }
}

/// What [`serialize_envelope`] returns must parse back (issue 12, failure 3): `Envelope`'s
/// fields are public, so the check is at serialize time.
fn assert_serialized_parses(env: &gm::Envelope, what: &str) -> bool {
    let Ok(text) = serialize_envelope(env) else { return false };
    let out = parse(&text, &ParseOptions::default());
    let expected = if matches!(env.message, gm::Message::Unknown { .. }) { "unknown-type" } else { "ok" };
    assert_eq!(out.kind(), expected, "{what}: {text}");
    let back = out.envelope().unwrap();
    // Unknown members named like an envelope key are not written (never twice); the rest is.
    assert_eq!((back.seq, back.ts, &back.run_id, &back.message), (env.seq, env.ts, &env.run_id, &env.message), "{what}: {text}");
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Anything the public API builds (the builders, then any edit of the public fields)
    /// either is refused by `serialize_envelope` or serializes to a frame that parses to the
    /// same envelope; and the builders refuse exactly the out-of-range counters.
    #[test]
    fn whatever_the_public_api_builds_parses(
        seed in any::<u64>(),
        which in 0usize..gm::MESSAGE_TYPES.len() + 2,
        seq in prop_oneof![0u64..10, (json::MAX_SAFE_INTEGER - 2)..=(json::MAX_SAFE_INTEGER + 2), any::<u64>()],
        ts in prop_oneof![0u64..10, (json::MAX_SAFE_INTEGER - 2)..=(json::MAX_SAFE_INTEGER + 2), any::<u64>()],
        run_id in prop_oneof![Just("*".to_owned()), "[a-z\u{0}\u{e9}\u{1f600}]{0,6}"],
        edit in 0u8..6,
        edit_seq in any::<u64>(),
    ) {
        let mut g = Gen(seed | 1);
        let (ty, payload) = match which {
            w if w < gm::MESSAGE_TYPES.len() => (gm::MESSAGE_TYPES[which], g.object(gm::PROTOCOL.message(gm::MESSAGE_TYPES[which]).unwrap().payload)),
            w if w == gm::MESSAGE_TYPES.len() => ("future.thing", g.number()),
            _ => ("future.other", "{\"a\":[1,{\"b\":null}]}".to_owned()),
        };
        let built = gm::create_envelope_json(ty, &payload, seq, &run_id, Some(ts));
        let in_range = seq <= json::MAX_SAFE_INTEGER && ts <= json::MAX_SAFE_INTEGER && !run_id.contains('\0');
        prop_assert_eq!(built.is_ok(), in_range, "{:?}", built);
        let Ok(mut env) = built else { return Ok(()) };
        prop_assert_eq!(env.message_type(), ty);
        prop_assert!(assert_serialized_parses(&env, "built"), "a built envelope serializes");
        match edit {
            0 => env.seq = edit_seq,
            1 => env.ts = edit_seq,
            2 => env.run_id.push('\0'),
            3 => env.message = gm::Message::Unknown { message_type: gm::MESSAGE_TYPES[which % gm::MESSAGE_TYPES.len()].to_owned(), payload: Some(gm::RawJson::from_json(&payload).unwrap()) },
            4 => env.extra.insert("seq", gm::RawJson::from_json("1e400").unwrap()),
            _ => env.run_id = "\u{fffd}".to_owned(),
        }
        let ok = assert_serialized_parses(&env, "edited");
        let must_refuse = match edit {
            0 | 1 => edit_seq > json::MAX_SAFE_INTEGER,
            2 | 3 => true,
            _ => false,
        };
        prop_assert_eq!(ok, !must_refuse, "edit {}", edit);
    }
}

/// The envelope keys are plain wire names: the single pass matches them by a byte compare
/// (`wirecontract_json::cursor::WireKey`).
#[test]
fn envelope_keys_are_plain_wire_names() {
    assert!(gm::ENVELOPE_KEYS.iter().all(|k| json::cursor::is_plain_wire_name(k)));
}
