//! The parser: [`parse`], the one entry for a frame however a host holds it ([`Frame`]: text,
//! bytes, shared text or shared bytes), and [`parse_value`] for a decoded tree.
//!
//! Every frame kind takes the same route: the size cap, then the single pass (`single_pass`,
//! one cursor pass that decides every valid frame), then, for a frame it bails on, the
//! reference reader's steps 2–6 after one validating pass (`decide_bailed`), and, when that
//! pass refuses the frame, the two-pass reference reader (`parse_two_pass`: validate, then walk),
//! which names the error. The reference reader alone is the differential oracle of the test
//! suites, benchmarks and fuzz targets (`oracle`, behind the `oracle` feature).

use std::borrow::Cow;

use crate::frame::Frame;
use crate::wire::{Ctx, Extras, Issue, Path, SafeInt, SafeUInt, WireValue};
use wirecontract_json::cursor::Cursor;
use wirecontract_json::{self as json, decode_string, JsonKind, RawJson, SharedBytes, SharedText, Val};

use super::envelope::ENVELOPE_WIRE_KEYS;
use super::{payload_type_name, Envelope, Message, ParseOptions, ParseOutcome, PROTOCOL_VERSION, REASON_NOT_AN_ENVELOPE};

fn invalid(reason: impl Into<String>, issues: Option<Vec<Issue>>) -> ParseOutcome {
    ParseOutcome::invalid(reason, issues)
}

/// Parses one frame (§2 decision order, §5) within `opts`' limits: `&str`, `&String`,
/// `&[u8]`, `&Vec<u8>`, `&SharedText` or `&SharedBytes` (see [`Frame`]). Never panics and
/// never fails: every frame gets one of the four outcomes.
///
/// Every frame kind gives the same verdict, issues and values. Bytes are checked for UTF-8 as
/// the single pass reads them (no pass of their own for a frame it decides); invalid UTF-8
/// anywhere is `invalid` naming the offset of the first bad byte. Shared text and shared bytes
/// let the envelope keep compact opaque values (payloads of unknown types, `input`/`output`/
/// `meta`, unknown members) as spans of the frame instead of copies.
///
/// ```
/// use wirecontract::graphmind::{parse, Message, ParseOptions, ParseOutcome};
/// let frame = r#"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"run.finished","payload":{"status":"ok"}}"#;
/// let opts = ParseOptions::default();
/// assert!(matches!(parse(frame, &opts), ParseOutcome::Ok(env) if matches!(env.message, Message::RunFinished(_))));
/// assert_eq!(parse(frame.as_bytes(), &opts), parse(frame, &opts));
/// ```
#[inline]
pub fn parse<'f>(frame: impl Into<Frame<'f>>, opts: &ParseOptions) -> ParseOutcome {
    match frame.into() {
        Frame::Text(text) => parse_text(text, opts),
        Frame::Bytes(bytes) => parse_bytes(bytes, opts),
        Frame::SharedText(text) => parse_shared_text(text, opts),
        Frame::SharedBytes(bytes) => parse_shared_bytes(bytes, opts),
    }
}

/// Parses an already decoded value (§2 "`parseEnvelope(value)` is the same algorithm
/// starting at step 2"). serde_json values cannot hold lone surrogates or non-finite numbers,
/// so those frames are out of reach here by construction.
pub fn parse_value(value: &serde_json::Value) -> ParseOutcome {
    let text = value.to_string();
    parse_validated(Val::root(&text))
}

fn parse_text(frame: &str, opts: &ParseOptions) -> ParseOutcome {
    if frame.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = single_pass(Cursor::new(frame, opts.max_depth)) {
        return out;
    }
    decide_bailed(Cursor::new(frame, opts.max_depth)).unwrap_or_else(|| parse_two_pass(frame, opts))
}

/// The single pass checks UTF-8 as it reads ([`Cursor::new_bytes`]): a frame it decides has
/// been checked whole, with no UTF-8 pass of its own. A frame it bails on is decided by the
/// reference reader's steps after one more pass checking JSON and UTF-8 together; when that
/// pass refuses the frame (invalid UTF-8 included), the whole-frame check and the reference
/// reader name the error, so invalid UTF-8 anywhere is `invalid` naming the offset of the
/// first bad byte, as it always was.
fn parse_bytes(frame: &[u8], opts: &ParseOptions) -> ParseOutcome {
    if frame.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = single_pass(Cursor::new_bytes(frame, opts.max_depth)) {
        return out;
    }
    decide_bailed(Cursor::new_bytes(frame, opts.max_depth)).unwrap_or_else(|| bytes_two_pass(frame, opts))
}

