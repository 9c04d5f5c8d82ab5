//! `JsonText`: exact JSON text crossing the FFI as a string.
//!
//! This file is compiled into both uniffi crates (GraphMind's and Graphorin's, by `#[path]`,
//! like `host_string.rs` and `ffi_support.rs`): each uniffi namespace declares its own type,
//! with one definition.

use crate::host_string;

/// Exact JSON text of one value: an opaque field or extension point (`result`, `payload`,
/// `data`), the unknown members of an object, a raw payload, the `capabilities` record, or the
/// raw `id` of a rejected frame. On the host it is a plain string (`typealias JsonText =
/// String`); decode it with any JSON library, or with GraphMind's `decodeJson` when a tree is
/// wanted. Numbers such as `1e400` and lone-surrogate escapes survive byte for byte because the
/// text itself crosses, never a decoded value.
///
/// On the FFI it is a string. Kotlin's lowering (`uniffi.toml`) replaces a text holding a lone
/// surrogate, which UTF-8 cannot carry, by [`host_string::LONE_SURROGATE_MARK`] and its UTF-16
/// index, so that it reaches Rust and each function refuses it through its own declared error
/// naming the argument or field ([`JsonText::text`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JsonText(pub String);

uniffi::custom_newtype!(JsonText, String);

impl JsonText {
    /// The text, or where the host's text had its first lone surrogate.
    ///
    /// # Errors
    /// When Kotlin lowered a text holding a lone surrogate (its marked form).
    pub fn text(&self) -> Result<&str, host_string::LoneSurrogate> {
        host_string::marked_lone_surrogate(&self.0).map_or(Ok(&self.0), Err)
    }
}

impl From<&str> for JsonText {
    fn from(s: &str) -> Self {
        JsonText(s.to_owned())
    }
}

impl From<String> for JsonText {
    fn from(s: String) -> Self {
        JsonText(s)
    }
}
