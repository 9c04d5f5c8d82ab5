//! Tier 2, the field trim (graphmind-shrink §4), with `shrinkField` (§5), and the markers of
//! tier 4 (§8) and of a too-deep object (§5 F4).

use std::borrow::Cow;
use std::cmp::Reverse;

use super::units::{cut, len16, prefix16};
use super::value::{JsObject, JsValue};
use super::write::{set, write_out, Out};
use super::{MARKER_KEY, MAX_SHRINK_DEPTH, MAX_SHRINK_KEYS, PREVIEW_CHARS};

/// `{"__graphmindTruncated":true,"bytes":bytes,"preview":preview}`: the whole-payload marker
/// (§8) and the depth / omitted markers (§5 F4, §7.2 K3), which differ only in their values.
pub(super) fn marker(bytes: usize, preview: Cow<'_, [u8]>) -> Out<'_> {
    Out::Object(vec![(MARKER_KEY.as_bytes(), Out::Bool(true)), (b"bytes", Out::Count(bytes)), (b"preview", Out::Str(preview))])
}

/// `shrinkField(value, depth, enc)` (§5): a type-preserving shrink. `enc` is the field's own
/// JSON text, given at depth 0 only. Recursion is bounded by [`MAX_SHRINK_DEPTH`] (F4) since
/// arrays are never entered (F2).
pub(super) fn shrink_field<'a>(value: &'a JsValue, depth: usize, enc: &'a [u8]) -> Out<'a> {
    match value {
        JsValue::String(s) => Out::Str(cut(s.as_wtf8(), PREVIEW_CHARS).0),
        JsValue::Array(_) => Out::List(Vec::new()),
        JsValue::Null | JsValue::Bool(_) | JsValue::Number(_) => Out::Ref(value),
        JsValue::Object(_) if depth >= MAX_SHRINK_DEPTH => marker(0, Cow::Borrowed(b"[deeply nested]")),
        JsValue::Object(o) => shrink_object(o, depth, enc),
    }
}

/// F5–F7: the first [`MAX_SHRINK_KEYS`] keys, shrunk one level deeper, then the marker keys.
fn shrink_object<'a>(o: &'a JsObject, depth: usize, enc: &'a [u8]) -> Out<'a> {
    let mut members: Vec<(&'a [u8], Out<'a>)> = o.entries().iter().take(MAX_SHRINK_KEYS).map(|(k, v)| (k.as_wtf8(), shrink_field(v, depth + 1, b""))).collect();
    let dropped = o.len().saturating_sub(MAX_SHRINK_KEYS);
    if depth > 0 {
        if dropped > 0 {
            set(&mut members, MARKER_KEY, Out::Bool(true));
            set(&mut members, "keysDropped", Out::Count(dropped));
        }
    } else {
        set(&mut members, MARKER_KEY, Out::Bool(true));
        // UTF-16 units of the field's JSON text, not bytes (§14 A10).
        set(&mut members, "bytes", Out::Count(len16(enc)));
        set(&mut members, "preview", Out::Str(prefix16(enc, PREVIEW_CHARS)));
        if dropped > 0 {
            set(&mut members, "keysDropped", Out::Count(dropped));
        }
    }
    Out::Object(members)
}

/// `truncateFields` (§4 T1–T7): the trimmed payload's JSON text, or `None` when nothing was
/// shrunk or the result does not fit. `spans` are the byte ranges of each top-level value in
/// `text` (T1), in key order.
pub(super) fn trim(o: &JsObject, spans: &[(usize, usize)], text: &[u8], max_bytes: usize) -> Option<String> {
    let total = text.len();
    let enc: Vec<&[u8]> = spans.iter().map(|&(s, e)| text.get(s..e).unwrap_or_default()).collect();
    // T1: sizes in UTF-16 units. T2: descending, stable (ties keep key order).
    let sizes: Vec<usize> = enc.iter().map(|e| len16(e)).collect();
    let mut order: Vec<usize> = (0..o.len()).collect();
    order.sort_by_key(|&i| Reverse(sizes.get(i).copied().unwrap_or(0)));
    // T3: a shallow copy.
    let mut out: Vec<(&[u8], Out<'_>)> = o.entries().iter().map(|(k, v)| (k.as_wtf8(), Out::Ref(v))).collect();
    let mut shrunk: Vec<Out<'_>> = Vec::new();
    // T4: `remaining` starts in UTF-8 bytes and falls by UTF-16 units (deliberate, §14 A10).
    // Wide integers: `2·remaining ≤ maxBytes` is exact and cannot overflow.
    let mut remaining = total as i128;
    for i in order {
        if 2 * remaining <= max_bytes as i128 {
            break;
        }
        let (Some((key, value)), Some(&e)) = (o.entries().get(i), enc.get(i)) else { break };
        if let Some(slot) = out.get_mut(i) {
            slot.1 = shrink_field(value, 0, e);
        }
        shrunk.push(Out::Str(Cow::Borrowed(key.as_wtf8())));
        remaining -= sizes.get(i).copied().unwrap_or(0) as i128;
    }
    finish_trim(out, shrunk, total, text, max_bytes)
}

/// T5–T7, shared by the value path and the single pass over the text: nothing trimmed is no
/// trim; else the marker members are set on `out` (sets, so a colliding user key keeps its
/// place) and the object is written, `None` when it is still over `max_bytes`. `text` is the
/// payload's JSON text, `total` its length.
pub(super) fn finish_trim<'a>(mut out: Vec<(&'a [u8], Out<'a>)>, shrunk: Vec<Out<'a>>, total: usize, text: &'a [u8], max_bytes: usize) -> Option<String> {
    if shrunk.is_empty() {
        return None;
    }
    set(&mut out, MARKER_KEY, Out::Bool(true));
    set(&mut out, "bytes", Out::Count(total));
    set(&mut out, "preview", Out::Str(prefix16(text, PREVIEW_CHARS)));
    set(&mut out, "fields", Out::List(shrunk));
    let mut json = Vec::with_capacity(max_bytes.min(total));
    write_out(&mut json, &Out::Object(out));
    (json.len() <= max_bytes).then(|| super::write::into_string(json))
}
