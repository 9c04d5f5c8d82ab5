//! The scalar and container value types a field can hold, each with its wire rule: strings,
//! booleans, finite and nonnegative numbers, opaque values, arrays and string-keyed records of
//! opaque values (the record type itself, [`OpaqueObject`], is declared in `extras.rs`). The
//! safe integers (graphmind-v1 §5.6) are named types in `integers.rs`.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use super::{Ctx, Extras, IssueCode, OpaqueObject, Path, WireValue};
use crate::registry::FieldRef;
use wirecontract_json::cursor::Cursor;
use wirecontract_json::RawJson;
use wirecontract_json::{self as json, decode_string, JsonKind, Val};

impl WireValue for String {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::String);
    const EXPECTED: &'static str = "string";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        match v.string_raw() {
            Some(raw) => Some(decode_string(raw).text.into_owned()),
            None => ctx.expected(path, "string", Some(v)),
        }
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_string(out, self);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Str(self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        Some(cur.string()?.decoded_lossy().into_owned())
    }
}

impl WireValue for bool {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::Bool);
    const EXPECTED: &'static str = "boolean";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        v.as_bool().or_else(|| ctx.expected(path, "boolean", Some(v)))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Bool(*self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        cur.boolean()
    }
}

/// `f64` fields hold any finite double; `1e400` (Infinity in `JSON.parse`) is invalid.
impl WireValue for f64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::Finite);
    const EXPECTED: &'static str = "number";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let Some(x) = v.as_f64() else {
            return ctx.expected(path, "number", Some(v));
        };
        if !x.is_finite() {
            ctx.issue_with(path, IssueCode::InvalidType, format!("expected a finite number, received {} (Infinity)", v.raw()));
            return None;
        }
        Some(x)
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_f64(out, *self);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Number(*self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let x = cur.number_value()?;
        x.is_finite().then_some(x)
    }
}

/// A nonnegative finite double (`durationMs`, `heldMs`: milliseconds, fractions allowed).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize)]
#[serde(transparent)]
pub struct NonNegativeF64(f64);

impl NonNegativeF64 {
    /// `Some` when `x` is finite and `≥ 0`.
    pub fn new(x: f64) -> Option<Self> {
        (x.is_finite() && x >= 0.0).then_some(NonNegativeF64(x))
    }
    /// The value.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl JsonSchema for NonNegativeF64 {
    fn schema_name() -> Cow<'static, str> {
        "NonNegativeNumber".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "number", "minimum": 0 })
    }
}

impl WireValue for NonNegativeF64 {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::NonNegativeFinite);
    const EXPECTED: &'static str = "nonnegative number";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let x = f64::read(ctx, v, path)?;
        if x < 0.0 {
            ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected number to be >= 0, received {}", v.raw()));
            return None;
        }
        Some(NonNegativeF64(x))
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_f64(out, self.0);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Number(self.0)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        NonNegativeF64::new(cur.number_value()?)
    }
}

/// Opaque fields accept any JSON value, `null` included, and keep its text.
impl WireValue for RawJson {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::Opaque);
    const EXPECTED: &'static str = "any JSON value";
    fn read(ctx: &mut Ctx, v: Val<'_>, _: &Path<'_>) -> Option<Self> {
        Some(ctx.raw(v))
    }
    fn write(&self, out: &mut Vec<u8>) {
        RawJson::write(self, out);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Raw(self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        cur.raw_json()
    }
}

impl<T: WireValue> WireValue for Vec<T> {
    const TY: crate::registry::Ty = crate::registry::Ty::List(&T::TY);
    const EXPECTED: &'static str = "array";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        if v.kind() != JsonKind::Array {
            return ctx.expected(path, "array", Some(v));
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, el) in v.elements().enumerate() {
            match T::read(ctx, el, &Path::Index(path, i)) {
                Some(x) if ok => out.push(x),
                Some(_) => {}
                None => ok = false,
            }
        }
        ok.then_some(out)
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            x.write(out);
        }
        out.push(b']');
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::List(self.iter().map(WireValue::field_ref).collect())
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let mut out = Vec::new();
        if cur.array_start()? {
            // Room for eight at the first element: arrays on the wire (token deltas, tags,
            // hint nodes) mostly hold a few to a dozen, and growing from Vec's own first
            // capacity (four) would reallocate and copy once more.
            out.reserve_exact(ARRAY_FIRST_CAPACITY);
            loop {
                out.push(T::read_fast(cur)?);
                if !cur.more_elements()? {
                    break;
                }
            }
        }
        Some(out)
    }
}

/// The capacity [`Vec`]'s `read_fast` gives a non-empty array before its first element.
const ARRAY_FIRST_CAPACITY: usize = 8;

impl WireValue for OpaqueObject {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::OpaqueObject);
    const EXPECTED: &'static str = "object";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        if v.kind() != JsonKind::Object {
            return ctx.expected(path, "object", Some(v));
        }
        let mut extras = Extras::new();
        for (k, val) in v.members() {
            extras.insert_escaped(k, ctx.raw(val));
        }
        Some(OpaqueObject(extras))
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        let mut first = true;
        self.0.write_members(out, &mut first);
        out.push(b'}');
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::OpaqueObject(self)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        let mut extras = Extras::new();
        if cur.object_start()? {
            loop {
                let key = cur.key()?;
                extras.insert_escaped(key.raw, cur.raw_json()?);
                if !cur.more_members()? {
                    break;
                }
            }
        }
        Some(OpaqueObject(extras))
    }
}
