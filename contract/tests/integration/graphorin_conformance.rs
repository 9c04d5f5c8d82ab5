//! Graphorin v1: every shared conformance vector and our own extra vectors give the expected
//! verdict and variant; every `ok` frame survives serialize → parse unchanged (byte for byte
//! when it was already canonical); the catalogues, subprotocol helpers, guards, errors,
//! reflection and schema behave as spec graphorin-v1 says.

use crate::common;

use std::path::PathBuf;

use serde_json::{json, Map, Value};
use wirecontract::graphorin::{
    self, close_code_for, close_code_reason, export_json_schema, export_json_schema_string, format_ticket, negotiate, normalize_offer, parse_ticket,
    serialize_client_message, serialize_server_message, ClientErrorKind, ClientMessage, ClientPingRequest, CloseReason, EmptyTicketError, IssueCode,
    NonEmptyString, ParseError, ParseOptions, PathSegment, RawJson, RpcErrorCode, RpcId, ServerEventFrame, ServerMessage, ServerPongFrame, ServerRpcSuccess,
    ServerVariant, SharedBytes, SharedText, CLIENT_GUARDS, CLOSE_CODE_VALUES, KINDS, METHODS, PROTOCOL_VERSION, RPC_ERROR_CODES, SCHEMA_ID, SERVER_GUARDS,
    SUBPROTOCOL_NAME, TICKET_SUBPROTOCOL_PREFIX,
};
use wirecontract::wire::{Described, FieldRef, Reflect};

// ---------------------------------------------------------------------------------------------
// Vectors
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Vector {
    source: &'static str,
    name: String,
    direction: String,
    frame: String,
    expect: String,
    variant: Option<String>,
    why: String,
}

/// The shared file (`$WIRECONTRACT_SHARED/vectors/graphorin/conformance.jsonl`, default
/// `CARGO_MANIFEST_DIR/../../shared`).
fn shared_vectors_path() -> PathBuf {
    common::shared_dir().join("vectors/graphorin/conformance.jsonl")
}

fn read_vectors(source: &'static str, path: &PathBuf) -> Vec<Vector> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read the Graphorin vectors at {}: {e} (set WIRECONTRACT_SHARED to the shared/ directory)", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: vector line is not JSON: {e}", path.display()));
            let s = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("{}: {k} missing in {l}", path.display())).to_owned();
            Vector {
                source,
                name: s("name"),
                direction: s("direction"),
                frame: s("frame"),
                expect: s("expect"),
                variant: v["variant"].as_str().map(Into::into),
                why: s("why"),
            }
        })
        .collect()
}

/// Every vector: shared (must exist, at least 100 lines) then ours.
fn vectors() -> Vec<Vector> {
    let shared = read_vectors("shared", &shared_vectors_path());
    assert!(shared.len() >= 100, "expected the 110 shared Graphorin vectors, found {}", shared.len());
    let own = read_vectors("extra", &common::repo_dir().join("vectors/graphorin/extra.jsonl"));
    assert!(own.len() >= 50, "our extra vectors are missing: {}", own.len());
    shared.into_iter().chain(own).collect()
}

/// A parsed frame of either direction.
#[derive(Debug, Clone, PartialEq)]
enum Parsed {
    Server(ServerMessage),
    Client(ClientMessage),
}

impl Parsed {
    fn variant(&self) -> &'static str {
        match self {
            Parsed::Server(m) => m.variant().as_str(),
            Parsed::Client(m) => m.variant().as_str(),
        }
    }
    fn serialize(&self) -> String {
        match self {
            Parsed::Server(m) => serialize_server_message(m),
            Parsed::Client(m) => serialize_client_message(m),
        }
    }
    fn reflect(&self) -> &dyn Reflect {
        match self {
            Parsed::Server(m) => m.as_reflect(),
            Parsed::Client(m) => m.as_reflect(),
        }
    }
}

fn parse(direction: &str, frame: &str) -> Result<Parsed, ParseError> {
    match direction {
        "server" => graphorin::parse::<ServerMessage>(frame, &ParseOptions::default()).map(Parsed::Server),
        "client" => graphorin::parse::<ClientMessage>(frame, &ParseOptions::default()).map(Parsed::Client),
        other => panic!("unknown direction {other}"),
    }
}

fn parse_bytes(direction: &str, frame: &[u8]) -> Result<Parsed, ParseError> {
    match direction {
        "server" => graphorin::parse::<ServerMessage>(frame, &ParseOptions::default()).map(Parsed::Server),
        _ => graphorin::parse::<ClientMessage>(frame, &ParseOptions::default()).map(Parsed::Client),
    }
}

fn parse_shared(direction: &str, frame: &SharedText) -> Result<Parsed, ParseError> {
    match direction {
        "server" => graphorin::parse::<ServerMessage>(frame, &ParseOptions::default()).map(Parsed::Server),
        _ => graphorin::parse::<ClientMessage>(frame, &ParseOptions::default()).map(Parsed::Client),
    }
}

fn parse_shared_bytes(direction: &str, frame: &SharedBytes) -> Result<Parsed, ParseError> {
    match direction {
        "server" => graphorin::parse::<ServerMessage>(frame, &ParseOptions::default()).map(Parsed::Server),
        _ => graphorin::parse::<ClientMessage>(frame, &ParseOptions::default()).map(Parsed::Client),
    }
}

