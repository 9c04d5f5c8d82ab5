//! Kotlin and Swift bindings of the `wirecontract` crate through uniffi (proc-macro style).
//!
//! Thin, like every binding: the rules live in the contract crate; this crate declares host
//! types and converts. Layout:
//!
//! - `generated` (written into `OUT_DIR` by `build.rs` through `wirecontract-uniffi-gen` from
//!   the contract's registry): one uniffi record per contract object, one uniffi enum per
//!   closed enum, the `Message` union, and their conversions;
//! - `graphmind`: the hand-written API (`parseEnvelopeJson`, `createEnvelope`,
//!   `serializeEnvelope`, matchers, constants) over the GraphMind contract;
//! - `shrink`: payload shrinking (`shrinkPayload`, `shrinkPayloadJson`, graphmind-shrink);
//! - `llm`: the LLM conventions (`normalizeFinishReason`, `readUsage`, the generated `FinishReason`);
//! - `protocols`: any registered protocol by name (`protocols()`, `parseFrame`,
//!   `parseFrameBytes`), from the registry alone;
//! - `json`: `JsonValue` and the helpers that turn opaque JSON text into a host tree and back;
//! - `convert`: the `Convert` impls of the leaf types (every rule read by the contract);
//! - `ffi_support`, `host_string`, `json_text`: what both uniffi namespaces declare, stamped
//!   into this crate (and the Graphorin crate) by the macros of `wirecontract-uniffi-common`
//!   (`bindings/uniffi/common`) over `wirecontract-glue`: the `Convert` trait, the `Issue`
//!   record and its one conversion, the panic guard, the readers that take host integers and
//!   doubles through the contract's own scalar readers; [`HostString`], every host string
//!   argument and record field (a Kotlin string with a lone surrogate reaches Rust and is
//!   refused here, naming the argument); [`JsonText`], exact JSON text crossing as a string;
//! - [`graphorin`]: the Graphorin v1 contract, a second uniffi namespace in its own crate
//!   (`bindings/uniffi/graphorin`, Kotlin `dev.wirecontract.graphorin`, Swift
//!   `WirecontractGraphorin`) linked into this library;
//! - `session`: the sans-IO session cores as uniffi objects;
//! - `jni`: the hand-written JNI entry points of the JVM fast path (`parse` returns a verdict
//!   and byte spans, `build` takes one UTF-8 buffer and returns the frame).
//!
//! Beside the crate: `gen/` (the glue generator, a build-dependency); `kotlin/` (the jar's
//! Maven module: uniffi Kotlin + `generated/kotlin-jvm` + the `jvm` wrappers, the native
//! library as a resource; `kotlin/tests/`, JUnit in Kotlin and plain Java against the installed
//! jar); `swift/` (the SwiftPM layout: `Sources/` symlinks into `generated/` plus
//! `SessionHost.swift`, `Tests/`, `Examples/`, `LinuxFFI/` the module map of the Linux
//! system-library route; and the XCFramework's build, assembly and checks:
//! `build-xcframework.sh`, `xcframework.py`, `check_xcframework.py`, `macho.py`,
//! `test_xcframework.py`); `android/` (the AAR's build, packaging and checks: `build-aar.sh`,
//! `aar.py`, `elf_align.py`, `test_aar.py`).
//!
//! `unsafe`: allowed crate-wide for uniffi's scaffolding (below) and in `jni/` (raw JNI calls,
//! each block with its SAFETY comment); the hand-written modules otherwise use none.
//!
//! Host safety: every exported function runs under `catch_unwind`; a Rust panic becomes
//! `ContractError::Internal` (or an `Invalid` parse result), never an abort across FFI.

// uniffi's scaffolding macros expand to `extern "C"` glue with `unsafe` blocks.
#![allow(unsafe_code)]

mod convert;
/// The `Convert` trait, the `Issue` record and its one conversion, the panic guard, the host
/// value readers (stamped from `wirecontract-uniffi-common`).
mod ffi_support {
    wirecontract_uniffi_common::ffi_support!();
}
/// The generated records, enums, unions and conversions (see `build.rs`).
#[allow(missing_docs, clippy::too_many_lines, clippy::match_same_arms, clippy::trivially_copy_pass_by_ref, clippy::doc_markdown)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/graphmind.rs"));
}
mod graphmind;
/// `HostString` (stamped from `wirecontract-uniffi-common`).
mod host_string {
    wirecontract_uniffi_common::host_string!();
}
/// The hand-written JNI entry points of the JVM's hot calls (`dev.wirecontract.graphmind.jvm`).
mod jni;
mod json;
/// `JsonText` (stamped from `wirecontract-uniffi-common`).
mod json_text {
    wirecontract_uniffi_common::json_text!();
}
mod llm;
mod protocols;
mod session;
mod shrink;

use wirecontract::wire::SafeUInt;

