//! The single-pass reader: validates JSON syntax *while* typed readers consume the frame.
//!
//! [`Cursor`] is the fast path of every frame parse. It reads a frame once, front to back:
//! typed fields are checked and decoded where they stand, opaque values are validated and
//! skipped with block-at-a-time (SIMD) string scanning, and nothing is ever revisited. It never
//! produces an issue or an error message: the moment anything is not plainly valid (a syntax
//! error, a wrong type, a missing field, an enum value out of range, depth beyond the cap),
//! the reader returns `None` ("bail") and the caller decides the frame as the reference
//! reader of [`crate::reference`] does, which owns every verdict, issue and message: one more
//! cursor pass validates the frame and hands its members to the reference's steps
//! (`graphmind::decide_bailed`), and a frame that pass refuses goes to the reference reader
//! whole, which names the error. Valid frames — the overwhelming majority on a real
//! connection — therefore cost one scan; invalid ones a bailed partial scan plus one more
//! (plus the reference's own validation when the frame is not JSON).
//!
//! Correctness rests on one property, pinned by tests: whenever the fast path returns a value,
//! it is exactly the value the reference path returns for the same text.
//!
//! A cursor on bytes not yet known to be UTF-8 ([`Cursor::new_bytes`]) checks them in the same
//! scan: outside strings it accepts nothing but ASCII tokens (any byte at or above `0x80` there
//! is a syntax error, so a bail); a string is checked from its first non-ASCII byte to its
//! closing quote (`scan::string_body_utf8`), and a skipped value from its first non-ASCII
//! byte to its end, in one call each. Every text it returns
//! has been checked, and a read that reaches [`Cursor::finish`] has checked the whole frame, so
//! a bytes frame needs no UTF-8 pass of its own unless both cursor passes refuse it.

// `inline(always)` on the scanner primitives is measured, not hopeful: without it the
// per-byte helpers stay calls inside the hot loops.
#![allow(clippy::inline_always)]

use std::borrow::Cow;

pub use crate::scan::{plain_run_end, validated_string_end};
use crate::unescape::{unescape, LoneSurrogate};
use crate::{decode_string, number_value, RawJson, SharedBytes, SharedText, Val};

/// A position in a frame being read in one pass. See the module documentation.
pub struct Cursor<'s> {
    src: &'s [u8],
    pos: usize,
    /// Containers currently open (the frame root counts as depth 1).
    depth: usize,
    max_depth: usize,
    /// The frame's shared text, when opaque values may be spans of it instead of copies.
    shared: Option<&'s SharedText>,
    /// `src` is not known to be UTF-8: string bodies are checked as they are scanned.
    check_utf8: bool,
}

/// A string read by [`Cursor::string`]: its content between the quotes, still escaped.
#[derive(Clone, Copy)]
pub struct RawStr<'s> {
    /// Content between the quotes.
    pub raw: &'s str,
    /// Whether it holds a backslash escape.
    pub escaped: bool,
}

impl<'s> RawStr<'s> {
    /// The decoded text; `None` when it holds a lone-surrogate escape (lossy in Rust, so the
    /// reference path decides).
    #[inline]
    pub fn decoded(self) -> Option<Cow<'s, str>> {
        if !self.escaped {
            return Some(Cow::Borrowed(self.raw));
        }
        let mut text = String::with_capacity(self.raw.len());
        unescape(self.raw, &mut text, LoneSurrogate::Reject).ok()?;
        Some(Cow::Owned(text))
    }

    /// The decoded text, lone surrogates as U+FFFD (what typed string fields hold).
    #[inline]
    pub fn decoded_lossy(self) -> Cow<'s, str> {
        if self.escaped {
            decode_string(self.raw).text
        } else {
            Cow::Borrowed(self.raw)
        }
    }
}

impl<'s> Cursor<'s> {
    /// A cursor at the start of `text`, refusing nesting deeper than `max_depth`.
    pub fn new(text: &'s str, max_depth: usize) -> Self {
        Cursor { src: text.as_bytes(), pos: 0, depth: 0, max_depth, shared: None, check_utf8: false }
    }

    /// A cursor at the start of `src`, bytes not yet known to be UTF-8: every string is
    /// checked as it is scanned (see the module documentation), so every text the cursor
    /// returns is UTF-8, and `src` is all UTF-8 once a read has reached [`Cursor::finish`].
    /// Invalid UTF-8 anywhere makes the read bail (`None`) where it stands.
    pub fn new_bytes(src: &'s [u8], max_depth: usize) -> Self {
        Cursor { src, pos: 0, depth: 0, max_depth, shared: None, check_utf8: true }
    }

