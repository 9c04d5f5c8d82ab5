//! The protocol-independent core, on the JSON engine of `wirecontract-json` (`contract/json/`,
//! which this crate imports and which never imports it back): issues and their paths
//! ([`Issue`], `issue.rs`), preserved unknown fields ([`Extras`], `extras.rs`), the field traits
//! the per-protocol declarations are built from ([`WireValue`], `field.rs`; the value types in
//! `scalars.rs`), reflection for the bindings ([`Reflect`], `reflect.rs`), the generic readers of
//! host arguments ([`enum_arg`], [`object_arg`], `host.rs`) and the declaration macros.
//!
//! Files:
//!
//! - `issue.rs`: one [`Issue`] for every protocol: a JSON Pointer [`IssuePath`], an optional
//!   stable [`IssueCode`], the message;
//! - `extras.rs` (unknown members kept), `field.rs` (the field traits), `scalars.rs` (value
//!   types), `integers.rs` (the JS safe integers as types: [`SafeUInt`], [`PositiveSafeUInt`],
//!   [`SafeInt`]; no out-of-range value can be built), `reflect.rs`, `host.rs`, `schema.rs`
//!   (schema post-processing), `none_of.rs` (the unknown-type `pattern`), `macros.rs` (the
//!   declaration macros).
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
mod reflect;
mod scalars;

pub use extras::Extras;
pub(crate) use extras::NO_EXTRAS;
pub(crate) use field::{read_literal, write_key};
pub use field::{WireField, WireValue};
pub use host::{enum_arg, not_one_of, object_arg, wrong_object, HostArgError, WireEnum};
pub use integers::{OutOfSafeRange, PositiveSafeUInt, SafeInt, SafeUInt};
pub(crate) use issue::{describe_received, enum_message, quote_key};
pub use issue::{Ctx, Issue, IssueCode, IssuePath, Path, PathSegment};
pub use reflect::{from_json, from_json_coded, read_boxed, to_json, Described, FieldRef, Reflect};
pub use scalars::{NonNegativeF64, OpaqueObject};
