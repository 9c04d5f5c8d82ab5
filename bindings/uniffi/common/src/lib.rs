//! The host types every uniffi namespace of wirecontract declares, written once and stamped
//! into each namespace crate (`wirecontract-uniffi` for GraphMind, `wirecontract-uniffi-graphorin`)
//! by `macro_rules!`.
//!
//! uniffi 0.32 gives each crate one namespace, and a type used by two namespaces would be an
//! external type of a third one (a third Kotlin package and Swift module that both protocol
//! modules import, with its own C module and FFI symbols in the XCFramework). Each namespace
//! therefore declares its own `HostString`, `JsonText`, `PathSegment` and `Issue` from these
//! one definitions: the same fields, the same conversion, the same `dottedPath()`. The logic
//! behind them (lone surrogates, the issue conversion, host scalars read by the contract's
//! readers, the panic text) is plain Rust in `wirecontract-glue`; these macros add only what
//! must live in the crate that runs `uniffi::setup_scaffolding!`.
//!
//! Each macro is invoked in a module of the same name (`mod host_string {
//! wirecontract_uniffi_common::host_string!(); }`), so the items keep their module paths. The
//! invoking crate provides `crate::IssueCode` (generated from the contract's `IssueCode`) and
//! `crate::ISSUE_CODES` (whether its protocol promises stable issue codes, spec graphorin-v1 §13).

/// The glue crate, for the macros' expansions.
pub use wirecontract_glue as glue;

/// `HostString`: a host string that crosses as bytes, so that a string UTF-8 cannot carry
/// reaches Rust instead of failing in the host's encoder.
///
/// Kotlin strings can hold lone surrogates. uniffi's own `String` lowering encodes with a
/// strict UTF-8 encoder and throws `java.nio.charset.CharacterCodingException` from the FFI
/// layer. A `HostString` is lowered by Kotlin as generalized UTF-8 instead (a lone surrogate as
/// its three-byte form), and Rust decides: a parse gives its `Invalid` verdict
/// (`ParseException.Json` in Graphorin), every other function throws `ContractException` naming
/// the argument or the field's wire path and the UTF-16 index. Swift strings are always Unicode
/// and cross as their UTF-8.
#[macro_export]
macro_rules! host_string {
    () => {
        pub use $crate::glue::LoneSurrogate;

        /// A host string argument or record field (`kotlin.String`/`Swift.String` on the host).
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
        pub struct HostString(pub Vec<u8>);

        ::uniffi::custom_newtype!(HostString, Vec<u8>);

        impl HostString {
            /// The text, or where the first lone surrogate is.
            ///
            /// # Errors
            /// When the bytes are not UTF-8 (a Kotlin string with a lone surrogate).
            pub fn to_str(&self) -> Result<&str, LoneSurrogate> {
                $crate::glue::host_str(&self.0)
            }

            /// [`HostString::to_str`], owned.
            ///
            /// # Errors
            /// As [`HostString::to_str`].
            pub fn into_string(self) -> Result<String, LoneSurrogate> {
                $crate::glue::host_string(self.0)
            }

            /// The text with each lone surrogate replaced by one U+FFFD
            /// (`wirecontract_glue::lossy_host_string`): for diagnostic text
            /// the host did not choose (an exception's message or stack).
            #[allow(dead_code, reason = "a namespace with no such diagnostic text (Graphorin) does not call it")]
            pub fn into_string_lossy(self) -> String {
                $crate::glue::lossy_host_string(self.0)
            }
        }

        impl From<String> for HostString {
            fn from(s: String) -> Self {
                HostString(s.into_bytes())
            }
        }

        impl From<&str> for HostString {
            fn from(s: &str) -> Self {
                HostString(s.as_bytes().to_vec())
            }
        }
    };
}

