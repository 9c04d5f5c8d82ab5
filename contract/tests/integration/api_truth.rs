//! Issue 12, the Rust core: salvage on `invalid`, checked serializing, the one builder, the
//! handshake helpers and `pause_reason`.

#![allow(deprecated)]

use wirecontract::graphmind::{
    self as gm, create_envelope, create_envelope_json, create_unknown_envelope, hello_ack, negotiate_hello, parse, pause_reason, serialize_envelope,
    should_pause, BreakpointMatcher, ClientVersions, Hello, HelloNegotiation, Message, NodeKind, ParseOptions, ParseOutcome, PausePoint, PauseReason, RawJson,
    RunMode,
};

fn frame(ty: &str, payload: &str) -> String {
    format!(r#"{{"gm":1,"seq":7,"ts":1756200000000,"runId":"run_1","type":"{ty}","payload":{payload}}}"#)
}

#[test]
fn invalid_payload_salvages_the_envelope_fields() {
    let out = parse(&frame("node.token", r#"{"nodeId":"n","deltas":[{"t":"hologram","v":"x"}]}"#), &ParseOptions::default());
    let ParseOutcome::Invalid { reason, issues, seq, ts, run_id, message_type } = out else { panic!("{out:?}") };
    assert_eq!(reason, "invalid payload for message type \"node.token\"");
    assert!(issues.is_some_and(|i| i[0].dotted_path() == "payload.deltas.0.t"));
    assert_eq!((seq, ts, run_id.as_deref(), message_type.as_deref()), (Some(7), Some(1_756_200_000_000), Some("run_1"), Some("node.token")));
    // A missing payload is a payload failure too.
    let out = parse(r#"{"gm":1,"seq":1,"ts":2,"runId":"*","type":"mode.set"}"#, &ParseOptions::default());
    assert!(matches!(out, ParseOutcome::Invalid { seq: Some(1), message_type: Some(ref t), .. } if t == "mode.set"), "{out:?}");
}

#[test]
fn nothing_is_salvaged_before_the_payload_step() {
    for f in [
        "not json",
        "[]",
        r#"{"gm":1,"seq":-1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"run"}}"#,
        r#"{"gm":1,"seq":1,"ts":2,"runId":"\u0000","type":"mode.set","payload":{"mode":"nope"}}"#,
        r#"{"gm":1,"seq":1,"ts":2,"runId":"r","payload":{}}"#,
    ] {
        let out = parse(f, &ParseOptions::default());
        assert!(matches!(out, ParseOutcome::Invalid { seq: None, ts: None, run_id: None, message_type: None, .. }), "{f}: {out:?}");
    }
    // Version is checked before the payload: still a version mismatch, nothing else.
    assert_eq!(parse(r#"{"gm":2,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":1}"#, &ParseOptions::default()).kind(), "version-mismatch");
}

#[test]
fn serialize_refuses_what_would_not_parse() {
    let mut env = create_envelope_json("mode.set", r#"{"mode":"run"}"#, 1, "r", Some(2)).unwrap();
    env.seq = u64::MAX;
    let e = serialize_envelope(&env).unwrap_err();
    assert_eq!(e.issues[0].dotted_path(), "seq");
    env.seq = 1;
    env.run_id = "a\0b".into();
    assert_eq!(serialize_envelope(&env).unwrap_err().issues[0].dotted_path(), "runId");
    env.run_id = "r".into();
    env.message = Message::Unknown { message_type: "mode.set".into(), payload: Some(RawJson::from_json("{}").unwrap()) };
    assert_eq!(serialize_envelope(&env).unwrap_err().issues[0].dotted_path(), "type");
    // A payload integer beyond its range cannot be built: its field type holds only safe
    // integers (`SafeInt`, `SafeUInt`, `PositiveSafeUInt`), so there is nothing to re-read.
    assert_eq!(gm::SafeInt::new(i64::MAX), None);
    assert!(gm::SafeUInt::try_from(u64::MAX).is_err());
    assert!(gm::PositiveSafeUInt::try_from(0_u64).is_err());
    // Opaque values nested past the depth cap.
    let deep = format!("{}{}", "[".repeat(gm::DEFAULT_MAX_DEPTH), "]".repeat(gm::DEFAULT_MAX_DEPTH));
    let mut token = create_envelope_json("mode.set", r#"{"mode":"run"}"#, 1, "*", Some(2)).unwrap();
    let Message::ModeSet(m) = &mut token.message else { panic!() };
    m.extra.insert("deep", RawJson::from_json(&deep).unwrap());
    let mut out = b"keep".to_vec();
    let e = gm::write_envelope(&token, &mut out).unwrap_err();
    assert!(e.reason.contains("maximum depth"), "{e}");
    assert_eq!(out, b"keep", "a refused write leaves the buffer as it was");
}

#[test]
fn one_builder_takes_any_type_string() {
    let known = create_envelope_json("mode.set", r#"{"mode":"step"}"#, 1, "*", Some(2)).unwrap();
    assert!(matches!(known.message, Message::ModeSet(_)));
    let e = create_envelope_json("mode.set", r#"{"mode":"warp"}"#, 1, "*", Some(2)).unwrap_err();
    assert_eq!(e.issues[0].dotted_path(), "payload.mode");
    let unknown = create_envelope_json("future.x", "[1e400, \"\\ud800\"]", 1, "*", Some(2)).unwrap();
    assert_eq!(serialize_envelope(&unknown).unwrap(), r#"{"gm":1,"seq":1,"ts":2,"runId":"*","type":"future.x","payload":[1e400,"\ud800"]}"#);
    assert!(create_envelope_json("future.x", "{", 1, "*", Some(2)).is_err());
    // create_envelope with Message::Unknown of a known type reads it typed.
    let typed =
        create_envelope(Message::Unknown { message_type: "mode.set".into(), payload: Some(RawJson::from_json(r#"{"mode":"run"}"#).unwrap()) }, 1, "*", Some(2))
            .unwrap();
    assert!(matches!(typed.message, Message::ModeSet(_)));
    assert!(create_envelope(Message::Unknown { message_type: "mode.set".into(), payload: None }, 1, "*", Some(2)).is_err());
    // The deprecated alias is the same builder.
    assert_eq!(
        create_unknown_envelope("future.x", None, 1, "*", Some(2)).unwrap().message,
        Message::Unknown { message_type: "future.x".into(), payload: None }
    );
    assert!(matches!(
        create_unknown_envelope("mode.set", Some(RawJson::from_json(r#"{"mode":"run"}"#).unwrap()), 1, "*", Some(2)).unwrap().message,
        Message::ModeSet(_)
    ));
}

fn hello(protocol: i64, caps: &[&str], token: Option<&str>) -> Hello {
    Hello {
        resume_token: token.map(str::to_owned),
        ..Hello::from_required(ClientVersions::from_required(gm::SafeInt::new(protocol).unwrap(), "c".into()), caps.iter().map(|c| (*c).to_owned()).collect())
    }
}

#[test]
fn negotiate_hello_checks_the_protocol_and_intersects_capabilities() {
    let viewer: Vec<String> = ["pause", "step", "abort"].iter().map(|c| (*c).to_owned()).collect();
    let HelloNegotiation::Accepted(a) = negotiate_hello(&hello(1, &["abort", "x-new", "pause", "pause"], Some("tok")), &viewer) else { panic!() };
    assert_eq!((a.protocol, a.capabilities, a.resume_token.as_deref()), (1, vec!["abort".to_owned(), "pause".to_owned()], Some("tok")));
    let HelloNegotiation::Accepted(a) = negotiate_hello(&hello(1, &[], Some(&"t".repeat(129))), &viewer) else { panic!() };
    assert_eq!(a.resume_token, None, "a token over 128 UTF-16 units is not reused");
    let HelloNegotiation::Refused(reason) = negotiate_hello(&hello(2, &["pause"], None), &viewer) else { panic!() };
    assert!(reason.contains("protocol 2"), "{reason}");
}

#[test]
fn hello_ack_carries_the_viewer_state_and_parses() {
    let bps = vec![
        BreakpointMatcher::new(Some(NodeKind::Tool), None, None),
        BreakpointMatcher::new(Some(NodeKind::Tool), None, Some(PausePoint::Before)),
        BreakpointMatcher::new(None, None, Some(PausePoint::Error)),
    ];
    let ack = hello_ack(&hello(1, &["pause"], None), "me", &bps, RunMode::Step, Some("s1"), None);
    assert_eq!(ack.breakpoints.len(), 2, "equal matchers armed once");
    assert_eq!((ack.versions.protocol.get(), ack.mode, ack.session_token.as_deref()), (1, RunMode::Step, Some("s1")));
    let env = create_envelope(ack, 0, "*", Some(5)).unwrap();
    let text = serialize_envelope(&env).unwrap();
    assert_eq!(
        text,
        r#"{"gm":1,"seq":0,"ts":5,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"me"},"capabilities":["pause"],"breakpoints":[{"kind":"tool"},{"point":"error"}],"mode":"step","sessionToken":"s1"}}"#
    );
    assert!(matches!(parse(&text, &ParseOptions::default()), ParseOutcome::Ok(_)));
}

#[test]
fn pause_reason_says_why_and_agrees_with_should_pause() {
    let bps = vec![BreakpointMatcher::new(Some(NodeKind::Tool), Some("t".into()), None)];
    assert_eq!(pause_reason(RunMode::Run, &bps, NodeKind::Tool, "t", PausePoint::Before), Some(PauseReason::Breakpoint));
    assert_eq!(pause_reason(RunMode::Step, &bps, NodeKind::Tool, "t", PausePoint::Before), Some(PauseReason::Breakpoint));
    assert_eq!(pause_reason(RunMode::Step, &bps, NodeKind::Llm, "t", PausePoint::Error), Some(PauseReason::Step));
    assert_eq!(pause_reason(RunMode::Step, &bps, NodeKind::Llm, "t", PausePoint::After), None);
    assert_eq!(pause_reason(RunMode::Run, &bps, NodeKind::Tool, "t", PausePoint::After), None);
    for mode in [RunMode::Run, RunMode::Step] {
        for point in [PausePoint::Before, PausePoint::After, PausePoint::Error] {
            for (kind, name) in [(NodeKind::Tool, "t"), (NodeKind::Tool, "u"), (NodeKind::Agent, "t")] {
                assert_eq!(pause_reason(mode, &bps, kind, name, point).is_some(), should_pause(mode, &bps, kind, name, point));
            }
        }
    }
}

/// The session never frames a run id its own parser or the viewer would refuse: U+0000 in
/// the implicit run id (from `id_base` or `implicit_run_id`) or `"*"` is refused like an
/// explicit one (review of issue 12).
#[test]
fn the_session_refuses_unusable_implicit_run_ids() {
    use wirecontract::graphmind::session::{AppSession, EmitError, GateNode, GateOutcome, Millis, SessionConfig};
    use wirecontract::graphmind::{NodeKind, NodeToken, PausePoint};
    let token = || NodeToken::from_required("n".into(), vec![]);
    for config in [
        SessionConfig { id_base: "x\0y".into(), ..SessionConfig::default() },
        SessionConfig { implicit_run_id: Some("a\0b".into()), ..SessionConfig::default() },
        SessionConfig { implicit_run_id: Some("*".into()), ..SessionConfig::default() },
    ] {
        let mut app = AppSession::new(config);
        assert_eq!(app.emit(token(), None, Millis::from(1)), Err(EmitError::BadRunId));
        let node = GateNode { node_id: "n".into(), kind: NodeKind::Tool, name: "t".into(), instance_id: None };
        assert_eq!(app.gate(PausePoint::Before, &node, None, Millis::from(1)), GateOutcome::Continue);
        // An explicit, usable run still works; the refused ones took no seq.
        assert_eq!(app.emit(token(), Some("r"), Millis::from(2)), Ok(Some(0)));
    }
    let mut app = AppSession::new(SessionConfig::default());
    assert_eq!(app.emit(token(), Some("*"), Millis::from(1)), Err(EmitError::BadRunId));
}

#[test]
fn a_counter_out_of_range_reads_the_same_built_or_parsed() {
    let big = 1_i64 << 53;
    let parsed = match parse(&format!(r#"{{"gm":1,"seq":{big},"ts":1,"runId":"r","type":"x"}}"#), &ParseOptions::default()) {
        ParseOutcome::Invalid { issues, .. } => issues.expect("issues"),
        other => panic!("{other:?}"),
    };
    let built = gm::counter_from_i64("seq", big).unwrap_err().issues;
    assert_eq!(built[0].message, parsed[0].message);
    assert_eq!(built[0].dotted_path(), "seq");
    let negative = gm::counter_from_i64("ts", -1).unwrap_err().issues;
    assert_eq!(negative[0].message, "too small: expected integer to be >= 0, received -1");
    assert_eq!(gm::counter_from_i64("ts", 7).unwrap(), 7);
    let mut env = create_envelope_json("mode.set", r#"{"mode":"run"}"#, 1, "*", Some(2)).unwrap();
    env.seq = u64::MAX;
    let e = serialize_envelope(&env).unwrap_err();
    assert_eq!(e.issues[0].message, format!("too big: expected a safe integer (|x| <= 9007199254740991), received {}", u64::MAX));
}