    /// A cursor at the start of `text`'s frame whose compact opaque values become spans of
    /// `text` ([`RawJson`] without a copy).
    pub fn new_shared(text: &'s SharedText, max_depth: usize) -> Self {
        Cursor { shared: Some(text), ..Cursor::new(text.as_str(), max_depth) }
    }

    /// [`Cursor::new_shared`] on a frame made with [`SharedText::unchecked`]: its bytes are
    /// checked as they are read ([`Cursor::new_bytes`]), and spans are made only of checked
    /// bytes.
    fn new_shared_bytes(text: &'s SharedText, max_depth: usize) -> Self {
        Cursor { shared: Some(text), ..Cursor::new_bytes(text.as_bytes(), max_depth) }
    }

    /// Runs `read` on a cursor over `frame`, bytes not yet known to be UTF-8, that checks them
    /// as it reads ([`Cursor::new_bytes`]) and makes compact opaque values spans of `frame`
    /// ([`Cursor::raw_of`]) instead of copies: a binding's `bytes` input read without a copy
    /// and without a UTF-8 pass of its own. Returns what `read` returns.
    ///
    /// Safe whatever `read` does: the buffer is seen as text only through spans of bytes the
    /// cursor has checked (a [`RawJson`] span reads its own bytes alone), and the unchecked
    /// [`SharedText`] never leaves this function or the cursor.
    pub fn read_shared_bytes<R>(frame: &SharedBytes, max_depth: usize, read: impl for<'c> FnOnce(Cursor<'c>) -> Option<R>) -> Option<R> {
        // SAFETY (`SharedText::unchecked`): nothing calls `as_str` on `text` or a clone of it.
        // `text` stays in this function and in the cursor's private `shared` field; clones of it
        // leave only inside `RawJson` spans made by `raw_of` from ranges the cursor has checked
        // (a string body by `string_body_utf8`, a skipped value by its one check before it is
        // returned), and a span reads its own bytes alone (`span_str`). `R` cannot borrow from
        // the cursor (`for<'c>`).
        #[allow(unsafe_code)]
        let text = unsafe { SharedText::unchecked(frame) };
        read(Cursor::new_shared_bytes(&text, max_depth))
    }

    /// The text at `start..end`, a range this cursor has just scanned and accepted: for a
    /// frame given as bytes, its strings were checked by the scan and everything else in it
    /// is ASCII tokens; for a frame given as text, its ends sit next to ASCII tokens, so they
    /// are character boundaries (no boundary check needed, which `str::get` would redo).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn str_at(&self, start: usize, end: usize) -> Option<&'s str> {
        let bytes = self.src.get(start..end)?;
        debug_assert!(std::str::from_utf8(bytes).is_ok(), "an unchecked range left the cursor");
        // SAFETY: callers pass only ranges the scan has just accepted (a string body, a number
        // lexeme, a value `skip_value` accepted). For text input, `src` is UTF-8 and both ends
        // are next to ASCII bytes (quotes, the first byte of a token, the byte after the
        // last), so the range is whole characters. For bytes input, non-ASCII bytes in the
        // range lie inside strings, each checked by `string_body_utf8` or, in a skipped value,
        // by the value's one check before it is returned.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// `raw` (validated text inside this cursor's frame) as a [`RawJson`]: a span when the
    /// frame is shared and `raw` holds no whitespace (`ws` says whether it may), else a copy
    /// with whitespace dropped.
    #[inline]
    pub fn raw_of(&self, raw: &'s str, ws: bool) -> RawJson {
        if ws {
            return RawJson::from_validated(raw);
        }
        match self.shared {
            Some(text) => {
                let start = raw.as_ptr() as usize - self.src.as_ptr() as usize;
                RawJson::from_span(text, start, start + raw.len())
            }
            None => RawJson::from_compact(raw),
        }
    }

    /// The current byte offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Skips insignificant whitespace.
    #[inline(always)]
    pub fn skip_ws(&mut self) {
        while let Some(&b) = self.src.get(self.pos) {
            // Compact frames have no whitespace: one compare sends every token byte on.
            if b > b' ' {
                break;
            }
            if b == b' ' || b == b'\n' || b == b'\r' || b == b'\t' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// The next non-whitespace byte, not consumed.
    #[inline(always)]
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.src.get(self.pos).copied()
    }

    /// `Some(())` when only whitespace is left.
    #[inline]
    pub fn finish(&mut self) -> Option<()> {
        self.skip_ws();
        (self.pos == self.src.len()).then_some(())
    }

    #[inline(always)]
    fn eat(&mut self, b: u8) -> Option<()> {
        self.skip_ws();
        if self.src.get(self.pos) == Some(&b) {
            self.pos += 1;
            Some(())
        } else {
            None
        }
    }

    /// Reads a string (the next token must be one). Validates escapes and control characters.
    #[inline(always)]
    pub fn string(&mut self) -> Option<RawStr<'s>> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.pos + 1;
        let (end, escaped) = self.scan_string_body(start)?;
        self.pos = end + 1;
        Some(RawStr { raw: self.str_at(start, end)?, escaped })
    }

    /// From just after an opening quote: returns the offset of the closing quote and whether
    /// an escape was seen.
    #[inline(always)]
    fn scan_string_body(&self, pos: usize) -> Option<(usize, bool)> {
        if self.check_utf8 {
            crate::scan::string_body_utf8(self.src, pos).ok()
        } else {
            crate::scan::string_body(self.src, pos).ok()
        }
    }

    /// A string inside a value [`Cursor::skip_value`] skips, from just after its opening
    /// quote: the offset of its closing quote. When checking UTF-8, `high` is lowered to the
    /// string's first non-ASCII byte: the value is checked from there in one call at its end.
    #[inline(always)]
    fn scan_value_string(&self, pos: usize, high: &mut usize) -> Option<usize> {
        // Once the value has a non-ASCII byte, the check at its end covers every later
        // string too: they are scanned as on text, without stopping at their own.
        if self.check_utf8 && *high == usize::MAX {
            let (close, _, first) = crate::scan::string_body_high(self.src, pos).ok()?;
            *high = first;
            Some(close)
        } else {
            Some(crate::scan::string_body(self.src, pos).ok()?.0)
        }
    }

    /// Reads a number token; returns its lexeme.
    #[inline]
    pub fn number(&mut self) -> Option<&'s str> {
        self.skip_ws();
        let start = self.pos;
        let end = self.scan_number(start)?;
        self.pos = end;
        self.str_at(start, end)
    }

    /// The number grammar is the validator's ([`crate::reference::scan_number`]); a failure here
    /// only makes the read bail (the reference reader reports it).
    #[inline(always)]
    fn scan_number(&self, start: usize) -> Option<usize> {
        crate::reference::scan_number(self.src, start).ok()
    }

    /// A number token that is a plain non-negative integer of at most 15 digits (`gm`, `seq`,
    /// `ts` and every other safe-integer field as clients write them: exact in `f64`, so the
    /// value `JSON.parse` gives), read and valued in one step;
    /// `None`, with nothing consumed, for any other token (a sign, a fraction, an exponent, a
    /// leading zero, more digits, not a number), which [`Cursor::number_value`] then reads.
    #[inline(always)]
    pub fn plain_uint(&mut self) -> Option<u64> {
        self.skip_ws();
        let (src, start) = (self.src, self.pos);
        let mut pos = start;
        let mut n: u64 = 0;
        while pos - start < 16 {
            let d = src.get(pos).map_or(10, |b| b.wrapping_sub(b'0'));
            if d > 9 {
                break;
            }
            n = n * 10 + u64::from(d);
            pos += 1;
        }
        let len = pos - start;
        if len == 0 || len > 15 || (len > 1 && src[start] == b'0') || matches!(src.get(pos), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = pos;
        Some(n)
    }

    /// The value of a number token, as `JSON.parse` computes it.
    #[inline]
    pub fn number_value(&mut self) -> Option<f64> {
        self.number().map(number_value)
    }

    /// Reads `true` or `false`.
    #[inline]
    pub fn boolean(&mut self) -> Option<bool> {
        self.skip_ws();
        let rest = self.src.get(self.pos..)?;
        if rest.starts_with(b"true") {
            self.pos += 4;
            Some(true)
        } else if rest.starts_with(b"false") {
            self.pos += 5;
            Some(false)
        } else {
            None
        }
    }

    /// Consumes `{` and reports whether the object has members (`false`: `{}` consumed
    /// whole).
    #[inline]
    pub fn object_start(&mut self) -> Option<bool> {
        self.eat(b'{')?;
        self.open()?;
        if self.peek()? == b'}' {
            self.pos += 1;
            self.depth -= 1;
            return Some(false);
        }
        Some(true)
    }

    /// Reads a member key and its `:`.
    #[inline]
    pub fn key(&mut self) -> Option<RawStr<'s>> {
        let k = self.string()?;
        self.eat(b':')?;
        Some(k)
    }

    /// Reads a member key and its `:` in an object whose known members are `wires` (their
    /// names in declaration order), and says which one it is: `Some(index)` into `wires`, or
    /// `None` for an unknown member. Members usually arrive in declaration order, so the key
    /// is first taken to be `wires[*next]`: when the text at the cursor is exactly
    /// `"name":`, one or two word compares read it ([`WireKey`]) instead of a string scan.
    /// Anything else (another key, an escape, whitespace before the colon) is read by
    /// [`Cursor::key`] and looked up. `*next` moves past the member read.
    #[inline(always)]
    pub fn member_key(&mut self, wires: &[WireKey], next: &mut usize) -> Option<(RawStr<'s>, Option<usize>)> {
        if let Some(wire) = wires.get(*next) {
            self.skip_ws();
            if wire.starts(self.src, self.pos) {
                self.pos += wire.name.len() + 3;
                let index = *next;
                *next += 1;
                return Some((RawStr { raw: wire.name, escaped: false }, Some(index)));
            }
        }
        let key = self.key()?;
        let index = {
            let name = key.decoded_lossy();
            wires.iter().position(|w| w.name == name)
        };
        if let Some(i) = index {
            *next = i + 1;
        }
        Some((key, index))
    }

    /// After a member value: `Some(true)` at `,` (another member follows), `Some(false)` at the
    /// closing `}` (consumed).
    #[inline]
    pub fn more_members(&mut self) -> Option<bool> {
        self.after_element(b'}')
    }

    /// Consumes `[` and reports whether the array has elements.
    #[inline]
    pub fn array_start(&mut self) -> Option<bool> {
        self.eat(b'[')?;
        self.open()?;
        if self.peek()? == b']' {
            self.pos += 1;
            self.depth -= 1;
            return Some(false);
        }
        Some(true)
    }

    /// After an element: `Some(true)` at `,`, `Some(false)` at the closing `]` (consumed).
    #[inline]
    pub fn more_elements(&mut self) -> Option<bool> {
        self.after_element(b']')
    }

    #[inline(always)]
    fn after_element(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.pos += 1;
                Some(true)
            }
            b if b == close => {
                self.pos += 1;
                self.depth -= 1;
                Some(false)
            }
            _ => None,
        }
    }

    #[inline(always)]
    fn open(&mut self) -> Option<()> {
        if self.depth >= self.max_depth {
            return None;
        }
        self.depth += 1;
        Some(())
    }

    /// Validates and skips one value of any type and depth (iteratively); returns its exact
    /// text and whether whitespace sits between its tokens.
    pub fn skip_value(&mut self) -> Option<(&'s str, bool)> {
        self.skip_ws();
        let start = self.pos;
        let src = self.src;
        let base = self.depth;
        let mut pos = start;
        let mut ws = false;
        // Checking UTF-8: the first non-ASCII byte in the value (see `scan_value_string`).
        let mut high = usize::MAX;
        // One bit per open container: set for an object. Depth beyond 64 spills to a Vec.
        let mut kinds: u64 = 0;
        let mut spill: Vec<bool> = Vec::new();
        let mut open = 0usize;
        // Whether the innermost open container is an object (kept here, not looked up in
        // `kinds` after every element).
        let mut inside_object = false;
        'value: loop {
            match *src.get(pos)? {
                b'"' => pos = self.scan_value_string(pos + 1, &mut high)? + 1,
                c @ (b'{' | b'[') => {
                    if base + open >= self.max_depth {
                        return None;
                    }
                    let is_obj = c == b'{';
                    let (first, at) = next_token(src, pos + 1, &mut ws)?;
                    pos = at;
                    // Empty container?
                    if first == if is_obj { b'}' } else { b']' } {
                        pos += 1;
                    } else {
                        if open < 64 {
                            kinds = (kinds & !(1 << open)) | (u64::from(is_obj) << open);
                        } else {
                            spill.truncate(open - 64);
                            spill.push(is_obj);
                        }
                        open += 1;
                        inside_object = is_obj;
                        if is_obj {
                            pos = self.skip_key(first, pos, &mut ws, &mut high)?;
                        }
                        continue 'value;
                    }
                }
                b'-' | b'0'..=b'9' => pos = self.scan_number(pos)?,
                b't' => pos = literal(src, pos, b"true")?,
                b'f' => pos = literal(src, pos, b"false")?,
                b'n' => pos = literal(src, pos, b"null")?,
                _ => return None,
            }
            // After a value: close containers or move on to the next element.
            loop {
                if open == 0 {
                    // One UTF-8 check from the value's first non-ASCII byte to its end: every
                    // byte before it is ASCII, and outside strings only ASCII tokens passed.
                    if high != usize::MAX {
                        crate::scan::utf8(src, high, pos).ok()?;
                    }
                    self.pos = pos;
                    return Some((self.str_at(start, pos)?, ws));
                }
                let (c, at) = next_token(src, pos, &mut ws)?;
                pos = at + 1;
                match c {
                    b',' => {
                        if inside_object {
                            let (first, at) = next_token(src, pos, &mut ws)?;
                            pos = self.skip_key(first, at, &mut ws, &mut high)?;
                        } else {
                            pos = next_token(src, pos, &mut ws)?.1;
                        }
                        continue 'value;
                    }
                    b'}' if inside_object => {}
                    b']' if !inside_object => {}
                    _ => return None,
                }
                open -= 1;
                if open > 0 {
                    inside_object = if open <= 64 { kinds & (1 << (open - 1)) != 0 } else { spill[open - 65] };
                }
            }
        }
    }

    /// `"key"` `:` at `pos`, whose byte `first` the caller has read; returns the position of
    /// the value.
    #[inline(always)]
    fn skip_key(&self, first: u8, pos: usize, ws: &mut bool, high: &mut usize) -> Option<usize> {
        if first != b'"' {
            return None;
        }
        let pos = self.scan_value_string(pos + 1, high)? + 1;
        let (colon, at) = next_token(self.src, pos, ws)?;
        if colon != b':' {
            return None;
        }
        Some(next_token(self.src, at + 1, ws)?.1)
    }

    /// Validates and skips one value, returning it as an opaque [`RawJson`] (whitespace
    /// between tokens dropped, as the reference path stores it).
    #[inline]
    pub fn raw_json(&mut self) -> Option<RawJson> {
        let (raw, ws) = self.skip_value()?;
        Some(self.raw_of(raw, ws))
    }

    /// Validates and skips one value, returning a [`Val`] on it for the reference readers.
    #[inline]
    pub fn val(&mut self) -> Option<Val<'s>> {
        self.val_ws().map(|(v, _)| v)
    }

    /// [`Cursor::val`], and whether whitespace sits between the value's tokens (for
    /// [`Cursor::raw_of`]).
    #[inline]
    pub fn val_ws(&mut self) -> Option<(Val<'s>, bool)> {
        // The value's own text as the `Val`'s source (offsets inside a `Val` are relative):
        // a frame given as bytes has no text of its own until the read is done.
        let (raw, ws) = self.skip_value()?;
        Some((Val::span(raw, 0, raw.len()), ws))
    }
}

