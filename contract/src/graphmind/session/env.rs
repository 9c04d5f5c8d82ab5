//! The environment configuration of an app session, read once here for every host
//! (graphmind-session §1 "Environment"), under the real clients' names and with their
//! semantics:
//!
//! | variable | effect |
//! |---|---|
//! | `GRAPHMIND_DISABLED` | any value but `''`, `0`, `false`, `off`, `no` (case-insensitive, trimmed) disables the session, whatever the host says (TS `killSwitchOn`; it covers PY's `"1"`) |
//! | `GRAPHMIND_ENV`, `ENVIRONMENT`, `APP_ENV`, `PYTHON_ENV`, `ENV`, `DJANGO_ENV`, `FLASK_ENV`, `NODE_ENV` | the first one set (non-empty) decides; `production`/`prod` (case-insensitive, trimmed) disables unless `GRAPHMIND=1` (PY `looks_like_production`, whose list includes TS's `NODE_ENV`) |
//! | `GRAPHMIND_URL` | the endpoint when non-empty |
//! | `GRAPHMIND_LOOP_THRESHOLD` | a non-negative integer (as JavaScript's `Number()` reads it: decimal, exponent, `0x`/`0o`/`0b`); `0` turns the guard off; anything else keeps 3 |
//! | `GRAPHMIND_ON_LOOP` | `pause`, `warn`, `off` (case-insensitive, trimmed; `0`/`false`/`none` mean `off`); anything else keeps `pause` |
//! | `GRAPHMIND_LOOP_ALLOW` | comma-separated node ids or names that legitimately repeat; entries trimmed, empty ones dropped |
//! | `GRAPHMIND_HIDE_INPUTS`, `_OUTPUTS`, `_TOOL_ARGS`, `_TOOL_RESULTS` | `1` or `true` (case-insensitive, trimmed) turns the switch on |
//!
//! [`SessionConfig::from_env`] gives the defaults with the environment applied; a host then
//! applies its explicit arguments on top (an argument beats the environment), except that the
//! kill switch and the hide switches are floors ([`EnvFloor`]) that
//! [`AppSession::new`](super::AppSession::new) re-applies.

use super::config::{EnvFloor, LoopMode, RedactionConfig, SessionConfig};

/// The variables whose first set value decides whether the environment is production.
pub const PRODUCTION_ENV_VARS: &[&str] = &["GRAPHMIND_ENV", "ENVIRONMENT", "APP_ENV", "PYTHON_ENV", "ENV", "DJANGO_ENV", "FLASK_ENV", "NODE_ENV"];

/// Every variable [`SessionConfig::from_env`] reads, in the order of the table above.
pub const ENV_VARS: &[&str] = &[
    "GRAPHMIND_DISABLED",
    "GRAPHMIND",
    "GRAPHMIND_ENV",
    "ENVIRONMENT",
    "APP_ENV",
    "PYTHON_ENV",
    "ENV",
    "DJANGO_ENV",
    "FLASK_ENV",
    "NODE_ENV",
    "GRAPHMIND_URL",
    "GRAPHMIND_LOOP_THRESHOLD",
    "GRAPHMIND_ON_LOOP",
    "GRAPHMIND_LOOP_ALLOW",
    "GRAPHMIND_HIDE_INPUTS",
    "GRAPHMIND_HIDE_OUTPUTS",
    "GRAPHMIND_HIDE_TOOL_ARGS",
    "GRAPHMIND_HIDE_TOOL_RESULTS",
];

/// `GRAPHMIND_DISABLED`: on for any value but the off spellings.
fn kill_switch_on(value: &str) -> bool {
    !matches!(value.trim().to_ascii_lowercase().as_str(), "" | "0" | "false" | "off" | "no")
}

/// A `GRAPHMIND_HIDE_*` value: `1` or `true`.
fn flag_on(value: Option<&str>) -> bool {
    value.is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true"))
}

