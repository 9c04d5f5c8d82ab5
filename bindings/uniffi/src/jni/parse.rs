//! `Native.parse`: one frame in, a verdict and byte offsets out (graphmind-v1 §2, §5).

use super::env::Env;
use jni_sys::{jbyteArray, jclass, jint, jlong, jlongArray, JNIEnv};
use wirecontract::graphmind::{self as gm, ParseOutcome};
use wirecontract_json::cursor::Cursor;

/// Verdict codes returned to the JVM (`Verdict.ordinal` in `Frame.kt`).
const OK: jint = 0;
const UNKNOWN_TYPE: jint = 1;
const VERSION_MISMATCH: jint = 2;
const INVALID: jint = 3;

/// Number of `long`s written into `out` (`Native.OUT_LEN` on the JVM side).
pub(super) const OUT_LEN: usize = 8;
/// Out slots: `seq`, `ts`, `runId` span, index of the type in `MESSAGE_TYPES` (−1: unknown),
/// type span, payload span (−1: absent), flags (bit 0: `runId` has escapes, bit 1: the type
/// has escapes), `gm` received (version mismatch). A span is `start << 32 | end`, byte
/// offsets into the caller's array, between the quotes for strings.
const SEQ: usize = 0;
const TS: usize = 1;
const RUN_ID: usize = 2;
const TYPE_INDEX: usize = 3;
const TYPE_SPAN: usize = 4;
const PAYLOAD: usize = 5;
const FLAGS: usize = 6;
const GM: usize = 7;

/// `static native int parse(byte[] frame, int offset, int length, long[] out)`: parses
/// `frame[offset, offset + length)` with the default limits and returns the verdict code;
/// for `ok` and `unknown-type`, `out` receives the envelope's counters and the spans of
/// `runId`, `type` and `payload` (absolute offsets into `frame`); for `version-mismatch`,
/// the `gm` received. `invalid` writes nothing: the JVM asks the full parser for the reason
/// and issues only when they are read. A range outside the array, or a panic, is `invalid`.
#[no_mangle]
pub extern "system" fn Java_dev_wirecontract_graphmind_jvm_Native_parse(
    env: *mut JNIEnv,
    _class: jclass,
    frame: jbyteArray,
    offset: jint,
    length: jint,
    out: jlongArray,
) -> jint {
    // SAFETY: `env` is the pointer the JVM passed to this call.
    let env = unsafe { Env::new(env) };
    if offset < 0 || length < 0 {
        return INVALID;
    }
    let base = offset as usize;
    let answer = env.with_bytes(frame, base, length as usize, |bytes| decide(bytes, base));
    match answer {
        Some((verdict, slots)) => {
            if verdict != INVALID {
                env.set_longs(out, &slots);
            }
            verdict
        }
        None => INVALID,
    }
}

/// The verdict and the out slots for `bytes` (which start at `base` in the caller's array).
fn decide(bytes: &[u8], base: usize) -> (jint, [jlong; OUT_LEN]) {
    let mut slots = [-1 as jlong; OUT_LEN];
    let (verdict, envelope) = match gm::parse(bytes, &gm::ParseOptions::default()) {
        ParseOutcome::Ok(e) => (OK, e),
        ParseOutcome::UnknownType(e) => (UNKNOWN_TYPE, e),
        ParseOutcome::VersionMismatch { received, .. } => {
            slots[GM] = received;
            return (VERSION_MISMATCH, slots);
        }
        ParseOutcome::Invalid { .. } => return (INVALID, slots),
    };
    slots[SEQ] = envelope.seq as jlong;
    slots[TS] = envelope.ts as jlong;
    slots[TYPE_INDEX] = gm::MESSAGE_TYPES.iter().position(|t| *t == envelope.message_type()).map_or(-1, |i| i as jlong);
    slots[FLAGS] = 0;
    // An accepted frame is valid UTF-8 JSON whose root is an object: the scan below cannot
    // fail, and the last of duplicate members wins, as JSON.parse does.
    let text = std::str::from_utf8(bytes).unwrap_or("");
    let _ = scan_members(text, base, &mut slots);
    (verdict, slots)
}

fn span(base: usize, start: usize, end: usize) -> jlong {
    (((base + start) as jlong) << 32) | (base + end) as jlong
}

/// Records the spans of `runId`, `type` and `payload` among the root object's members.
fn scan_members(text: &str, base: usize, slots: &mut [jlong; OUT_LEN]) -> Option<()> {
    let mut c = Cursor::new(text, gm::DEFAULT_MAX_DEPTH);
    if !c.object_start()? {
        return Some(());
    }
    loop {
        let key = c.key()?;
        let key = key.decoded()?;
        c.skip_ws();
        let start = c.pos();
        match &*key {
            "runId" | "type" => {
                let s = c.string()?;
                // Content between the quotes: one byte after the opening quote.
                let (slot, bit) = if &*key == "runId" { (RUN_ID, 1) } else { (TYPE_SPAN, 2) };
                slots[slot] = span(base, start + 1, start + 1 + s.raw.len());
                if s.escaped {
                    slots[FLAGS] |= bit;
                } else {
                    slots[FLAGS] &= !bit;
                }
            }
            "payload" => {
                let (raw, _) = c.skip_value()?;
                slots[PAYLOAD] = span(base, start, start + raw.len());
            }
            _ => {
                c.skip_value()?;
            }
        }
        if !c.more_members()? {
            return Some(());
        }
    }
}
