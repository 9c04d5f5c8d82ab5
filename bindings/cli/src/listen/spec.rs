//! The command-line grammars of `wirecontract listen`: breakpoints (`--break`) and the pause
//! policy (`--on-pause`). They only translate text into the contract's own values
//! ([`BreakpointMatcher`], [`ResumeAction`], [`RawJson`]); matching stays in the app's core.

use wirecontract::graphmind::{BreakpointMatcher, NodeKind, PausePoint, RawJson, ResumeAction};

/// The `--break` grammar in short, for error messages (`--help` explains it in full).
const BREAK_GRAMMAR: &str = "expected KIND[:NAME][@POINT], e.g. `tool`, `llm:step@after`, `*:compose`, `@error`, or `none` (see `wirecontract listen --help`)";

/// What one `--break` flag asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum BreakSpec {
    /// Arm this matcher.
    Matcher(BreakpointMatcher),
    /// `none`: arm nothing (overrides the default `@error`).
    None,
}

/// Parses one `--break` value: `KIND[:NAME][@POINT]`, `*` or nothing for any kind, or `none`.
///
/// The point is split off at the **last** `@`, so a name containing `@` needs an explicit
/// point (`tool:a@b@before`); the name is split off at the **first** `:`, so names may contain
/// `:`. An absent point stays absent in the matcher (it means `before` when matching), so the
/// ack carries exactly what was typed.
pub fn parse_break(text: &str) -> Result<BreakSpec, String> {
    if text == "none" {
        return Ok(BreakSpec::None);
    }
    let (rest, point) = match text.rsplit_once('@') {
        Some((rest, p)) => {
            let point = PausePoint::from_wire(p).ok_or_else(|| format!("unknown point {p:?} in {text:?} (before, after or error); {BREAK_GRAMMAR}"))?;
            (rest, Some(point))
        }
        None => (text, None),
    };
    let (kind, name) = match rest.split_once(':') {
        Some((k, n)) => (k, Some(n)),
        None => (rest, None),
    };
    let kind = match kind {
        "" | "*" => None,
        k => Some(NodeKind::from_wire(k).ok_or_else(|| format!("unknown node kind {k:?} in {text:?}; {BREAK_GRAMMAR}"))?),
    };
    Ok(BreakSpec::Matcher(BreakpointMatcher::new(kind, name.map(str::to_owned), point)))
}

/// Checks `--listen`'s shape, `HOST:PORT` with a port number (0–65535), so a typo is a usage
/// error (exit 2) rather than a failed bind (exit 1). The host is resolved when binding: a
/// name that does not resolve is an I/O error then. IPv6 hosts are written in brackets.
pub fn parse_address(text: &str) -> Result<String, String> {
    let bad = |why: &str| format!("{text:?} is not HOST:PORT ({why}), e.g. 127.0.0.1:4747, localhost:0 or [::1]:4747");
    let (host, port) = text.rsplit_once(':').ok_or_else(|| bad("no port"))?;
    if host.is_empty() {
        return Err(bad("no host"));
    }
    if host.contains(':') && !(host.starts_with('[') && host.ends_with(']')) {
        return Err(bad("an IPv6 host goes in brackets"));
    }
    port.parse::<u16>().map_err(|_| bad("the port is not a number from 0 to 65535"))?;
    Ok(text.to_owned())
}

/// A positive number of seconds (`30`, `0.5`) for the timeout flags.
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    match parse_seconds_or_zero(text)? {
        d if d.is_zero() => Err(format!("{text:?}: the timeout must be above 0 seconds")),
        d => Ok(d),
    }
}