/// `GRAPHMIND_LOOP_THRESHOLD` as JavaScript's `Number()` reads the spellings that matter;
/// `None` for anything that is not a finite non-negative integer.
fn parse_threshold(value: &str) -> Option<u64> {
    let text = value.trim();
    let radix = |prefix: [&str; 2], base: u32| prefix.iter().find_map(|p| text.strip_prefix(p)).map(|digits| u64::from_str_radix(digits, base).ok());
    if let Some(parsed) = radix(["0x", "0X"], 16).or_else(|| radix(["0o", "0O"], 8)).or_else(|| radix(["0b", "0B"], 2)) {
        return parsed;
    }
    let decimal = text.strip_prefix('+').unwrap_or(text);
    let well_formed = !decimal.is_empty()
        && decimal.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && decimal.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'.');
    if !well_formed {
        return None;
    }
    let v: f64 = decimal.parse().ok()?;
    // Integers up to 2^53 are exact in a double; a larger threshold never trips anyway.
    (v.is_finite() && v >= 0.0 && v.fract() == 0.0).then_some(if v >= 9_007_199_254_740_992.0 { u64::MAX } else { v as u64 })
}

/// `GRAPHMIND_ON_LOOP`.
fn parse_loop_mode(value: &str) -> Option<LoopMode> {
    match value.trim().to_ascii_lowercase().as_str() {
        "pause" => Some(LoopMode::Pause),
        "warn" => Some(LoopMode::Warn),
        "off" | "0" | "false" | "none" => Some(LoopMode::Off),
        _ => None,
    }
}

/// `GRAPHMIND_LOOP_ALLOW`.
fn parse_allow(value: &str) -> Vec<String> {
    value.split(',').map(str::trim).filter(|e| !e.is_empty()).map(str::to_owned).collect()
}

