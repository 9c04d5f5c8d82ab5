//! The native core of `@wirecontract/node`: the contract's parsers behind Node-API.
//!
//! The addon validates; V8 builds the objects. Every entry point takes the frame text and
//! returns a short verdict string, and the JavaScript side (`index.js`) materializes an
//! accepted frame with `JSON.parse(text)`, which is exactly the value the reference API
//! returns (last duplicate wins, `__proto__` an own key, numbers as JS doubles). Crossing
//! the boundary with one string each way is measurably faster than building JS objects from
//! Rust member by member.
//!
//! Host safety: every entry point runs under [`guard`], so a panic in contract code becomes a
//! JavaScript `Error`, never an abort of the Node process.
//!
//! Files: this one (the entry points: verdicts as numbers for ok/unknown-type, JSON text
//! otherwise; the frame argument taken from V8 by raw `napi_*` calls), `large.rs`
//! (long strings taken out of large frames, with SSE2/AVX2 searches for `"`, `\` and
//! control characters), `external.rs` (the longest of them as V8 external strings over pooled
//! buffers, each its own memory mapping), `shrink.rs` (`shrinkPayload`, `serializePayload`'s
//! unserializable path), `llm.rs` (`normalizeFinishReason`, `readUsage`), `viewer.rs` (the
//! `ViewerSession` class). The texts handed to the JavaScript layer (verdicts, errors, the
//! registry, `ViewerSession`'s conversions) come from `wirecontract-js-text`, shared with the
//! WASM build (`bindings/js-text`). Beside the crate:
//! `index.js` loads the addon and hands it to `api.js` (`createApi(backend, readRecord)`: the
//! whole JavaScript layer over one backend object's entry points, so another build of the
//! contract can sit under it), which checks the contract id, reads the registry at load and
//! materializes accepted frames with `JSON.parse`; `index.mjs` (generated, as `accept.js`,
//! the WASM backend's JavaScript first step) re-exports every name;
//! `stringify.js` is a non-recursive `JSON.stringify`; `index.d.ts`, `contract-id.json` and
//! `zod-schemas.js` (the zod 4 schema objects; `zod.js` makes them over the application's zod,
//! an optional peer dependency) come from `scripts/gen`, and the package refuses an addon
//! whose contract id differs.
// `unsafe`: allowed crate-wide, because `#[napi]` expands to `extern "C"` registration
// functions and raw `napi_*` calls; the hand-written blocks are this file's `napi_*` string and
// array calls, `large.rs`'s SSE2/AVX2 searches and `external.rs`'s external strings, each
// with its SAFETY comment. The contract crate forbids `unsafe`; its JSON engine (`wirecontract-json`)
// holds the engine's, listed in `contract/json/README.md`.
#![allow(unsafe_code)]
// Node-API hands arguments over as owned values (`String`, `Vec<String>`): taking them by
// value is the binding's calling convention, not a choice.
#![allow(clippy::needless_pass_by_value)]

use std::cell::RefCell;

use napi::bindgen_prelude::{Either, FromNapiValue, ToNapiValue, TypeName, ValidateNapiValue};
use napi::{sys, ValueType};
use napi_derive::napi;
use wirecontract::wire::{self, Described, WireEnum, WireValue};
use wirecontract::{graphmind as gm, graphorin};

use wirecontract_js_text::js_text::{self, parse_error_json, transcode, verdict_json};

mod external;
mod large;
pub mod llm;
pub mod shrink;
mod viewer;

/// Runs contract code, turning a panic into a JavaScript `Error` with the glue's one text.
fn guard<T>(f: impl FnOnce() -> napi::Result<T>) -> napi::Result<T> {
    wirecontract_glue::catch(f).unwrap_or_else(|p| Err(napi::Error::from_reason(p.text())))
}

fn invalid_arg(msg: impl Into<String>) -> napi::Error {
    napi::Error::new(napi::Status::InvalidArg, msg.into())
}

// ---------------------------------------------------------------------------------------------
// Frame text: a JavaScript string as the UTF-8 text JSON.parse would see
// ---------------------------------------------------------------------------------------------

/// A frame argument (a JavaScript string) as UTF-8 text that the contract's reader decides
/// exactly as `JSON.parse` decides the string, lone surrogates included.
///
/// The common case is one pass of V8's UTF-8 encoder into a buffer sized for the worst case
/// (napi-rs's `String` measures the UTF-8 length in a pass of its own first). V8 writes U+FFFD
/// for a lone surrogate, so text in which U+FFFD appears is read again as UTF-16 code units
/// and converted by [`transcode`], which keeps lone surrogates apart.
pub struct FrameText(String);