fn parse_value(direction: &str, value: &Value) -> Result<Parsed, ParseError> {
    match direction {
        "server" => graphorin::parse_value::<ServerMessage>(value).map(Parsed::Server),
        _ => graphorin::parse_value::<ClientMessage>(value).map(Parsed::Client),
    }
}

/// The `ok` vectors whose text is not already what the serializer writes (whitespace, key
/// order, duplicate keys, non-canonical numbers or escapes). Every other `ok` vector must
/// re-serialize byte for byte; the test also checks that each of these really differs.
const NON_CANONICAL: &[&str] = &[
    "srv.duplicate_key_last_wins",
    "srv.whitespace_and_key_order",
    "srv.rpc.id_integral_float_literal",
    "srv.rpc.id_negative_zero",
    "cli.id_integral_float_literal",
    "own.srv.escaped_key_v",
    "own.srv.escaped_literal_value",
    "own.srv.duplicate_kind_last_wins",
    "own.srv.rpc.id_exponent",
    "own.srv.rpc_failure.code_exponent",
    "own.srv.event.subject_lone_surrogate",
    "own.srv.event.type_escaped",
    "own.srv.replay_marker.dropped_negative_zero",
    "own.srv.replay_marker.dropped_integral_float",
];

#[test]
fn shared_vectors_file_is_present_and_complete() {
    let path = shared_vectors_path();
    assert!(path.is_file(), "the shared Graphorin vectors are missing at {} (set WIRECONTRACT_SHARED)", path.display());
    let shared = read_vectors("shared", &path);
    assert_eq!(shared.len(), 110, "shared vector count changed: update this test");
    for direction in ["server", "client"] {
        assert!(shared.iter().any(|v| v.direction == direction && v.expect == "ok"));
        assert!(shared.iter().any(|v| v.direction == direction && v.expect == "invalid"));
    }
}

#[test]
fn every_vector_gives_the_expected_verdict_and_variant() {
    let all = vectors();
    let mut failures = Vec::new();
    for v in &all {
        let out = parse(&v.direction, &v.frame);
        let (verdict, variant) = match &out {
            Ok(m) => ("ok", Some(m.variant())),
            Err(_) => ("invalid", None),
        };
        if verdict != v.expect || (v.expect == "ok" && variant != v.variant.as_deref()) {
            failures.push(format!("{}/{}: expected {} {:?}, got {verdict} {variant:?}: {out:?}", v.source, v.name, v.expect, v.variant));
        }
        // Bytes and text agree.
        assert_eq!(parse_bytes(&v.direction, v.frame.as_bytes()), out, "{}", v.name);
        // Shared text (opaque values as spans) and copies agree, errors included.
        let shared = parse_shared(&v.direction, &SharedText::new(v.frame.clone()));
        assert_eq!(shared, out, "{}", v.name);
        assert_eq!(shared.map(|m| m.serialize()), out.as_ref().map(Parsed::serialize).map_err(Clone::clone), "{}", v.name);
        // Shared bytes (the same buffer as shared text once checked) agree too.
        assert_eq!(parse_shared_bytes(&v.direction, &SharedBytes::new(v.frame.clone().into_bytes())), out, "{}", v.name);
    }
    assert!(failures.is_empty(), "{} of {} vectors disagree:\n{}", failures.len(), all.len(), failures.join("\n"));
}

