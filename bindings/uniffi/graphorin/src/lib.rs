//! The Graphorin v1 contract (`wirecontract::graphorin`, spec graphorin-v1 §13–§14) for Kotlin
//! and Swift through uniffi: its own uniffi namespace (Kotlin package
//! `dev.wirecontract.graphorin`, Swift module `WirecontractGraphorin`), compiled into the same
//! native library as GraphMind's (`libwirecontract_uniffi`, which depends on this crate).
//!
//! Same conventions as the GraphMind binding, opposite policy: a frame parses into its typed
//! message or the parse throws [`ParseError`] (issues with path, code and message; the raw `id`;
//! syntax vs schema). Layout:
//!
//! - `generated` (written into `OUT_DIR` by `build.rs` through `wirecontract-uniffi-gen` from
//!   the contract's registry): the strict frame records, the closed enums,
//!   `ServerMessage`/`ClientMessage` with one guard per variant, and their conversions;
//! - `api`: parse, serialize, catalogues, subprotocol helpers, constants (hand-written);
//! - `convert`: the `Convert` impls of the leaf types (`NonEmptyString`, `RpcId`, …);
//! - `ffi_support`, `host_string`, `json_text`: what both uniffi namespaces declare, stamped
//!   into this crate (as into the GraphMind crate) by the macros of
//!   `wirecontract-uniffi-common` over `wirecontract-glue`: the `Convert` trait, the [`Issue`]
//!   record and its one conversion, the panic guard, the readers of host values through the
//!   contract's readers; [`HostString`], every host string argument and record field (a Kotlin
//!   string with a lone surrogate reaches Rust and is refused here); [`JsonText`];
//! - `exact_count`: [`ExactCount`], an exact unsigned 64-bit integer as decimal text
//!   (`BigInteger` on the JVM);
//! - here: the hand-written host types every API shares ([`RpcId`], errors).
//!
//! Host safety: every exported function that runs contract code does so under
//! `catch_unwind`; a Rust panic becomes an `Internal` error, never an abort across FFI.

// uniffi's scaffolding macros expand to `extern "C"` glue with `unsafe` blocks.
#![allow(unsafe_code)]

mod api;
mod convert;
mod exact_count;
/// The `Convert` trait, the `Issue` record and its one conversion, the panic guard, the host
/// value readers (stamped from `wirecontract-uniffi-common`).
mod ffi_support {
    wirecontract_uniffi_common::ffi_support!();
}
/// `HostString` (stamped from `wirecontract-uniffi-common`).
mod host_string {
    wirecontract_uniffi_common::host_string!();
}
/// `JsonText` (stamped from `wirecontract-uniffi-common`).
mod json_text {
    wirecontract_uniffi_common::json_text!();
}
/// The generated records, enums, unions and conversions (see `build.rs`).
#[allow(missing_docs, clippy::too_many_lines, clippy::match_same_arms, clippy::trivially_copy_pass_by_ref, clippy::doc_markdown)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/graphorin.rs"));
}

use wirecontract::graphorin;

pub use api::*;
pub use exact_count::ExactCount;
pub use ffi_support::{Issue, PathSegment};
pub use generated::*;
pub use host_string::HostString;
pub use json_text::JsonText;

uniffi::setup_scaffolding!();

/// Graphorin promises stable issue codes (spec graphorin-v1 §13): every issue carries one
/// (`ffi_support`).
pub(crate) const ISSUE_CODES: bool = true;

/// A JSON-RPC id (spec §2 "RpcId"): a non-empty string or an integer. The JSON type is part of
/// the value (§14.4): `StringId("1")` and `IntId(1)` are different ids and each is written back
/// as it came. Integers keep the exact value their text spells within the 64-bit signed range
/// (`1.0`, `1e0` read as `1`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum RpcId {
    /// A string id, non-empty (checked when sent).
    StringId {
        /// The id.
        value: HostString,
    },
    /// An integer id.
    IntId {
        /// The id.
        value: i64,
    },
}

#[uniffi::export]
impl RpcId {
    /// The id as JSON text: `"req-1"` (quoted) or `7`, as the contract writes it. The id is
    /// read by the contract's own reader first, so one that could not be sent is refused with
    /// `ContractException.Build` naming the rule: an empty string, or (Kotlin) a string with a
    /// lone surrogate, which UTF-8 cannot carry (never a lossy U+FFFD).
    pub fn to_json(&self) -> Result<String, ContractError> {
        guard(|| {
            let mut issues = ffi_support::Issues::new();
            match <graphorin::RpcId as convert::Convert>::from_host(self, &mut issues, &convert::HostPath::root("")) {
                Some(id) if issues.is_empty() => Ok(id.to_json()),
                _ => {
                    let first = issues.first().map(|i| format!(": {}", i.summary())).unwrap_or_default();
                    Err(ContractError::Build { reason: format!("not a legal RpcId{first}"), issues: ffi_support::host_issues(&issues) })
                }
            }
        })
    }
}