impl TypeName for FrameText {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for FrameText {}

thread_local! {
    /// The UTF-16 copy of the last frame read as code units, reused across calls.
    static UNITS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// Above this many code units a frame's buffers are sized exactly (one more pass) rather than
/// for the worst case, and the UTF-16 buffer is not kept for the next call.
const LARGE_FRAME_UNITS: usize = 1 << 20;

fn string_arg(status: sys::napi_status) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(invalid_arg("expected a string"))
    }
}

impl FromNapiValue for FrameText {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> napi::Result<Self> {
        let mut len = 0usize;
        // SAFETY: a null buffer asks for the length in UTF-16 code units only (no pass).
        string_arg(unsafe { sys::napi_get_value_string_utf16(env, value, std::ptr::null_mut(), 0, &raw mut len) })?;
        // SAFETY: `env` and `value` come from napi for this call, and `value` is a string.
        if let Some(text) = unsafe { utf8_by_v8(env, value, len) }? {
            return Ok(FrameText(text));
        }
        // SAFETY: as above.
        unsafe { utf8_by_units(env, value, len) }.map(FrameText)
    }
}

/// The string through V8's UTF-8 encoder; `None` when the result holds U+FFFD, which may
/// stand for a lone surrogate.
///
/// # Safety
/// `env` and `value` must be napi's, for the current call, and `value` a string of `len`
/// UTF-16 code units.
unsafe fn utf8_by_v8(env: sys::napi_env, value: sys::napi_value, len: usize) -> napi::Result<Option<String>> {
    let mut size = 3 * len;
    if len > LARGE_FRAME_UNITS {
        // SAFETY: a null buffer asks for the UTF-8 length only.
        string_arg(unsafe { sys::napi_get_value_string_utf8(env, value, std::ptr::null_mut(), 0, &raw mut size) })?;
    }
    let mut buf: Vec<u8> = Vec::with_capacity(size + 1);
    let mut written = 0usize;
    // SAFETY: the buffer has room for `size + 1` bytes (the text and napi's NUL), which is
    // what napi is told and never exceeds.
    string_arg(unsafe { sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), size + 1, &raw mut written) })?;
    // SAFETY: napi initialized `written <= size` bytes (the NUL after them is not exposed).
    unsafe { buf.set_len(written.min(size)) };
    if has_replacement_char(&buf) || simdutf8::basic::from_utf8(&buf).is_err() {
        return Ok(None);
    }
    // SAFETY: just validated as UTF-8.
    Ok(Some(unsafe { String::from_utf8_unchecked(buf) }))
}

/// The string copied out as UTF-16 code units and converted by [`transcode`].
///
/// # Safety
/// As for [`utf8_by_v8`].
unsafe fn utf8_by_units(env: sys::napi_env, value: sys::napi_value, len: usize) -> napi::Result<String> {
    UNITS.with(|cell| {
        let mut units = cell.borrow_mut();
        units.clear();
        // One more unit for the NUL napi always writes.
        units.reserve(len + 1);
        let mut written = 0usize;
        // SAFETY: the buffer has room for `len + 1` units, which is what napi is told.
        string_arg(unsafe { sys::napi_get_value_string_utf16(env, value, units.as_mut_ptr(), len + 1, &raw mut written) })?;
        // SAFETY: napi initialized `written <= len` units.
        unsafe { units.set_len(written.min(len)) };
        let text = transcode(&units);
        if units.capacity() > LARGE_FRAME_UNITS {
            *units = Vec::new();
        }
        Ok(text)
    })
}

/// A string argument as napi's handle, read by the function itself.
pub struct JsText {
    env: sys::napi_env,
    value: sys::napi_value,
}