/// A number of seconds from 0 (`--idle-timeout 0`: no timeout) up to a year.
pub fn parse_seconds_or_zero(text: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(0.0..=31_536_000.0).contains(&secs) {
        return Err(format!("{text:?}: seconds must be from 0 to 31536000"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// How the listener answers a pause without asking.
#[derive(Debug, Clone, PartialEq)]
pub enum Policy {
    /// Resume with this action; `output` only for `inject`.
    Resume(ResumeAction, Option<RawJson>),
    /// Never answer: the pause stays open until the app releases it (its pause timeout, a
    /// disconnect, dispose). For testing an adapter's fail-open paths.
    Hold,
}

/// Parses `--on-pause`: `continue`, `abort`, `inject=JSON` or `hold`.
///
/// `retry` is left out on purpose: a policy that answers every pause with `retry` loops
/// forever at an `after` or `error` gate (the node re-runs and pauses again). It can be typed
/// at the terminal prompt.
pub fn parse_policy(text: &str) -> Result<Policy, String> {
    match text {
        "continue" => Ok(Policy::Resume(ResumeAction::Continue, None)),
        "abort" => Ok(Policy::Resume(ResumeAction::Abort, None)),
        "hold" => Ok(Policy::Hold),
        _ => match text.strip_prefix("inject=") {
            Some(json) => Ok(Policy::Resume(ResumeAction::Inject, Some(parse_json(json)?))),
            None => Err(format!("unknown policy {text:?}: continue, abort, inject=JSON or hold")),
        },
    }
}

/// One JSON value, kept as typed (the contract's reader: `JSON.parse` rules).
pub fn parse_json(text: &str) -> Result<RawJson, String> {
    RawJson::from_json(text).map_err(|e| format!("not one JSON value: {e}"))
}

/// A line typed at the pause prompt: `c`/`continue`, `r`/`retry`, `a`/`abort`,
/// `i JSON`/`inject JSON`. `None` for anything else.
pub fn parse_answer(line: &str) -> Option<Result<(ResumeAction, Option<RawJson>), String>> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
    let action = match word {
        "c" | "continue" | "" => ResumeAction::Continue,
        "r" | "retry" => ResumeAction::Retry,
        "a" | "abort" => ResumeAction::Abort,
        "i" | "inject" => return Some(parse_json(if rest.is_empty() { "null" } else { rest }).map(|v| (ResumeAction::Inject, Some(v)))),
        _ => return None,
    };
    Some(Ok((action, None)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(text: &str) -> BreakpointMatcher {
        match parse_break(text) {
            Ok(BreakSpec::Matcher(m)) => m,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn break_grammar() {
        let m = |k, n: Option<&str>, p| BreakpointMatcher::new(k, n.map(str::to_owned), p);
        assert_eq!(matcher("tool"), m(Some(NodeKind::Tool), None, None));
        assert_eq!(matcher("tool:get_weather"), m(Some(NodeKind::Tool), Some("get_weather"), None));
        assert_eq!(matcher("llm:step@after"), m(Some(NodeKind::Llm), Some("step"), Some(PausePoint::After)));
        assert_eq!(matcher("*:compose"), m(None, Some("compose"), None));
        assert_eq!(matcher("@error"), m(None, None, Some(PausePoint::Error)));
        assert_eq!(matcher(""), m(None, None, None));
        assert_eq!(matcher("tool:a:b@before"), m(Some(NodeKind::Tool), Some("a:b"), Some(PausePoint::Before)));
        assert_eq!(matcher("tool:a@b@before"), m(Some(NodeKind::Tool), Some("a@b"), Some(PausePoint::Before)));
        assert_eq!(matcher("tool:"), m(Some(NodeKind::Tool), Some(""), None));
        assert_eq!(parse_break("none"), Ok(BreakSpec::None));
        for bad in ["robot", "tool@later", "tool:a@b", "Tool"] {
            assert!(parse_break(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn listen_addresses() {
        for good in ["127.0.0.1:4747", "localhost:0", "[::1]:4747", "0.0.0.0:65535"] {
            assert_eq!(parse_address(good).as_deref(), Ok(good));
        }
        for bad in ["nohost", "127.0.0.1", ":4747", "localhost:http", "localhost:65536", "::1:4747", "host:-1"] {
            assert!(parse_address(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_seconds("0.5"), Ok(std::time::Duration::from_millis(500)));
        assert_eq!(parse_seconds_or_zero("0"), Ok(std::time::Duration::ZERO));
        for bad in ["0", "-1", "nan", "inf", "1e9", "x"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn policies_and_answers() {
        assert_eq!(parse_policy("continue"), Ok(Policy::Resume(ResumeAction::Continue, None)));
        assert_eq!(parse_policy("hold"), Ok(Policy::Hold));
        let Ok(Policy::Resume(ResumeAction::Inject, Some(v))) = parse_policy(r#"inject={"a": [1, 2]}"#) else { panic!("inject") };
        assert_eq!(v.to_string(), r#"{"a":[1,2]}"#);
        assert!(parse_policy("inject={").is_err());
        assert!(parse_policy("retry").is_err());
        assert_eq!(parse_answer("r"), Some(Ok((ResumeAction::Retry, None))));
        assert_eq!(parse_answer(""), Some(Ok((ResumeAction::Continue, None))));
        assert!(matches!(parse_answer("i 42"), Some(Ok((ResumeAction::Inject, Some(_))))));
        assert!(matches!(parse_answer("i {"), Some(Err(_))));
        assert_eq!(parse_answer("what"), None);
    }
}
