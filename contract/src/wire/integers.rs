//! JavaScript safe integers as named types (graphmind-v1 §5.6): a field's integer rule is
//! visible in its type. [`SafeUInt`] (`0 ≤ x ≤ 2^53 − 1`), [`PositiveSafeUInt`]
//! (`1 ≤ x ≤ 2^53 − 1`) and [`SafeInt`] (`|x| ≤ 2^53 − 1`) can only hold values in their range,
//! so a declared object holding one always writes a frame the parser accepts. On the wire each
//! may be spelled any way `JSON.parse` reads as that number (`1e3`, `1.0`, `-0`).
//!
//! Exact 64-bit integers (no 2^53 rounding, Graphorin ids, codes and counts) are other types:
//! `graphorin::Count`, `graphorin::RpcErrorCode`.

use std::borrow::Cow;
use std::fmt;
use std::num::NonZeroU64;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use super::{Ctx, FieldRef, IssueCode, Path, WireValue};
use crate::registry::{Scalar, Ty};
use wirecontract_json::cursor::Cursor;
use wirecontract_json::{self as json, Val, MAX_SAFE_INTEGER};

/// Reads any safe integer, recording `invalid_type` (not an integer) or `too_big` (beyond
/// `2^53 − 1` in magnitude) under `path`. The message texts are the reference's (zod 4).
fn read_safe_int(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<i64> {
    let Some(x) = v.as_f64() else {
        return ctx.expected(path, "integer", Some(v));
    };
    if let Some(i) = json::safe_integer(x) {
        return Some(i);
    }
    if x.is_finite() && x.trunc() == x {
        ctx.issue_with(path, IssueCode::TooBig, format!("too big: expected a safe integer (|x| <= {}), received {}", MAX_SAFE_INTEGER, v.raw()));
    } else {
        ctx.issue_with(path, IssueCode::InvalidType, format!("expected integer, received {}", v.raw()));
    }
    None
}

/// A nonnegative JavaScript safe integer, `0 ≤ x ≤ 2^53 − 1` (token counts, seqs, counts).
///
/// Built with [`SafeUInt::new`] (checked), `From<u32>` (always in range) or `TryFrom<u64>` /
/// `TryFrom<i64>`; read with [`SafeUInt::get`]. Serializes as a plain JSON integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
#[serde(transparent)]
pub struct SafeUInt(u64);

impl SafeUInt {
    /// `0`.
    pub const ZERO: SafeUInt = SafeUInt(0);
    /// `2^53 − 1`, the largest value (`Number.MAX_SAFE_INTEGER`).
    pub const MAX: SafeUInt = SafeUInt(MAX_SAFE_INTEGER);

    /// `Some` when `x ≤ 2^53 − 1`.
    #[must_use]
    pub const fn new(x: u64) -> Option<Self> {
        if x <= MAX_SAFE_INTEGER {
            Some(SafeUInt(x))
        } else {
            None
        }
    }

    /// The value.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// `self + 1`, staying at [`SafeUInt::MAX`] (a counter that cannot leave the safe range).
    #[must_use]
    pub const fn saturating_inc(self) -> Self {
        if self.0 < MAX_SAFE_INTEGER {
            SafeUInt(self.0 + 1)
        } else {
            self
        }
    }
}

/// `|x| ≤ 2^53 − 1` fails for this value (the error of every checked integer conversion here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfSafeRange;

impl fmt::Display for OutOfSafeRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("integer outside the JavaScript safe range")
    }
}

impl std::error::Error for OutOfSafeRange {}

impl From<u32> for SafeUInt {
    fn from(x: u32) -> Self {
        SafeUInt(u64::from(x))
    }
}

impl TryFrom<u64> for SafeUInt {
    type Error = OutOfSafeRange;
    fn try_from(x: u64) -> Result<Self, OutOfSafeRange> {
        SafeUInt::new(x).ok_or(OutOfSafeRange)
    }
}

impl TryFrom<usize> for SafeUInt {
    type Error = OutOfSafeRange;
    fn try_from(x: usize) -> Result<Self, OutOfSafeRange> {
        u64::try_from(x).ok().and_then(SafeUInt::new).ok_or(OutOfSafeRange)
    }
}

impl TryFrom<i64> for SafeUInt {
    type Error = OutOfSafeRange;
    fn try_from(x: i64) -> Result<Self, OutOfSafeRange> {
        u64::try_from(x).ok().and_then(SafeUInt::new).ok_or(OutOfSafeRange)
    }
}

impl From<SafeUInt> for u64 {
    fn from(x: SafeUInt) -> u64 {
        x.0
    }
}

impl PartialEq<u64> for SafeUInt {
    fn eq(&self, other: &u64) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for SafeUInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl JsonSchema for SafeUInt {
    fn schema_name() -> Cow<'static, str> {
        "SafeUInt".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER })
    }
}

impl WireValue for SafeUInt {
    const TY: Ty = Ty::Scalar(Scalar::SafeUInt);
    const EXPECTED: &'static str = "nonnegative integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let i = read_safe_int(ctx, v, path)?;
        if i < 0 {
            ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected integer to be >= 0, received {}", v.raw()));
            return None;
        }
        SafeUInt::try_from(i).ok()
    }
    fn write(&self, out: &mut Vec<u8>) {
        wirecontract_json::write_int(out, self.0);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::UInt(self.0)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        if let Some(n) = cur.plain_uint() {
            return SafeUInt::new(n);
        }
        SafeUInt::try_from(json::safe_integer(cur.number_value()?)?).ok()
    }
}

/// A positive JavaScript safe integer, `1 ≤ x ≤ 2^53 − 1` (`LoopInfo.period`, `laps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct PositiveSafeUInt(NonZeroU64);

