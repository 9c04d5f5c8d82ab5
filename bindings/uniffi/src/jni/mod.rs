//! Hand-written JNI entry points for the JVM's hot calls (class
//! `dev.wirecontract.graphmind.jvm.Native`, loaded from the same native library as the uniffi
//! glue). uniffi's JNA path costs tens of microseconds a call (a `Structure` per call status,
//! `RustBuffer`s allocated and freed through further calls, whole records converted eagerly);
//! these functions take and return primitive arrays in one crossing each:
//!
//! - `parse` (`parse.rs`): a frame's bytes in, a verdict and byte offsets into the caller's array out
//!   (the JVM decodes `runId` and the payload text from its own bytes, lazily);
//! - `build` (`build.rs`): payload JSON, type and `runId` as one UTF-8 buffer plus the counters in, the
//!   serialized frame's bytes out (validated, built and written by the contract crate);
//! - `calls.rs`: the typed API's hot functions (`parseEnvelopeJson`, `createEnvelope`,
//!   `serializeEnvelope`, …) for class `dev.wirecontract.graphmind.JniCalls`: uniffi's records,
//!   written and read by uniffi's own converters, cross in one `byte[]` each way.
//!
//! Rules stay in `wirecontract`: these functions only move bytes. A panic never crosses: each
//! entry runs under `catch_unwind` (parse answers `invalid`, build throws).

// JNI needs `#[no_mangle] extern "system"` functions and raw `JNIEnv` calls.
#![allow(unsafe_code)]

mod build;
mod calls;
mod env;
mod parse;
