//! Any registered protocol by name, from its declaration alone (Kotlin `protocols()`,
//! `parseFrame`, `parseFrameBytes`; Swift the same): the contract registry's parse
//! (`registry::Protocol::parse_any`), as the CLI's `parse --protocol` and Python's
//! `wirecontract.parse_frame` reach it. A protocol added to the contract's `PROTOCOLS` is
//! parsed here without a binding edit; the accepted object crosses as its JSON, and issues
//! carry the code the contract recorded, if any. GraphMind and Graphorin also have their typed
//! records and functions.

// uniffi passes arguments by value.
#![allow(clippy::needless_pass_by_value)]

use wirecontract::registry::{self, AnyOutcome};

use crate::{arg, guard, ContractError, HostString, Issue, JsonText};

/// What [`parse_frame`] says of one frame.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct FrameVerdict {
    /// `ok`, `invalid`, or the protocol's own verdict (`unknown-type`, `version-mismatch`).
    pub kind: String,
    /// The message type or union variant: when ok, and for another verdict when it knows one.
    pub message: Option<String>,
    /// The accepted object as the contract writes it (as `serializeEnvelope` spells it, not the
    /// received bytes): the whole frame for a protocol told apart by one member or by unions,
    /// the payload for a protocol with envelopes. Set only when `kind` is `ok`.
    pub object_json: Option<JsonText>,
    /// Why the frame is invalid, in one line; `null`/`nil` unless invalid.
    pub reason: Option<String>,
    /// Every problem with its path and rule; empty unless invalid.
    pub issues: Vec<Issue>,
}

/// The names of every registered protocol, in registry order (`graphmind`, `graphorin`, …).
#[uniffi::export]
pub fn protocols() -> Vec<String> {
    registry::protocols().iter().map(|p| p.name.to_owned()).collect()
}

/// Parses one text frame of the registered protocol `protocolName`. Bad input never throws: it
/// is an `invalid` verdict (a lone surrogate included, which no UTF-8 frame carries). Throws
/// `ContractError.Build` for a protocol name the registry does not hold, naming the ones it does.
#[uniffi::export]
pub fn parse_frame(protocol_name: HostString, frame: HostString) -> Result<FrameVerdict, ContractError> {
    guard(|| {
        let protocol = find(protocol_name)?;
        Ok(match frame.to_str() {
            Ok(text) => verdict((protocol.parse_any)(text)),
            Err(e) => invalid(format!("frame is not valid JSON: {}", e.message())),
        })
    })
}

/// [`parse_frame`] for a frame given as UTF-8 bytes; invalid UTF-8 is `invalid` naming the byte.
#[uniffi::export]
pub fn parse_frame_bytes(protocol_name: HostString, frame: Vec<u8>) -> Result<FrameVerdict, ContractError> {
    guard(|| {
        let protocol = find(protocol_name)?;
        Ok(verdict(registry::parse_any_bytes(protocol, &frame)))
    })
}

fn find(name: HostString) -> Result<&'static registry::Protocol, ContractError> {
    let name = arg(name, "protocolName")?;
    registry::protocol(&name).ok_or_else(|| ContractError::Build { reason: registry::unknown_protocol(&name), issues: Vec::new() })
}

fn verdict(outcome: AnyOutcome) -> FrameVerdict {
    match outcome {
        AnyOutcome::Ok { message, object } => {
            let object_json = object.map(|o| {
                let mut out = Vec::new();
                o.write_json(&mut out);
                // The contract's writer writes UTF-8 (JSON text of decoded strings).
                JsonText::from(String::from_utf8_lossy(&out).into_owned())
            });
            FrameVerdict { kind: "ok".to_owned(), message: Some(message), object_json, reason: None, issues: Vec::new() }
        }
        AnyOutcome::Invalid { reason, issues } => FrameVerdict {
            kind: "invalid".to_owned(),
            message: None,
            object_json: None,
            reason: Some(reason),
            issues: issues.iter().map(Issue::from).collect(),
        },
        AnyOutcome::Other { kind, message } => FrameVerdict { kind: kind.to_owned(), message, object_json: None, reason: None, issues: Vec::new() },
    }
}

fn invalid(reason: String) -> FrameVerdict {
    FrameVerdict { kind: "invalid".to_owned(), message: None, object_json: None, reason: Some(reason), issues: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(s: &str) -> HostString {
        HostString::from(s.to_owned())
    }

    #[test]
    fn every_registered_protocol_parses_by_name() {
        assert_eq!(protocols(), registry::protocols().iter().map(|p| p.name.to_owned()).collect::<Vec<_>>());
        for p in registry::protocols() {
            let v = parse_frame(host(p.name), host("{")).unwrap();
            assert_eq!((v.kind.as_str(), v.object_json.is_none()), ("invalid", true), "{}: {v:?}", p.name);
            assert!(v.reason.is_some(), "{}: {v:?}", p.name);
        }
    }

    #[test]
    fn an_ok_frame_comes_back_with_its_object_json() {
        let frame = r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"é"}],"x":[1]}}"#;
        let v = parse_frame(host("graphmind"), host(frame)).unwrap();
        assert_eq!(v.kind, "ok");
        assert_eq!(v.message.as_deref(), Some("node.token"));
        assert_eq!(v.object_json.map(|j| j.0), Some(r#"{"nodeId":"n","deltas":[{"t":"text","v":"é"}],"x":[1]}"#.to_owned()));
        let bytes = parse_frame_bytes(host("graphmind"), frame.as_bytes().to_vec()).unwrap();
        assert_eq!(bytes.message.as_deref(), Some("node.token"));
    }

    #[test]
    fn invalid_frames_name_the_path_and_other_verdicts_their_kind() {
        let v = parse_frame(host("graphmind"), host(r#"{"gm":1,"seq":-1,"ts":2,"runId":"r","type":"run.finished","payload":{}}"#)).unwrap();
        assert_eq!(v.kind, "invalid");
        assert!(!v.issues.is_empty() && v.issues[0].dotted_text() == "seq", "{v:?}");
        let v = parse_frame(host("graphmind"), host(r#"{"gm":2,"seq":1,"ts":2,"runId":"r","type":"x","payload":{}}"#)).unwrap();
        assert_eq!(v.kind, "version-mismatch");
        let v = parse_frame_bytes(host("graphmind"), vec![b'{', 0xff]).unwrap();
        assert_eq!(v.kind, "invalid");
        assert!(v.reason.unwrap_or_default().contains("invalid UTF-8 at byte 1"));
        let lone = HostString(vec![b'"', 0xed, 0xa0, 0x80, b'"']);
        assert_eq!(parse_frame(host("graphorin"), lone).unwrap().kind, "invalid");
    }

    #[test]
    fn an_unknown_protocol_is_refused_naming_the_registered_ones() {
        match parse_frame(host("nope"), host("{}")) {
            Err(ContractError::Build { reason, .. }) => assert!(reason.contains("\"nope\"") && reason.contains("graphmind"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
}