/// A declared member name, prepared for [`Cursor::member_key`]: the text `"name":` as it
/// stands on the wire when written plainly, as little-endian words, so that reading the
/// expected key is one or two word compares (names are a few bytes; a `memcmp` call cost more
/// than the compare). Built at compile time (`const`, as `wire_object!` does); the name must
/// pass [`is_plain_wire_name`], which `new` asserts.
#[derive(Clone, Copy, Debug)]
pub struct WireKey {
    /// The member's wire name.
    pub name: &'static str,
    /// Bytes 0..8 of `"name":`, zero past its end.
    head: u64,
    /// The bytes of `head` that belong to the text.
    mask: u64,
    /// The last 8 bytes of `"name":` when it is 9 to 16 bytes long, else 0.
    tail: u64,
}

impl WireKey {
    /// Prepares `name`.
    ///
    /// # Panics
    /// Unless [`is_plain_wire_name`] holds for `name` (at compile time, in a `const`).
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        assert!(is_plain_wire_name(name), "a wire name holds no quote, backslash or control character");
        let n = name.len() + 3;
        let (mut head, mut mask, mut tail) = (0u64, 0u64, 0u64);
        let mut i = 0;
        while i < n && i < 8 {
            head |= (key_text_byte(name, i) as u64) << (8 * i);
            mask |= 0xff << (8 * i);
            i += 1;
        }
        if n > 8 && n <= 16 {
            let mut j = 0;
            while j < 8 {
                tail |= (key_text_byte(name, n - 8 + j) as u64) << (8 * j);
                j += 1;
            }
        }
        WireKey { name, head, mask, tail }
    }

    /// Whether `src[at..]` starts with `"name":`.
    #[inline(always)]
    fn starts(&self, src: &[u8], at: usize) -> bool {
        let n = self.name.len() + 3;
        if let Some(&w) = src.get(at..).and_then(|r| r.first_chunk::<8>()) {
            let w = u64::from_le_bytes(w);
            if n <= 8 {
                return (w ^ self.head) & self.mask == 0;
            }
            if n <= 16 {
                return w == self.head && src.get(at + n - 8..).and_then(|r| r.first_chunk::<8>()).is_some_and(|&t| u64::from_le_bytes(t) == self.tail);
            }
        }
        // A name of 14 bytes or more, or fewer than 8 bytes left in the frame.
        src.get(at..at + n).is_some_and(|t| t[0] == b'"' && t[1..n - 2] == *self.name.as_bytes() && t[n - 2] == b'"' && t[n - 1] == b':')
    }
}

