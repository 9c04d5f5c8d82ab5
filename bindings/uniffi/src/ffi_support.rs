//! What both uniffi namespaces share (issue 11 §3): the [`Convert`] trait, the host [`Issue`]
//! record and its one conversion from the contract's [`wire::Issue`], the panic guard, and the
//! readers that take host values through the contract's own scalar readers ([`read`],
//! [`read_int`], [`read_f64`]), so no bound, rule or message text is restated in a binding.
//! It imports no other file of either crate but their roots (`crate::HostString`, …), so
//! `convert.rs` and the generated code depend on it, never the other way round.
//!
//! Compiled into both crates (GraphMind's and Graphorin's, by `#[path]`, as `host_string.rs`
//! is): uniffi 0.32 gives each crate one namespace, and a record used by two namespaces would
//! be an external type of a third one (a third Kotlin package and a third Swift module that both
//! protocol modules import, with its own C module and FFI symbols in the XCFramework). Each
//! namespace therefore declares its own `Issue` from this one definition: the same fields, the
//! same conversion, the same `dottedPath()`. Each crate provides `crate::IssueCode` (generated
//! from the contract's `IssueCode`), `crate::HostString`, and `crate::ISSUE_CODES` (whether its
//! protocol promises stable issue codes, spec graphorin-v1 §13; GraphMind's does not).

use std::panic::{catch_unwind, AssertUnwindSafe};

use wirecontract::wire::{self, from_json, from_json_coded, IssuePath, WireValue};

use crate::{HostString, IssueCode};

/// A contract type with its host counterpart: one trait for both crates, implemented in each
/// crate's `convert.rs` (leaf types) and generated code (records, enums, unions).
pub(crate) trait Convert: Sized {
    /// The uniffi type the host sees.
    type Host;
    /// Contract → host (never fails).
    fn to_host(&self) -> Self::Host;
    /// Host → contract; `None` after recording at least one issue at `path` or below.
    fn from_host(host: &Self::Host, issues: &mut Issues, path: &str) -> Option<Self>;
}

/// Problems found while converting host values: the contract's own issues (path, optional code,
/// message), converted to host [`Issue`]s once, when they cross.
pub(crate) type Issues = Vec<wire::Issue>;

/// One segment of an issue path: an object key (decoded) or an array index, as zod's
/// `issue.path` holds them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum PathSegment {
    /// An object member name. A `HostString`, so an `Issue` built by hand in Kotlin with a lone
    /// surrogate in a key crosses (for `dottedPath()`) instead of throwing in the encoder.
    Key {
        /// The name.
        key: HostString,
    },
    /// An array position, 0-based.
    Index {
        /// The position.
        index: i64,
    },
}

impl From<&wire::PathSegment> for PathSegment {
    fn from(s: &wire::PathSegment) -> Self {
        match s {
            wire::PathSegment::Key(key) => PathSegment::Key { key: HostString::from(key.as_str()) },
            wire::PathSegment::Index(i) => PathSegment::Index { index: i64::try_from(*i).unwrap_or(i64::MAX) },
        }
    }
}

/// One validation problem (spec graphmind-v1 §5.2, graphorin-v1 §13), the same record in both
/// protocols: where (`path`, segments from the frame root, empty for the root; an unrecognized
/// key's path ends with that key), which rule (`code`, stable, where the protocol promises codes:
/// always set by Graphorin, `null`/`nil` in GraphMind, whose reference pins path and message
/// only), and what (`message`, English).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Issue {
    /// Segments from the frame root (`[payload, deltas, 0, t]`).
    pub path: Vec<PathSegment>,
    /// The stable code of the rule (`invalid_type`, `too_small`, …), or `null`/`nil` where the
    /// protocol promises none.
    pub code: Option<IssueCode>,
    /// English text naming the rule and what was received.
    pub message: HostString,
}

#[uniffi::export]
impl Issue {
    /// The path joined with `.` (`payload.deltas.0.t`), `""` for the root, as the reference
    /// parsers print it. Computed on the crossed bytes, so it never throws, whatever a
    /// hand-built `Issue` holds (a lone surrogate in a key comes back as it went).
    pub fn dotted_path(&self) -> HostString {
        let mut out = Vec::new();
        for (i, s) in self.path.iter().enumerate() {
            if i > 0 {
                out.push(b'.');
            }
            match s {
                PathSegment::Key { key } => out.extend_from_slice(&key.0),
                PathSegment::Index { index } => wirecontract_json::write_int(&mut out, *index),
            }
        }
        HostString(out)
    }
}

impl Issue {
    /// [`Issue::dotted_path`] as Rust text (tests).
    #[cfg(test)]
    pub(crate) fn dotted_text(&self) -> String {
        String::from_utf8_lossy(&self.dotted_path().0).into_owned()
    }
}

impl From<&wire::Issue> for Issue {
    /// The one conversion of a contract issue, for both protocols. A protocol that promises
    /// codes (`ISSUE_CODES`) gives every issue one: `custom` where the contract recorded none
    /// (a syntax error found while reading a host value).
    fn from(i: &wire::Issue) -> Self {
        let code = i.code.or(crate::ISSUE_CODES.then_some(wire::IssueCode::Custom));
        Issue {
            path: i.path.segments().iter().map(PathSegment::from).collect(),
            code: code.as_ref().map(Convert::to_host),
            message: HostString::from(i.message.as_str()),
        }
    }
}

