//! Parsing (§13): [`parse`], the one entry for a frame however a host holds it ([`Frame`]:
//! text, bytes, shared text or shared bytes), typed by the direction's union
//! ([`ServerMessage`] or [`ClientMessage`]), [`parse_value`] for a decoded tree, and
//! [`ParseError`].
//!
//! Graphorin has no single pass: a frame is validated whole (`json::validate`), then walked
//! by the reference reader. A single pass needs a single-pass reader per declaration, which
//! only loose objects have (`wire_object!`'s `read_fast`); `wire_strict_object!` gets the
//! default (validate the value, then read it), so a Graphorin single pass would read each
//! frame twice anyway. It comes with a strict object's own `read_fast`, in the declaration
//! macros.

use std::fmt;

use crate::frame::Frame;
use crate::wire::{describe_received, Ctx, Issue, Path};
use wirecontract_json::{self as json, decode_string, JsonKind, RawJson, SharedText, Val};

use super::{ClientMessage, ClientVariant, RpcErrorCode, RpcId, ServerMessage, ServerVariant, DEFAULT_MAX_DEPTH, KINDS, METHODS};

/// Limits applied while parsing. `Default` gives the reference's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// Nesting deeper than this is a [`ParseError::Json`] (`JSON.parse` has no fixed cap).
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { max_depth: DEFAULT_MAX_DEPTH }
    }
}

/// A direction's frame union, what [`parse`] reads: [`ServerMessage`] or [`ClientMessage`].
pub trait MessageUnion: sealed::Read {}

impl MessageUnion for ServerMessage {}
impl MessageUnion for ClientMessage {}

mod sealed {
    use super::{ParseError, SharedText, Val};

    /// How a union reads validated text (not nameable outside the crate).
    pub trait Read: Sized {
        fn read_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<Self, ParseError>;
    }

    impl Read for super::ServerMessage {
        fn read_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<Self, ParseError> {
            super::parse_server_validated(root, shared)
        }
    }

    impl Read for super::ClientMessage {
        fn read_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<Self, ParseError> {
            super::parse_client_validated(root, shared)
        }
    }
}

/// Parses one frame of `M`'s direction: JSON syntax first (invalid UTF-8 in bytes included),
/// then the schema. A server frame (§3) is routed as [`ServerMessage`] documents; a client
/// message (§4) by `method`, then the variant's schema.
///
/// The frame is `&str`, `&String`, `&[u8]`, `&Vec<u8>`, `&SharedText` or `&SharedBytes` (see
/// [`Frame`]); every kind gives the same result. From shared text or shared bytes (valid
/// UTF-8), compact opaque values (`data`, `result`, `payload`, the error's raw id) become spans
/// of the frame instead of copies.
///
/// ```
/// use wirecontract::graphorin::{parse, ClientMessage, ParseOptions, ServerMessage};
/// let opts = ParseOptions::default();
/// let frame = r#"{"v":"1","kind":"pong"}"#;
/// assert!(parse::<ServerMessage>(frame, &opts).unwrap().is_pong_frame());
/// let err = parse::<ClientMessage>(frame.as_bytes(), &opts).unwrap_err();
/// assert!(!err.is_syntax_error());
/// ```
///
/// # Errors
/// [`ParseError::Json`] when the frame is not JSON (a server answers -32700 with id `0`);
/// [`ParseError::Schema`] with every issue when it is JSON but not a legal `M` (-32600 with
/// [`ParseError::reply_id`]).
pub fn parse<'f, M: MessageUnion>(frame: impl Into<Frame<'f>>, opts: &ParseOptions) -> Result<M, ParseError> {
    match frame.into() {
        Frame::Text(text) => M::read_validated(syntax(text, opts.max_depth)?, None),
        Frame::Bytes(bytes) => M::read_validated(syntax(utf8(bytes)?, opts.max_depth)?, None),
        Frame::SharedText(text) => M::read_validated(syntax(text.as_str(), opts.max_depth)?, Some(text)),
        // The same buffer as shared text once it is found to be UTF-8 (no copy).
        Frame::SharedBytes(bytes) => match bytes.clone().into_text() {
            Ok(text) => M::read_validated(syntax(text.as_str(), opts.max_depth)?, Some(&text)),
            Err(_) => M::read_validated(syntax(utf8(bytes.as_bytes())?, opts.max_depth)?, None),
        },
    }
}

