//! Every Graphorin v1 frame and field type (spec graphorin-v1 §2–§4), declared once.
//!
//! Every object here is strict (`wire_strict_object!`): an undeclared key is an issue. Keys
//! are written in the order declared, which is the reference's (`v` first, then `jsonrpc` or
//! `kind`, …), so a canonical frame re-serializes byte for byte.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};

use crate::wire::{describe_received, Ctx, FieldRef, IssueCode, OpaqueObject, Path, WireValue};
use wirecontract_json::RawJson;
use wirecontract_json::{self as json, decode_string, JsonKind, Val};

// ---------------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------------

/// A non-empty string: every identifier and text field of the protocol (§2 "Non-empty
/// strings", zod `min(1)`). Length is counted in UTF-16 code units and nothing is trimmed, so
/// `" "` is valid; no pattern or grammar applies (subject grammar is the server's business).
///
/// A lone-surrogate escape on the wire (`"\ud800"`, legal for `JSON.parse`) counts as one
/// code unit and is held as U+FFFD, as in every other contract string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct NonEmptyString(String);

impl NonEmptyString {
    /// `Some` unless `s` is empty.
    pub fn new(s: impl Into<String>) -> Option<Self> {
        let s = s.into();
        (!s.is_empty()).then_some(NonEmptyString(s))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The owned text.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for NonEmptyString {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for NonEmptyString {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for NonEmptyString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for NonEmptyString {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for NonEmptyString {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl TryFrom<String> for NonEmptyString {
    type Error = EmptyStringError;
    fn try_from(s: String) -> Result<Self, EmptyStringError> {
        NonEmptyString::new(s).ok_or(EmptyStringError)
    }
}

impl TryFrom<&str> for NonEmptyString {
    type Error = EmptyStringError;
    fn try_from(s: &str) -> Result<Self, EmptyStringError> {
        NonEmptyString::new(s).ok_or(EmptyStringError)
    }
}

/// The empty string was given where the protocol requires `min(1)` (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmptyStringError;

impl fmt::Display for EmptyStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the string must not be empty (graphorin-v1 §2)")
    }
}

impl std::error::Error for EmptyStringError {}

impl JsonSchema for NonEmptyString {
    fn schema_name() -> Cow<'static, str> {
        "NonEmptyString".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "minLength": 1 })
    }
}

fn read_non_empty(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<NonEmptyString> {
    let Some(raw) = v.string_raw() else {
        return ctx.expected(path, "string", Some(v));
    };
    if raw.is_empty() {
        ctx.issue_with(path, IssueCode::TooSmall, "too small: expected string to have >= 1 characters, received \"\"");
        return None;
    }
    Some(NonEmptyString(decode_string(raw).text.into_owned()))
}

impl WireValue for NonEmptyString {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::NonEmptyString);
    const EXPECTED: &'static str = "non-empty string";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        read_non_empty(ctx, v, path)
    }
    fn write(&self, out: &mut Vec<u8>) {
        json::write_string(out, &self.0);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Str(&self.0)
    }
}

/// The exact integer a JSON number lexeme spells (`1.0` → 1, `1e3` → 1000, `-0` → 0,
/// `9007199254740993` → itself), or `None` when it is not an integer or beyond `i128`.
pub(crate) fn exact_integer(lexeme: &str) -> Option<i128> {
    let (negative, rest) = match lexeme.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, lexeme),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Some(0);
    }
    let significant = digits.trim_end_matches('0');
    let scale = exponent.checked_sub(i64::try_from(frac.len()).ok()?)?.checked_add(i64::try_from(digits.len() - significant.len()).ok()?)?;
    if scale < 0 || i64::try_from(significant.len()).ok()?.checked_add(scale)? > 39 {
        return None;
    }
    let mut value: i128 = significant.parse().ok()?;
    for _ in 0..scale {
        value = value.checked_mul(10)?;
    }
    Some(if negative { -value } else { value })
}