/// `JsonText`: exact JSON text crossing the FFI as a string.
#[macro_export]
macro_rules! json_text {
    () => {
        /// Exact JSON text of one value: an opaque field or extension point (`result`,
        /// `payload`, `data`), the unknown members of an object, a raw payload, the
        /// `capabilities` record, or the raw `id` of a rejected frame. On the host it is a plain
        /// string (`typealias JsonText = String`); decode it with any JSON library, or with
        /// GraphMind's `decodeJson` when a tree is wanted. Numbers such as `1e400` and
        /// lone-surrogate escapes survive byte for byte because the text itself crosses, never a
        /// decoded value.
        ///
        /// On the FFI it is a string. Kotlin's lowering (`uniffi.toml`) replaces a text holding
        /// a lone surrogate, which UTF-8 cannot carry, by the glue's `LONE_SURROGATE_MARK` and
        /// its UTF-16 index, so that it reaches Rust and each function refuses it through its
        /// own declared error naming the argument or field ([`JsonText::text`]).
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct JsonText(pub String);

        ::uniffi::custom_newtype!(JsonText, String);

        impl JsonText {
            /// The text, or where the host's text had its first lone surrogate.
            ///
            /// # Errors
            /// When Kotlin lowered a text holding a lone surrogate (its marked form).
            pub fn text(&self) -> Result<&str, $crate::glue::LoneSurrogate> {
                $crate::glue::marked_lone_surrogate(&self.0).map_or(Ok(&self.0), Err)
            }
        }

        impl From<&str> for JsonText {
            fn from(s: &str) -> Self {
                JsonText(s.to_owned())
            }
        }

        impl From<String> for JsonText {
            fn from(s: String) -> Self {
                JsonText(s)
            }
        }
    };
}

