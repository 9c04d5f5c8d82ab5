//! The suppression file: breaking changes accepted on purpose, each with a reason.
//!
//! ```toml
//! [[accept]]
//! rule = "enum-value-removed"
//! pointer = "/$defs/NodeKind/enum"
//! reason = "no client ever sent `legacy`; checked in the telemetry of 2026-03"
//! until_version = 2   # optional: stops applying once the protocol version reaches 2
//! ```
//!
//! Every entry needs a known `rule`, a JSON Pointer (`pointer`, matched exactly against the
//! change's path) and a non-empty `reason`. A file that breaks any of these, has an unknown
//! key or is not TOML is refused as a whole: a typo must not silently accept nothing, or
//! everything.

use serde::Deserialize;
use serde_json::Value;

use crate::Rule;

/// Where the suppression file is looked for by default, relative to the repository root.
pub const DEFAULT_FILE: &str = ".wirecontract-evolution.toml";

/// One `[[accept]]` entry: a breaking change accepted with a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Accept {
    /// The rule of the accepted change.
    pub rule: Rule,
    /// The JSON Pointer of the accepted change, as reported (exact match).
    pub pointer: String,
    /// Why the break is acceptable; printed with the change.
    pub reason: String,
    /// The protocol version from which the entry no longer applies, if any.
    pub until_version: Option<Value>,
    /// The entry's line in the file (1-based), for messages.
    pub line: usize,
}

/// A parsed suppression file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Suppressions {
    /// The file's name as given, for messages.
    pub source: String,
    /// The entries, in file order.
    pub entries: Vec<Accept>,
}

/// Why a suppression file was refused: every problem found, one per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuppressionError(pub String);

impl std::fmt::Display for SuppressionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SuppressionError {}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    /// The `[[accept]]` entries.
    #[serde(default)]
    accept: Vec<toml::Spanned<RawAccept>>,
}

/// One entry as written; checked into an [`Accept`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAccept {
    /// The rule's name.
    rule: String,
    /// The JSON Pointer.
    pointer: String,
    /// Required, but optional here so that its absence gets a clear message.
    reason: Option<String>,
    /// An integer or a string.
    until_version: Option<toml::Value>,
}

impl Suppressions {
    /// Parses and checks a suppression file; `source` names it in messages.
    pub fn parse(text: &str, source: &str) -> Result<Suppressions, SuppressionError> {
        let raw: RawFile =
            toml::from_str(text).map_err(|e| SuppressionError(format!("{source}: not a valid suppression file: {}", e.to_string().trim_end())))?;
        let mut problems = Vec::new();
        let mut entries = Vec::new();
        for spanned in raw.accept {
            let line = line_of(text, spanned.span().start);
            let at = format!("{source}:{line}: [[accept]]");
            let raw = spanned.into_inner();
            let rule = Rule::from_name(&raw.rule);
            if rule.is_none() {
                problems.push(format!("{at}: unknown rule \"{}\" (the rules are listed in docs/evolution.md)", raw.rule));
            }
            if let Err(why) = check_pointer(&raw.pointer) {
                problems.push(format!("{at}: pointer \"{}\" is not a JSON Pointer: {why}", raw.pointer));
            }
            let reason = raw.reason.unwrap_or_default();
            if reason.trim().is_empty() {
                problems.push(format!("{at}: {} at {} has no reason: say why breaking deployed peers is acceptable", raw.rule, raw.pointer));
            }
            let until_version = match raw.until_version {
                None => None,
                Some(toml::Value::Integer(n)) => Some(Value::from(n)),
                Some(toml::Value::String(s)) => Some(Value::from(s)),
                Some(other) => {
                    problems.push(format!("{at}: until_version must be an integer or a string, found {}", other.type_str()));
                    None
                }
            };
            if let Some(rule) = rule {
                entries.push(Accept { rule, pointer: raw.pointer, reason: reason.trim().to_owned(), until_version, line });
            }
        }
        if problems.is_empty() {
            Ok(Suppressions { source: source.to_owned(), entries })
        } else {
            Err(SuppressionError(problems.join("\n")))
        }
    }
}

impl Accept {
    /// `FILE:LINE` of the entry in `source`.
    pub fn location(&self, source: &str) -> String {
        format!("{source}:{}", self.line)
    }

    /// Whether the entry no longer applies at protocol version `version`: numbers (or
    /// strings holding numbers) from `until_version` up, anything else when equal.
    pub fn expired_at(&self, version: Option<&Value>) -> bool {
        let (Some(until), Some(version)) = (&self.until_version, version) else {
            return false;
        };
        match (as_number(until), as_number(version)) {
            (Some(u), Some(v)) => v >= u,
            _ => until == version,
        }
    }
}

/// A version value as a number, when it is one or a string holding one.
fn as_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.get(..at).map_or(0, |before| before.bytes().filter(|b| *b == b'\n').count()) + 1
}

/// Checks RFC 6901 syntax: empty, or `/`-separated tokens where `~` is followed by 0 or 1.
fn check_pointer(p: &str) -> Result<(), &'static str> {
    if !p.is_empty() && !p.starts_with('/') {
        return Err("it must be empty or start with /");
    }
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return Err("~ must be followed by 0 or 1");
        }
    }
    Ok(())
}