/// Reads an integer with zod 3's rule (§2 "Integers"): any JSON number whose `JSON.parse`
/// value passes `Number.isInteger` (`1.0`, `1e3`, `-0` pass; `1.5` and `1e400` fail). The
/// value kept is the one the text spells exactly, not the double `JSON.parse` would round it
/// to (`9007199254740993` stays itself); a lexeme that only rounds to an integer
/// (`1.0000000000000001`) takes the double's value.
pub(crate) fn read_integer(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<i128> {
    let Some(x) = v.as_f64() else {
        return ctx.expected(path, "integer", Some(v));
    };
    if !(x.is_finite() && x.trunc() == x) {
        let what = if x.is_finite() { "a fraction" } else { "Infinity" };
        ctx.issue_with(path, IssueCode::InvalidType, format!("expected integer, received {} ({what})", describe_received(Some(v))));
        return None;
    }
    Some(exact_integer(v.raw()).unwrap_or(x as i128))
}

fn read_i64(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<i64> {
    let i = read_integer(ctx, v, path)?;
    let Ok(fits) = i64::try_from(i) else {
        let (code, word) = if i < 0 { (IssueCode::TooSmall, "small") } else { (IssueCode::TooBig, "big") };
        ctx.issue_with(path, code, format!("too {word}: expected an integer in the 64-bit signed range, received {}", describe_received(Some(v))));
        return None;
    };
    Some(fits)
}

/// `u64` fields (`droppedCount`) hold an integer `≥ 0` by the rule of [`read_integer`], up to
/// `2^64 − 1`.
fn read_u64(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<u64> {
    let i = read_integer(ctx, v, path)?;
    if i < 0 {
        ctx.issue_with(path, IssueCode::TooSmall, format!("too small: expected integer to be >= 0, received {}", describe_received(Some(v))));
        return None;
    }
    let Ok(fits) = u64::try_from(i) else {
        ctx.issue_with(path, IssueCode::TooBig, format!("too big: expected an integer below 2^64, received {}", describe_received(Some(v))));
        return None;
    };
    Some(fits)
}

/// A non-negative integer field (`replay-marker.droppedCount`): any integer `≥ 0` that fits
/// `u64`, spelled any way (`2`, `2.0`, `2e0`, `-0`). The reference has no upper bound; values
/// of `2^64` and above are invalid here (the one bound this contract adds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
#[serde(transparent)]
pub struct Count(pub u64);

impl JsonSchema for Count {
    fn schema_name() -> Cow<'static, str> {
        "Count".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": 0, "maximum": u64::MAX })
    }
}

impl WireValue for Count {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::ExactUInt);
    const EXPECTED: &'static str = "non-negative integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        read_u64(ctx, v, path).map(Count)
    }
    fn write(&self, out: &mut Vec<u8>) {
        wirecontract_json::write_int(out, self.0);
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::UInt(self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// RpcId
// ---------------------------------------------------------------------------------------------

/// A JSON-RPC id (§2 "RpcId"): a non-empty string or an integer, the same schema for requests
/// and responses. `null`, fractions, booleans, objects and `""` are invalid; `null` ids are not
/// representable at all (a server that cannot read a request answers with `0`, §3.1).
///
/// The JSON type is part of the value (§13, §14.4): `"1"` and `1` are different ids and each
/// serializes back as it came. An integer keeps the exact value its text spells, within the
/// 64-bit signed range (`9007199254740993` stays itself, where `JSON.parse` would round it to
/// 2^53); `1.0`, `1e0` and `-0` read as `1`, `1`, `0` and are written that way, as
/// `JSON.stringify` would. Integers outside the `i64` range are invalid (`too_big`/`too_small`),
/// the one place this contract is stricter than the reference (zod 3 has no bound).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RpcId {
    /// A string id (the shipped client sends `<clientId|graphorin>-<n base36>`).
    Str(NonEmptyString),
    /// An integer id.
    Int(i64),
}

impl RpcId {
    /// The id as JSON text (`"req-1"` with quotes, or `7`).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Reads an id from any JSON value's text; `None` when it is not a valid id. Used for the
    /// best-effort id of a rejected request (§5 INVALID_REQUEST).
    pub fn from_raw(raw: &RawJson) -> Option<Self> {
        let mut ctx = Ctx::new();
        RpcId::read(&mut ctx, Val::root(raw.as_str()), &Path::Root)
    }
}

impl fmt::Display for RpcId {
    /// The JSON form: strings quoted, integers bare.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl From<i64> for RpcId {
    fn from(i: i64) -> Self {
        RpcId::Int(i)
    }
}

impl From<NonEmptyString> for RpcId {
    fn from(s: NonEmptyString) -> Self {
        RpcId::Str(s)
    }
}

impl TryFrom<&str> for RpcId {
    type Error = EmptyStringError;
    fn try_from(s: &str) -> Result<Self, EmptyStringError> {
        NonEmptyString::try_from(s).map(RpcId::Str)
    }
}

impl Serialize for RpcId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RpcId::Str(v) => v.serialize(s),
            RpcId::Int(i) => s.serialize_i64(*i),
        }
    }
}