impl PositiveSafeUInt {
    /// `1`.
    pub const ONE: PositiveSafeUInt = PositiveSafeUInt(NonZeroU64::MIN);

    /// `Some` when `1 ≤ x ≤ 2^53 − 1`.
    #[must_use]
    pub const fn new(x: u64) -> Option<Self> {
        match NonZeroU64::new(x) {
            Some(n) if x <= MAX_SAFE_INTEGER => Some(PositiveSafeUInt(n)),
            _ => None,
        }
    }

    /// The value.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0.get()
    }
}

impl TryFrom<u64> for PositiveSafeUInt {
    type Error = OutOfSafeRange;
    fn try_from(x: u64) -> Result<Self, OutOfSafeRange> {
        PositiveSafeUInt::new(x).ok_or(OutOfSafeRange)
    }
}

impl TryFrom<i64> for PositiveSafeUInt {
    type Error = OutOfSafeRange;
    fn try_from(x: i64) -> Result<Self, OutOfSafeRange> {
        u64::try_from(x).ok().and_then(PositiveSafeUInt::new).ok_or(OutOfSafeRange)
    }
}

impl From<PositiveSafeUInt> for u64 {
    fn from(x: PositiveSafeUInt) -> u64 {
        x.get()
    }
}

impl fmt::Display for PositiveSafeUInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl JsonSchema for PositiveSafeUInt {
    fn schema_name() -> Cow<'static, str> {
        "PositiveSafeUInt".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX_SAFE_INTEGER })
    }
}

impl WireValue for PositiveSafeUInt {
    const TY: Ty = Ty::Scalar(Scalar::PositiveSafeUInt);
    const EXPECTED: &'static str = "positive integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        let i = read_safe_int(ctx, v, path)?;
        if i <= 0 {
            ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected integer to be > 0, received {}", v.raw()));
            return None;
        }
        PositiveSafeUInt::try_from(i).ok()
    }
    fn write(&self, out: &mut Vec<u8>) {
        wirecontract_json::write_int(out, self.0.get());
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::UInt(self.get())
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        if let Some(n) = cur.plain_uint() {
            return PositiveSafeUInt::new(n);
        }
        PositiveSafeUInt::try_from(json::safe_integer(cur.number_value()?)?).ok()
    }
}

/// Any JavaScript safe integer, `|x| ≤ 2^53 − 1` (`hello.versions.protocol`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
#[serde(transparent)]
pub struct SafeInt(i64);

impl SafeInt {
    /// `Some` when `|x| ≤ 2^53 − 1`.
    #[must_use]
    pub const fn new(x: i64) -> Option<Self> {
        if x.unsigned_abs() <= MAX_SAFE_INTEGER {
            Some(SafeInt(x))
        } else {
            None
        }
    }

    /// The value.
    #[must_use]
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl From<i32> for SafeInt {
    fn from(x: i32) -> Self {
        SafeInt(i64::from(x))
    }
}

impl TryFrom<i64> for SafeInt {
    type Error = OutOfSafeRange;
    fn try_from(x: i64) -> Result<Self, OutOfSafeRange> {
        SafeInt::new(x).ok_or(OutOfSafeRange)
    }
}

impl From<SafeInt> for i64 {
    fn from(x: SafeInt) -> i64 {
        x.0
    }
}

impl PartialEq<i64> for SafeInt {
    fn eq(&self, other: &i64) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for SafeInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl JsonSchema for SafeInt {
    fn schema_name() -> Cow<'static, str> {
        "SafeInt".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": -(MAX_SAFE_INTEGER as i64), "maximum": MAX_SAFE_INTEGER })
    }
}

impl WireValue for SafeInt {
    const TY: Ty = Ty::Scalar(Scalar::SafeInt);
    const EXPECTED: &'static str = "integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        read_safe_int(ctx, v, path).map(SafeInt)
    }
    fn write(&self, out: &mut Vec<u8>) {
        wirecontract_json::write_int(out, self.0);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Int(self.0)
    }
    #[inline]
    fn read_fast(cur: &mut Cursor<'_>) -> Option<Self> {
        if let Some(n) = cur.plain_uint() {
            // At most 15 digits: in range of both i64 and the safe integers.
            return SafeInt::new(n as i64);
        }
        json::safe_integer(cur.number_value()?).map(SafeInt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_the_javascript_safe_range() {
        assert_eq!(SafeUInt::new(MAX_SAFE_INTEGER), Some(SafeUInt::MAX));
        assert_eq!(SafeUInt::new(MAX_SAFE_INTEGER + 1), None);
        assert_eq!(SafeUInt::try_from(-1_i64), Err(OutOfSafeRange));
        assert_eq!(SafeUInt::MAX.saturating_inc(), SafeUInt::MAX);
        assert_eq!(SafeUInt::ZERO.saturating_inc(), 1);
        assert_eq!(PositiveSafeUInt::new(0), None);
        assert_eq!(PositiveSafeUInt::new(1), Some(PositiveSafeUInt::ONE));
        assert_eq!(PositiveSafeUInt::new(MAX_SAFE_INTEGER + 1), None);
        assert_eq!(SafeInt::new(-(MAX_SAFE_INTEGER as i64)).map(SafeInt::get), Some(-(MAX_SAFE_INTEGER as i64)));
        assert_eq!(SafeInt::new(i64::MIN), None);
        assert_eq!(SafeInt::new(MAX_SAFE_INTEGER as i64 + 1), None);
    }

    #[test]
    fn serialize_as_plain_integers() {
        let v = serde_json::to_string(&(SafeUInt::MAX, PositiveSafeUInt::ONE, SafeInt::from(-3))).unwrap();
        assert_eq!(v, "[9007199254740991,1,-3]");
    }
}
