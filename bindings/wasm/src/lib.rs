//! The WASM backend of `@wirecontract/node`'s browser build: the contract's parsers behind
//! wasm-bindgen, with the same entry points as the Node-API addon and the same texts (both
//! take them from `wirecontract-js-text`), so one JavaScript layer serves both.
//!
//! Frames cross as UTF-8: the JavaScript side writes a frame with `TextEncoder.encodeInto`
//! straight into [`frame_buffer`] (a buffer in this module's memory) and passes its length.
//! A string holding a lone surrogate has no UTF-8 form; its UTF-16 code units are written
//! into [`units_buffer`] instead and [`units_to_frame`] converts them as the addon does
//! (`js_text::transcode`), so both backends decide such a frame as `JSON.parse` does.
//!
//! Results that are not a number come back through [`take_text`]. A panic aborts (wasm32 has
//! no unwinding): the JavaScript backend turns the trap into an `Error` and instantiates the
//! module again.

// wasm-bindgen hands optional strings over as owned values (`Option<String>`): taking them by
// value is the binding's calling convention, not a choice.
#![allow(clippy::needless_pass_by_value)]

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use wirecontract::wire::{self, Described, WireEnum, WireValue};
use wirecontract::{graphmind as gm, graphorin};

mod viewer;

use wirecontract_js_text::js_text;

pub use viewer::ViewerSession;

thread_local! {
    /// The frame the JavaScript side wrote (UTF-8), and its UTF-16 staging buffer.
    static FRAME: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static UNITS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
    /// The text result of the last call that has one.
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Buffers above this many bytes are released after use instead of kept for the next frame.
const KEEP_BYTES: usize = 1 << 20;

/// A buffer of at least `len` bytes for the next frame, returned as its address in this
/// module's memory (valid until the next call into the module). Its bytes are initialized
/// (zeroed when the buffer grows, else the last frame's), so the bytes the JavaScript side
/// writes are read without `unsafe`, and a frame no longer than the last costs no zeroing.
#[wasm_bindgen]
pub fn frame_buffer(len: usize) -> *mut u8 {
    FRAME.with(|f| {
        let mut f = f.borrow_mut();
        if f.len() < len {
            f.resize(len, 0);
        }
        f.as_mut_ptr()
    })
}

/// A buffer of at least `len` UTF-16 code units, for a string with a lone surrogate.
#[wasm_bindgen]
pub fn units_buffer(len: usize) -> *mut u16 {
    UNITS.with(|u| {
        let mut u = u.borrow_mut();
        if u.len() < len {
            u.resize(len, 0);
        }
        u.as_mut_ptr()
    })
}

/// Converts the `len` code units written into [`units_buffer`] to the frame buffer (as
/// `JSON.parse` reads them: a lone surrogate becomes its escape) and returns the frame's
/// length in bytes.
#[wasm_bindgen]
pub fn units_to_frame(len: usize) -> usize {
    let text = UNITS.with(|u| {
        let mut u = u.borrow_mut();
        let text = js_text::transcode(&u[..len.min(u.len())]);
        release(&mut u);
        text
    });
    FRAME.with(|f| {
        let mut f = f.borrow_mut();
        if f.len() < text.len() {
            f.resize(text.len(), 0);
        }
        f[..text.len()].copy_from_slice(text.as_bytes());
        text.len()
    })
}

/// Drops a buffer that grew past [`KEEP_BYTES`], so one large frame does not pin its memory.
fn release<T>(buf: &mut Vec<T>) {
    if buf.capacity() * std::mem::size_of::<T>() > KEEP_BYTES {
        *buf = Vec::new();
    }
}

/// Runs `f` on the frame of `len` bytes written into [`frame_buffer`]. The bytes are UTF-8
/// (`encodeInto` writes nothing else, nor does [`units_to_frame`]); checked again here, and
/// anything else is read lossily, which no JavaScript string produces.
fn with_frame<T>(len: usize, f: impl FnOnce(&str) -> T) -> T {
    FRAME.with(|cell| {
        let mut buf = cell.borrow_mut();
        let bytes = &buf[..len.min(buf.len())];
        let out = match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => f(text),
            Err(_) => f(&String::from_utf8_lossy(bytes)),
        };
        release(&mut buf);
        out
    })
}

/// Stores a text result for [`take_text`].
fn put_text(text: String) {
    TEXT.with(|t| *t.borrow_mut() = text);
}

