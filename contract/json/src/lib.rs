//! # wirecontract-json
//!
//! The JSON engine under the wirecontract contract: JSON read and written exactly as
//! JavaScript's `JSON.parse` and `JSON.stringify` do (exact numbers, lone surrogates, any depth
//! up to a cap the caller gives, last-wins duplicate keys), with no knowledge of any protocol.
//! The contract crate (`wirecontract`) builds its readers and writers on it and holds no
//! `unsafe`; this crate holds all of the engine's (inventory: `README.md`). The contract
//! imports this crate, never the other way round.
//!
//! Files:
//!
//! - `reference.rs`: the reference reader: [`validate`] (the grammar, iteratively, with a
//!   depth cap), then [`Val`] handles walking the validated text; numbers ([`number_value`],
//!   [`safe_integer`]);
//! - `cursor.rs`: the single pass ([`cursor::Cursor`]), which validates while typed readers
//!   consume the frame and bails (`None`) on anything not plainly valid. Keys are expected in
//!   declaration order and matched by a word compare of `"name":` prepared at compile time
//!   ([`cursor::WireKey`]); plain integers are valued as they are scanned;
//! - `scan.rs`: the one string scanner, SIMD through `wide` (a first sixteen-byte block, then
//!   64-byte windows, every stop of a window taken from its mask); on x86-64 with AVX-512 BW or
//!   AVX2 the windows are classed by `scan_avx512.rs` or `scan_avx2.rs`, chosen at run time,
//!   and walked by `resolved_loop`, which resolves escapes by carry arithmetic (in
//!   `scan_window.rs`, with the rest of what the scanner shares with them);
//! - `unescape.rs`: the one string decoder ([`unescape_body`]), with its explicit
//!   lone-surrogate policy ([`LoneSurrogate`]: replace, reject or keep as WTF-8);
//! - `write.rs`: the `JSON.stringify`-exact writers ([`write_string`], [`write_int`],
//!   [`write_f64`]) and [`write_compact`];
//! - `utf16.rs`: [`utf16_len`], the UTF-16 length of UTF-8 text without decoding it (payload
//!   shrinking measures every field with it);
//! - `raw.rs`: [`RawJson`] (an opaque value as its exact text, owned or a span of a
//!   [`SharedText`] frame) and [`SharedBytes`] (a bytes frame the single pass checks for UTF-8
//!   as it reads it, [`cursor::Cursor::read_shared_bytes`]);
//! - `utf32.rs` (feature `utf32`, for the Python binding): valid UTF-8 to UTF-32, its AVX-512
//!   and AVX2 loops in `utf32_x86.rs`, chosen at run time.

pub mod cursor;
mod raw;
mod reference;
pub mod scan;
#[cfg(target_arch = "x86_64")]
mod scan_avx2;
#[cfg(target_arch = "x86_64")]
mod scan_avx512;
mod scan_window;
mod unescape;
mod utf16;
#[cfg(feature = "utf32")]
pub mod utf32;
#[cfg(all(feature = "utf32", target_arch = "x86_64"))]
mod utf32_x86;
mod write;

pub use raw::{RawJson, SharedBytes, SharedText};
pub use reference::{
    check_written_depth, number_value, safe_integer, scan_number, validate, Elements, JsonKind, Members, SyntaxError, Val, DEFAULT_MAX_DEPTH, MAX_SAFE_INTEGER,
};
pub use unescape::{decode_string, unescape, unescape_body, Body, Decoded, LoneSurrogate, LoneSurrogateRejected, Unescaped};
pub use utf16::utf16_len;
pub use write::{write_compact, write_f64, write_int, write_string};