/// Byte `i` of `"name":`.
const fn key_text_byte(name: &str, i: usize) -> u8 {
    let len = name.len();
    if i == 0 || i == len + 1 {
        b'"'
    } else if i <= len {
        name.as_bytes()[i - 1]
    } else {
        b':'
    }
}

/// Whether `name` reads the same as a JSON string's raw content and as its decoded text: no
/// `"`, `\` or control character. Every declared wire name must be (`wire_object!` asserts it
/// at compile time), because [`Cursor::member_key`] matches keys by comparing bytes; every enum
/// wire value too (`wire_enum!` asserts it), because its writer appends `"value"` as one literal,
/// which is then exactly what [`crate::write_string`] would write.
#[must_use]
pub const fn is_plain_wire_name(name: &str) -> bool {
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' || b[i] == b'\\' || b[i] < 0x20 {
            return false;
        }
        i += 1;
    }
    true
}

/// The first byte at or after `pos` that is not JSON whitespace, and its offset (`None` at the
/// end of the text); sets `ws` when whitespace was skipped. Compact JSON has none, so the
/// common case is one load and one compare.
#[inline(always)]
fn next_token(src: &[u8], pos: usize, ws: &mut bool) -> Option<(u8, usize)> {
    let c = *src.get(pos)?;
    if c > b' ' {
        return Some((c, pos));
    }
    let mut at = pos;
    while matches!(src.get(at), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        at += 1;
    }
    *ws |= at != pos;
    Some((*src.get(at)?, at))
}

