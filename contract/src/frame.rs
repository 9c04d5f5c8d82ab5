//! [`Frame`]: one frame as a host holds it, the argument of each protocol's one parse entry
//! ([`crate::graphmind::parse`], [`crate::graphorin::parse`]).

use wirecontract_json::{SharedBytes, SharedText};

/// One frame as a host holds it: text, bytes, or either shared with the parsed values. Every
/// kind gives the same verdict, issues and values; the kind decides only what the parser may
/// skip (text is known to be UTF-8) and what it may share (compact opaque values become spans
/// of a shared frame instead of copies).
///
/// Made by `Into` from `&str` (and `&&str`, as a loop over `&[&str]` gives), `&String`, `&[u8]`, `&[u8; N]`, `&Vec<u8>`, `&SharedText` and
/// `&SharedBytes`.
#[derive(Debug, Clone, Copy)]
pub enum Frame<'a> {
    /// UTF-8 text.
    Text(&'a str),
    /// Bytes not yet known to be UTF-8: invalid UTF-8 is a JSON syntax failure naming the
    /// offset of the first bad byte.
    Bytes(&'a [u8]),
    /// Text the parsed values may share.
    SharedText(&'a SharedText),
    /// Bytes the parsed values may share, not yet known to be UTF-8 (checked as for
    /// [`Frame::Bytes`]).
    SharedBytes(&'a SharedBytes),
}

impl<'a> From<&'a str> for Frame<'a> {
    fn from(text: &'a str) -> Self {
        Frame::Text(text)
    }
}

impl<'a> From<&&'a str> for Frame<'a> {
    fn from(text: &&'a str) -> Self {
        Frame::Text(text)
    }
}

impl<'a> From<&'a String> for Frame<'a> {
    fn from(text: &'a String) -> Self {
        Frame::Text(text)
    }
}

impl<'a> From<&'a [u8]> for Frame<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Frame::Bytes(bytes)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Frame<'a> {
    fn from(bytes: &'a [u8; N]) -> Self {
        Frame::Bytes(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for Frame<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        Frame::Bytes(bytes)
    }
}

impl<'a> From<&'a SharedText> for Frame<'a> {
    fn from(text: &'a SharedText) -> Self {
        Frame::SharedText(text)
    }
}

impl<'a> From<&'a SharedBytes> for Frame<'a> {
    fn from(bytes: &'a SharedBytes) -> Self {
        Frame::SharedBytes(bytes)
    }
}
