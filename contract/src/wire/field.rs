//! Field traits: how one declared field is read from and written to the wire.
//! [`WireValue`] is a value type's rule; [`WireField`] adds required/optional.

use super::{describe_received, quote_key, Ctx, IssueCode, Path};
use crate::registry::FieldRef;
use wirecontract_json::cursor::Cursor;
use wirecontract_json::{decode_string, Val};

/// A value type that can sit in a contract field: reads itself from validated JSON (recording
/// issues) and writes itself as `JSON.stringify` would.
pub trait WireValue: Sized {
    /// What the value is, for "expected …" messages (`"string"`, `"object (ErrorInfo)"`).
    #[doc(hidden)]
    const EXPECTED: &'static str;
    /// The value's type in the registry (scalar rule, enum, object or list).
    const TY: crate::registry::Ty;
    /// Reads from `v`, recording every issue under `path`. `None` when invalid.
    #[doc(hidden)]
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self>;
    /// Appends the JSON form.
    #[doc(hidden)]
    fn write(&self, out: &mut Vec<u8>);
    /// A borrowed, type-erased view for the bindings' reflection.
    fn field_ref(&self) -> FieldRef<'_>;
    /// The single-pass read (see [`cursor`]): `Some` only for a value the reference
    /// [`WireValue::read`] accepts without any issue, and then the same value; `None` means
    /// "bail to the reference path". The default validates and skips the value, then runs
    /// [`WireValue::read`] on it.
    #[doc(hidden)]
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let v = cur.val()?;
        let mut ctx = Ctx::new();
        let r = Self::read(&mut ctx, v, &Path::Root);
        if ctx.issues.is_empty() {
            r
        } else {
            None
        }
    }
}

/// How a declared field behaves when absent: required values record an issue, `Option`
/// fields stay `None`. `null` is never "absent" (optional is not nullable, §5.11).
pub trait WireField: Sized {
    /// The value type (for `Option<T>`, `T`'s).
    const TY: crate::registry::Ty;
    /// `false` for `Option<T>`.
    const REQUIRED: bool;
    #[doc(hidden)]
    fn read_field(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Self>;
    #[doc(hidden)]
    fn write_field(&self, key: &str, out: &mut Vec<u8>, first: &mut bool);
    /// `true` for an absent optional field (serde's `skip_serializing_if`).
    fn is_absent(&self) -> bool {
        false
    }
    /// The field's reflection view; `None` when absent.
    fn field_ref_opt(&self) -> Option<FieldRef<'_>>;
    /// Single-pass read of a present member's value (`None`: bail, see [`cursor`]).
    #[doc(hidden)]
    fn read_present_fast(cur: &mut Cursor<'_>) -> Option<Self>;
    /// The field's value when its key is absent; `None` (bail) for a required field.
    #[doc(hidden)]
    fn absent_fast() -> Option<Self>;
}

#[doc(hidden)]
#[inline]
pub(crate) fn write_key(out: &mut Vec<u8>, key: &str, first: &mut bool) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
}

impl<T: WireValue> WireField for T {
    const TY: crate::registry::Ty = T::TY;
    const REQUIRED: bool = true;
    fn read_field(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Self> {
        if let Some(v) = v {
            return T::read(ctx, v, path);
        }
        ctx.issue_with(path, IssueCode::InvalidType, format!("expected {}, received undefined (the field is required)", T::EXPECTED));
        None
    }
    fn write_field(&self, key: &str, out: &mut Vec<u8>, first: &mut bool) {
        write_key(out, key, first);
        self.write(out);
    }
    fn field_ref_opt(&self) -> Option<FieldRef<'_>> {
        Some(self.field_ref())
    }
    #[inline]
    fn read_present_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        T::read_fast(cur)
    }
    #[inline]
    fn absent_fast() -> Option<Self> {
        None
    }
}

impl<T: WireValue> WireField for Option<T> {
    const TY: crate::registry::Ty = T::TY;
    const REQUIRED: bool = false;
    fn read_field(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Self> {
        match v {
            None => Some(None),
            Some(v) => T::read(ctx, v, path).map(Some),
        }
    }
    fn write_field(&self, key: &str, out: &mut Vec<u8>, first: &mut bool) {
        if let Some(v) = self {
            write_key(out, key, first);
            v.write(out);
        }
    }
    fn is_absent(&self) -> bool {
        self.is_none()
    }
    fn field_ref_opt(&self) -> Option<FieldRef<'_>> {
        self.as_ref().map(WireValue::field_ref)
    }
    #[inline]
    fn read_present_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        T::read_fast(cur).map(Some)
    }
    #[inline]
    fn absent_fast() -> Option<Self> {
        Some(None)
    }
}

/// Checks a string literal member of a strict object (`wire_strict_object!`'s `const`
/// entries): the last occurrence in `seen` must be a string equal to `value` after unescaping.
/// Records an `invalid_literal` issue at `path.wire` otherwise (absent included, as zod 3's
/// `z.literal` does).
pub(crate) fn read_literal(ctx: &mut Ctx, seen: &[(&'static str, Val<'_>)], wire: &str, value: &str, path: &Path<'_>) -> bool {
    let got = seen.iter().rev().find(|(k, _)| *k == wire).map(|(_, v)| *v);
    let ok = got.and_then(|v| v.string_raw()).is_some_and(|raw| decode_string(raw).text == value);
    if !ok {
        ctx.issue_with(
            &Path::Key(path, wire),
            IssueCode::InvalidLiteral,
            format!("invalid literal: expected {}, received {}", quote_key(value), describe_received(got)),
        );
    }
    ok
}
