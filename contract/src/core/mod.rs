//! The protocol-independent core: JSON reading with exact numbers and WTF-16-safe strings
//! ([`json`], [`cursor`], over the one string scanner of `scan.rs`), issues and their paths ([`Issue`], `issue.rs`), raw opaque values
//! ([`RawJson`], `raw.rs`), preserved unknown fields ([`Extras`], `extras.rs`), the field traits
//! the per-protocol declarations are built from ([`WireValue`], `field.rs`; the value types in
//! `scalars.rs`), reflection for the bindings ([`Reflect`], `reflect.rs`) and the generic readers of host
//! arguments ([`enum_arg`], [`object_arg`], `host.rs`), and UTF-8 to UTF-32 for hosts that build strings
//! from it ([`utf32`]).
//!
//! Files:
//!
//! - `json.rs`: the reference reader (validate, then walk; `JSON.parse` semantics) and the
//!   `JSON.stringify`-exact writers (`write_string`, `write_int`);
//! - `cursor.rs`: the single pass. Keys are expected in declaration order and matched by a word
//!   compare of `"name":` prepared at compile time ([`cursor::WireKey`]); plain integers are
//!   valued as they are scanned;
//! - `scan.rs`: the one string scanner, SIMD through `wide` (a first sixteen-byte block, then
//!   64-byte windows, every stop of a window taken from its mask); on x86-64 with AVX-512 BW or
//!   AVX2 the windows are classed by `scan_avx512.rs` or `scan_avx2.rs`, chosen at run time,
//!   and walked by `resolved_loop`, which resolves escapes by carry arithmetic;
//! - `utf32.rs`: valid UTF-8 to UTF-32 for hosts that build strings from it (the Python
//!   binding); its AVX-512 and AVX2 loops in `utf32_x86.rs`, chosen at run time;
//! - `issue.rs`: one [`Issue`] for every protocol: a JSON Pointer [`IssuePath`], an optional
//!   stable [`IssueCode`], the message;
//! - `raw.rs`: [`RawJson`] (owned text, or a span of a [`SharedText`] frame the parse shares
//!   instead of copying) and [`SharedBytes`] (a bytes frame the single pass checks for UTF-8
//!   as it reads it);
//! - `extras.rs` (unknown members kept), `field.rs` (the field traits), `scalars.rs` (value
//!   types), `integers.rs` (the JS safe integers as types: [`SafeUInt`], [`PositiveSafeUInt`],
//!   [`SafeInt`]; no out-of-range value can be built), `reflect.rs`, `host.rs`, `schema.rs`
//!   (schema post-processing), `none_of.rs` (the unknown-type `pattern`), `macros.rs` (the
//!   declaration macros).
//!
//! `unsafe`: the workspace denies `unsafe_code`; this module opts out in `scan_avx2.rs`,
//! `scan_avx512.rs` and `utf32_x86.rs` (whole files: `#[target_feature]` calls after run-time
//! detection, and loads/stores inside checked bounds), in three `from_utf8_unchecked` claims
//! on bytes already checked (`raw.rs` `SharedText::as_str` and `span_str`, `cursor.rs`
//! `Cursor::str_at`) and in `raw.rs`'s `unsafe fn SharedText::unchecked`, whose one call sits
//! in `graphmind/parse.rs` (`parse` of a `Frame::SharedBytes`). So the UTF-8 soundness of those
//! spans rests on the scanner's checks. Each block carries its SAFETY comment.

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
