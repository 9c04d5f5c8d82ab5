//! The protocol-independent core, on the JSON engine of `wirecontract-json` (`contract/json/`,
//! which this crate imports and which never imports it back): issues and their paths
//! ([`Issue`], `issue.rs`), preserved unknown fields ([`Extras`], `extras.rs`), the field traits
//! the per-protocol declarations are built from ([`WireValue`], `field.rs`; the value types in
//! `scalars.rs`), the one-value JSON entry points ([`from_json`], [`to_json`], `value_json.rs`),
//! the generic readers of host arguments ([`enum_arg`], [`object_arg`], `host.rs`) and the
//! declaration macros. Reflection for the bindings ([`Reflect`], [`FieldRef`], [`Described`])
//! is re-exported here from `crate::registry`, beside the registry entries it returns.
//!
//! Files:
//!
//! - `issue.rs`: one [`Issue`] for every protocol: a JSON Pointer [`IssuePath`], an optional
//!   stable [`IssueCode`], the message;
//! - `extras.rs` (unknown members kept, and the [`OpaqueObject`] record), `field.rs` (the field
//!   traits), `scalars.rs` (value types), `integers.rs` (the JS safe integers as types:
//!   [`SafeUInt`], [`PositiveSafeUInt`], [`SafeInt`]; no out-of-range value can be built),
//!   `value_json.rs`, `host.rs`, `schema.rs` (schema post-processing), `none_of.rs` (the
//!   unknown-type `pattern`), `macros.rs` (the declaration macros).
//!
//! No `unsafe` (the crate forbids it): the engine's is in `wirecontract-json`, behind safe
//! APIs (its README lists every block).

pub mod none_of;
pub mod schema;
#[macro_use]
mod macros;
mod extras;
mod field;
mod host;
mod integers;
mod issue;
mod scalars;
mod value_json;

pub use crate::registry::{Described, FieldRef, Reflect};
pub(crate) use extras::NO_EXTRAS;
pub use extras::{Extras, OpaqueObject};
pub(crate) use field::{read_literal, write_key};
pub use field::{WireField, WireValue};
pub use host::{enum_arg, not_one_of, object_arg, wrong_object, HostArgError, WireEnum};
pub use integers::{OutOfSafeRange, PositiveSafeUInt, SafeInt, SafeUInt};
pub(crate) use issue::{describe_received, enum_message, quote_key};
pub use issue::{Ctx, Issue, IssueCode, IssuePath, Path, PathSegment};
pub use scalars::NonNegativeF64;
pub use value_json::{from_json, from_json_coded, read_boxed, to_json};