impl SessionConfig {
    /// The defaults with the environment applied (module docs): `vars` is the environment
    /// the host passes in, as name/value pairs (a later duplicate name wins). Never fails:
    /// a value that does not parse keeps the default, as in the reference clients.
    pub fn from_env<I, K, V>(vars: I) -> SessionConfig
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let mut env: Vec<(String, String)> = Vec::new();
        for (k, v) in vars {
            let (k, v) = (k.as_ref(), v.as_ref());
            if ENV_VARS.contains(&k) {
                env.retain(|(name, _)| name != k);
                env.push((k.to_owned(), v.to_owned()));
            }
        }
        let get = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let mut config = SessionConfig::default();
        let disabled = get("GRAPHMIND_DISABLED").is_some_and(kill_switch_on);
        let production = PRODUCTION_ENV_VARS
            .iter()
            .find_map(|name| get(name).filter(|v| !v.is_empty()))
            .is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "production" | "prod"));
        let reenabled = get("GRAPHMIND") == Some("1");
        config.enabled = !(disabled || (production && !reenabled));
        if let Some(url) = get("GRAPHMIND_URL").filter(|u| !u.is_empty()) {
            url.clone_into(&mut config.url);
        }
        if let Some(t) = get("GRAPHMIND_LOOP_THRESHOLD").and_then(parse_threshold) {
            config.loop_guard.threshold = t;
        }
        if let Some(m) = get("GRAPHMIND_ON_LOOP").and_then(parse_loop_mode) {
            config.loop_guard.mode = m;
        }
        if let Some(a) = get("GRAPHMIND_LOOP_ALLOW") {
            config.loop_guard.allow = parse_allow(a);
        }
        let redaction = RedactionConfig {
            hide_inputs: flag_on(get("GRAPHMIND_HIDE_INPUTS")),
            hide_outputs: flag_on(get("GRAPHMIND_HIDE_OUTPUTS")),
            hide_tool_args: flag_on(get("GRAPHMIND_HIDE_TOOL_ARGS")),
            hide_tool_results: flag_on(get("GRAPHMIND_HIDE_TOOL_RESULTS")),
        };
        config.redaction = redaction;
        config.env_floor = EnvFloor { disabled, redaction };
        config
    }

    /// The configuration [`AppSession::new`](super::AppSession::new) runs with: `enabled` is
    /// off when the kill switch is, and every hide switch of the floor is on.
    #[must_use]
    pub fn effective(mut self) -> SessionConfig {
        self.enabled = self.enabled && !self.env_floor.disabled;
        self.redaction = self.redaction.or(self.env_floor.redaction);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pairs: &[(&str, &str)]) -> SessionConfig {
        SessionConfig::from_env(pairs.iter().copied())
    }

    #[test]
    fn an_empty_environment_gives_the_defaults() {
        assert_eq!(from(&[]), SessionConfig::default());
        assert_eq!(from(&[("PATH", "/bin"), ("HOME", "/h")]), SessionConfig::default());
    }

    #[test]
    fn kill_switch_spellings() {
        for on in ["1", "true", "yes", "anything", " TRUE "] {
            let c = from(&[("GRAPHMIND_DISABLED", on)]);
            assert!(!c.enabled && c.env_floor.disabled, "{on:?}");
        }
        for off in ["", "0", "false", "OFF", " no "] {
            let c = from(&[("GRAPHMIND_DISABLED", off)]);
            assert!(c.enabled && !c.env_floor.disabled, "{off:?}");
        }
        // The kill switch beats an explicit enabled=true; GRAPHMIND=1 does not lift it.
        let c = SessionConfig { enabled: true, ..from(&[("GRAPHMIND_DISABLED", "1"), ("GRAPHMIND", "1")]) };
        assert!(!c.effective().enabled);
    }

    #[test]
    fn production_detection_takes_the_first_set_variable() {
        assert!(!from(&[("GRAPHMIND_ENV", "production")]).enabled);
        assert!(!from(&[("NODE_ENV", " Prod ")]).enabled);
        assert!(from(&[("NODE_ENV", "production"), ("GRAPHMIND", "1")]).enabled);
        assert!(from(&[("APP_ENV", "staging"), ("NODE_ENV", "production")]).enabled, "APP_ENV comes first");
        assert!(!from(&[("APP_ENV", ""), ("NODE_ENV", "production")]).enabled, "an empty value is not set");
        assert!(!from(&[("ENV", "production"), ("GRAPHMIND", "true")]).enabled, "only GRAPHMIND=1 re-enables");
        // Production is not a floor: an explicit enabled=true wins (PY precedence).
        assert!(SessionConfig { enabled: true, ..from(&[("ENV", "prod")]) }.effective().enabled);
    }

    #[test]
    fn url_loop_and_allow() {
        let c = from(&[
            ("GRAPHMIND_URL", "ws://h:1/x"),
            ("GRAPHMIND_LOOP_THRESHOLD", " 2 "),
            ("GRAPHMIND_ON_LOOP", "WARN"),
            ("GRAPHMIND_LOOP_ALLOW", " poll , tool:beat,, "),
        ]);
        assert_eq!(c.url, "ws://h:1/x");
        assert_eq!(c.loop_guard.threshold, 2);
        assert_eq!(c.loop_guard.mode, LoopMode::Warn);
        assert_eq!(c.loop_guard.allow, ["poll", "tool:beat"]);
        assert_eq!(from(&[("GRAPHMIND_URL", "")]).url, super::super::config::DEFAULT_URL);
        for (text, want) in [("0", 0), ("5.0", 5), ("1e1", 10), ("0x10", 16), ("0b11", 3), ("0o7", 7), ("+4", 4)] {
            assert_eq!(from(&[("GRAPHMIND_LOOP_THRESHOLD", text)]).loop_guard.threshold, want, "{text}");
        }
        for bad in ["", "-1", "2.5", "abc", "Infinity", "NaN", "0x", "1e400"] {
            assert_eq!(from(&[("GRAPHMIND_LOOP_THRESHOLD", bad)]).loop_guard.threshold, 3, "{bad}");
        }
        for (text, want) in [
            ("off", LoopMode::Off),
            ("0", LoopMode::Off),
            ("None", LoopMode::Off),
            ("false", LoopMode::Off),
            ("pause", LoopMode::Pause),
            ("bogus", LoopMode::Pause),
        ] {
            assert_eq!(from(&[("GRAPHMIND_ON_LOOP", text)]).loop_guard.mode, want, "{text}");
        }
    }

    #[test]
    fn hide_switches_are_floors() {
        let c = from(&[
            ("GRAPHMIND_HIDE_INPUTS", "1"),
            ("GRAPHMIND_HIDE_OUTPUTS", " True "),
            ("GRAPHMIND_HIDE_TOOL_ARGS", "yes"),
            ("GRAPHMIND_HIDE_TOOL_RESULTS", "0"),
        ]);
        assert_eq!(c.redaction, RedactionConfig { hide_inputs: true, hide_outputs: true, hide_tool_args: false, hide_tool_results: false });
        // An explicit "off" cannot lower an environment switch; an explicit "on" adds one.
        let explicit = SessionConfig { redaction: RedactionConfig { hide_tool_results: true, ..RedactionConfig::default() }, ..c };
        assert_eq!(explicit.effective().redaction, RedactionConfig { hide_inputs: true, hide_outputs: true, hide_tool_args: false, hide_tool_results: true });
    }

    #[test]
    fn a_later_duplicate_wins() {
        assert_eq!(from(&[("GRAPHMIND_URL", "ws://a"), ("GRAPHMIND_URL", "ws://b")]).url, "ws://b");
    }
}