impl From<wire::Issue> for Issue {
    fn from(i: wire::Issue) -> Self {
        Issue::from(&i)
    }
}

/// The host issues of contract issues.
pub(crate) fn host_issues(issues: &[wire::Issue]) -> Vec<Issue> {
    issues.iter().map(Issue::from).collect()
}

/// `path.key` (or `key` at the root): the dotted paths `Convert::from_host` passes down.
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// The text of a caught panic.
pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    let msg = p.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into());
    format!("internal error in wirecontract (please report): {msg}")
}

/// Runs contract code; a panic becomes `internal(text)` (each error type's `Internal` variant),
/// never an unwind across FFI.
pub(crate) fn catch<T, E>(f: impl FnOnce() -> Result<T, E>, internal: impl FnOnce(String) -> E) -> Result<T, E> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(internal(panic_text(&*p))))
}

/// The issue for a host string argument `name` holding a lone surrogate.
pub(crate) fn lone_surrogate_issue(name: &str, e: crate::host_string::LoneSurrogate) -> wire::Issue {
    wire::Issue::at(name, e.message())
}

/// A contract value from JSON text through the contract's own reader for `T` (its rule, message
/// and, where the protocol promises them, code), its issues moved under `path`.
pub(crate) fn read<T: WireValue>(text: &str, issues: &mut Issues, path: &str) -> Option<T> {
    let found = match if crate::ISSUE_CODES { from_json_coded::<T>(text) } else { from_json::<T>(text) } {
        Ok(v) => return Some(v),
        Err(found) => found,
    };
    for i in found {
        let mut at = IssuePath::from_dotted(path);
        for seg in i.path.segments() {
            match seg {
                wire::PathSegment::Key(k) => at.push_key(&k),
                wire::PathSegment::Index(n) => at.push_index(n),
            }
        }
        issues.push(wire::Issue { path: at, code: i.code, message: i.message });
    }
    None
}

/// A host integer (`Long`/`Int64`: Java can call every function) through the contract's reader
/// for `T`: every bound and message is the parser's (a negative counter is `too small`, one
/// above 2^53 − 1 `too big`; nothing wraps).
#[allow(dead_code, reason = "a crate whose protocol has no such field (Graphorin's integers take any i64) does not call it")]
pub(crate) fn read_int<T: WireValue>(host: i64, issues: &mut Issues, path: &str) -> Option<T> {
    read(&host.to_string(), issues, path)
}

/// A host double (`Double`) through the contract's reader for `T` (`f64`: finite;
/// `NonNegativeF64`: finite and ≥ 0), so the rules and messages are the parser's. The value
/// crosses as the JSON text that means it: a finite number its shortest spelling, ±Infinity
/// `1e400`/`-1e400` (what `JSON.parse` reads as Infinity), NaN `null` (what `JSON.stringify`
/// writes for it; JSON has no NaN).
#[allow(dead_code, reason = "a crate whose protocol declares no number field (Graphorin) does not call it")]
pub(crate) fn read_f64<T: WireValue>(host: f64, issues: &mut Issues, path: &str) -> Option<T> {
    let text = if host.is_infinite() {
        if host > 0.0 { "1e400" } else { "-1e400" }.to_owned()
    } else {
        let mut out = Vec::new();
        wirecontract_json::write_f64(&mut out, host);
        String::from_utf8(out).unwrap_or_default()
    };
    read(&text, issues, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_path_never_fails_on_bytes_that_are_not_utf8() {
        let key = HostString(vec![b'a', 0xED, 0xA0, 0x80]);
        let issue = Issue { path: vec![PathSegment::Key { key }, PathSegment::Index { index: 2 }], code: None, message: HostString::default() };
        assert_eq!(issue.dotted_path().0, [b'a', 0xED, 0xA0, 0x80, b'.', b'2']);
        assert_eq!(Issue { path: vec![], code: None, message: HostString::default() }.dotted_path().0, b"");
    }

    #[test]
    fn host_numbers_are_read_by_the_contract_reader() {
        let mut issues = Issues::new();
        assert_eq!(read_f64::<f64>(1.5, &mut issues, "x"), Some(1.5));
        assert_eq!(read_f64::<f64>(-0.0, &mut issues, "x"), Some(0.0));
        assert_eq!(read_f64::<f64>(1e300, &mut issues, "x"), Some(1e300));
        assert_eq!(read_f64::<f64>(f64::INFINITY, &mut issues, "a.b"), None);
        assert_eq!(read_f64::<f64>(f64::NEG_INFINITY, &mut issues, "c"), None);
        assert_eq!(read_f64::<f64>(f64::NAN, &mut issues, "d"), None);
        assert_eq!(read_f64::<wirecontract::wire::NonNegativeF64>(-1.0, &mut issues, "e"), None);
        let got: Vec<(String, bool)> = issues.iter().map(|i| (i.dotted_path(), i.message.is_empty())).collect();
        assert_eq!(got, [("a.b".into(), false), ("c".into(), false), ("d".into(), false), ("e".into(), false)]);
        // The messages are the reader's: compare with what a frame holding the same text gets.
        let direct = from_json::<f64>("1e400").unwrap_err();
        assert_eq!(issues[0].message, direct[0].message);
        assert_eq!(read_int::<wirecontract::wire::SafeUInt>(-1, &mut Issues::new(), "seq"), None);
    }
}