impl JsonSchema for RpcId {
    fn schema_name() -> Cow<'static, str> {
        "RpcId".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A JSON-RPC id: a non-empty string or an integer (the JSON type is part of the id: \"1\" and 1 differ).",
            "anyOf": [
                { "type": "string", "minLength": 1 },
                { "type": "integer", "minimum": i64::MIN, "maximum": i64::MAX }
            ]
        })
    }
}

impl WireValue for RpcId {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::RpcId);
    const EXPECTED: &'static str = "string or integer (RpcId)";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        match v.kind() {
            JsonKind::String => read_non_empty(ctx, v, path).map(RpcId::Str),
            JsonKind::Number => read_i64(ctx, v, path).map(RpcId::Int),
            _ => ctx.expected(path, Self::EXPECTED, Some(v)),
        }
    }
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            RpcId::Str(s) => s.write(out),
            RpcId::Int(i) => wirecontract_json::write_int(out, *i),
        }
    }
    fn field_ref(&self) -> FieldRef<'_> {
        match self {
            RpcId::Str(s) => FieldRef::Str(s),
            RpcId::Int(i) => FieldRef::Int(*i),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// RPC error codes (§5)
// ---------------------------------------------------------------------------------------------

wire_enum! {
    /// How the shipped client classifies an RPC failure code (§5 "Client kind mapping"): every
    /// code outside the catalogue maps to `protocol-violation`.
    pub enum ClientErrorKind {
        /// Malformed or out-of-sequence traffic, unknown subject, unknown code.
        ProtocolViolation = "protocol-violation",
        /// The server failed (`INTERNAL_ERROR`).
        ServerError = "server-error",
        /// Not authenticated or credentials rejected.
        AuthFailed = "auth-failed",
        /// The token lacks the scope.
        ScopeDenied = "scope-denied",
        /// Throttled.
        RateLimited = "rate-limited",
        /// Unknown or inactive run.
        RunNotFound = "run-not-found",
        /// Unknown subscription.
        SubscriptionNotFound = "subscription-not-found",
    }
}

/// Declares [`RpcErrorCode`] and [`RPC_ERROR_CODES`] from one table.
macro_rules! rpc_error_codes {
    ( $( $(#[$m:meta])* $variant:ident = $code:literal, $name:literal, $kind:ident, $meaning:literal; )+ ) => {
        /// An RPC `error.code` (§3.1, §5): one of the catalogue codes, or any other integer
        /// ([`RpcErrorCode::Other`]): the schema accepts any integer in the 64-bit signed range,
        /// so the catalogue is a convention, not a constraint. On the wire it is the bare
        /// integer.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum RpcErrorCode {
            $( $(#[$m])* $variant, )+
            /// Any integer outside the catalogue (never one of the 12 known values).
            Other(i64),
        }

        /// The catalogue (§5): the 12 codes, in spec order, as data.
        pub const RPC_ERROR_CODES: &[RpcErrorCodeInfo] = &[
            $( RpcErrorCodeInfo { code: RpcErrorCode::$variant, name: $name, value: $code, client_kind: ClientErrorKind::$kind, meaning: $meaning }, )+
        ];

        impl RpcErrorCode {
            /// The integer on the wire.
            pub fn code(self) -> i64 {
                match self {
                    $( RpcErrorCode::$variant => $code, )+
                    RpcErrorCode::Other(i) => i,
                }
            }

            /// The code for an integer: a catalogue variant when it is one, else `Other`.
            pub fn from_code(code: i64) -> Self {
                match code {
                    $( $code => RpcErrorCode::$variant, )+
                    other => RpcErrorCode::Other(other),
                }
            }

            /// The catalogue name (`"SCOPE_DENIED"`); `None` for `Other`.
            pub fn name(self) -> Option<&'static str> {
                match self {
                    $( RpcErrorCode::$variant => Some($name), )+
                    RpcErrorCode::Other(_) => None,
                }
            }

            /// The code for a catalogue name (`"SCOPE_DENIED"` → -32003).
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $( $name => Some(RpcErrorCode::$variant), )+
                    _ => None,
                }
            }

            /// The shipped client's error kind for this code; `protocol-violation` for `Other`.
            pub fn client_kind(self) -> ClientErrorKind {
                match self {
                    $( RpcErrorCode::$variant => ClientErrorKind::$kind, )+
                    RpcErrorCode::Other(_) => ClientErrorKind::ProtocolViolation,
                }
            }
        }
    };
}

rpc_error_codes! {
    /// -32700, JSON-RPC §5.1: the frame is not JSON (reply id 0, then close 4008).
    ParseError = -32700, "PARSE_ERROR", ProtocolViolation, "not valid JSON";
    /// -32600, JSON-RPC §5.1: the frame fails `ClientMessageSchema` (raw id echoed, then close 4008).
    InvalidRequest = -32600, "INVALID_REQUEST", ProtocolViolation, "not a valid request object";
    /// -32601: in practice a subscribe to an unknown subject grammar.
    MethodNotFound = -32601, "METHOD_NOT_FOUND", ProtocolViolation, "no such method";
    /// -32602: a subscribe to a malformed or wildcard subject.
    InvalidParams = -32602, "INVALID_PARAMS", ProtocolViolation, "bad params";
    /// -32603: internal error (never sent on the WebSocket path).
    InternalError = -32603, "INTERNAL_ERROR", ServerError, "internal error";
    /// -32001: not authenticated (never sent; auth is settled at upgrade).
    AuthRequired = -32001, "AUTH_REQUIRED", AuthFailed, "not authenticated";
    /// -32002: credentials rejected (never sent).
    AuthInvalid = -32002, "AUTH_INVALID", AuthFailed, "credentials rejected";
    /// -32003: the token lacks the scope (`run.cancel` or subscribe outside the grant).
    ScopeDenied = -32003, "SCOPE_DENIED", ScopeDenied, "token lacks scope";
    /// -32004: throttled (never sent).
    RateLimited = -32004, "RATE_LIMITED", RateLimited, "throttled";
    /// -32005: a request other than `initialize`/`ping` before `initialize`; the socket stays open.
    ProtocolViolation = -32005, "PROTOCOL_VIOLATION", ProtocolViolation, "sequencing error";
    /// -32010: `run.cancel` for an unknown run, or the abort failed.
    RunNotFound = -32010, "RUN_NOT_FOUND", RunNotFound, "unknown or inactive run";
    /// -32011: `subscription.unsubscribe` for an inactive id.
    SubscriptionNotFound = -32011, "SUBSCRIPTION_NOT_FOUND", SubscriptionNotFound, "unknown subscription";
}

/// One row of [`RPC_ERROR_CODES`] (§5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RpcErrorCodeInfo {
    /// The code as a value.
    pub code: RpcErrorCode,
    /// The catalogue name (`"PARSE_ERROR"`).
    pub name: &'static str,
    /// The integer on the wire (`-32700`).
    pub value: i64,
    /// The shipped client's error kind.
    pub client_kind: ClientErrorKind,
    /// What it means, in a few words.
    pub meaning: &'static str,
}