impl TypeName for JsText {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for JsText {}

impl FromNapiValue for JsText {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> napi::Result<Self> {
        Ok(JsText { env, value })
    }
}

impl JsText {
    /// The string's UTF-16 code units, copied into `units` (emptied first).
    fn units_into(&self, units: &mut Vec<u16>) -> napi::Result<()> {
        let mut len = 0usize;
        // SAFETY: the handles are napi's for this call; a null buffer asks for the length only.
        string_arg(unsafe { sys::napi_get_value_string_utf16(self.env, self.value, std::ptr::null_mut(), 0, &raw mut len) })?;
        units.clear();
        units.reserve(len + 1);
        let mut written = 0usize;
        // SAFETY: the buffer has room for `len + 1` units, which is what napi is told.
        string_arg(unsafe { sys::napi_get_value_string_utf16(self.env, self.value, units.as_mut_ptr(), len + 1, &raw mut written) })?;
        // SAFETY: napi initialized `written <= len` units.
        unsafe { units.set_len(written.min(len)) };
        Ok(())
    }
}

/// A JavaScript value made by the function itself, returned as is.
pub struct JsValueOut(sys::napi_value);

impl ToNapiValue for JsValueOut {
    unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        Ok(val.0)
    }
}

fn napi_ok(status: sys::napi_status, what: &str) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::from_reason(format!("wirecontract: napi failed to {what} (status {status})")))
    }
}

/// A JavaScript string of these UTF-16 code units.
fn js_string(env: sys::napi_env, units: &[u16]) -> napi::Result<sys::napi_value> {
    let mut out = std::ptr::null_mut();
    let len = isize::try_from(units.len()).map_err(|_| invalid_arg("string too long"))?;
    // SAFETY: `units` is valid for `len` units; napi copies them.
    napi_ok(unsafe { sys::napi_create_string_utf16(env, units.as_ptr(), len, &raw mut out) }, "create a string")?;
    Ok(out)
}

thread_local! {
    /// The buffers of large frames, kept for the next one.
    static LARGE: RefCell<(Vec<u16>, large::Scratch)> = RefCell::new((Vec::new(), large::Scratch::default()));
}

/// Large-frame buffers above this many code units are not kept for the next frame.
const KEEP_LARGE_UNITS: usize = 4 << 20;

/// Whether UTF-8 bytes hold U+FFFD (`EF BF BD`).
fn has_replacement_char(bytes: &[u8]) -> bool {
    memchr::memchr_iter(0xEF, bytes).any(|at| bytes[at + 1..].starts_with(&[0xBF, 0xBD]))
}

// ---------------------------------------------------------------------------------------------
// GraphMind
// ---------------------------------------------------------------------------------------------

/// The verdict of `parseEnvelopeJson` on one frame: `0` for `ok`, `1` for `unknown-type` (the
/// caller then builds the envelope with `JSON.parse` on the same text; a number, so that the
/// common verdicts make no string), otherwise the whole result object as JSON text
/// (`{"kind":"invalid","reason":…,"issues":[…]}` or
/// `{"kind":"version-mismatch","received":…,"supported":1}`).
#[napi(js_name = "gmVerdict")]
pub fn gm_verdict(text: FrameText) -> napi::Result<Either<u32, String>> {
    guard(|| {
        Ok(match gm::parse(&text.0, &gm::ParseOptions::default()) {
            gm::ParseOutcome::Ok(_) => Either::A(0),
            gm::ParseOutcome::UnknownType(_) => Either::A(1),
            other => Either::B(verdict_json(other)),
        })
    })
}

/// The verdict on a frame `serializeEnvelope` wrote, in [`gm_verdict`]'s form: the contract's
/// parser with the default nesting cap and no frame size cap (as the contract's own
/// `serialize_envelope`, which leaves the size to the receiver's setting). `index.js` refuses
/// to return text whose verdict is not `ok` or `unknown-type`, so every frame the binding
/// writes is one a parser reads back.
#[napi(js_name = "gmCheckWritten")]
pub fn gm_check_written(text: FrameText) -> napi::Result<Either<u32, String>> {
    guard(|| {
        let opts = gm::ParseOptions { max_frame_bytes: usize::MAX, ..gm::ParseOptions::default() };
        Ok(match gm::parse(&text.0, &opts) {
            gm::ParseOutcome::Ok(_) => Either::A(0),
            gm::ParseOutcome::UnknownType(_) => Either::A(1),
            other => Either::B(verdict_json(other)),
        })
    })
}

/// The verdict on one frame as text: `ok`, `unknown-type`, or the result object as JSON.
fn verdict(text: &str) -> String {
    verdict_json(gm::parse(text, &gm::ParseOptions::default()))
}

