//! The protocol-independent core: JSON reading with exact numbers and WTF-16-safe strings
//! ([`json`], [`cursor`], over the one string scanner of `scan.rs`), issues and their paths ([`Issue`], `issue.rs`), raw opaque values
//! ([`RawJson`], `raw.rs`), preserved unknown fields ([`Extras`], `extras.rs`), the field traits
//! the per-protocol declarations are built from ([`WireValue`], `field.rs`; the value types in
//! `scalars.rs`), reflection for the bindings ([`Reflect`], `reflect.rs`) and the generic readers of host
//! arguments ([`enum_arg`], [`object_arg`], `host.rs`), and UTF-8 to UTF-32 for hosts that build strings
//! from it ([`utf32`]).

pub mod cursor;
pub mod json;
pub mod none_of;
pub mod schema;
#[macro_use]
mod macros;
mod extras;
mod field;
mod host;
mod integers;
mod issue;
mod raw;
mod reflect;
mod scalars;
pub(crate) mod scan;
#[cfg(target_arch = "x86_64")]
mod scan_avx2;
#[cfg(target_arch = "x86_64")]
mod scan_avx512;
pub mod utf32;
#[cfg(target_arch = "x86_64")]
mod utf32_x86;

pub use extras::Extras;
pub(crate) use extras::NO_EXTRAS;
pub(crate) use field::{read_literal, write_key};
pub use field::{WireField, WireValue};
pub use host::{enum_arg, not_one_of, object_arg, wrong_object, HostArgError, WireEnum};
pub use integers::{OutOfSafeRange, PositiveSafeUInt, SafeInt, SafeUInt};
pub(crate) use issue::{describe_received, enum_message, quote_key};
pub use issue::{Ctx, Issue, IssueCode, IssuePath, Path, PathSegment};
pub use raw::{RawJson, SharedBytes, SharedText};
pub use reflect::{from_json, from_json_coded, read_boxed, to_json, Described, FieldRef, Reflect};
pub use scalars::{NonNegativeF64, Record};