/// The reference path of a bytes frame: the whole-frame UTF-8 check, then the two-pass
/// reader. SIMD validation first (several GB/s on non-ASCII text, where std's check slows to
/// a byte at a time); std's error gives the offset on a failure.
fn bytes_two_pass(frame: &[u8], opts: &ParseOptions) -> ParseOutcome {
    match simdutf8::basic::from_utf8(frame) {
        Ok(text) => parse_two_pass(text, opts),
        Err(_) => match std::str::from_utf8(frame) {
            Ok(text) => parse_two_pass(text, opts),
            Err(e) => invalid(crate::registry::not_utf8_reason(e.valid_up_to()), None),
        },
    }
}

/// Bytes not yet known to be UTF-8 (a binding's `bytes` input), checked while the single pass
/// reads them, as in [`parse_bytes`], with compact opaque values as spans of `frame`.
fn parse_shared_bytes(frame: &SharedBytes, opts: &ParseOptions) -> ParseOutcome {
    let bytes = frame.as_bytes();
    if bytes.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = Cursor::read_shared_bytes(frame, opts.max_depth, single_pass) {
        return out;
    }
    // A cursor of its own (no spans: the reference reader copies what it keeps).
    decide_bailed(Cursor::new_bytes(bytes, opts.max_depth)).unwrap_or_else(|| bytes_two_pass(bytes, opts))
}

fn too_big(opts: &ParseOptions) -> ParseOutcome {
    invalid(format!("frame exceeds {} bytes", opts.max_frame_bytes), None)
}

/// Text the parsed envelope may share: compact opaque values become spans of `frame` instead
/// of copies.
fn parse_shared_text(frame: &SharedText, opts: &ParseOptions) -> ParseOutcome {
    let text = frame.as_str();
    if text.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = single_pass(Cursor::new_shared(frame, opts.max_depth)) {
        return out;
    }
    decide_bailed(Cursor::new(text, opts.max_depth)).unwrap_or_else(|| parse_two_pass(text, opts))
}

/// The parser's pieces on their own, for the differential tests, benchmarks and fuzz targets
/// (the `oracle` feature; not part of the crate's API).
#[cfg(feature = "oracle")]
pub mod oracle {
    use super::{decide_bailed, parse_two_pass, too_big, Cursor, ParseOptions, ParseOutcome};

    /// The reference reader alone (validate, then walk): what [`super::parse`] returns for
    /// every frame.
    pub fn reference(frame: &str, opts: &ParseOptions) -> ParseOutcome {
        if frame.len() > opts.max_frame_bytes {
            return too_big(opts);
        }
        parse_two_pass(frame, opts)
    }

    /// The single pass alone: `Some` for a frame it decides, `None` where it bails.
    pub fn single_pass(frame: &str, max_depth: usize) -> Option<ParseOutcome> {
        super::single_pass(Cursor::new(frame, max_depth))
    }

    /// What a frame the single pass bails on is decided by: the reference reader's steps 2–6
    /// after one validating pass (`decide_bailed`); `None` where that pass refuses the frame
    /// (not JSON, too deep) and the reference reader names the error.
    pub fn bailed(frame: &str, max_depth: usize) -> Option<ParseOutcome> {
        decide_bailed(Cursor::new(frame, max_depth))
    }
}

/// Decides a frame the single pass bailed on, with the reference reader's verdict and issues
/// (§2 steps 1–6). Step 1 (JSON syntax, depth, and UTF-8 for a frame given as bytes) is one
/// validating pass of `cur`, which hands the root object's members to the reference's steps
/// 2–6 ([`parse_members`]) as it reads them; the reference reader alone would validate the
/// frame and then find the root's end and each member's end again (three scans of the
/// payload, so a large invalid frame cost several times a valid one). Members are not
/// collected first, so a frame of many members costs no memory the reference would not spend.
/// `None` for a frame `cur` refuses, which the caller hands to the reference reader whole to
/// name the error (the outcome built from the members read until then is dropped: steps 2–6
/// have no effects). The cursor accepts
/// exactly the JSON `json::validate` accepts (the single pass's verdicts rest on that too; the
/// differential suites check it).
fn decide_bailed(mut cur: Cursor<'_>) -> Option<ParseOutcome> {
    let decided = match cur.peek() {
        Some(b'{') => cur.object_start().and_then(|more| {
            let mut members = RootMembers { cur: &mut cur, more, refused: false };
            let out = parse_members(&mut members);
            // Read to the end whatever `parse_members` left (today: nothing).
            members.by_ref().for_each(drop);
            (!members.refused).then_some(out)
        }),
        Some(_) => cur.val().map(parse_validated),
        None => None,
    }?;
    cur.finish()?;
    Some(decided)
}

/// The root object's members (raw key, value), read by the cursor one at a time as
/// [`parse_members`] asks for them. A member the cursor refuses ends the iteration and sets
/// `refused`.
struct RootMembers<'c, 's> {
    cur: &'c mut Cursor<'s>,
    /// Whether another member follows.
    more: bool,
    /// Whether the cursor refused the text (not JSON, too deep, not UTF-8).
    refused: bool,
}