/// `parseEnvelopeJson` on a large frame whose long string values can be taken out ([`large`]):
/// when the verdict is `ok` or `unknown-type`, `[verdict, reduced frame, paths JSON, string 0,
/// string 1, …]` for `index.js` to rebuild the envelope from. Otherwise `[]`: nothing to take
/// out, or a verdict whose reason and issues must come from the whole frame, which
/// `index.js` then asks [`gm_verdict`] for.
#[napi(js_name = "gmParseLarge")]
pub fn gm_parse_large(text: JsText) -> napi::Result<JsValueOut> {
    guard(|| {
        LARGE.with(|cell| {
            let (units, scratch) = &mut *cell.borrow_mut();
            let out = parse_large(&text, units, scratch);
            units.clear();
            if units.capacity() > KEEP_LARGE_UNITS {
                *units = Vec::new();
            }
            scratch.reset(KEEP_LARGE_UNITS);
            out
        })
    })
}

fn parse_large(text: &JsText, units: &mut Vec<u16>, scratch: &mut large::Scratch) -> napi::Result<JsValueOut> {
    let env = text.env;
    text.units_into(units)?;
    let kind = if large::extract(units, gm::DEFAULT_MAX_DEPTH, scratch) { verdict(&transcode(&scratch.reduced)) } else { String::new() };
    let n = if kind == "ok" || kind == "unknown-type" { 3 + scratch.pieces.len() } else { 0 };
    let mut array = std::ptr::null_mut();
    // SAFETY: `env` is napi's for this call.
    napi_ok(unsafe { sys::napi_create_array_with_length(env, n, &raw mut array) }, "create an array")?;
    if n > 0 {
        let kind: Vec<u16> = kind.encode_utf16().collect();
        let head = [js_string(env, &kind)?, js_string(env, &scratch.reduced)?, js_string(env, &scratch.paths)?];
        let strings = scratch.pieces.iter().map(|p| external::string(env, scratch.units(units, p)));
        for (i, value) in head.into_iter().map(Ok).chain(strings).enumerate() {
            let index = u32::try_from(i).map_err(|_| invalid_arg("too many strings"))?;
            // SAFETY: `array` and `value` are live handles of this call.
            napi_ok(unsafe { sys::napi_set_element(env, array, index, value?) }, "fill an array")?;
        }
    }
    Ok(JsValueOut(array))
}

/// What `createEnvelope({…, maxPayloadBytes})` does with a payload: the contract's
/// [`gm::budget_payload_json`] (graphmind-shrink §3).
#[napi(object)]
pub struct GmBudget {
    /// 1: the payload fits, keep it; 2–4: build from `json` instead; 0: refused, see `error`.
    pub tier: u32,
    /// The shrunk payload text (tiers 2–4), `JSON.stringify`-exact.
    pub json: Option<String>,
    /// For tier 0: `{"reason":…,"issues":[{"path","message"}]}` as JSON text.
    pub error: Option<String>,
}

/// Shrinks the payload text of a frame of `message_type` to `max_payload_bytes` UTF-8 bytes
/// of payload JSON (graphmind-shrink §3), refusing a known type's payload that only the
/// tier-4 marker would fit. `max_payload_bytes` is checked by the caller (a safe integer ≥ 0).
#[napi(js_name = "gmBudgetPayload")]
pub fn gm_budget_payload(message_type: String, payload_json: String, max_payload_bytes: f64) -> napi::Result<GmBudget> {
    guard(|| {
        let max = if max_payload_bytes >= 0.0 { max_payload_bytes as usize } else { return Err(invalid_arg("maxPayloadBytes must be >= 0")) };
        Ok(match gm::budget_payload_json(&message_type, &payload_json, max) {
            Ok(None) => GmBudget { tier: 1, json: None, error: None },
            Ok(Some(s)) => GmBudget { tier: u32::from(s.tier), json: Some(s.json), error: None },
            Err(e) => GmBudget { tier: 0, json: None, error: Some(js_text::build_error_json(&e)) },
        })
    })
}

/// The GraphMind JSON Schema (draft 2020-12), pretty-printed with a trailing newline.
#[napi(js_name = "gmSchemaString")]
pub fn gm_schema_string() -> napi::Result<String> {
    guard(|| Ok(gm::export_json_schema_string()))
}