impl From<i64> for RpcErrorCode {
    fn from(code: i64) -> Self {
        RpcErrorCode::from_code(code)
    }
}

impl From<RpcErrorCode> for i64 {
    fn from(code: RpcErrorCode) -> Self {
        code.code()
    }
}

impl fmt::Display for RpcErrorCode {
    /// `-32003 (SCOPE_DENIED)`, or the bare integer for `Other`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{} ({name})", self.code()),
            None => write!(f, "{}", self.code()),
        }
    }
}

impl Serialize for RpcErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.code())
    }
}

impl JsonSchema for RpcErrorCode {
    fn schema_name() -> Cow<'static, str> {
        "RpcErrorCode".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A JSON-RPC error code: any integer; the catalogue values (RPC_ERROR_CODES) are a convention, not a constraint.",
            "type": "integer",
            "minimum": i64::MIN,
            "maximum": i64::MAX
        })
    }
}

impl WireValue for RpcErrorCode {
    const TY: crate::registry::Ty = crate::registry::Ty::Scalar(crate::registry::Scalar::ExactInt);
    const EXPECTED: &'static str = "integer";
    fn read(ctx: &mut Ctx, v: Val<'_>, path: &Path<'_>) -> Option<Self> {
        read_i64(ctx, v, path).map(RpcErrorCode::from_code)
    }
    fn write(&self, out: &mut Vec<u8>) {
        wirecontract_json::write_int(out, self.code());
    }
    fn field_ref(&self) -> FieldRef<'_> {
        FieldRef::Int(self.code())
    }
}