/// Why a frame did not parse (spec §13): thrown by `parseServerMessage` and friends. The two
/// verdicts map to different server replies (§5, §8.1): `Json` → `PARSE_ERROR` (-32700) with
/// id `0`, `Schema` → `INVALID_REQUEST` (-32600) with `replyId`; both followed by close 4008.
///
/// Kotlin: `ParseException.Json`/`.Schema`/`.Internal`; Swift: `ParseError.json(reason:offset:)`
/// etc. No field is named `message` (it would shadow `Throwable.message` in Kotlin).
#[derive(Debug, Clone, PartialEq, thiserror::Error, uniffi::Error)]
pub enum ParseError {
    /// Not one JSON text as `JSON.parse` reads it, invalid UTF-8 (a binary WebSocket message
    /// reads as the empty string, which fails here too), or nested too deep.
    #[error("frame is not valid JSON: {reason} at byte {offset}")]
    Json {
        /// What was wrong.
        reason: String,
        /// Byte offset into the frame where reading stopped.
        offset: i64,
    },
    /// Valid JSON, but not a legal frame of this direction.
    #[error("invalid frame: {} issue(s)", issues.len())]
    Schema {
        /// Every issue found (at least one), in frame order.
        issues: Vec<Issue>,
        /// The frame's `id` member as raw JSON text, any type (`"\"\""`, `"1.5"`, `"{}"`), when
        /// the top level is an object that has one (last occurrence); else `null`/`nil`.
        id: Option<JsonText>,
        /// The id an error reply should carry: `id` when it is a valid RpcId, else `0`, so the
        /// reply is always a legal frame.
        reply_id: RpcId,
    },
    /// A bug in wirecontract (a Rust panic caught at the boundary). Please report it.
    #[error("{reason}")]
    Internal {
        /// The panic message.
        reason: String,
    },
}

impl From<graphorin::ParseError> for ParseError {
    fn from(e: graphorin::ParseError) -> Self {
        match &e {
            graphorin::ParseError::Json { reason, offset } => ParseError::Json { reason: reason.clone(), offset: i64::try_from(*offset).unwrap_or(i64::MAX) },
            graphorin::ParseError::Schema { issues, id } => ParseError::Schema {
                issues: ffi_support::host_issues(issues),
                id: id.as_ref().map(|raw| JsonText::from(raw.as_str())),
                reply_id: convert::Convert::to_host(&e.reply_id()),
            },
        }
    }
}

/// Why a call refused host values (parsing throws [`ParseError`] instead).
///
/// Kotlin: `ContractException.Build` etc.; Swift: `ContractError.Build(reason:issues:)`.
#[derive(Debug, Clone, PartialEq, thiserror::Error, uniffi::Error)]
pub enum ContractError {
    /// A message could not be serialized: a field breaks a rule its host type cannot express
    /// (an empty string, `JsonText` that is not JSON, `capabilities` that is not an object).
    /// Nothing is written: serialization emits only legal frames.
    #[error("{reason}")]
    Build {
        /// What is wrong, in one line.
        reason: String,
        /// Every problem found, with its path and code.
        issues: Vec<Issue>,
    },
    /// `formatTicket` was given an empty ticket (the reference throws a TypeError).
    #[error("{reason}")]
    EmptyTicket {
        /// What is wrong.
        reason: String,
    },
    /// A bug in wirecontract (a Rust panic caught at the boundary). Please report it.
    #[error("{reason}")]
    Internal {
        /// The panic message.
        reason: String,
    },
}

/// Runs contract code, turning a panic into [`ContractError::Internal`].
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, ContractError>) -> Result<T, ContractError> {
    ffi_support::catch(f, |reason| ContractError::Internal { reason })
}

/// A [`HostString`] argument as text, or `ContractError::Build` naming the argument and the
/// UTF-16 index of its lone surrogate.
pub(crate) fn arg(s: HostString, name: &str) -> Result<String, ContractError> {
    s.into_string().map_err(|e| {
        let issue = ffi_support::lone_surrogate_issue(name, e);
        ContractError::Build { reason: issue.summary(), issues: vec![Issue::from(issue)] }
    })
}

/// Every entry of a list argument, or `ContractError::Build` naming `name.i`.
pub(crate) fn args(list: Vec<HostString>, name: &str) -> Result<Vec<String>, ContractError> {
    list.into_iter().enumerate().map(|(i, s)| arg(s, &format!("{name}.{i}"))).collect()
}

/// Runs a parse, turning a panic into [`ParseError::Internal`].
pub(crate) fn parse_guard<T>(f: impl FnOnce() -> Result<T, ParseError>) -> Result<T, ParseError> {
    ffi_support::catch(f, |reason| ParseError::Internal { reason })
}