#[test]
fn opaque_values_of_a_shared_frame_are_spans_unless_they_hold_whitespace() {
    let compact = SharedText::new(r#"{"v":"1","jsonrpc":"2.0","id":1,"result":{"a":"x y","b":[1,2]}}"#.to_owned());
    let Ok(ServerMessage::RpcSuccess(m)) = graphorin::parse::<ServerMessage>(&compact, &ParseOptions::default()) else { panic!("rpc-success expected") };
    assert!(m.result.is_shared());
    assert_eq!(m.result.as_str(), r#"{"a":"x y","b":[1,2]}"#);
    let spaced = SharedText::new(r#"{"v":"1","jsonrpc":"2.0","id":1,"result":{"a": [1, 2]}}"#.to_owned());
    let Ok(ServerMessage::RpcSuccess(m)) = graphorin::parse::<ServerMessage>(&spaced, &ParseOptions::default()) else { panic!("rpc-success expected") };
    assert!(!m.result.is_shared());
    assert_eq!(m.result.as_str(), r#"{"a":[1,2]}"#);
}

#[test]
fn invalid_frames_separate_json_failures_from_schema_failures() {
    for v in vectors().iter().filter(|v| v.expect == "invalid") {
        let err = parse(&v.direction, &v.frame).expect_err(&v.name);
        let not_json = v.why.starts_with("not JSON") || v.why.contains("is not JSON");
        assert_eq!(err.is_syntax_error(), not_json, "{}: {err:?}", v.name);
        if not_json {
            assert!(err.issues().is_empty() && err.raw_id().is_none(), "{}", v.name);
            assert_eq!(err.rpc_error_code(), RpcErrorCode::ParseError);
            assert_eq!(err.reply_id(), RpcId::Int(0));
        } else {
            assert!(!err.issues().is_empty(), "{}: a schema failure names at least one issue", v.name);
            assert_eq!(err.rpc_error_code(), RpcErrorCode::InvalidRequest);
        }
    }
}

#[test]
fn decoded_values_give_the_same_verdict_as_text() {
    for v in vectors() {
        // serde_json cannot hold lone surrogates; duplicate keys collapse to the last, as in JSON.parse.
        let Ok(value) = serde_json::from_str::<Value>(&v.frame) else { continue };
        let from_value = parse_value(&v.direction, &value);
        let from_text = parse(&v.direction, &v.frame);
        assert_eq!(from_value.is_ok(), from_text.is_ok(), "{}: {from_value:?}", v.name);
        if let (Ok(a), Ok(b)) = (&from_value, &from_text) {
            assert_eq!(a, b, "{}", v.name);
        }
    }
}

#[test]
fn every_ok_frame_round_trips_byte_for_byte_when_canonical() {
    let all = vectors();
    for name in NON_CANONICAL {
        assert!(all.iter().any(|v| v.name == *name && v.expect == "ok"), "NON_CANONICAL names an unknown ok vector: {name}");
    }
    for v in all.iter().filter(|v| v.expect == "ok") {
        let msg = parse(&v.direction, &v.frame).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        let text = msg.serialize();
        let again = parse(&v.direction, &text).unwrap_or_else(|e| panic!("{}: re-parse of {text}: {e}", v.name));
        assert_eq!(again, msg, "{}: re-parse of {text}", v.name);
        assert_eq!(again.serialize(), text, "{}: serializing is a fixed point", v.name);
        if NON_CANONICAL.contains(&v.name.as_str()) {
            assert_ne!(text, v.frame, "{} is canonical after all: remove it from NON_CANONICAL", v.name);
        } else {
            assert_eq!(text, v.frame, "{}: a canonical frame comes back byte for byte", v.name);
        }
    }
}

#[test]
fn rpc_ids_keep_their_json_type_and_exact_digits() {
    let string_one = graphorin::parse::<ServerMessage>(r#"{"v":"1","jsonrpc":"2.0","id":"1","result":null}"#, &ParseOptions::default()).unwrap();
    let number_one = graphorin::parse::<ServerMessage>(r#"{"v":"1","jsonrpc":"2.0","id":1,"result":null}"#, &ParseOptions::default()).unwrap();
    assert_eq!(string_one.rpc_id(), Some(&RpcId::try_from("1").unwrap()));
    assert_eq!(number_one.rpc_id(), Some(&RpcId::Int(1)));
    assert_ne!(string_one, number_one, "\"1\" and 1 are different ids");
    assert!(serialize_server_message(&string_one).contains(r#""id":"1""#));
    assert!(serialize_server_message(&number_one).contains(r#""id":1,"#));
    // Beyond 2^53 the digits are kept (JSON.parse would round to 9007199254740992).
    let big = graphorin::parse::<ServerMessage>(r#"{"v":"1","jsonrpc":"2.0","id":9007199254740993,"result":{}}"#, &ParseOptions::default()).unwrap();
    assert_eq!(big.rpc_id(), Some(&RpcId::Int(9_007_199_254_740_993)));
    // Integral spellings read as the integer and are written canonically.
    for (spelling, value) in
        [("1.0", 1), ("1e3", 1000), ("-0", 0), ("10E-1", 1), ("-3.27e4", -32700), ("9223372036854775807", i64::MAX), ("-9223372036854775808", i64::MIN)]
    {
        let frame = format!(r#"{{"v":"1","jsonrpc":"2.0","id":{spelling},"result":null}}"#);
        let msg = graphorin::parse::<ServerMessage>(&frame, &ParseOptions::default()).unwrap_or_else(|e| panic!("{spelling}: {e}"));
        assert_eq!(msg.rpc_id(), Some(&RpcId::Int(value)), "{spelling}");
        assert_eq!(serialize_server_message(&msg), format!(r#"{{"v":"1","jsonrpc":"2.0","id":{value},"result":null}}"#));
    }
    for (spelling, code) in [
        ("9223372036854775808", IssueCode::TooBig),
        ("-9223372036854775809", IssueCode::TooSmall),
        ("1e19", IssueCode::TooBig),
        ("1.5", IssueCode::InvalidType),
        ("1e400", IssueCode::InvalidType),
    ] {
        let frame = format!(r#"{{"v":"1","jsonrpc":"2.0","id":{spelling},"result":null}}"#);
        let err = graphorin::parse::<ServerMessage>(&frame, &ParseOptions::default()).unwrap_err();
        assert_eq!(err.issues()[0].code, Some(code), "{spelling}: {err}");
        assert_eq!(err.issues()[0].path.segments(), vec![PathSegment::Key("id".into())]);
    }
}

// ---------------------------------------------------------------------------------------------
// Errors: codes, paths, best-effort id
// ---------------------------------------------------------------------------------------------

fn only_issue(direction: &str, frame: &str) -> (IssueCode, String) {
    let err = parse(direction, frame).unwrap_err();
    assert_eq!(err.issues().len(), 1, "{frame}: {err}");
    let issue = &err.issues()[0];
    (issue.code.expect("Graphorin issues carry codes"), issue.dotted_path())
}

#[test]
fn issues_carry_stable_codes_and_paths() {
    let cases: &[(&str, &str, IssueCode, &str)] = &[
        ("server", r#"{"v":"1","kind":"pong","surprise":true}"#, IssueCode::UnrecognizedKeys, "surprise"),
        ("server", r#"{"v":"1","kind":"pong","__proto__":{"x":1}}"#, IssueCode::UnrecognizedKeys, "__proto__"),
        ("server", r#"{"v":"2","kind":"pong"}"#, IssueCode::InvalidLiteral, "v"),
        ("server", r#"{"kind":"pong"}"#, IssueCode::InvalidLiteral, "v"),
        ("server", r#"{"v":1,"kind":"pong"}"#, IssueCode::InvalidLiteral, "v"),
        ("server", r#"{"v":"1","jsonrpc":"1.0","id":1,"result":{}}"#, IssueCode::InvalidLiteral, "jsonrpc"),
        ("server", r#"{"v":"1","kind":"bogus"}"#, IssueCode::InvalidDiscriminator, "kind"),
        ("server", r#"{"v":"1","kind":"Pong"}"#, IssueCode::InvalidDiscriminator, "kind"),
        ("server", r#"{"v":"1","kind":"pong","nonce":""}"#, IssueCode::TooSmall, "nonce"),
        ("server", r#"{"v":"1","kind":"lifecycle","subscriptionId":"s","status":"done"}"#, IssueCode::InvalidEnum, "status"),
        ("server", r#"{"v":"1","kind":"event","eventId":"e","subject":"x","type":"t"}"#, IssueCode::InvalidType, "subscriptionId"),
        ("server", r#"{"v":"1","kind":"replay-marker","subscriptionId":"s","eventId":"e","droppedCount":-1}"#, IssueCode::TooSmall, "droppedCount"),
        ("server", r#"{"v":"1","jsonrpc":"2.0","id":1,"error":{"code":-32000.5,"message":"x"}}"#, IssueCode::InvalidType, "error.code"),
        ("server", r#"{"v":"1","jsonrpc":"2.0","id":"r","result":1,"error":{"code":0,"message":"no"}}"#, IssueCode::UnrecognizedKeys, "error"),
        ("server", r#"{"v":"1","jsonrpc":"2.0","id":1}"#, IssueCode::InvalidType, "result"),
        ("server", r#"{"v":"1","jsonrpc":"2.0","id":1,"result":{},"kind":"pong"}"#, IssueCode::UnrecognizedKeys, "kind"),
        ("server", "[1]", IssueCode::InvalidType, ""),
        (
            "client",
            r#"{"v":"1","jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"n","version":""}}}"#,
            IssueCode::TooSmall,
            "params.clientInfo.version",
        ),
        ("client", r#"{"v":"1","jsonrpc":"2.0","id":9,"method":"unknown.method","params":{}}"#, IssueCode::InvalidDiscriminator, "method"),
        ("client", r#"{"v":"1","kind":"pong"}"#, IssueCode::InvalidDiscriminator, "method"),
        ("client", r#"{"v":"1","jsonrpc":"2.0","id":1,"method":"ping","params":null}"#, IssueCode::InvalidType, "params"),
        (
            "client",
            r#"{"v":"1","jsonrpc":"2.0","id":3,"method":"run.cancel","params":{"runId":"r","onPendingApprovals":"approve"}}"#,
            IssueCode::InvalidEnum,
            "params.onPendingApprovals",
        ),
        ("client", r#"{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#, IssueCode::InvalidType, "params.requestId"),
        ("client", r#"{"v":"1","jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{"requestId":"r"}}"#, IssueCode::UnrecognizedKeys, "id"),
        (
            "client",
            r#"{"v":"1","jsonrpc":"2.0","id":"s","method":"subscription.subscribe","params":{"subject":"x","lastSequenceId":3}}"#,
            IssueCode::UnrecognizedKeys,
            "params.lastSequenceId",
        ),
    ];
    for (direction, frame, code, path) in cases {
        assert_eq!(only_issue(direction, frame), (*code, (*path).to_owned()), "{frame}");
    }
    // Every issue is reported, in frame order, unrecognized keys last.
    let err = graphorin::parse::<ServerMessage>(r#"{"x":1,"kind":"event","eventId":"","subject":5,"type":"t"}"#, &ParseOptions::default()).unwrap_err();
    let got: Vec<(IssueCode, String)> = err.issues().iter().map(|i| (i.code.expect("Graphorin issues carry codes"), i.dotted_path())).collect();
    assert_eq!(
        got,
        vec![
            (IssueCode::InvalidLiteral, "v".into()),
            (IssueCode::TooSmall, "eventId".into()),
            (IssueCode::InvalidType, "subscriptionId".into()),
            (IssueCode::InvalidType, "subject".into()),
            (IssueCode::UnrecognizedKeys, "x".into()),
        ]
    );
    assert_eq!(err.issues()[0].to_string(), r#"v: invalid literal: expected "1", received undefined"#);
    assert_eq!(
        serde_json::to_value(&err.issues()[4]).unwrap(),
        json!({ "path": ["x"], "code": "unrecognized_keys", "message": "unrecognized key \"x\" (the object is strict)" })
    );
}

#[test]
fn a_rejected_request_carries_its_raw_id_with_its_json_type() {
    let raw_id = |frame: &str| graphorin::parse::<ClientMessage>(frame, &ParseOptions::default()).unwrap_err().raw_id().map(|r| r.as_str().to_owned());
    assert_eq!(raw_id(r#"{"v":"1","jsonrpc":"2.0","id":2.5,"method":"ping"}"#).as_deref(), Some("2.5"));
    assert_eq!(raw_id(r#"{"v":"1","jsonrpc":"2.0","id":"","method":"ping"}"#).as_deref(), Some("\"\""));
    assert_eq!(raw_id(r#"{"v":"1","jsonrpc":"2.0","id": {"n" : 1},"method":"x"}"#).as_deref(), Some(r#"{"n":1}"#));
    assert_eq!(raw_id(r#"{"v":"1","jsonrpc":"2.0","id":1,"id":"last","method":"x"}"#).as_deref(), Some("\"last\""));
    assert_eq!(raw_id(r#"{"v":"1","jsonrpc":"2.0","method":"ping"}"#), None);
    assert_eq!(raw_id(r#"[{"id":1}]"#), None, "only a top-level object has an id");
    // The reply id is the id when valid, else 0, so the reply is always a legal frame.
    let reply = |frame: &str| graphorin::parse::<ClientMessage>(frame, &ParseOptions::default()).unwrap_err().reply_id();
    assert_eq!(reply(r#"{"v":"1","jsonrpc":"2.0","id":9,"method":"unknown.method","params":{}}"#), RpcId::Int(9));
    assert_eq!(reply(r#"{"v":"1","jsonrpc":"2.0","id":"9","method":"Ping"}"#), RpcId::try_from("9").unwrap());
    assert_eq!(reply(r#"{"v":"1","jsonrpc":"2.0","id":2.5,"method":"ping"}"#), RpcId::Int(0));
    assert_eq!(reply(r#"{"v":"1","jsonrpc":"2.0","id":null,"method":"ping"}"#), RpcId::Int(0));
    assert_eq!(graphorin::parse::<ClientMessage>("ping", &ParseOptions::default()).unwrap_err().reply_id(), RpcId::Int(0));
}

#[test]
fn bytes_that_are_not_utf8_are_a_json_failure() {
    let err = graphorin::parse::<ServerMessage>(b"{\"v\":\"1\",\"kind\":\"pong\",\"nonce\":\"\xff\"}", &ParseOptions::default()).unwrap_err();
    assert!(matches!(err, ParseError::Json { offset: 32, .. }), "{err:?}");
    assert!(graphorin::parse::<ClientMessage>(b"", &ParseOptions::default()).unwrap_err().is_syntax_error(), "a binary message reads as the empty string");
    // Shared bytes: the same error, and valid shared bytes keep compact opaque values as spans.
    let bad = SharedBytes::new(b"{\"v\":\"1\",\"kind\":\"pong\",\"nonce\":\"\xff\"}".to_vec());
    assert!(matches!(graphorin::parse::<ServerMessage>(&bad, &ParseOptions::default()), Err(ParseError::Json { offset: 32, .. })));
    let good = SharedBytes::new(br#"{"v":"1","jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}"#.to_vec());
    let Ok(ServerMessage::RpcSuccess(m)) = graphorin::parse::<ServerMessage>(&good, &ParseOptions::default()) else { panic!("rpc-success expected") };
    assert!(m.result.is_shared());
}

#[test]
fn the_depth_cap_is_an_option() {
    let frame = format!(r#"{{"v":"1","jsonrpc":"2.0","id":1,"result":{}1{}}}"#, "[".repeat(9), "]".repeat(9));
    assert!(graphorin::parse::<ServerMessage>(&frame, &ParseOptions::default()).is_ok());
    let tight = ParseOptions { max_depth: 9 };
    assert!(graphorin::parse::<ServerMessage>(&frame, &tight).unwrap_err().is_syntax_error(), "nesting past the cap is a JSON failure");
    assert!(graphorin::parse::<ServerMessage>(&frame, &ParseOptions { max_depth: 10 }).is_ok(), "ten levels: the root and nine arrays");
}

// ---------------------------------------------------------------------------------------------
// Guards and accessors
// ---------------------------------------------------------------------------------------------

#[test]
fn exactly_one_guard_is_true_for_every_message() {
    assert_eq!(SERVER_GUARDS.len(), 9);
    assert_eq!(CLIENT_GUARDS.len(), 6);
    let mut seen_server = std::collections::BTreeSet::new();
    let mut seen_client = std::collections::BTreeSet::new();
    for v in vectors().iter().filter(|v| v.expect == "ok") {
        match parse(&v.direction, &v.frame).unwrap() {
            Parsed::Server(m) => {
                let hits: Vec<_> = SERVER_GUARDS.iter().filter(|g| (g.3)(&m)).collect();
                assert_eq!(hits.len(), 1, "{}", v.name);
                assert_eq!(hits[0].0, m.variant(), "{}", v.name);
                seen_server.insert(m.variant().as_str());
            }
            Parsed::Client(m) => {
                let hits: Vec<_> = CLIENT_GUARDS.iter().filter(|g| (g.3)(&m)).collect();
                assert_eq!(hits.len(), 1, "{}", v.name);
                assert_eq!(hits[0].0, m.variant(), "{}", v.name);
                seen_client.insert(m.variant().as_str());
            }
        }
    }
    assert_eq!(seen_server.len(), 9, "every server variant has an ok vector");
    assert_eq!(seen_client.len(), 6, "every client variant has an ok vector");
    let names: Vec<&str> = SERVER_GUARDS.iter().map(|g| g.2).chain(CLIENT_GUARDS.iter().map(|g| g.2)).collect();
    assert_eq!(
        names,
        [
            "isRpcSuccess",
            "isRpcFailure",
            "isSubscribedFrame",
            "isUnsubscribedFrame",
            "isEventFrame",
            "isLifecycleFrame",
            "isErrorFrame",
            "isPongFrame",
            "isReplayMarkerFrame",
            "isInitializeRequest",
            "isSubscribeRequest",
            "isUnsubscribeRequest",
            "isRunCancelRequest",
            "isPingRequest",
            "isCancelledNotification"
        ]
    );
}

#[test]
fn routing_accessors_follow_the_spec() {
    let p = |f: &str| graphorin::parse::<ServerMessage>(f, &ParseOptions::default()).unwrap();
    assert_eq!(p(r#"{"v":"1","kind":"unsubscribed","subscriptionId":"s-1"}"#).subscription_id(), Some("s-1"));
    assert_eq!(p(r#"{"v":"1","kind":"error","code":"c","message":"m"}"#).subscription_id(), None);
    assert_eq!(p(r#"{"v":"1","kind":"error","code":"c","message":"m","subscriptionId":"s"}"#).subscription_id(), Some("s"));
    assert_eq!(p(r#"{"v":"1","kind":"pong"}"#).kind(), Some("pong"));
    assert_eq!(p(r#"{"v":"1","kind":"pong"}"#).rpc_id(), None);
    assert_eq!(p(r#"{"v":"1","jsonrpc":"2.0","id":0,"result":1}"#).kind(), None);
    let notification = graphorin::parse::<ClientMessage>(
        r#"{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r"}}"#,
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!((notification.id(), notification.method()), (None, "notifications/cancelled"));
    assert_eq!(KINDS.len(), 7);
    assert_eq!(METHODS, ["initialize", "subscription.subscribe", "subscription.unsubscribe", "run.cancel", "ping", "notifications/cancelled"]);
    assert_eq!(ServerVariant::VALUES[..2], ["rpc-success", "rpc-failure"]);
}

#[test]
fn built_messages_serialize_to_legal_frames() {
    let pong = ServerMessage::from(ServerPongFrame { nonce: None });
    assert_eq!(serialize_server_message(&pong), r#"{"v":"1","kind":"pong"}"#);
    let event = ServerMessage::from(ServerEventFrame {
        event_id: NonEmptyString::new("e").unwrap(),
        subscription_id: NonEmptyString::new("s").unwrap(),
        subject: NonEmptyString::new("x").unwrap(),
        event_type: NonEmptyString::new("t").unwrap(),
        payload: None,
    });
    assert_eq!(serialize_server_message(&event), r#"{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t"}"#);
    let success = ServerMessage::from(ServerRpcSuccess { id: RpcId::Int(0), result: RawJson::null() });
    assert_eq!(serialize_server_message(&success), r#"{"v":"1","jsonrpc":"2.0","id":0,"result":null}"#);
    let request = ClientMessage::from(ClientPingRequest { id: RpcId::try_from("graphorin-1").unwrap(), params: None });
    assert_eq!(serialize_client_message(&request), r#"{"v":"1","jsonrpc":"2.0","id":"graphorin-1","method":"ping"}"#);
    for text in [serialize_server_message(&pong), serialize_server_message(&event), serialize_server_message(&success)] {
        assert!(graphorin::parse::<ServerMessage>(&text, &ParseOptions::default()).is_ok(), "{text}");
    }
    assert!(NonEmptyString::new("").is_none(), "an empty string cannot be built");
    assert!(RpcId::try_from("").is_err());
}

// ---------------------------------------------------------------------------------------------
// Reflection
// ---------------------------------------------------------------------------------------------

fn walk(obj: &dyn Reflect) -> Value {
    let mut map = Map::new();
    let literal_keys: Vec<&str> = obj.literals().iter().map(|l| l.0).collect();
    for (key, value) in obj.literals() {
        map.insert((*key).to_owned(), json!(value));
    }
    for f in obj.fields() {
        assert!(!literal_keys.contains(&f.wire), "{}: a literal is not a field", obj.type_name());
        if let Some(r) = obj.get(f.wire) {
            map.insert(f.wire.to_owned(), field_value(r));
        }
    }
    assert!(obj.is_strict() && obj.extra().is_empty(), "{} is strict", obj.type_name());
    Value::Object(map)
}

fn field_value(r: FieldRef<'_>) -> Value {
    match r {
        FieldRef::Str(s) | FieldRef::Enum(s) => json!(s),
        FieldRef::Bool(b) => json!(b),
        FieldRef::UInt(u) => json!(u),
        FieldRef::Int(i) => json!(i),
        FieldRef::Number(x) => json!(x),
        FieldRef::Raw(raw) => raw.to_value().expect("representable"),
        FieldRef::OpaqueObject(rec) => Value::Object(rec.0.iter().map(|(k, v)| (k.into_owned(), v.to_value().expect("representable"))).collect()),
        FieldRef::Object(o) => walk(o),
        FieldRef::List(items) => Value::Array(items.into_iter().map(field_value).collect()),
    }
}

#[test]
fn every_message_can_be_walked_generically() {
    let mut walked = 0;
    for v in vectors().iter().filter(|v| v.expect == "ok") {
        let msg = parse(&v.direction, &v.frame).unwrap();
        // serde_json cannot hold lone surrogates or 1e400 kept in opaque values: skip those.
        let Ok(expected) = serde_json::from_str::<Value>(&msg.serialize()) else { continue };
        let got = walk(msg.reflect());
        assert_eq!(normalize(got), normalize(expected), "{}", v.name);
        walked += 1;
    }
    assert!(walked > 50, "walked only {walked} messages");
    assert_eq!(<ServerPongFrame as Described>::DESC.literals, [("v", "1"), ("kind", "pong")]);
    assert_eq!(<ClientPingRequest as Described>::DESC.literals, [("v", "1"), ("jsonrpc", "2.0"), ("method", "ping")]);
    let fields: Vec<&str> = <ClientPingRequest as Described>::DESC.fields.iter().map(|f| f.wire).collect();
    assert_eq!(fields, ["id", "params"]);
}

/// Integral floats compare as integers (`1.0` → `1`), as in JavaScript.
fn normalize(v: Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(normalize).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, normalize(v))).collect()),
        other => other,
    }
}

// ---------------------------------------------------------------------------------------------
// Catalogues
// ---------------------------------------------------------------------------------------------

#[test]
fn rpc_error_codes_are_the_twelve_of_the_catalogue() {
    use ClientErrorKind as K;
    let pinned: Vec<(&str, i64, ClientErrorKind)> = RPC_ERROR_CODES.iter().map(|c| (c.name, c.value, c.client_kind)).collect();
    assert_eq!(
        pinned,
        [
            ("PARSE_ERROR", -32700, K::ProtocolViolation),
            ("INVALID_REQUEST", -32600, K::ProtocolViolation),
            ("METHOD_NOT_FOUND", -32601, K::ProtocolViolation),
            ("INVALID_PARAMS", -32602, K::ProtocolViolation),
            ("INTERNAL_ERROR", -32603, K::ServerError),
            ("AUTH_REQUIRED", -32001, K::AuthFailed),
            ("AUTH_INVALID", -32002, K::AuthFailed),
            ("SCOPE_DENIED", -32003, K::ScopeDenied),
            ("RATE_LIMITED", -32004, K::RateLimited),
            ("PROTOCOL_VIOLATION", -32005, K::ProtocolViolation),
            ("RUN_NOT_FOUND", -32010, K::RunNotFound),
            ("SUBSCRIPTION_NOT_FOUND", -32011, K::SubscriptionNotFound),
        ]
    );
    for entry in RPC_ERROR_CODES {
        assert_eq!(RpcErrorCode::from_code(entry.value), entry.code);
        assert_eq!(entry.code.code(), entry.value);
        assert_eq!(RpcErrorCode::from_name(entry.name), Some(entry.code));
        assert_eq!(entry.code.name(), Some(entry.name));
        assert_eq!(entry.code.client_kind(), entry.client_kind);
        if entry.value > -32100 {
            assert!((-32099..=-32000).contains(&entry.value), "extensions stay in the server-error range");
        }
    }
    // Unknown codes stay representable and map to protocol-violation.
    let other = RpcErrorCode::from_code(-32099);
    assert_eq!((other, other.name(), other.client_kind()), (RpcErrorCode::Other(-32099), None, ClientErrorKind::ProtocolViolation));
    let failure = graphorin::parse::<ServerMessage>(r#"{"v":"1","jsonrpc":"2.0","id":1,"error":{"code":7,"message":"m"}}"#, &ParseOptions::default()).unwrap();
    let ServerMessage::RpcFailure(f) = &failure else { panic!("{failure:?}") };
    assert_eq!(f.error.code, RpcErrorCode::Other(7));
    assert_eq!(serialize_server_message(&failure), r#"{"v":"1","jsonrpc":"2.0","id":1,"error":{"code":7,"message":"m"}}"#);
}

#[test]
fn close_codes_are_4001_to_4008_with_lookups_both_ways() {
    let pinned: Vec<(&str, u16)> = CLOSE_CODE_VALUES.iter().map(|(r, c)| (r.as_str(), *c)).collect();
    assert_eq!(
        pinned,
        [
            ("auth.required", 4001),
            ("auth.invalid", 4002),
            ("auth.revoked", 4003),
            ("auth.scope_denied", 4004),
            ("rate.limited", 4005),
            ("flow.throttled", 4006),
            ("server.shutdown", 4007),
            ("protocol.violation", 4008),
        ]
    );
    for reason in CloseReason::ALL {
        assert_eq!(close_code_reason(close_code_for(*reason)), Some(*reason));
        assert_eq!(reason.code(), close_code_for(*reason));
        assert_eq!(CloseReason::from_wire(reason.as_str()), Some(*reason));
    }
    for outside in [1000, 4000, 4009, 4999, 0] {
        assert_eq!(close_code_reason(outside), None, "{outside}");
    }
    let fatal: Vec<u16> = CloseReason::ALL.iter().filter(|r| r.is_fatal()).map(|r| r.code()).collect();
    assert_eq!(fatal, [4001, 4002, 4003, 4008]);
}

#[test]
fn subprotocol_negotiation_follows_the_reference() {
    assert_eq!((SUBPROTOCOL_NAME, PROTOCOL_VERSION, TICKET_SUBPROTOCOL_PREFIX), ("graphorin.protocol.v1", "1", "ticket."));
    assert_eq!(negotiate(["graphorin.protocol.v1"]), Some(SUBPROTOCOL_NAME));
    assert_eq!(negotiate(["ticket.abc, graphorin.protocol.v1"]), Some(SUBPROTOCOL_NAME), "from a comma-separated string");
    assert_eq!(negotiate(["x", "ticket.t,graphorin.protocol.v1"]), Some(SUBPROTOCOL_NAME), "list entries are split too");
    assert_eq!(negotiate(["  graphorin.protocol.v1  "]), Some(SUBPROTOCOL_NAME), "tokens are trimmed");
    assert_eq!(negotiate(["Graphorin.Protocol.V1"]), None, "case-sensitive");
    assert_eq!(negotiate(["graphorin.protocol.v2"]), None);
    assert_eq!(negotiate(Vec::<String>::new()), None, "empty list (and the reference's null)");
    assert_eq!(negotiate([""]), None, "empty string");
    assert_eq!(normalize_offer(["a, ,b", "", " c "]), ["a", "b", "c"]);
}

#[test]
fn tickets_format_and_parse() {
    assert_eq!(format_ticket("t-123").as_deref(), Ok("ticket.t-123"));
    assert_eq!(format_ticket(""), Err(EmptyTicketError));
    let offer = [SUBPROTOCOL_NAME.to_owned(), format_ticket("t-123").unwrap()];
    assert_eq!(parse_ticket(&offer).as_deref(), Some("t-123"), "round trip");
    assert_eq!(parse_ticket([SUBPROTOCOL_NAME]), None, "absent");
    assert_eq!(parse_ticket(["ticket., ticket.second"]).as_deref(), Some("second"), "a bare ticket. is skipped");
    assert_eq!(parse_ticket(["ticket.first", "ticket.second"]).as_deref(), Some("first"), "the first ticket wins");
    assert_eq!(parse_ticket(["Ticket.x"]), None, "the prefix is case-sensitive");
    assert_eq!(negotiate(["ticket.graphorin.protocol.v1"]), None, "a ticket token is not the protocol");
}

// ---------------------------------------------------------------------------------------------
// JSON Schema
// ---------------------------------------------------------------------------------------------

#[test]
fn schema_is_deterministic_2020_12_with_the_two_unions() {
    let text = export_json_schema_string();
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    assert_eq!(text, export_json_schema_string(), "deterministic");
    let schema = export_json_schema();
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["$id"], SCHEMA_ID);
    let defs = &schema["$defs"];
    assert_eq!(defs["ServerMessage"]["oneOf"].as_array().unwrap().len(), 9);
    assert_eq!(defs["ClientMessage"]["oneOf"].as_array().unwrap().len(), 6);
    for union in ["ServerMessage", "ClientMessage"] {
        for branch in defs[union]["oneOf"].as_array().unwrap() {
            let name = branch["$ref"].as_str().unwrap().trim_start_matches("#/$defs/");
            let def = &defs[name];
            assert_eq!(def["additionalProperties"], false, "{name} is strict");
            assert_eq!(def["properties"]["v"], json!({ "const": "1" }), "{name}");
            assert!(def["required"].as_array().unwrap().contains(&json!("v")), "{name}");
        }
    }
    for (name, key, value) in [("ServerPongFrame", "kind", "pong"), ("ServerRpcSuccess", "jsonrpc", "2.0"), ("ClientRunCancelRequest", "method", "run.cancel")]
    {
        assert_eq!(defs[name]["properties"][key], json!({ "const": value }), "{name}");
    }
    let required = |name: &str| defs[name]["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect::<Vec<_>>();
    assert!(required("ServerRpcSuccess").contains(&"result".to_owned()), "result must be present (CORE-PRO-01)");
    assert!(!required("ServerEventFrame").contains(&"payload".to_owned()), "payload may be absent (§14.3)");
    assert!(required("ClientPingRequest").contains(&"id".to_owned()) && !required("ClientPingRequest").contains(&"params".to_owned()));
    assert!(defs["ClientCancelledNotification"]["properties"].get("id").is_none(), "the notification has no id");
    assert_eq!(defs["ServerReplayMarkerFrame"]["properties"]["droppedCount"]["minimum"], 0);
    assert_eq!(defs["InitializeParams"]["properties"]["capabilities"]["type"], "object");
    assert_eq!(defs["InitializeParams"]["properties"]["capabilities"]["additionalProperties"], true);
    assert_eq!(
        defs["ServerSubscribedFrame"]["properties"]["snapshotEventId"],
        json!({ "description": "The snapshot's event id, when there is one.", "type": "string", "minLength": 1 })
    );
    assert!(!text.contains("\"null\""), "optional is not nullable");
}
