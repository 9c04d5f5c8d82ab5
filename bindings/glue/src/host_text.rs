//! Host strings that may hold a lone surrogate. Kotlin strings can; the uniffi bindings lower
//! them as generalized UTF-8 (a lone surrogate as its three-byte form `ED A0..BF xx`, which is
//! not UTF-8), and a `JsonText` holding one as [`LONE_SURROGATE_MARK`] and its UTF-16 index.
//! Here the bytes become text, or the [`LoneSurrogate`] that names where they stop being
//! Unicode, with the one message every binding shows for it.

/// Where a host string stops being Unicode: the UTF-16 index of its first lone surrogate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoneSurrogate {
    /// Index of the surrogate in the host string, in UTF-16 code units.
    pub utf16_index: usize,
    /// Offset of its first byte in the crossed bytes (the UTF-8 of everything before it); 0
    /// for a marked `JsonText` ([`marked_lone_surrogate`]), whose text did not cross.
    pub byte_offset: usize,
}

impl LoneSurrogate {
    /// `"lone surrogate at UTF-16 index 3: not representable in UTF-8"`.
    pub fn message(self) -> String {
        format!("lone surrogate at UTF-16 index {}: not representable in UTF-8", self.utf16_index)
    }
}

/// Bytes a host lowered as generalized UTF-8 as text, or where the first lone surrogate is.
///
/// # Errors
/// When the bytes are not UTF-8 (a Kotlin string with a lone surrogate).
pub fn host_str(bytes: &[u8]) -> Result<&str, LoneSurrogate> {
    std::str::from_utf8(bytes).map_err(|_| lone_surrogate(bytes))
}

/// Owned bytes a host lowered as generalized UTF-8 as a `String`, or where the first lone
/// surrogate is.
///
/// # Errors
/// As [`host_str`].
pub fn host_string(bytes: Vec<u8>) -> Result<String, LoneSurrogate> {
    String::from_utf8(bytes).map_err(|e| lone_surrogate(e.as_bytes()))
}

/// The UTF-16 index of the first byte that is not UTF-8 (the host never sends other bytes
/// than UTF-8 and encoded lone surrogates).
fn lone_surrogate(bytes: &[u8]) -> LoneSurrogate {
    let valid = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    };
    LoneSurrogate { utf16_index: valid.encode_utf16().count(), byte_offset: valid.len() }
}

/// Generalized UTF-8 as text, each encoded surrogate (`ED A0..BF 80..BF`) as one U+FFFD; any
/// other byte that is not UTF-8 (a host never sends one) is one U+FFFD too. For diagnostic text
/// the host did not choose (an exception's message or stack), where refusing would lose the
/// frame that carries it: one U+FFFD per surrogate is what the contract's JSON reader makes of
/// a `\udxxx` escape in a typed string field, so every host reports the same text.
pub fn lossy_host_string(bytes: Vec<u8>) -> String {
    let bytes = match String::from_utf8(bytes) {
        Ok(s) => return s,
        Err(e) => e.into_bytes(),
    };
    let mut rest = &bytes[..];
    let mut out = String::with_capacity(rest.len());
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (valid, tail) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{FFFD}');
                let skip = match tail {
                    [0xED, 0xA0..=0xBF, 0x80..=0xBF, ..] => 3,
                    _ => e.error_len().unwrap_or(tail.len()),
                };
                rest = &tail[skip..];
            }
        }
    }
}

/// What Kotlin sends for a `JsonText` holding a lone surrogate (JSON text crosses as a string,
/// whose record defaults such as `extraJson = "{}"` a byte field cannot have): this prefix, then
/// the UTF-16 index in decimal. A text starting with U+0000 is never JSON (JSON allows only
/// space, tab, LF and CR around a value), so no valid text is mistaken for it; the uniffi
/// bindings' `uniffi.toml` writes the same form.
pub const LONE_SURROGATE_MARK: &str = "\u{0}lone surrogate at UTF-16 index ";

/// The lone surrogate a marked `JsonText` names ([`LONE_SURROGATE_MARK`]), or `None`.
pub fn marked_lone_surrogate(text: &str) -> Option<LoneSurrogate> {
    let utf16_index = text.strip_prefix(LONE_SURROGATE_MARK)?.parse().ok()?;
    Some(LoneSurrogate { utf16_index, byte_offset: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_surrogate_is_named_by_its_utf16_index() {
        // "é😀" then U+DC00 as generalized UTF-8: é is one UTF-16 unit, 😀 two.
        let mut bytes = "é😀".as_bytes().to_vec();
        bytes.extend_from_slice(&[0xED, 0xB0, 0x80, b'x']);
        let err = host_str(&bytes).unwrap_err();
        assert_eq!((err.utf16_index, err.byte_offset), (3, 6));
        assert_eq!(err.message(), "lone surrogate at UTF-16 index 3: not representable in UTF-8");
        assert_eq!(host_string(bytes), Err(err));
        assert_eq!(host_str(b"ok"), Ok("ok"));
        assert_eq!(host_string(b"ok".to_vec()), Ok("ok".to_owned()));
    }

    #[test]
    fn a_lossy_string_has_one_replacement_per_lone_surrogate() {
        // "a", U+D800, "é", U+DFFF, "z": each surrogate is three bytes, one U+FFFD.
        let mut bytes = b"a".to_vec();
        bytes.extend_from_slice(&[0xED, 0xA0, 0x80]);
        bytes.extend_from_slice("é".as_bytes());
        bytes.extend_from_slice(&[0xED, 0xBF, 0xBF, b'z']);
        assert_eq!(lossy_host_string(bytes), "a\u{FFFD}é\u{FFFD}z");
        assert_eq!(lossy_host_string("plain😀".into()), "plain😀");
    }

    #[test]
    fn a_marked_json_text_names_its_lone_surrogate_and_nothing_else_is_marked() {
        // What HostStrings.jsonText sends for `"\uD800"` (a lone surrogate at index 1).
        let marked = format!("{LONE_SURROGATE_MARK}1");
        assert_eq!(marked_lone_surrogate(&marked).map(|e| e.utf16_index), Some(1));
        for text in ["{}", "\"\\ud800\"", "", "\u{0}", "\u{0}lone surrogate at UTF-16 index x", " \u{0}lone surrogate at UTF-16 index 1"] {
            assert_eq!(marked_lone_surrogate(text), None, "{text:?}");
        }
    }
}