/// Reads the closed enum `T` (inferred from where the value goes) from a JS string with the
/// contract's reader; `InvalidArg` with the contract's text (`kind must be one of [...], not
/// "x"`) otherwise.
fn enum_arg<T: WireEnum>(v: &str, what: &str) -> napi::Result<T> {
    wire::enum_arg(v, what).map_err(|e| invalid_arg(e.to_string()))
}

/// Reads the declared object `T` (inferred from where the value goes) from JSON text with the
/// contract's reader; `InvalidArg` with the contract's text (`{what} is not a valid {T}:
/// {issues}`) otherwise.
fn object_arg<T: WireValue + Described>(text: &str, what: &str) -> napi::Result<T> {
    wire::object_arg(text, what).map_err(|e| invalid_arg(e.to_string()))
}

/// [`object_arg`] for each JSON text of a list (`{what}[i]` names an item).
fn objects_arg<T: WireValue + Described>(list: &[String], what: &str) -> napi::Result<Vec<T>> {
    list.iter().enumerate().map(|(i, t)| object_arg(t, &format!("{what}[{i}]"))).collect()
}

/// Matcher equality (§5.12) of two matchers given as JSON text.
#[napi(js_name = "gmMatchersEqual")]
pub fn gm_matchers_equal(a: String, b: String) -> napi::Result<bool> {
    guard(|| Ok(gm::BreakpointMatcher::same_as(&object_arg(&a, "a")?, &object_arg(&b, "b")?)))
}

/// Whether a matcher (JSON text) selects the gate `(kind, name, point)` (§5.12).
#[napi(js_name = "gmMatcherMatches")]
pub fn gm_matcher_matches(m: String, kind: String, name: String, point: String) -> napi::Result<bool> {
    guard(|| {
        let m = object_arg(&m, "matcher")?;
        let kind = enum_arg(&kind, "kind")?;
        let point = enum_arg(&point, "point")?;
        Ok(gm::BreakpointMatcher::matches(&m, kind, &name, point))
    })
}

/// Whether a gate pauses in `mode` with `breakpoints` (each matcher as JSON text) (§5.12).
#[napi(js_name = "gmShouldPause")]
pub fn gm_should_pause(mode: String, breakpoints: Vec<String>, kind: String, name: String, point: String) -> napi::Result<bool> {
    guard(|| {
        let mode = enum_arg(&mode, "mode")?;
        let kind = enum_arg(&kind, "kind")?;
        let point = enum_arg(&point, "point")?;
        let list = objects_arg(&breakpoints, "breakpoints")?;
        Ok(gm::should_pause(mode, &list, kind, &name, point))
    })
}

/// Why a gate pauses (§5.12): `"breakpoint"`, `"step"`, or `null`.
#[napi(js_name = "gmPauseReason")]
pub fn gm_pause_reason(mode: String, breakpoints: Vec<String>, kind: String, name: String, point: String) -> napi::Result<Option<&'static str>> {
    guard(|| {
        let mode = enum_arg(&mode, "mode")?;
        let kind = enum_arg(&kind, "kind")?;
        let point = enum_arg(&point, "point")?;
        let list = objects_arg(&breakpoints, "breakpoints")?;
        Ok(gm::pause_reason(mode, &list, kind, &name, point).map(gm::PauseReason::as_str))
    })
}

/// Negotiates a `hello` payload (JSON text) for a viewer: JSON text
/// `{"kind":"accepted","protocol","capabilities","resumeToken"?}` or `{"kind":"refused","reason"}`.
#[napi(js_name = "gmNegotiateHello")]
pub fn gm_negotiate_hello(hello_json: String, viewer_capabilities: Vec<String>) -> napi::Result<String> {
    guard(|| {
        let h = object_arg(&hello_json, "hello")?;
        Ok(js_text::negotiation_json(gm::negotiate_hello(&h, &viewer_capabilities)))
    })
}

/// The `hello.ack` payload (JSON text) arming an app with the viewer's state (session §5.1).
#[napi(js_name = "gmHelloAck")]
pub fn gm_hello_ack(
    hello_json: String,
    viewer: String,
    breakpoints: Vec<String>,
    mode: String,
    session_token: Option<String>,
    hub_capabilities: Option<Vec<String>>,
) -> napi::Result<String> {
    guard(|| {
        let h = object_arg(&hello_json, "hello")?;
        let mode = enum_arg(&mode, "mode")?;
        let list = objects_arg(&breakpoints, "breakpoints")?;
        let ack = gm::hello_ack(&h, &viewer, &list, mode, session_token.as_deref(), hub_capabilities.as_deref());
        Ok(wirecontract::wire::to_json(&ack))
    })
}