/// The text result of the last call that left one (and forgets it).
#[wasm_bindgen]
pub fn take_text() -> String {
    TEXT.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

/// An argument error, as the addon's `InvalidArg` (the JavaScript layer reads its message).
fn invalid_arg(msg: impl Into<String>) -> wasm_bindgen::JsError {
    wasm_bindgen::JsError::new(&msg.into())
}

type Res<T> = Result<T, wasm_bindgen::JsError>;

// ---------------------------------------------------------------------------------------------
// GraphMind
// ---------------------------------------------------------------------------------------------

fn verdict_code(outcome: gm::ParseOutcome) -> u32 {
    match outcome {
        gm::ParseOutcome::Ok(_) => 0,
        gm::ParseOutcome::UnknownType(_) => 1,
        other => {
            put_text(js_text::verdict_json(other));
            2
        }
    }
}

/// The verdict of `parseEnvelopeJson` on the frame: `0` ok, `1` unknown-type, `2` the result
/// object as JSON text in [`take_text`] (as the addon's `gmVerdict`).
#[wasm_bindgen(js_name = "gmVerdict")]
pub fn gm_verdict(len: usize) -> u32 {
    with_frame(len, |text| verdict_code(gm::parse(text, &gm::ParseOptions::default())))
}

/// The verdict on a frame `serializeEnvelope` wrote (no size cap), as [`gm_verdict`].
#[wasm_bindgen(js_name = "gmCheckWritten")]
pub fn gm_check_written(len: usize) -> u32 {
    let opts = gm::ParseOptions { max_frame_bytes: usize::MAX, ..gm::ParseOptions::default() };
    with_frame(len, |text| verdict_code(gm::parse(text, &opts)))
}

/// `createEnvelope`'s payload budget on the frame buffer's payload text: `1` fits, `2`–`4`
/// the shrunk payload text in [`take_text`], `0` refused (the error JSON in [`take_text`]).
#[wasm_bindgen(js_name = "gmBudgetPayload")]
pub fn gm_budget_payload(message_type: &str, len: usize, max_payload_bytes: f64) -> Res<u32> {
    let max = if max_payload_bytes >= 0.0 { max_payload_bytes as usize } else { return Err(invalid_arg("maxPayloadBytes must be >= 0")) };
    Ok(with_frame(len, |payload| match gm::budget_payload_json(message_type, payload, max) {
        Ok(None) => 1,
        Ok(Some(s)) => {
            put_text(s.json);
            u32::from(s.tier)
        }
        Err(e) => {
            put_text(js_text::build_error_json(&e));
            0
        }
    }))
}

/// `shrinkPayloadJson` on the frame buffer's payload text: the tier, the text in
/// [`take_text`]; an error naming the position when the text is not JSON.
#[wasm_bindgen(js_name = "gmShrinkPayloadJson")]
pub fn gm_shrink_payload_json(len: usize, max_bytes: f64, message_type: Option<String>) -> Res<u32> {
    let max = if max_bytes >= 0.0 { max_bytes as usize } else { return Err(invalid_arg("maxBytes must be >= 0")) };
    with_frame(len, |text| match gm::shrink_payload_json(text, max, message_type.as_deref()) {
        Ok(s) => {
            put_text(s.json);
            Ok(u32::from(s.tier))
        }
        Err(e) => Err(invalid_arg(format!("payload is not valid JSON: {e}"))),
    })
}

/// `serializePayload`'s unserializable path (graphmind-shrink §9): `projection` is in the
/// frame buffer (`len` bytes) unless `has_projection` is false; `refused_keys` and
/// `refused_arrays` are JSON arrays. The tier; the text in [`take_text`].
#[wasm_bindgen(js_name = "gmShrinkUnserializable")]
pub fn gm_shrink_unserializable(
    has_projection: bool,
    len: usize,
    refused_keys: &str,
    refused_arrays: &str,
    max_bytes: f64,
    message_type: Option<String>,
) -> Res<u32> {
    let max = if max_bytes >= 0.0 { max_bytes as usize } else { return Err(invalid_arg("maxBytes must be >= 0")) };
    let keys = strings_arg(refused_keys, "refusedKeys")?;
    let arrays: Vec<bool> = serde_json::from_str(refused_arrays).map_err(|e| invalid_arg(format!("refusedArrays: {e}")))?;
    if keys.len() != arrays.len() {
        return Err(invalid_arg("refusedKeys and refusedArrays differ in length"));
    }
    let refused: Vec<gm::shrink::RefusedField> = keys.into_iter().zip(arrays).map(|(key, is_array)| gm::shrink::RefusedField { key, is_array }).collect();
    with_frame(if has_projection { len } else { 0 }, |text| {
        match gm::shrink::shrink_unserializable_json(has_projection.then_some(text), &refused, max, message_type.as_deref()) {
            Ok(s) => {
                put_text(s.json);
                Ok(u32::from(s.tier))
            }
            Err(e) => Err(invalid_arg(format!("projection is not valid JSON: {e}"))),
        }
    })
}

/// The normalized finish reason of a provider's raw string, or undefined.
#[wasm_bindgen(js_name = "gmNormalizeFinishReason")]
pub fn gm_normalize_finish_reason(raw: &str, has_tool_calls: bool) -> Option<String> {
    gm::normalize_finish_reason(raw, has_tool_calls).map(|r| r.as_str().to_owned())
}

/// The display view of the `usage` value in the frame buffer (JSON text), as JSON text, or
/// undefined when it is not a usage object.
#[wasm_bindgen(js_name = "gmReadUsage")]
pub fn gm_read_usage(len: usize) -> Option<String> {
    with_frame(len, |text| gm::read_usage_json(text).map(|v| js_text::usage_json(&v)))
}

/// The closed enum `T` from a string, with the contract's error text.
fn enum_arg<T: WireEnum>(v: &str, what: &str) -> Res<T> {
    wire::enum_arg(v, what).map_err(|e| invalid_arg(e.to_string()))
}

/// The declared object `T` from JSON text, with the contract's error text.
fn object_arg<T: WireValue + Described>(text: &str, what: &str) -> Res<T> {
    wire::object_arg(text, what).map_err(|e| invalid_arg(e.to_string()))
}

/// A list of objects given as a JSON array of their JSON texts.
fn objects_arg<T: WireValue + Described>(list: &str, what: &str) -> Res<Vec<T>> {
    strings_arg(list, what)?.iter().enumerate().map(|(i, t)| object_arg(t, &format!("{what}[{i}]"))).collect()
}

/// A JSON array of strings (how the JavaScript backend passes string lists).
fn strings_arg(list: &str, what: &str) -> Res<Vec<String>> {
    serde_json::from_str(list).map_err(|e| invalid_arg(format!("{what}: {e}")))
}

/// Matcher equality (§5.12) of two matchers given as JSON text.
#[wasm_bindgen(js_name = "gmMatchersEqual")]
pub fn gm_matchers_equal(a: &str, b: &str) -> Res<bool> {
    Ok(gm::BreakpointMatcher::same_as(&object_arg(a, "a")?, &object_arg(b, "b")?))
}

/// Whether a matcher (JSON text) selects the gate `(kind, name, point)` (§5.12).
#[wasm_bindgen(js_name = "gmMatcherMatches")]
pub fn gm_matcher_matches(m: &str, kind: &str, name: &str, point: &str) -> Res<bool> {
    let m = object_arg(m, "matcher")?;
    Ok(gm::BreakpointMatcher::matches(&m, enum_arg(kind, "kind")?, name, enum_arg(point, "point")?))
}

/// Why a gate pauses (§5.12): `"breakpoint"`, `"step"`, or `undefined`. `breakpoints` is a
/// JSON array of matcher texts.
#[wasm_bindgen(js_name = "gmPauseReason")]
pub fn gm_pause_reason(mode: &str, breakpoints: &str, kind: &str, name: &str, point: &str) -> Res<Option<String>> {
    let mode = enum_arg(mode, "mode")?;
    let kind = enum_arg(kind, "kind")?;
    let point = enum_arg(point, "point")?;
    let list = objects_arg(breakpoints, "breakpoints")?;
    Ok(gm::pause_reason(mode, &list, kind, name, point).map(|r| r.as_str().to_owned()))
}

/// Negotiates a `hello` payload (JSON text) for a viewer; the answer as JSON text.
#[wasm_bindgen(js_name = "gmNegotiateHello")]
pub fn gm_negotiate_hello(hello_json: &str, viewer_capabilities: &str) -> Res<String> {
    let h = object_arg(hello_json, "hello")?;
    let caps = strings_arg(viewer_capabilities, "viewerCapabilities")?;
    Ok(js_text::negotiation_json(gm::negotiate_hello(&h, &caps)))
}

/// The `hello.ack` payload (JSON text) arming an app with the viewer's state (session §5.1).
#[wasm_bindgen(js_name = "gmHelloAck")]
pub fn gm_hello_ack(
    hello_json: &str,
    viewer: &str,
    breakpoints: &str,
    mode: &str,
    session_token: Option<String>,
    hub_capabilities: Option<String>,
) -> Res<String> {
    let h = object_arg(hello_json, "hello")?;
    let mode = enum_arg(mode, "mode")?;
    let list = objects_arg(breakpoints, "breakpoints")?;
    let caps = hub_capabilities.map(|c| strings_arg(&c, "hubCapabilities")).transpose()?;
    let ack = gm::hello_ack(&h, viewer, &list, mode, session_token.as_deref(), caps.as_deref());
    Ok(wire::to_json(&ack))
}

// ---------------------------------------------------------------------------------------------
// Any registered protocol by name
// ---------------------------------------------------------------------------------------------

/// `parseFrame(protocolName, text)`: any registered protocol's verdict as JSON text
/// ([`js_text::frame_verdict_json`]); an error naming the registered protocols for an unknown
/// name.
#[wasm_bindgen(js_name = "parseFrameJson")]
pub fn parse_frame_json(protocol: &str, len: usize) -> Res<String> {
    with_frame(len, |text| js_text::frame_verdict_json(protocol, text).map_err(invalid_arg))
}

// ---------------------------------------------------------------------------------------------
// Graphorin
// ---------------------------------------------------------------------------------------------

/// Parses the Graphorin frame in the frame buffer (`direction` 0 server, 1 client): the
/// variant's wire name, or the error as JSON text starting with `{` (as the addon's `goParse`).
#[wasm_bindgen(js_name = "goParse")]
pub fn go_parse(direction: u32, len: usize) -> String {
    with_frame(len, |text| {
        let res = if direction == 0 {
            graphorin::parse::<graphorin::ServerMessage>(text, &graphorin::ParseOptions::default()).map(|m| m.variant().as_str())
        } else {
            graphorin::parse::<graphorin::ClientMessage>(text, &graphorin::ParseOptions::default()).map(|m| m.variant().as_str())
        };
        match res {
            Ok(wire) => wire.to_owned(),
            Err(e) => js_text::parse_error_json(&e),
        }
    })
}

/// `negotiateSubprotocol` (§7) over a JSON array of offer entries.
#[wasm_bindgen(js_name = "goNegotiate")]
pub fn go_negotiate(offer: &str) -> Res<Option<String>> {
    Ok(graphorin::negotiate(&strings_arg(offer, "offer")?).map(str::to_owned))
}

/// `parseTicketSubprotocol` (§7) over a JSON array of offer entries.
#[wasm_bindgen(js_name = "goParseTicket")]
pub fn go_parse_ticket(offer: &str) -> Res<Option<String>> {
    Ok(graphorin::parse_ticket(&strings_arg(offer, "offer")?))
}

/// `formatTicketSubprotocol` (§7): `ticket.<ticket>`; an error for an empty ticket.
#[wasm_bindgen(js_name = "goFormatTicket")]
pub fn go_format_ticket(ticket: &str) -> Res<String> {
    graphorin::format_ticket(ticket).map_err(|e| invalid_arg(e.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Registry and constants
// ---------------------------------------------------------------------------------------------

/// The typed registry of every protocol as JSON text (read once at load).
#[wasm_bindgen(js_name = "registryJson")]
pub fn registry_json() -> String {
    js_text::registry_json()
}

/// The public constants of both protocols as JSON text.
#[wasm_bindgen(js_name = "constantsJson")]
pub fn constants_json() -> String {
    js_text::constants_json()
}

/// The id of the contract compiled into this module (checked against `contract-id.json`),
/// computed by `build.rs` from the same contract crate.
#[wasm_bindgen(js_name = "contractId")]
pub fn contract_id() -> String {
    include!(concat!(env!("OUT_DIR"), "/contract_id.rs")).to_owned()
}

/// The crate version of the contract this module was built from.
#[wasm_bindgen(js_name = "version")]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
