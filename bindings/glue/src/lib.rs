//! `wirecontract-glue`: what every binding repeats, written once. It depends on the contract
//! (and the contract's JSON engine for number spelling) only; no host framework (pyo3, napi,
//! uniffi, wasm-bindgen) appears here, so each binding keeps a thin adapter that maps these
//! values into its own host error and issue types.
//!
//! Files, one role each:
//! - `panic.rs`: [`catch`], the one catch-the-panic guard, and [`Panic`], its one text;
//! - `args.rs`: [`arg_issue`], the issue of a refused host argument (path = the argument's name);
//! - `limits.rs`: the host thresholds ([`RELEASE_HOST_LOCK_BYTES`]) and the JavaScript
//!   safe-integer limit as the contract defines it ([`MAX_SAFE_INTEGER`]);
//! - `issue.rs`: [`HostIssue`], the one conversion of a contract issue into what hosts show
//!   (`path` dotted, `segments` root first, `code` by the protocol's [`Codes`] policy, `message`);
//! - `host_text.rs`: host strings that may hold a lone surrogate (generalized UTF-8 from
//!   Kotlin): [`LoneSurrogate`] and its text, [`host_str`], [`host_string`], [`lossy_host_string`], the marked
//!   `JsonText` form;
//! - `host_value.rs`: host scalars read through the contract's own readers ([`read`],
//!   [`read_int`], [`read_f64`]), so no bound or message is restated in a binding;
//! - `host_path.rs`: [`HostPath`], where a host value sits in the argument a conversion walks,
//!   spelled as a dotted path only when an issue is recorded.

mod args;
mod host_path;
mod host_text;
mod host_value;
mod issue;
mod limits;
mod panic;

pub use args::arg_issue;
pub use host_path::HostPath;
pub use host_text::{host_str, host_string, lossy_host_string, marked_lone_surrogate, LoneSurrogate, LONE_SURROGATE_MARK};
pub use host_value::{read, read_f64, read_int};
pub use issue::{write_dotted, Codes, HostIssue};
pub use limits::{MAX_SAFE_INTEGER, MAX_SAFE_INTEGER_F64, RELEASE_HOST_LOCK_BYTES};
pub use panic::{catch, Panic, PANIC_PREFIX};
