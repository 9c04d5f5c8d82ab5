//! The generic readers bindings use for host arguments that are not frames: a closed enum given
//! as a host string ([`enum_arg`]) and a declared object given as JSON text ([`object_arg`]).
//!
//! The target type is a type parameter, so a binding writes `let kind = enum_arg(kind, "kind")?`
//! and lets the call it feeds (`gm::should_pause(...)`) pick the enum; the accepted values and
//! the type name in the error text come from the type's registry entry ([`EnumDesc`],
//! [`ObjectDesc`](crate::registry::ObjectDesc)), never from a string in a binding. Each binding
//! only maps a [`HostArgError`] to its own exception (Python `ValueError`, Node `InvalidArg`).

use std::fmt;

use super::{from_json, Described, Issue, WireValue};
use crate::registry::EnumDesc;

/// A closed enum declared with `wire_enum!` (which implements this trait): its registry entry
/// and its wire-string reader, so generic code can read any of them.
pub trait WireEnum: Copy + 'static {
    /// The registry entry: name, doc and every value in spec order.
    const DESC: EnumDesc;
    /// The value for a wire string; `None` for any other string (closed enum, spec
    /// graphmind-v1 §1).
    fn from_wire(s: &str) -> Option<Self>;
    /// The wire string of this value.
    fn as_wire(self) -> &'static str;
}

/// A host argument the contract refused: the summary naming the argument and the rule, and the
/// reader's issues (empty for an enum, whose summary says it all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostArgError {
    /// What was wrong, naming the argument (`kind must be one of [...], not "x"`,
    /// `matcher is not a valid BreakpointMatcher`).
    pub summary: String,
    /// The reader's issues, paths relative to the argument (`""` for the value itself).
    pub issues: Vec<Issue>,
}

impl fmt::Display for HostArgError {
    /// The summary, then `": "` and each issue's [`Issue::summary`] joined with `"; "` when
    /// there are issues: the one text every binding raises.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary)?;
        for (i, issue) in self.issues.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            f.write_str(&issue.summary())?;
        }
        Ok(())
    }
}

impl std::error::Error for HostArgError {}

/// How many characters of a refused value an error message echoes: enough to recognise it,
/// and a host passing megabytes does not get a message of megabytes.
const ECHO_MAX_CHARS: usize = 64;

/// Reads the closed enum `T` from a host string: the value, or the error
/// `{what} must be one of ["agent", "llm", …], not "x"` listing `T`'s wire values in spec order
/// (from its registry entry). A value longer than 64 characters is echoed as its first 64
/// characters, `…` and its length in bytes
/// (`not "xxxx…" (10485760 bytes)`).
///
/// # Errors
/// [`HostArgError`] without issues when `value` is not one of `T`'s wire strings (spec
/// graphmind-v1 §1: enums are closed; matching is exact and case-sensitive).
pub fn enum_arg<T: WireEnum>(value: &str, what: &str) -> Result<T, HostArgError> {
    T::from_wire(value).ok_or_else(|| {
        let values: Vec<&str> = T::DESC.wire_values().collect();
        not_one_of(what, &values, value)
    })
}

/// The error for a host string that is none of `values`: `{what} must be one of ["a", "b"],
/// not "x"`, the value echoed capped as [`enum_arg`] does. For closed sets of host strings
/// that are not wire enums (a session config's `loop_mode`), so they read as enum errors do.
pub fn not_one_of(what: &str, values: &[&str], value: &str) -> HostArgError {
    HostArgError { summary: format!("{what} must be one of {values:?}, not {}", echo(value)), issues: Vec::new() }
}

/// `value` quoted as Rust's `{:?}` writes it, cut to [`ECHO_MAX_CHARS`] characters (on a
/// character boundary) with `…` and the full length in bytes when longer.
fn echo(value: &str) -> String {
    match value.char_indices().nth(ECHO_MAX_CHARS) {
        None => format!("{value:?}"),
        Some((cut, _)) => {
            let head = format!("{:?}", &value[..cut]);
            // The closing quote goes after the ellipsis: `"abc…"`.
            format!("{}…\" ({} bytes)", &head[..head.len() - 1], value.len())
        }
    }
}

/// Reads the declared object `T` from a host value's JSON text with the frame reader's rules
/// ([`from_json`]): the value, or the error `{what} is not a valid {T}` (the type's registry
/// name) with every issue found.
///
/// # Errors
/// [`HostArgError`] with the reader's issues (a syntax error is one issue at `""`).
pub fn object_arg<T: WireValue + Described>(text: &str, what: &str) -> Result<T, HostArgError> {
    from_json::<T>(text).map_err(|issues| HostArgError { summary: format!("{what} is not a valid {}", T::DESC.name), issues })
}