// ---------------------------------------------------------------------------------------------
// Closed enums
// ---------------------------------------------------------------------------------------------

wire_enum! {
    /// A `lifecycle` frame's `status` (§3.2): closed, an unknown value is invalid.
    #[constant = "LIFECYCLE_STATUSES"]
    pub enum LifecycleStatus {
        /// Running.
        Running = "running",
        /// Paused.
        Paused = "paused",
        /// Finished normally.
        Completed = "completed",
        /// Aborted (also sent to every subscription at shutdown, reason `server-shutdown`).
        Aborted = "aborted",
        /// Failed.
        Failed = "failed",
    }
}

wire_enum! {
    /// `run.cancel` `params.onPendingApprovals` (§4): what to do with approvals the run is
    /// waiting on. Validated but ignored over WebSocket (§12.6).
    pub enum PendingApprovals {
        /// Deny them.
        Deny = "deny",
        /// Keep them for later.
        Preserve = "preserve",
    }
}

// ---------------------------------------------------------------------------------------------
// Server → client frames (§3)
// ---------------------------------------------------------------------------------------------

wire_strict_object! {
    /// The error object of an RPC failure (§3.1): strict.
    pub struct RpcError {
        /// Any integer (the catalogue is `RPC_ERROR_CODES`).
        code: RpcErrorCode = "code",
        /// Human-readable text, non-empty.
        message: NonEmptyString = "message",
        /// Any JSON value, `null` included; absent and `null` differ. Opaque.
        data: Option<RawJson> = "data",
    }
}

wire_strict_object! {
    /// `rpc-success` (§3.1): `{v:"1", jsonrpc:"2.0", id, result}`. The `result` key must be
    /// present (CORE-PRO-01); its value is any JSON, `null` included, kept opaque (§3.4 lists
    /// what the server puts there).
    pub struct ServerRpcSuccess {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The id of the request answered, with its JSON type.
        id: RpcId = "id",
        /// The result, any JSON value (raw text kept).
        result: RawJson = "result",
    }
}

wire_strict_object! {
    /// `rpc-failure` (§3.1): `{v:"1", jsonrpc:"2.0", id, error}`. A frame with both `result`
    /// and `error`, or neither, is invalid. A request the server could not read is answered
    /// with id `0`.
    pub struct ServerRpcFailure {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The id of the request answered (`0` when it could not be read).
        id: RpcId = "id",
        /// The error object.
        error: RpcError = "error",
    }
}

wire_strict_object! {
    /// `subscribed` (§3.2): sent after the subscribe RPC reply.
    pub struct ServerSubscribedFrame {
        const "v" = "1",
        const "kind" = "subscribed",
        /// The new subscription.
        subscription_id: NonEmptyString = "subscriptionId",
        /// The subject subscribed to.
        subject: NonEmptyString = "subject",
        /// The snapshot's event id, when there is one.
        snapshot_event_id: Option<NonEmptyString> = "snapshotEventId",
    }
}