/// Validates an already decoded value as a frame of `M`'s direction (the reference's
/// `safeParse` on a `JSON.parse` result). serde_json values cannot hold lone surrogates,
/// duplicate keys or non-finite numbers, so those frames are out of reach here by
/// construction; integers above `2^64` or written with a fraction part arrive as doubles, as
/// `JSON.parse` would give them.
///
/// # Errors
/// [`ParseError::Schema`] (never `Json`).
pub fn parse_value<M: MessageUnion>(value: &serde_json::Value) -> Result<M, ParseError> {
    let text = value.to_string();
    M::read_validated(Val::root(&text), None)
}

/// Why a frame did not parse (§13): not JSON at all, or JSON that is not a frame of the
/// expected direction. The two map to different server replies (§5, §8.1): -32700 with id `0`,
/// and -32600 echoing the id, both followed by close 4008.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// Not one JSON text as `JSON.parse` reads it (RFC 8259, no BOM), invalid UTF-8 (a
    /// binary WebSocket message reads as the empty string, which fails here too), or nested
    /// deeper than [`ParseOptions::max_depth`].
    Json {
        /// What was wrong.
        reason: String,
        /// Byte offset into the frame where reading stopped.
        offset: usize,
    },
    /// Valid JSON, but not a legal frame.
    Schema {
        /// Every issue found (at least one), in frame order.
        issues: Vec<Issue>,
        /// The frame's `id` member as raw JSON (any type, invalid ones included: `""`, `1.5`,
        /// `{}`) when the top level is an object that has one (last occurrence); else `None`.
        id: Option<RawJson>,
    },
}

impl ParseError {
    /// `true` when the frame was not JSON at all ([`ParseError::Json`]: a syntax failure,
    /// answered with `PARSE_ERROR`); `false` when it was JSON but not a legal frame.
    pub fn is_syntax_error(&self) -> bool {
        matches!(self, ParseError::Json { .. })
    }

    /// The old name of [`ParseError::is_syntax_error`]: `true` for a JSON *syntax failure*
    /// (the name read as "the frame is JSON", the opposite).
    #[deprecated(note = "reads backwards: use is_syntax_error (true when the frame is not JSON)")]
    pub fn is_json(&self) -> bool {
        self.is_syntax_error()
    }

    /// The issues; empty for a JSON syntax failure.
    pub fn issues(&self) -> &[Issue] {
        match self {
            ParseError::Json { .. } => &[],
            ParseError::Schema { issues, .. } => issues,
        }
    }

    /// The best-effort raw `id`, keeping its JSON type (see [`ParseError::Schema`]).
    pub fn raw_id(&self) -> Option<&RawJson> {
        match self {
            ParseError::Json { .. } => None,
            ParseError::Schema { id, .. } => id.as_ref(),
        }
    }

    /// The id a server's error reply should carry: the raw id when it is a valid [`RpcId`],
    /// else `0` (§3.1, §8.1). Unlike the reference server, an invalid id (`""`, `1.5`) is not
    /// echoed, so the reply is always a legal frame.
    pub fn reply_id(&self) -> RpcId {
        self.raw_id().and_then(RpcId::from_raw).unwrap_or(RpcId::Int(0))
    }