#[inline(always)]
fn literal(src: &[u8], pos: usize, lit: &[u8]) -> Option<usize> {
    src.get(pos..)?.starts_with(lit).then_some(pos + lit.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate;

    fn skip_all(s: &str, depth: usize) -> Option<(String, bool)> {
        let mut c = Cursor::new(s, depth);
        let (raw, ws) = c.skip_value()?;
        c.finish()?;
        Some((raw.to_owned(), ws))
    }

    /// `member_key` reads exactly what `key` reads, on text and on bytes, from any expected
    /// position; takes the byte compare (the returned name is the table's own `&'static str`)
    /// only for the expected name written plainly; and names the member by its index.
    #[test]
    fn member_key_reads_what_key_reads() {
        let wires = [WireKey::new("gm"), WireKey::new("seq"), WireKey::new("ts")];
        // (text, expected index before the read, index read, byte compare taken)
        let cases = [
            (r#" "gm":1"#, 0, Some(0), true),
            (r#""seq":1"#, 1, Some(1), true),
            (r#""ts":1"#, 2, Some(2), true),
            (r#""ts":1"#, 3, Some(2), false),
            (r#""gm":1"#, 2, Some(0), false),
            (r#""gm" :1"#, 0, Some(0), false),
            (r#""gmx":1"#, 0, None, false),
            (r#""g":1"#, 0, None, false),
            (r#""g\u006d":1"#, 0, Some(0), false),
            (r#""gm""#, 0, None, false),
            (r#""gm"#, 0, None, false),
            ("\"s\u{e9}q\":1", 1, None, false),
            ("", 0, None, false),
        ];
        for (text, from, index, hit) in cases {
            for bytes in [false, true] {
                let new = |t: &'static str| if bytes { Cursor::new_bytes(t.as_bytes(), 10) } else { Cursor::new(t, 10) };
                let mut plain = new(text);
                let want = plain.key().map(|k| (k.decoded_lossy().into_owned(), plain.pos));
                let mut fast = new(text);
                let mut next = from;
                let got = fast.member_key(&wires, &mut next);
                let taken = got.is_some_and(|(k, _)| wires.iter().any(|w| std::ptr::eq(k.raw, w.name)));
                let got = got.map(|(k, i)| ((k.decoded_lossy().into_owned(), fast.pos), i));
                assert_eq!(got.as_ref().map(|g| &g.0), want.as_ref(), "{text:?}");
                assert_eq!(got.as_ref().and_then(|g| g.1), index, "{text:?}");
                assert_eq!(next, index.map_or(from, |i| i + 1), "{text:?}");
                assert_eq!(taken, hit, "{text:?}");
            }
        }
    }

    /// `WireKey::starts` is "the text here is `"name":`" for names of every length around
    /// its word compares (1 to 20 bytes), followed by anything or by the frame's end, with
    /// any one byte of the key text changed (to a neighbour, or by its high bit).
    #[test]
    fn wire_key_starts_exactly_at_its_own_text() {
        const NAMES: [&str; 20] = [
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdef",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghij",
            "abcdefghijk",
            "abcdefghijkl",
            "abcdefghijklm",
            "abcdefghijklmn",
            "abcdefghijklmno",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopqr",
            "abcdefghijklmnopqrs",
            "abcdefghijklmnopqrst",
        ];
        for name in NAMES {
            let key = WireKey::new(name);
            let text = format!("\"{name}\":");
            for after in ["", "1", "1}", "{\"x\":[1,2,3]}", "\"\\u00e9\"}"] {
                for before in ["", " ", "{\"zz\":0,"] {
                    let frame = format!("{before}{text}{after}");
                    let at = before.len();
                    assert!(key.starts(frame.as_bytes(), at), "{frame:?}");
                    assert!(!key.starts(frame.as_bytes(), at + 1), "{frame:?} one byte on");
                    for i in 0..text.len() {
                        for change in [1u8, 0x80] {
                            let mut bytes = frame.clone().into_bytes();
                            bytes[at + i] ^= change;
                            assert!(!key.starts(&bytes, at), "{name}: byte {i} ^ {change:#x} in {:?}", String::from_utf8_lossy(&bytes));
                        }
                    }
                    // The text cut short at the frame's end.
                    assert!(!key.starts(&frame.as_bytes()[..at + text.len() - 1], at), "{frame:?} cut");
                }
            }
        }
    }

    /// `plain_uint` reads a token exactly when it is a plain integer of at most 15 digits,
    /// giving `number_value`'s value and ending where `number` ends; on anything else it
    /// consumes nothing.
    #[test]
    fn plain_uint_reads_what_number_reads() {
        let tokens = [
            "0",
            "7",
            "10",
            "123",
            "1756200000080",
            "999999999999999",
            "100000000000000",
            "9007199254740991",
            "1234567890123456",
            "12345678901234567890123",
            "00",
            "01",
            "-1",
            "-0",
            "1.5",
            "0.5",
            "1e3",
            "1E3",
            "1e",
            "12,",
            "12}",
            "12]",
            " 12",
            "12 ",
            "",
            "x",
            "-",
            "1.",
            "15.0",
        ];
        for token in tokens {
            for bytes in [false, true] {
                let new = |t: &'static str| if bytes { Cursor::new_bytes(t.as_bytes(), 10) } else { Cursor::new(t, 10) };
                let mut plain = new(token);
                let want = plain.number().map(|lexeme| (number_value(lexeme), plain.pos));
                let mut fast = new(token);
                let at = {
                    let mut c = new(token);
                    c.skip_ws();
                    c.pos
                };
                if let Some(n) = fast.plain_uint() {
                    assert_eq!(Some((n as f64, fast.pos)), want, "{token:?}");
                } else {
                    assert_eq!(fast.pos, at, "{token:?} consumed on a miss");
                    let plain_integer = token
                        .trim_start()
                        .split([',', '}', ']', ' '])
                        .next()
                        .is_some_and(|t| !t.is_empty() && t.len() <= 15 && t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0')));
                    assert!(!plain_integer, "{token:?} is a plain integer the fast read missed");
                }
            }
        }
    }

    /// `safe_integer` without `trunc` decides as `is_finite && trunc(x) == x && |x| ≤ 2^53 − 1`.
    #[test]
    fn safe_integer_is_the_zod_int_check() {
        let max = crate::MAX_SAFE_INTEGER as f64;
        let mut xs =
            vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, max, -max, max + 1.0, -max - 1.0, max - 0.5, 2f64.powi(53), 1e300, -1e300, f64::MIN_POSITIVE, 5e-324];
        xs.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 123_456_789.000_001]);
        for x in xs {
            let reference = (x.is_finite() && x.trunc() == x && x.abs() <= max).then_some(x as i64);
            assert_eq!(crate::safe_integer(x), reference, "{x:?}");
        }
    }

    #[test]
    fn plain_wire_names() {
        assert!(is_plain_wire_name("runId") && is_plain_wire_name("x.custom") && is_plain_wire_name("é") && is_plain_wire_name(""));
        assert!(!is_plain_wire_name("a\"b") && !is_plain_wire_name("a\\b") && !is_plain_wire_name("a\tb"));
    }

    #[test]
    fn skip_value_accepts_exactly_what_validate_accepts() {
        let cases = [
            "0",
            "-0",
            "1.5e+3",
            "\"\\ud800\"",
            " [1, {\"a\": []}] ",
            "1E2",
            "{\"a\":1,\"a\":2}",
            "",
            "01",
            ".5",
            "1.",
            "1e",
            "[1,]",
            "{\"a\":1,}",
            "NaN",
            "\u{feff}{}",
            "{} {}",
            "'a'",
            "\"\t\"",
            "0x10",
            "\"\\x\"",
            "[01]",
            "-",
            "[-]",
            "{\"a\" 1}",
            "{\"a\":}",
            "[1 2]",
            "tru",
            "nul",
            "\"abcdefghijklmnop\\\"qrstu\"",
            "\"abcdefgh\u{1}\"",
            "[[[[]]]]",
            "{\"a\":{\"b\":{\"c\":[1,2,{\"d\":null}]}}}",
            "[true,false,null]",
            "{\"\":\"\"}",
            "\"\\u12G4\"",
            "\"\\u123\"",
            "[1,2,3] ",
            "{ }",
            "[ ]",
            " { \"k\" : [ 1 , 2 ] } ",
            // Closers that do not match their opener, at every depth and after either kind.
            "[1}",
            "{\"a\":1]",
            "[{\"a\":[1]}}",
            "{\"a\":[{}]}]",
            "[[1],{\"b\":2]]",
            "[}",
            "{]",
            "{\"a\" :1 , \"b\":[ 2 ] }",
            "{\"a\":1 \"b\":2}",
            "{\"a\",1}",
            "{1:2}",
        ];
        for s in cases {
            assert_eq!(skip_all(s, 100).is_some(), validate(s, 100).is_ok(), "{s:?}");
        }
    }

    /// `read_shared_bytes` hands out spans of checked bytes only, also when a byte that is not
    /// UTF-8 comes after them and the read stops there.
    #[test]
    fn read_shared_bytes_spans_only_checked_bytes() {
        let read = |frame: &[u8]| {
            Cursor::read_shared_bytes(&SharedBytes::new(frame.to_vec()), 10, |mut cur| {
                let mut values = Vec::new();
                let mut more = cur.object_start()?;
                while more {
                    cur.key()?;
                    match cur.raw_json() {
                        Some(v) => values.push(v),
                        None => return Some((values, false)),
                    }
                    more = cur.more_members()?;
                }
                Some((values, cur.finish().is_some()))
            })
        };
        let (values, finished) = read(b"{\"a\":[1,\"\xc3\xa9\"],\"b\":\"\xff\"}").unwrap_or_default();
        assert!(!finished);
        assert_eq!(values.len(), 1);
        assert!(values[0].is_shared());
        assert_eq!(values[0].as_str(), "[1,\"\u{e9}\"]");
        let (values, finished) = read(b"{\"a\":{\"x\":\"\xe2\x82\xac\"},\"b\":null}").unwrap_or_default();
        assert!(finished);
        assert_eq!(values.iter().map(RawJson::as_str).collect::<Vec<_>>(), ["{\"x\":\"\u{20ac}\"}", "null"]);
    }

    #[test]
    fn skip_value_reports_whitespace_between_tokens_only() {
        assert_eq!(skip_all("{\"a b\":\"c d\",\"e\":[1,2]}", 10).map(|x| x.1), Some(false));
        assert_eq!(skip_all("{\"a\": 1}", 10).map(|x| x.1), Some(true));
        assert_eq!(skip_all("[1 ,2]", 10).map(|x| x.1), Some(true));
        assert_eq!(skip_all("{\"a\" :1}", 10).map(|x| x.1), Some(true));
        assert_eq!(skip_all("{ }", 10).map(|x| x.1), Some(true));
        assert_eq!(skip_all("  7  ", 10), Some(("7".to_owned(), false)));
    }

    #[test]
    fn depth_cap_applies_beyond_the_inline_stack() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(skip_all(&deep(100), 100).is_some());
        assert!(skip_all(&deep(101), 100).is_none());
        let mixed = "[{\"a\":".repeat(70) + "1" + &"}]".repeat(70);
        assert!(skip_all(&mixed, 1000).is_some());
        assert!(skip_all(&(mixed.clone() + "]"), 1000).is_none());
        assert!(skip_all(&mixed.replace("1}]", "1]]"), 1000).is_none());
    }
}