impl<'s> Iterator for RootMembers<'_, 's> {
    type Item = (&'s str, Val<'s>);

    fn next(&mut self) -> Option<Self::Item> {
        if !self.more {
            return None;
        }
        let cur = &mut *self.cur;
        let member = cur.key().and_then(|key| Some((key.raw, cur.val()?)));
        if let Some((m, more)) = member.and_then(|m| Some((m, cur.more_members()?))) {
            self.more = more;
            Some(m)
        } else {
            (self.more, self.refused) = (false, true);
            None
        }
    }
}

fn parse_two_pass(frame: &str, opts: &ParseOptions) -> ParseOutcome {
    if let Err(e) = json::validate(frame, opts.max_depth) {
        return if e.too_deep {
            invalid(format!("frame nests deeper than {} levels (at byte {})", opts.max_depth, e.offset), None)
        } else {
            invalid(format!("frame is not valid JSON: {e}"), None)
        };
    }
    parse_validated(Val::root(frame))
}

/// Steps 2–6 on validated text.
fn parse_validated(root: Val<'_>) -> ParseOutcome {
    if root.kind() != JsonKind::Object {
        let mut ctx = Ctx::new();
        ctx.expected::<()>(&Path::Root, "object", Some(root));
        return invalid(REASON_NOT_AN_ENVELOPE, Some(ctx.issues));
    }
    parse_members(root.members())
}

/// Steps 2–6 on the members of a validated root object, in wire order: each key's raw text
/// (between the quotes, still escaped) and its value.
fn parse_members<'s>(members: impl IntoIterator<Item = (&'s str, Val<'s>)>) -> ParseOutcome {
    let mut ctx = Ctx::new();
    let root_path = Path::Root;
    let (mut gm, mut seq, mut ts, mut run_id, mut ty, mut payload) = (None, None, None, None, None, None);
    let mut extra = Extras::new();
    for (key, val) in members {
        match &*decode_string(key).text {
            "gm" => gm = Some(val),
            "seq" => seq = Some(val),
            "ts" => ts = Some(val),
            "runId" => run_id = Some(val),
            "type" => ty = Some(val),
            "payload" => payload = Some(val),
            _ => extra.insert_escaped(key, RawJson::from_validated(val.raw())),
        }
    }
    // Stage 1: every structural field, all issues at once.
    let gm = <SafeInt as crate::wire::WireField>::read_field(&mut ctx, gm, &Path::Key(&root_path, "gm")).map(SafeInt::get);
    let seq = <SafeUInt as crate::wire::WireField>::read_field(&mut ctx, seq, &Path::Key(&root_path, "seq")).map(SafeUInt::get);
    let ts = <SafeUInt as crate::wire::WireField>::read_field(&mut ctx, ts, &Path::Key(&root_path, "ts")).map(SafeUInt::get);
    let run_id = read_run_id(&mut ctx, run_id, &Path::Key(&root_path, "runId"));
    let ty = <String as crate::wire::WireField>::read_field(&mut ctx, ty, &Path::Key(&root_path, "type"));
    let (Some(gm), Some(seq), Some(ts), Some(run_id), Some(ty)) = (gm, seq, ts, run_id, ty) else {
        return invalid(REASON_NOT_AN_ENVELOPE, Some(ctx.issues));
    };
    // Step 3: version before type and payload.
    if gm != PROTOCOL_VERSION {
        return ParseOutcome::VersionMismatch { received: gm, supported: PROTOCOL_VERSION };
    }
    // Steps 4–5.
    let payload_path = Path::Key(&root_path, "payload");
    match Message::read_payload(&mut ctx, &ty, payload, &payload_path) {
        None => {
            let payload = payload.map(|p| RawJson::from_validated(p.raw()));
            let env = Envelope { seq, ts, run_id, message: Message::Unknown { message_type: ty, payload }, extra };
            ParseOutcome::UnknownType(env)
        }
        Some(None) => ParseOutcome::Invalid {
            reason: format!("invalid payload for message type \"{ty}\""),
            issues: Some(ctx.issues),
            seq: Some(seq),
            ts: Some(ts),
            run_id: Some(run_id),
            message_type: Some(ty),
        },
        Some(Some(message)) => ParseOutcome::Ok(Envelope { seq, ts, run_id, message, extra }),
    }
}