    /// The RPC error code a server answers with (§5): `PARSE_ERROR` for a JSON failure,
    /// `INVALID_REQUEST` for a schema failure.
    pub fn rpc_error_code(&self) -> RpcErrorCode {
        if self.is_syntax_error() {
            RpcErrorCode::ParseError
        } else {
            RpcErrorCode::InvalidRequest
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Json { reason, offset } => write!(f, "frame is not valid JSON: {reason} at byte {offset}"),
            ParseError::Schema { issues, .. } => {
                f.write_str("invalid frame")?;
                for (i, issue) in issues.iter().enumerate() {
                    f.write_str(if i == 0 { ": " } else { "; " })?;
                    write!(f, "{issue}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ParseError {}

fn syntax(frame: &str, max_depth: usize) -> Result<Val<'_>, ParseError> {
    match json::validate(frame, max_depth) {
        Ok(()) => Ok(Val::root(frame)),
        Err(e) => Err(ParseError::Json { reason: e.message, offset: e.offset }),
    }
}

fn utf8(frame: &[u8]) -> Result<&str, ParseError> {
    // SIMD validation first; std's check runs only on failure, for the offset.
    simdutf8::basic::from_utf8(frame)
        .or_else(|_| std::str::from_utf8(frame))
        .map_err(|e| ParseError::Json { reason: "invalid UTF-8".into(), offset: e.valid_up_to() })
}

fn schema_error(ctx: Ctx, id: Option<RawJson>) -> ParseError {
    ParseError::Schema { issues: ctx.issues, id }
}

/// The last value of each of `keys` among an object's members (`JSON.parse`: last wins).
fn last_members<'s, const N: usize>(root: Val<'s>, keys: [&str; N]) -> [Option<Val<'s>>; N] {
    let mut found = [None; N];
    for (key, val) in root.members() {
        let decoded = decode_string(key).text;
        if let Some(i) = keys.iter().position(|k| *k == decoded) {
            found[i] = Some(val);
        }
    }
    found
}

/// Reads a top-level frame after checking it is an object: `pick` gets the last values of
/// `id, jsonrpc, kind, result, error, method` and reads the variant; the error carries the raw
/// id.
/// Opaque values are spans of `shared` (the frame's text) when it is given.
fn read_frame<'s, M>(root: Val<'s>, shared: Option<&SharedText>, pick: impl FnOnce(&mut Ctx, [Option<Val<'s>>; 6]) -> Option<M>) -> Result<M, ParseError> {
    let mut ctx = Ctx::with_codes();
    ctx.shared = shared.cloned();
    if root.kind() != JsonKind::Object {
        ctx.expected::<()>(&Path::Root, "object", Some(root));
        return Err(schema_error(ctx, None));
    }
    let found = last_members(root, ["id", "jsonrpc", "kind", "result", "error", "method"]);
    let id = found[0].map(|v| ctx.raw(v));
    match pick(&mut ctx, found) {
        Some(m) if ctx.issues.is_empty() => Ok(m),
        _ => Err(schema_error(ctx, id)),
    }
}

/// The server side of [`parse`] on validated text.
///
/// Routing (the reference's union, made deterministic so issues are precise): a frame with a
/// `jsonrpc` key, or with neither `jsonrpc` nor `kind` but an `id`, `result` or `error` key, is
/// read as an RPC response (as a failure when it has `error` and no `result`, else as a
/// success: a frame with both then reports `error` as unrecognized, one with neither reports
/// `result` as required); any other frame is read by its `kind`.
fn parse_server_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<ServerMessage, ParseError> {
    read_frame(root, shared, |ctx, [id, jsonrpc, kind, result, error, _]| {
        let rpc = jsonrpc.is_some() || (kind.is_none() && (id.is_some() || result.is_some() || error.is_some()));
        let variant = if rpc {
            if error.is_some() && result.is_none() {
                ServerVariant::RpcFailure
            } else {
                ServerVariant::RpcSuccess
            }
        } else {
            discriminator(ctx, kind, "kind", KINDS, ServerVariant::from_wire)?
        };
        ServerMessage::read_variant(variant, ctx, root)
    })
}

/// Checks a union discriminator (`kind`, `method`); records `invalid_discriminator` when it
/// is absent, not a string, or not one of `allowed` (case-sensitive).
fn discriminator<V>(ctx: &mut Ctx, v: Option<Val<'_>>, key: &str, allowed: &[&str], from_wire: fn(&str) -> Option<V>) -> Option<V> {
    let found = v.and_then(|v| v.string_raw()).map(|raw| decode_string(raw).text).filter(|t| allowed.contains(&&**t)).and_then(|t| from_wire(&t));
    if found.is_none() {
        let expected: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
        ctx.issue_with(
            &Path::Key(&Path::Root, key),
            crate::wire::IssueCode::InvalidDiscriminator,
            format!("invalid discriminator value: expected {}, received {}", expected.join(" | "), describe_received(v)),
        );
    }
    found
}

fn parse_client_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<ClientMessage, ParseError> {
    read_frame(root, shared, |ctx, [.., method]| {
        let variant = discriminator(ctx, method, "method", METHODS, ClientVariant::from_wire)?;
        ClientMessage::read_variant(variant, ctx, root)
    })
}