/// What both uniffi namespaces share beside the strings: the `Convert` trait (per crate, as
/// the orphan rule wants: each crate implements it for contract types), the host `Issue` record
/// and `PathSegment` with the one conversion from the contract's issue (the glue's
/// `HostIssue`), and the readers of host values through the contract's readers under the
/// crate's code policy. It names only the invoking crate's roots (`crate::HostString`,
/// `crate::IssueCode`, `crate::ISSUE_CODES`), so `convert.rs` and the generated code depend on
/// it, never the other way round.
#[macro_export]
#[allow(clippy::crate_in_macro_def, reason = "`crate::` names the invoking namespace crate's own types, on purpose")]
macro_rules! ffi_support {
    () => {
        use ::wirecontract::wire::{self, WireValue};
        use $crate::glue::{Codes, HostIssue};

        use crate::{HostString, IssueCode};

        pub(crate) use $crate::glue::HostPath;

        /// This namespace's issue-code policy ([`crate::ISSUE_CODES`]).
        const CODES: Codes = if crate::ISSUE_CODES { Codes::Promised } else { Codes::AsRecorded };

        /// A contract type with its host counterpart: implemented in each crate's `convert.rs`
        /// (leaf types) and generated code (records, enums, unions).
        pub(crate) trait Convert: Sized {
            /// The uniffi type the host sees.
            type Host;
            /// Contract → host (never fails).
            fn to_host(&self) -> Self::Host;
            /// Host → contract; `None` after recording at least one issue at `path` or below.
            fn from_host(host: &Self::Host, issues: &mut Issues, path: &HostPath<'_>) -> Option<Self>;
        }

        /// Problems found while converting host values: the contract's own issues (path,
        /// optional code, message), converted to host [`Issue`]s once, when they cross.
        pub(crate) type Issues = Vec<wire::Issue>;

        /// One segment of an issue path: an object key (decoded) or an array index, as zod's
        /// `issue.path` holds them.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, ::uniffi::Enum)]
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
        #[derive(Debug, Clone, PartialEq, Eq, Hash, ::uniffi::Record)]
        pub struct Issue {
            /// Segments from the frame root (`[payload, deltas, 0, t]`).
            pub path: Vec<PathSegment>,
            /// The stable code of the rule (`invalid_type`, `too_small`, …), or `null`/`nil` where the
            /// protocol promises none.
            pub code: Option<IssueCode>,
            /// English text naming the rule and what was received.
            pub message: HostString,
        }

        #[::uniffi::export]
        impl Issue {
            /// The path joined with `.` (`payload.deltas.0.t`), `""` for the root, as the reference
            /// parsers print it. Computed on the crossed bytes, so it never throws, whatever a
            /// hand-built `Issue` holds (a lone surrogate in a key comes back as it went).
            pub fn dotted_path(&self) -> HostString {
                let mut out = Vec::new();
                $crate::glue::write_dotted(
                    &mut out,
                    self.path.iter().map(|s| match s {
                        PathSegment::Key { key } => Ok(&key.0[..]),
                        PathSegment::Index { index } => Err(*index),
                    }),
                );
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
            /// The one conversion of a contract issue (the glue's `HostIssue`), for both
            /// protocols. A protocol that promises codes (`ISSUE_CODES`) gives every issue one:
            /// `custom` where the contract recorded none (a syntax error found while reading a
            /// host value).
            fn from(i: &wire::Issue) -> Self {
                let h = HostIssue::new(i, CODES);
                Issue {
                    path: h.segments.iter().map(PathSegment::from).collect(),
                    code: h.code.as_ref().map(Convert::to_host),
                    message: HostString::from(h.message),
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

        /// Runs contract code; a panic becomes `internal(text)` (each error type's `Internal`
        /// variant) with the glue's one panic text, never an unwind across FFI.
        pub(crate) fn catch<T, E>(f: impl FnOnce() -> Result<T, E>, internal: impl FnOnce(String) -> E) -> Result<T, E> {
            $crate::glue::catch(f).unwrap_or_else(|p| Err(internal(p.text())))
        }

        /// The issue for a host string argument `name` holding a lone surrogate.
        pub(crate) fn lone_surrogate_issue(name: &str, e: $crate::glue::LoneSurrogate) -> wire::Issue {
            $crate::glue::arg_issue(name, e.message())
        }

        /// A contract value from JSON text through the contract's own reader for `T`, under
        /// this namespace's code policy (the glue's `read`).
        pub(crate) fn read<T: WireValue>(text: &str, issues: &mut Issues, path: &HostPath<'_>) -> Option<T> {
            $crate::glue::read(text, issues, path, CODES)
        }

        /// A host integer (`Long`/`Int64`) through the contract's reader for `T` (the glue's
        /// `read_int`).
        #[allow(dead_code, reason = "a crate whose protocol has no such field (Graphorin's integers take any i64) does not call it")]
        pub(crate) fn read_int<T: WireValue>(host: i64, issues: &mut Issues, path: &HostPath<'_>) -> Option<T> {
            $crate::glue::read_int(host, issues, path, CODES)
        }

        /// A host double through the contract's reader for `T` (the glue's `read_f64`).
        #[allow(dead_code, reason = "a crate whose protocol declares no number field (Graphorin) does not call it")]
        pub(crate) fn read_f64<T: WireValue>(host: f64, issues: &mut Issues, path: &HostPath<'_>) -> Option<T> {
            $crate::glue::read_f64(host, issues, path, CODES)
        }

        #[cfg(test)]
        mod stamped_tests {
            use super::*;

            #[test]
            fn dotted_path_never_fails_on_bytes_that_are_not_utf8() {
                let key = HostString(vec![b'a', 0xED, 0xA0, 0x80]);
                let issue = Issue { path: vec![PathSegment::Key { key }, PathSegment::Index { index: 2 }], code: None, message: HostString::default() };
                assert_eq!(issue.dotted_path().0, [b'a', 0xED, 0xA0, 0x80, b'.', b'2']);
                assert_eq!(Issue { path: vec![], code: None, message: HostString::default() }.dotted_path().0, b"");
            }

            #[test]
            fn the_one_conversion_follows_the_namespace_code_policy() {
                let host = Issue::from(wire::Issue::at("payload.deltas.0", "m"));
                assert_eq!(host.path.len(), 3);
                assert_eq!(host.path[2], PathSegment::Index { index: 0 });
                assert_eq!(host.code.is_some(), crate::ISSUE_CODES);
            }
        }
    };
}