/// The error for a host value that is a contract object of another type than `T` (a Python
/// `NodeStarted` where a `BreakpointMatcher` is wanted): `{what} must be {accepted} or a {T},
/// not a {got}`; `accepted` is the host's word for the wire-shaped alternative (`"a dict"`).
pub fn wrong_object<T: Described>(what: &str, accepted: &str, got: &str) -> HostArgError {
    HostArgError { summary: format!("{what} must be {accepted} or a {}, not a {got}", T::DESC.name), issues: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphmind as gm;

    #[test]
    fn enum_arg_reads_each_wire_value_and_infers_the_type() {
        for v in gm::NodeKind::ALL {
            assert_eq!(enum_arg::<gm::NodeKind>(v.as_str(), "kind"), Ok(*v));
        }
        // Inference from the call the value feeds, as the bindings write it.
        let point = enum_arg("error", "point").unwrap();
        assert!(gm::BreakpointMatcher::new(None, None, Some(point)).matches(gm::NodeKind::Llm, "n", gm::PausePoint::Error));
    }

    #[test]
    fn bad_enum_value_names_the_argument_and_every_value() {
        let e = enum_arg::<gm::NodeKind>("nope", "kind").unwrap_err();
        let values: Vec<String> = gm::NodeKind::VALUES.iter().map(|v| format!("{v:?}")).collect();
        assert_eq!(e.summary, format!("kind must be one of [{}], not \"nope\"", values.join(", ")));
        assert!(e.summary.starts_with(r#"kind must be one of ["agent", "llm", "#), "{}", e.summary);
        assert!(e.issues.is_empty());
        assert_eq!(e.to_string(), e.summary);
        // Closed and exact: case and surrounding space matter.
        assert!(enum_arg::<gm::RunMode>("Run", "mode").is_err());
        assert_eq!(enum_arg::<gm::RunMode>(" run", "mode").unwrap_err().to_string(), "mode must be one of [\"run\", \"step\"], not \" run\"");
    }

    #[test]
    fn a_long_rejected_enum_value_is_echoed_capped() {
        let long = "x".repeat(10 * 1024 * 1024);
        let e = enum_arg::<gm::RunMode>(&long, "mode").unwrap_err();
        let shown = "x".repeat(ECHO_MAX_CHARS);
        assert_eq!(e.summary, format!("mode must be one of [\"run\", \"step\"], not \"{shown}…\" (10485760 bytes)"));
        assert!(e.summary.len() < 200, "{}", e.summary.len());
        // Exactly the cap: echoed whole. Multi-byte characters are cut on a boundary.
        let at_cap = "é".repeat(ECHO_MAX_CHARS);
        assert_eq!(enum_arg::<gm::RunMode>(&at_cap, "mode").unwrap_err().summary, format!("mode must be one of [\"run\", \"step\"], not \"{at_cap}\""));
        let over = "é".repeat(ECHO_MAX_CHARS + 1);
        let e = enum_arg::<gm::RunMode>(&over, "mode").unwrap_err();
        assert!(e.summary.ends_with(&format!("not \"{at_cap}…\" ({} bytes)", over.len())), "{}", e.summary);
    }

    #[test]
    fn not_one_of_reads_as_an_enum_error() {
        use crate::graphmind::session::LoopMode;
        let modes: Vec<LoopMode> = LoopMode::VALUES.iter().filter_map(|v| LoopMode::from_host(v)).collect();
        assert_eq!(modes, [LoopMode::Pause, LoopMode::Warn, LoopMode::Off]);
        assert_eq!(LoopMode::from_host("Pause"), None);
        let e = not_one_of("loop_mode", LoopMode::VALUES, "Pause");
        assert_eq!(e.to_string(), r#"loop_mode must be one of ["pause", "warn", "off"], not "Pause""#);
        assert!(e.issues.is_empty());
    }

    #[test]
    fn object_arg_reads_a_declared_object() {
        let m: gm::BreakpointMatcher = object_arg(r#"{"kind":"tool","name":"x","z":1}"#, "matcher").unwrap();
        assert!(m.matches(gm::NodeKind::Tool, "x", gm::PausePoint::Before));
    }

    #[test]
    fn bad_object_names_the_type_from_its_registry_entry_and_lists_the_issues() {
        let e = object_arg::<gm::BreakpointMatcher>(r#"{"kind":"nope"}"#, "breakpoints[1]").unwrap_err();
        assert_eq!(e.summary, "breakpoints[1] is not a valid BreakpointMatcher");
        assert_eq!(e.issues.len(), 1);
        assert_eq!(e.issues[0].path.dotted(), "kind");
        assert_eq!(e.to_string(), format!("breakpoints[1] is not a valid BreakpointMatcher: {}", e.issues[0].summary()));
        assert!(e.to_string().contains("kind: invalid option"), "{e}");

        let e = object_arg::<gm::SdkInfo>(r#"{"name":"py"}"#, "sdk").unwrap_err();
        assert!(e.to_string().starts_with("sdk is not a valid SdkInfo: "), "{e}");
        assert!(!e.issues.is_empty());

        // Not JSON at all: one issue at the value itself.
        let e = object_arg::<gm::Hello>("{", "hello").unwrap_err();
        assert_eq!(e.summary, "hello is not a valid Hello");
        assert_eq!(e.issues.len(), 1);
        assert!(e.issues[0].path.is_empty());
        assert!(e.to_string().starts_with("hello is not a valid Hello: not valid JSON"), "{e}");
    }

    #[test]
    fn wrong_object_names_both_types() {
        let e = wrong_object::<gm::BreakpointMatcher>("matcher", "a dict", "NodeStarted");
        assert_eq!(e.to_string(), "matcher must be a dict or a BreakpointMatcher, not a NodeStarted");
    }
}