wire_strict_object! {
    /// `unsubscribed` (§3.2): sent after the unsubscribe RPC reply.
    pub struct ServerUnsubscribedFrame {
        const "v" = "1",
        const "kind" = "unsubscribed",
        /// The subscription closed.
        subscription_id: NonEmptyString = "subscriptionId",
    }
}

wire_strict_object! {
    /// `event` (§3.2): one event of a subscription. `subscriptionId` is required although the
    /// seed's summary omits it. `type` is an open string (unknown types are valid and kept).
    /// `payload` is any JSON value and **may be absent**: the reference accepts that (zod 3
    /// implicit-optional `unknown`), and so does this contract (§14.3); absent and `null` differ.
    pub struct ServerEventFrame {
        const "v" = "1",
        const "kind" = "event",
        /// The event id (the resume cursor).
        event_id: NonEmptyString = "eventId",
        /// The subscription it belongs to.
        subscription_id: NonEmptyString = "subscriptionId",
        /// The subject.
        subject: NonEmptyString = "subject",
        /// The event type, open (for agent runs it repeats the agent event's type).
        event_type: NonEmptyString = "type",
        /// The payload, any JSON value (raw text kept); `None` when the key is absent.
        payload: Option<RawJson> = "payload",
    }
}

wire_strict_object! {
    /// `lifecycle` (§3.2): a subscription's run changed state.
    pub struct ServerLifecycleFrame {
        const "v" = "1",
        const "kind" = "lifecycle",
        /// The subscription.
        subscription_id: NonEmptyString = "subscriptionId",
        /// The new status (closed set).
        status: LifecycleStatus = "status",
        /// Why (`server-shutdown`, `flow.throttled`, …).
        reason: Option<NonEmptyString> = "reason",
    }
}

wire_strict_object! {
    /// `error` (§3.2): a server-side error not tied to one RPC. `code` is a string such as
    /// `auth.scope_denied`, a different vocabulary from the integer RPC codes. The shipped server
    /// never sends it.
    pub struct ServerErrorFrame {
        const "v" = "1",
        const "kind" = "error",
        /// The error code, a non-empty string (`auth.revoked`).
        code: NonEmptyString = "code",
        /// Human-readable text.
        message: NonEmptyString = "message",
        /// Whether the connection is over (with an `auth.` code the client raises AuthFailedError).
        fatal: Option<bool> = "fatal",
        /// The subscription it concerns; a known one is aborted by the client.
        subscription_id: Option<NonEmptyString> = "subscriptionId",
        /// Any JSON value, `null` included; absent and `null` differ. Opaque.
        data: Option<RawJson> = "data",
    }
}

wire_strict_object! {
    /// `pong` (§3.2): sent before the RPC reply to `ping`.
    pub struct ServerPongFrame {
        const "v" = "1",
        const "kind" = "pong",
        /// The nonce echoed from the ping params.
        nonce: Option<NonEmptyString> = "nonce",
    }
}

wire_strict_object! {
    /// `replay-marker` (§3.2, spelled with a hyphen): sent after replayed events when some were
    /// dropped.
    pub struct ServerReplayMarkerFrame {
        const "v" = "1",
        const "kind" = "replay-marker",
        /// The subscription (`"sse"` on the SSE route).
        subscription_id: NonEmptyString = "subscriptionId",
        /// The last replayed event id, or `evt-replay-<t>`.
        event_id: NonEmptyString = "eventId",
        /// How many events were dropped: an integer `≥ 0`.
        dropped_count: Option<Count> = "droppedCount",
        /// Human-readable note.
        note: Option<NonEmptyString> = "note",
    }
}

// ---------------------------------------------------------------------------------------------
// Client → server messages (§4)
// ---------------------------------------------------------------------------------------------

wire_strict_object! {
    /// `initialize` `params.clientInfo` (§4): strict.
    pub struct ClientInfo {
        /// Client name (`graphorin-client`).
        name: NonEmptyString = "name",
        /// Client version.
        version: NonEmptyString = "version",
    }
}