pub use ffi_support::{Issue, PathSegment};
pub use generated::*;
pub use graphmind::*;
pub use host_string::HostString;
pub use json::*;
pub use json_text::JsonText;
pub use llm::*;
pub use protocols::*;
pub use session::*;
pub use shrink::*;
/// The Graphorin namespace (Kotlin `dev.wirecontract.graphorin`, Swift `WirecontractGraphorin`).
/// Referenced here so that its uniffi scaffolding is linked into this library: one native
/// library, two uniffi namespaces.
pub use wirecontract_uniffi_graphorin as graphorin;

uniffi::setup_scaffolding!();

/// GraphMind's reference pins `{path, message}` only: issues carry no stable code
/// (`ffi_support`).
pub(crate) const ISSUE_CODES: bool = false;

/// Why a call refused its input. Parsing never throws (it returns `ParseResult.Invalid`);
/// building, serializing host values and decoding JSON text can.
///
/// Kotlin: `ContractException.Build` etc.; Swift: `ContractError.Build(reason:issues:)`.
#[derive(Debug, Clone, PartialEq, thiserror::Error, uniffi::Error)]
pub enum ContractError {
    /// A frame could not be built or serialized from host values: `reason` says why, `issues`
    /// name the wire path and rule of every problem (counters above 2^53 − 1, invalid JSON in
    /// a `JsonText` field, a known key repeated in `extraJson`, an invalid payload, …).
    #[error("{reason}")]
    Build {
        /// What is wrong, in one line.
        reason: String,
        /// Every problem found, with its wire path.
        issues: Vec<Issue>,
    },
    /// JSON text or a tree was refused: not JSON (`decodeJson`, `shrinkPayloadJson`), too
    /// deep for a tree, a bad number (`encodeJson`), or, in Kotlin, a `JsonText` argument or a
    /// string of a `JsonValue` tree holding a lone surrogate.
    #[error("{reason}")]
    Json {
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

/// A [`HostString`] argument as text, or `ContractError::Build` naming the argument (`name`,
/// the host's parameter name) and the UTF-16 index of its lone surrogate.
pub(crate) fn arg(s: HostString, name: &str) -> Result<String, ContractError> {
    s.into_string().map_err(|e| {
        let issue = ffi_support::lone_surrogate_issue(name, e);
        ContractError::Build { reason: issue.summary(), issues: vec![Issue::from(issue)] }
    })
}

/// A [`JsonText`] argument as text, or `ContractError::Build` naming the argument (`name`)
/// and the UTF-16 index of its lone surrogate, as [`arg`] for a string.
pub(crate) fn json_arg<'a>(t: &'a JsonText, name: &str) -> Result<&'a str, ContractError> {
    t.text().map_err(|e| {
        let issue = ffi_support::lone_surrogate_issue(name, e);
        ContractError::Build { reason: issue.summary(), issues: vec![Issue::from(issue)] }
    })
}

/// [`arg`] for an optional argument.
pub(crate) fn opt_arg(s: Option<HostString>, name: &str) -> Result<Option<String>, ContractError> {
    s.map(|s| arg(s, name)).transpose()
}

/// An integer argument (`Long`/`Int64` on the host, never unsigned) read by the contract's own
/// reader for `T` (its decimal text through `from_json`), so the bounds and messages are the
/// parser's: a `u64` counter is `0 ≤ x ≤ 2^53 − 1`, a negative one `too small`, never wrapped.
/// `ContractError::Build` naming the argument otherwise.
pub(crate) fn int_arg<T: wirecontract::wire::WireValue>(v: i64, name: &str) -> Result<T, ContractError> {
    let mut issues = ffi_support::Issues::new();
    if let Some(x) = ffi_support::read_int::<T>(v, &mut issues, &ffi_support::HostPath::root(name)) {
        return Ok(x);
    }
    let first = issues.first().map(wirecontract::wire::Issue::summary).unwrap_or_default();
    Err(ContractError::Build { reason: first, issues: ffi_support::host_issues(&issues) })
}

/// A byte count or depth argument: a `u64` as [`int_arg`] reads it, as `usize`.
pub(crate) fn size_arg(v: i64, name: &str) -> Result<usize, ContractError> {
    int_arg::<SafeUInt>(v, name).map(|x| usize::try_from(x.get()).unwrap_or(usize::MAX))
}

/// A time in milliseconds (`nowMs`, timeouts): a `u64` as [`int_arg`] reads it.
pub(crate) fn ms_arg(v: i64, name: &str) -> Result<u64, ContractError> {
    int_arg::<SafeUInt>(v, name).map(SafeUInt::get)
}

/// A count or time the core hands out (never above 2^53 − 1 in practice) for the host's `Long`.
pub(crate) fn host_int(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// Runs contract code, turning a panic into [`ContractError::Internal`].
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, ContractError>) -> Result<T, ContractError> {
    ffi_support::catch(f, |reason| ContractError::Internal { reason })
}