// ---------------------------------------------------------------------------------------------
// Any registered protocol by name
// ---------------------------------------------------------------------------------------------

/// `parseFrame(protocolName, text)`: any registered protocol's verdict as JSON text
/// ([`js_text::frame_verdict_json`]); an `InvalidArg` error naming the registered protocols for
/// an unknown name.
#[napi(js_name = "parseFrameJson")]
pub fn parse_frame_json(protocol: String, text: FrameText) -> napi::Result<String> {
    guard(|| js_text::frame_verdict_json(&protocol, &text.0).map_err(invalid_arg))
}

// ---------------------------------------------------------------------------------------------
// Graphorin
// ---------------------------------------------------------------------------------------------

/// Parses a Graphorin frame: `direction` 0 for a server message, 1 for a client message.
/// Returns the variant's wire name (`rpc-success`, `event`, `ping`, …) when the frame is
/// legal, else the error as JSON text starting with `{`:
/// `{"isSyntaxError":…,"isJson":…,"message":…,"issues":[{"path":[…],"code":…,"message":…}],"id":…,"rpcErrorCode":…}`.
#[napi(js_name = "goParse")]
pub fn go_parse(direction: u32, text: FrameText) -> napi::Result<String> {
    guard(|| {
        let res = if direction == 0 {
            graphorin::parse::<graphorin::ServerMessage>(&text.0, &graphorin::ParseOptions::default()).map(|m| m.variant().as_str())
        } else {
            graphorin::parse::<graphorin::ClientMessage>(&text.0, &graphorin::ParseOptions::default()).map(|m| m.variant().as_str())
        };
        Ok(match res {
            Ok(wire) => wire.to_owned(),
            Err(e) => parse_error_json(&e),
        })
    })
}

/// `negotiateSubprotocol` (§7): [`graphorin::SUBPROTOCOL_NAME`] when the offer's entries (header
/// values, each split on commas) hold it, else `None`.
#[napi(js_name = "goNegotiate")]
pub fn go_negotiate(offer: Vec<String>) -> napi::Result<Option<String>> {
    guard(|| Ok(graphorin::negotiate(&offer).map(str::to_owned)))
}

/// `parseTicketSubprotocol` (§7): the value of the first non-empty `ticket.<value>` token of
/// the offer's entries, else `None`.
#[napi(js_name = "goParseTicket")]
pub fn go_parse_ticket(offer: Vec<String>) -> napi::Result<Option<String>> {
    guard(|| Ok(graphorin::parse_ticket(&offer)))
}

/// `formatTicketSubprotocol` (§7): `ticket.<ticket>`; an error for an empty ticket.
#[napi(js_name = "goFormatTicket")]
pub fn go_format_ticket(ticket: String) -> napi::Result<String> {
    guard(|| graphorin::format_ticket(&ticket).map_err(|e| invalid_arg(e.to_string())))
}

/// The Graphorin JSON Schema (draft 2020-12), pretty-printed with a trailing newline.
#[napi(js_name = "goSchemaString")]
pub fn go_schema_string() -> napi::Result<String> {
    guard(|| Ok(graphorin::export_json_schema_string()))
}

// ---------------------------------------------------------------------------------------------
// Registry and constants
// ---------------------------------------------------------------------------------------------

/// The typed registry of every protocol as JSON text: messages, unions with their variants and
/// guard names, objects with their fields in spec order, enums with their values. The
/// JavaScript side reads it once at load (serialization order, guards).
#[napi(js_name = "registryJson")]
pub fn registry_json() -> napi::Result<String> {
    guard(|| Ok(js_text::registry_json()))
}

/// The public constants of both protocols as JSON text.
#[napi(js_name = "constantsJson")]
pub fn constants_json() -> napi::Result<String> {
    guard(|| Ok(js_text::constants_json()))
}

/// The id of the contract compiled into this addon ([`wirecontract::contract_id`]: 16 hex
/// digits). `index.js` compares it with the id recorded beside the declarations it ships
/// with and refuses to load on a difference.
#[napi(js_name = "contractId")]
pub fn contract_id() -> napi::Result<String> {
    guard(|| Ok(wirecontract::contract_id()))
}

/// The crate version of the contract this addon was built from.
#[napi(js_name = "version")]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