/// Where the payload member stands after the single pass over the envelope. Lives on the
/// stack for one parse only, so the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
enum PayloadSlot<'s> {
    /// Absent.
    Absent,
    /// Read typed, for the known type named here.
    Read(Message, Cow<'s, str>),
    /// Validated and skipped: its type or `gm` was not known yet when it came (or not `1`);
    /// whether whitespace sits between its tokens.
    Skipped(Val<'s>, bool),
}

/// Steps 1–6 in one pass for a frame that is valid JSON, a structurally valid envelope and,
/// for a known type, a valid payload; `None` ("bail") for anything else, which the reference
/// reader then decides. Members are read in wire order; the payload is read typed where it
/// stands when `gm: 1` and a known `type` came before it (the order every sender uses), else
/// skipped and read afterwards.
fn single_pass(mut cur: Cursor<'_>) -> Option<ParseOutcome> {
    if !cur.object_start()? {
        return None;
    }
    // `type` stays a borrow of the frame (no allocation) unless it is an unknown type's, or
    // escaped.
    let (mut gm, mut seq, mut ts, mut run_id, mut ty) = (None, None, None, None::<String>, None::<Cow<'_, str>>);
    let mut payload = PayloadSlot::Absent;
    let mut extra = Extras::new();
    // Each key is first compared with the one after the last read: clients write the
    // envelope's members in the order of `ENVELOPE_KEYS`.
    let mut next = 0;
    loop {
        let (key, known) = cur.member_key(&ENVELOPE_WIRE_KEYS, &mut next)?;
        // Indexes into `ENVELOPE_KEYS`.
        match known {
            // `gm`
            Some(0) => gm = Some(SafeInt::read_fast(&mut cur)?.get()),
            // `seq`
            Some(1) => seq = Some(SafeUInt::read_fast(&mut cur)?.get()),
            // `ts`
            Some(2) => ts = Some(SafeUInt::read_fast(&mut cur)?.get()),
            // `runId`
            Some(3) => {
                let raw = cur.string()?;
                let text = raw.decoded()?;
                // A NUL can come only from a `\u0000` escape (the scan refuses raw control
                // characters), so unescaped text needs no search.
                if raw.escaped && text.contains('\0') {
                    return None;
                }
                run_id = Some(text.into_owned());
            }
            // `type`
            Some(4) => ty = Some(cur.string()?.decoded_lossy()),
            // `payload`
            Some(5) => {
                payload = match (gm, &ty) {
                    (Some(PROTOCOL_VERSION), Some(t)) if payload_type_name(t).is_some() => match Message::read_payload_fast(t, &mut cur) {
                        Some(m) => PayloadSlot::Read(m?, t.clone()),
                        None => return None,
                    },
                    _ => {
                        let (v, ws) = cur.val_ws()?;
                        PayloadSlot::Skipped(v, ws)
                    }
                };
            }
            _ => extra.insert_escaped(key.raw, cur.raw_json()?),
        }
        if !cur.more_members()? {
            break;
        }
    }
    cur.finish()?;
    let (gm, seq, ts, run_id, ty) = (gm?, seq?, ts?, run_id?, ty?);
    if gm != PROTOCOL_VERSION {
        return Some(ParseOutcome::VersionMismatch { received: gm, supported: PROTOCOL_VERSION });
    }
    if payload_type_name(&ty).is_none() {
        let payload = match payload {
            PayloadSlot::Absent => None,
            PayloadSlot::Skipped(v, ws) => Some(cur.raw_of(v.raw(), ws)),
            PayloadSlot::Read(..) => return None,
        };
        return Some(ParseOutcome::UnknownType(Envelope { seq, ts, run_id, message: Message::Unknown { message_type: ty.into_owned(), payload }, extra }));
    }
    let message = match payload {
        // A later duplicate `type` key may have changed the type after the payload was read.
        PayloadSlot::Read(m, read_as) if read_as == ty => m,
        PayloadSlot::Read(..) | PayloadSlot::Absent => return None,
        PayloadSlot::Skipped(v, _) => {
            let mut ctx = Ctx::new();
            let m = Message::read_payload(&mut ctx, &ty, Some(v), &Path::Root)??;
            if !ctx.issues.is_empty() {
                return None;
            }
            m
        }
    };
    Some(ParseOutcome::Ok(Envelope { seq, ts, run_id, message, extra }))
}

/// `runId`: a string with no lone surrogate and no U+0000 (§2 Stage 1).
fn read_run_id(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<String> {
    let Some(v) = v else {
        ctx.issue(path, "expected string, received undefined (the field is required)");
        return None;
    };
    let Some(raw) = v.string_raw() else {
        return ctx.expected(path, "string", Some(v));
    };
    let d = decode_string(raw);
    let mut ok = true;
    if d.had_lone_surrogate {
        ctx.issue(path, "runId must not contain a lone surrogate");
        ok = false;
    }
    if d.text.contains('\0') {
        ctx.issue(path, "runId must not contain U+0000");
        ok = false;
    }
    ok.then(|| d.text.into_owned())
}
