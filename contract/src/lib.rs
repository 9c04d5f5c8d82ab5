//! # wirecontract
//!
//! One Rust crate as the single source of truth for two agent-debugging wire contracts:
//!
//! - [`graphmind`]: the GraphMind live-debugger protocol v1 (`{gm, seq, ts, runId, type,
//!   payload}` envelopes), with the version-negotiating parser that returns
//!   `ok | unknown-type | version-mismatch | invalid`;
//! - `graphorin`: Graphorin's strict JSON-RPC frames (second protocol, same pipeline).
//!
//! Each protocol has one parse entry, `parse(frame, &ParseOptions)`, taking any [`Frame`]
//! (`frame.rs`: text, bytes, shared text or shared bytes), and `parse_value` for a decoded tree.
//!
//! Both sit on [`wire`]: the declaration macros that give every contract type its
//! serde/schemars derives, its reader, its `JSON.stringify`-exact writer and its reflection
//! table, over the JSON engine of `wirecontract-json` (`JSON.parse` semantics: exact numbers,
//! lone surrogates, any depth up to a documented cap, last-wins duplicate keys). No I/O, no
//! async, no `unsafe`.

#![forbid(unsafe_code)]

#[macro_use]
pub mod wire;
mod fingerprint;
pub mod frame;
pub mod graphmind;
pub mod graphorin;
pub mod registry;

pub use fingerprint::contract_id;
pub use frame::Frame;

/// Every protocol of this crate, in a stable order (see [`registry::protocols`]). A new
/// protocol is a module declared above and one entry here.
pub static PROTOCOLS: &[&registry::Protocol] = &[&graphmind::PROTOCOL, &graphorin::PROTOCOL];
