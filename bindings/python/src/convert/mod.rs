//! Converting between JSON text and Python values:
//! - `to_py.rs`: JSON text → Python values ([`json_to_py`], [`KeyCache`], [`string_to_py`]);
//! - `to_json.rs`: Python values → JSON text ([`py_to_json`], [`write_plain_json`], [`HostError`]).

mod to_json;
mod to_py;

pub(crate) use to_json::explain_non_finite_issues;
pub use to_json::{py_to_json, write_plain_json, HostError, NonFinite};
pub use to_py::{json_to_py, json_to_py_cached, string_to_py, KeyCache};
