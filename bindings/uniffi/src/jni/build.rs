//! `Native.build`: type, `runId`, payload and counters in, the serialized frame out
//! (graphmind-v1 §5.13 building, §5.14 writing).

use super::env::Env;
use jni_sys::{jboolean, jbyteArray, jclass, jint, jlong, JNIEnv, JNI_TRUE};
use std::ptr::null_mut;
use wirecontract::graphmind::{self as gm, BuildError};
use wirecontract_glue::PANIC_PREFIX;

/// The exception class thrown for a refused frame (`WireException.kt`).
const WIRE_EXCEPTION: &str = "dev/wirecontract/graphmind/jvm/WireException";

/// `static native byte[] build(byte[] buf, int payloadLen, int typeLen, int runIdLen, long
/// seq, long ts, boolean hasTs)`: `buf` holds the payload's JSON text, the type string and the
/// `runId`, UTF-8, one after the other from index 0 (the payload first, so that a JVM writer's
/// own buffer can be passed as it is). Returns `build_frame_json`'s bytes:
/// the envelope `create_envelope_json` builds (a known type's payload validated and typed, any
/// other kept opaque; `ts` now when `hasTs` is false), as `serialize_envelope` writes it;
/// `seq`/`ts` are first checked by `counter_from_i64`. Throws `WireException` with the reason and every
/// issue when the frame would not parse `ok`/`unknown-type`, or on a panic.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_wirecontract_graphmind_jvm_Native_build(
    env: *mut JNIEnv,
    _class: jclass,
    buf: jbyteArray,
    payload_len: jint,
    type_len: jint,
    run_id_len: jint,
    seq: jlong,
    ts: jlong,
    has_ts: jboolean,
) -> jbyteArray {
    // SAFETY: `env` is the pointer the JVM passed to this call.
    let env = unsafe { Env::new(env) };
    let lens = [payload_len, type_len, run_id_len];
    if lens.iter().any(|n| *n < 0) {
        env.throw(WIRE_EXCEPTION, "negative length");
        return null_mut();
    }
    let [p, t, r] = lens.map(|n| n as usize);
    let total = p.saturating_add(t).saturating_add(r);
    let ts = (has_ts == JNI_TRUE).then_some(ts);
    let answer = env.with_bytes(buf, 0, total, |bytes| write(&bytes[p..p + t], &bytes[p + t..], &bytes[..p], seq, ts));
    match answer {
        Some(Ok(frame)) => env.new_bytes(&frame),
        Some(Err(message)) => {
            env.throw(WIRE_EXCEPTION, &message);
            null_mut()
        }
        None => {
            // The one internal-error text of every binding.
            env.throw(WIRE_EXCEPTION, &format!("{PANIC_PREFIX}the buffer is shorter than the lengths given, or the build panicked"));
            null_mut()
        }
    }
}

fn utf8<'a>(what: &str, bytes: &'a [u8]) -> Result<&'a str, String> {
    std::str::from_utf8(bytes).map_err(|e| format!("{what} is not valid UTF-8 at byte {}", e.valid_up_to()))
}

fn write(message_type: &[u8], run_id: &[u8], payload: &[u8], seq: i64, ts: Option<i64>) -> Result<Vec<u8>, String> {
    let message_type = utf8("type", message_type)?;
    let run_id = utf8("runId", run_id)?;
    let payload = utf8("payload", payload)?;
    let seq = gm::counter_from_i64("seq", seq).map_err(|e| e.to_string())?;
    let ts = ts.map(|v| gm::counter_from_i64("ts", v)).transpose().map_err(|e| e.to_string())?;
    gm::build_frame_json(message_type, payload, seq, run_id, ts).map_err(|e: BuildError| e.to_string())
}
