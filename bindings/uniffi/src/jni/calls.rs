//! `JniCalls.*`: the typed API's hot functions (`parseEnvelopeJson`, `createEnvelope`,
//! `serializeEnvelope`, …) over JNI instead of JNA, with uniffi's own records on both sides.
//!
//! The JVM writes the arguments into one `byte[]` with uniffi's generated `FfiConverter`s (the
//! layout of a `RustBuffer`), one call crosses, and the answer comes back as one `byte[]`: a
//! status byte, then the return value (status 0) or the declared error (status 1), written by
//! uniffi's `Lower`. The Kotlin side (the generated `JniCalls` and `JniTransport.kt`) reads it
//! with the same generated converters, so the public functions keep uniffi's signatures and
//! records, and the Rust functions called here are the very ones uniffi exports to Swift.
//! Nothing here decides anything: it only moves bytes.
//!
//! A panic inside a function becomes its declared error (`guard`) or an `Invalid` verdict, as
//! through uniffi; arguments the JVM wrote wrongly (a bug in the generated Kotlin) throw
//! `IllegalStateException`.

use super::env::Env;
use crate::{ContractError, Envelope, HostString, JsonText, Message, ParseOptions, UniFfiTag};
use jni_sys::{jbyteArray, jclass, jint, jsize, JNIEnv};
use std::ptr::null_mut;
use uniffi::{Lift, Lower};

/// The status byte of an answer (`JniTransport.kt` reads it).
const RETURNED: u8 = 0;
const ERROR: u8 = 1;

/// What a call answers, before it crosses.
trait Answer {
    fn write(self, out: &mut Vec<u8>);
}

/// A value returned as it is (the function cannot fail).
struct Value<T>(T);

impl<T: Lower<UniFfiTag>> Answer for Value<T> {
    fn write(self, out: &mut Vec<u8>) {
        out.push(RETURNED);
        T::write(self.0, out);
    }
}

impl<T: Lower<UniFfiTag>> Answer for Result<T, ContractError> {
    fn write(self, out: &mut Vec<u8>) {
        match self {
            Ok(v) => {
                out.push(RETURNED);
                T::write(v, out);
            }
            Err(e) => {
                out.push(ERROR);
                <ContractError as Lower<UniFfiTag>>::write(e, out);
            }
        }
    }
}

/// Reads the arguments from the first `length` bytes of `args` (the JVM's `byte[]`), runs `f`,
/// returns the answer's bytes.
fn call<A: Answer>(env: *mut JNIEnv, args: jbyteArray, length: jint, f: impl FnOnce(&mut &[u8]) -> uniffi::Result<A>) -> jbyteArray {
    // SAFETY: `env` is the pointer the JVM passed to this native call.
    let env = unsafe { Env::new(env) };
    // The arguments are copied out first: the function may run long (a 16 MiB frame), and no
    // garbage collection should wait on a pinned array meanwhile.
    let Some(bytes) = usize::try_from(length).ok().and_then(|len| env.copy_bytes(args, len)) else {
        // An exception the JVM raised (out of memory) is left pending, never thrown over.
        if !env.exception_pending() {
            env.throw(ILLEGAL_STATE, "wirecontract: the call's arguments could not be read");
        }
        return null_mut();
    };
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut buf = &bytes[..];
        let answer = f(&mut buf).map_err(|e| e.to_string())?;
        if !buf.is_empty() {
            return Err(format!("{} bytes left after the arguments", buf.len()));
        }
        let mut out = Vec::new();
        answer.write(&mut out);
        Ok(out)
    }));
    match answered {
        Ok(Ok(out)) if jsize::try_from(out.len()).is_err() => {
            env.throw(ILLEGAL_STATE, &format!("wirecontract: the answer takes {} bytes, over a Java array's 2^31 - 1", out.len()));
            null_mut()
        }
        Ok(Ok(out)) => env.new_bytes(&out),
        Ok(Err(reason)) => {
            env.throw(ILLEGAL_STATE, &format!("wirecontract: a call's arguments were not written as its signature says: {reason}"));
            null_mut()
        }
        Err(_) => {
            env.throw(ILLEGAL_STATE, "wirecontract: a call panicked outside the function's own guard");
            null_mut()
        }
    }
}

const ILLEGAL_STATE: &str = "java/lang/IllegalStateException";

/// One JNI entry point per row: `static native byte[] <name>(byte[] args, int length)` of class
/// `dev.wirecontract.graphmind.JniCalls`, calling the uniffi-exported function of the same name.
macro_rules! calls {
    ($( $symbol:ident => $answer:ident $function:ident ( $($arg:ident: $ty:ty),* ); )*) => {$(
        #[no_mangle]
        pub extern "system" fn $symbol(env: *mut JNIEnv, _class: jclass, args: jbyteArray, length: jint) -> jbyteArray {
            call(env, args, length, |buf| {
                $( let $arg = <$ty as Lift<UniFfiTag>>::try_read(buf)?; )*
                Ok(calls!(@answer $answer crate::$function($($arg),*)))
            })
        }
    )*};
    (@answer value $e:expr) => { Value($e) };
    (@answer result $e:expr) => { $e };
}

calls! {
    Java_dev_wirecontract_graphmind_JniCalls_parseEnvelopeJson =>
        value parse_envelope_json(frame: HostString, options: Option<ParseOptions>);
    Java_dev_wirecontract_graphmind_JniCalls_parseEnvelopeJsonBytes =>
        value parse_envelope_json_bytes(frame: Vec<u8>, options: Option<ParseOptions>);
    Java_dev_wirecontract_graphmind_JniCalls_parseEnvelopesJson =>
        value parse_envelopes_json(frames: Vec<HostString>, options: Option<ParseOptions>);
    Java_dev_wirecontract_graphmind_JniCalls_parseEnvelopesJsonBytes =>
        value parse_envelopes_json_bytes(frames: Vec<Vec<u8>>, options: Option<ParseOptions>);
    Java_dev_wirecontract_graphmind_JniCalls_createEnvelope =>
        result create_envelope(message: Message, seq: i64, run_id: HostString, ts: Option<i64>, max_payload_bytes: Option<i64>);
    Java_dev_wirecontract_graphmind_JniCalls_createEnvelopeJson =>
        result create_envelope_json(message_type: HostString, payload_json: JsonText, seq: i64, run_id: HostString, ts: Option<i64>, max_payload_bytes: Option<i64>);
    Java_dev_wirecontract_graphmind_JniCalls_serializeEnvelope =>
        result serialize_envelope(envelope: Envelope);
}