wire_strict_object! {
    /// `initialize` params (§4).
    pub struct InitializeParams {
        /// Who is connecting.
        client_info: ClientInfo = "clientInfo",
        /// An open record: any keys (`""` included), any values (raw text kept); an array or
        /// `null` is invalid. The shipped server ignores it.
        capabilities: Option<OpaqueObject> = "capabilities",
    }
}

wire_strict_object! {
    /// `subscription.subscribe` params (§4). `lastSequenceId` was removed in 0.5 (IP-21) and
    /// is now an unrecognized key.
    pub struct SubscribeParams {
        /// The subject (grammar checked by the server after validation).
        subject: NonEmptyString = "subject",
        /// Resume after this event id.
        since_event_id: Option<NonEmptyString> = "sinceEventId",
    }
}

wire_strict_object! {
    /// `subscription.unsubscribe` params (§4).
    pub struct UnsubscribeParams {
        /// The subscription to close.
        subscription_id: NonEmptyString = "subscriptionId",
    }
}

wire_strict_object! {
    /// `run.cancel` params (§4). `drain` and `onPendingApprovals` are validated but ignored
    /// over WebSocket (§12.6).
    pub struct RunCancelParams {
        /// The run to cancel.
        run_id: NonEmptyString = "runId",
        /// Why.
        reason: Option<NonEmptyString> = "reason",
        /// Let in-flight work finish.
        drain: Option<bool> = "drain",
        /// What to do with pending approvals.
        on_pending_approvals: Option<PendingApprovals> = "onPendingApprovals",
    }
}

wire_strict_object! {
    /// `ping` params (§4): absent, `{}` or `{nonce}`.
    pub struct PingParams {
        /// Echoed in the `pong` frame.
        nonce: Option<NonEmptyString> = "nonce",
    }
}

wire_strict_object! {
    /// `notifications/cancelled` params (§4): strict, so MCP's `reason` is invalid.
    pub struct CancelledParams {
        /// A non-empty **string** (an integer is invalid although RpcId allows integers); the
        /// server treats it as a run id, not a JSON-RPC request id (§12.5).
        request_id: NonEmptyString = "requestId",
    }
}

wire_strict_object! {
    /// An `initialize` request (§4): `{v, jsonrpc, id, method:"initialize", params}`.
    pub struct ClientInitializeRequest {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The request id.
        id: RpcId = "id",
        const "method" = "initialize",
        /// Required.
        params: InitializeParams = "params",
    }
}

wire_strict_object! {
    /// A `subscription.subscribe` request (§4).
    pub struct ClientSubscribeRequest {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The request id.
        id: RpcId = "id",
        const "method" = "subscription.subscribe",
        /// Required.
        params: SubscribeParams = "params",
    }
}

wire_strict_object! {
    /// A `subscription.unsubscribe` request (§4).
    pub struct ClientUnsubscribeRequest {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The request id.
        id: RpcId = "id",
        const "method" = "subscription.unsubscribe",
        /// Required.
        params: UnsubscribeParams = "params",
    }
}

wire_strict_object! {
    /// A `run.cancel` request (§4).
    pub struct ClientRunCancelRequest {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The request id.
        id: RpcId = "id",
        const "method" = "run.cancel",
        /// Required.
        params: RunCancelParams = "params",
    }
}

wire_strict_object! {
    /// A `ping` request (§4); `params` may be absent (not `null`, not an array).
    pub struct ClientPingRequest {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        /// The request id.
        id: RpcId = "id",
        const "method" = "ping",
        /// Optional.
        params: Option<PingParams> = "params",
    }
}

wire_strict_object! {
    /// A `notifications/cancelled` notification (§4): it has **no** `id` (the object is
    /// strict, so an `id` key is invalid) and the server never replies.
    pub struct ClientCancelledNotification {
        const "v" = "1",
        const "jsonrpc" = "2.0",
        const "method" = "notifications/cancelled",
        /// Required.
        params: CancelledParams = "params",
    }
}
