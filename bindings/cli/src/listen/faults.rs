//! `listen`'s test-only fault flags, for checking that an adapter survives a misbehaving
//! viewer: `--fault-ack` (the next `hello.ack` sent as is, withheld, delayed or replaced) and
//! `--fault-at-pause` (frames and a close at the first pause, before the `--on-pause` answer).
//! They translate text into the contract's test faults (`ViewerSession::faults`), which
//! keep no protocol rule; binary frames are the socket's. No production use needs them.

use serde_json::{json, Map, Value};
use wirecontract::graphmind::session::AckFault;

use super::spec::{parse_break, BreakSpec};

/// The `--fault-ack` grammar, for error messages.
const ACK_GRAMMAR: &str = "expected send, withhold, delay=MS or replace=TEXT";

/// The `--fault-at-pause` grammar, for error messages.
const PAUSE_GRAMMAR: &str = "expected text=TEXT, binary=TEXT, break=SPEC, resume=ACTION, resume-unknown or close=CODE";

/// One `--fault-at-pause` item, played on the paused app's connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PauseFault {
    /// A raw text frame.
    Text(String),
    /// A binary frame of these bytes.
    Binary(Vec<u8>),
    /// A `breakpoint.set` envelope with this payload, whatever is armed (given twice: a
    /// duplicate).
    Break(String),
    /// An `exec.resume` for the pause with this action text (a valid one answers the pause
    /// before the `--on-pause` answer, which then arrives late).
    Resume(String),
    /// An `exec.resume` for a pause id no `exec.paused` opened.
    ResumeUnknown,
    /// A close with this code.
    Close(u16),
}

/// Parses one `--fault-ack` value.
pub fn parse_ack_fault(text: &str) -> Result<AckFault, String> {
    match text.split_once('=') {
        None if text == "send" => Ok(AckFault::Send),
        None if text == "withhold" => Ok(AckFault::Withhold),
        Some(("delay", ms)) => ms.parse::<u64>().map(AckFault::Delay).map_err(|_| format!("delay={ms:?}: not a number of milliseconds; {ACK_GRAMMAR}")),
        Some(("replace", frame)) => Ok(AckFault::Replace(frame.to_owned())),
        _ => Err(format!("{text:?}: {ACK_GRAMMAR}")),
    }
}

/// Parses one `--fault-at-pause` value.
pub fn parse_pause_fault(text: &str) -> Result<PauseFault, String> {
    match text.split_once('=') {
        None if text == "resume-unknown" => Ok(PauseFault::ResumeUnknown),
        Some(("text", t)) => Ok(PauseFault::Text(t.to_owned())),
        Some(("binary", t)) => Ok(PauseFault::Binary(t.as_bytes().to_vec())),
        Some(("resume", action)) => Ok(PauseFault::Resume(action.to_owned())),
        Some(("close", code)) => match code.parse::<u16>() {
            Ok(c) if (1000..=4999).contains(&c) => Ok(PauseFault::Close(c)),
            _ => Err(format!("close={code:?}: a WebSocket close code is 1000 to 4999")),
        },
        Some(("break", spec)) => match parse_break(spec)? {
            BreakSpec::Matcher(m) => {
                let mut matcher = Map::new();
                if let Some(k) = m.kind {
                    matcher.insert("kind".into(), json!(k.to_string()));
                }
                if let Some(n) = m.name {
                    matcher.insert("name".into(), json!(n));
                }
                if let Some(p) = m.point {
                    matcher.insert("point".into(), json!(p.to_string()));
                }
                Ok(PauseFault::Break(json!({ "matcher": Value::Object(matcher) }).to_string()))
            }
            BreakSpec::None => Err(format!("break=none: {PAUSE_GRAMMAR}")),
        },
        _ => Err(format!("{text:?}: {PAUSE_GRAMMAR}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ack_faults_parse() {
        assert!(matches!(parse_ack_fault("send"), Ok(AckFault::Send)));
        assert!(matches!(parse_ack_fault("withhold"), Ok(AckFault::Withhold)));
        assert!(matches!(parse_ack_fault("delay=300"), Ok(AckFault::Delay(300))));
        assert!(matches!(parse_ack_fault("replace={\"x\":1}"), Ok(AckFault::Replace(t)) if t == "{\"x\":1}"));
        for bad in ["", "delay=-1", "delay=x", "hold", "replace"] {
            assert!(parse_ack_fault(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pause_faults_parse() {
        assert_eq!(parse_pause_fault("text=not json"), Ok(PauseFault::Text("not json".into())));
        assert_eq!(parse_pause_fault("binary=ab"), Ok(PauseFault::Binary(b"ab".to_vec())));
        assert_eq!(parse_pause_fault("resume=bogus"), Ok(PauseFault::Resume("bogus".into())));
        assert_eq!(parse_pause_fault("resume-unknown"), Ok(PauseFault::ResumeUnknown));
        assert_eq!(parse_pause_fault("close=4321"), Ok(PauseFault::Close(4321)));
        assert_eq!(parse_pause_fault("break=llm:step@after"), Ok(PauseFault::Break(r#"{"matcher":{"kind":"llm","name":"step","point":"after"}}"#.into())));
        assert_eq!(parse_pause_fault("break=*"), Ok(PauseFault::Break(r#"{"matcher":{}}"#.into())));
        for bad in ["close=999", "close=5000", "close=x", "break=none", "break=bogus", "resume", "nope"] {
            assert!(parse_pause_fault(bad).is_err(), "{bad}");
        }
    }
}
