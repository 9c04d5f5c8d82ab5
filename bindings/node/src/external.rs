//! Long JavaScript strings whose characters stay in the addon's memory (V8 external strings).
//!
//! `napi_create_string_utf16` copies a string into V8's heap; a string of more than ~64 Ki
//! code units lands in V8's large-object space, where every one is a fresh `mmap` whose pages
//! the kernel zeroes on first touch and which is unmapped again at the next GC. On the large
//! corpus that page-fault work was half of the addon's time (docs/performance.md §7).
//! `node_api_create_external_string_utf16` makes a string that points at a buffer we own
//! (allocated by mimalloc, which recycles freed memory instead of returning it to the kernel),
//! freed by the finalizer when V8 collects the string.
//!
//! The function is experimental in Node 20 (from 20.4.0) and may be absent, so it is looked up
//! by name at run time (`dlsym`), never linked: without it, [`string`] copies as before.

use std::ffi::c_void;
use std::sync::OnceLock;

use napi::sys;

use crate::js_string;

/// Strings shorter than this are copied into V8's heap (young generation, no page faults):
/// an external string costs a finalizer and a tracking record each.
pub const MIN_UNITS: usize = 16 * 1024;

/// `node_api_basic_finalize` (its `env` is a `const napi_env__*`: the same pointer ABI).
type Finalize = unsafe extern "C" fn(env: sys::napi_env, data: *mut c_void, hint: *mut c_void);

type CreateExternalUtf16 = unsafe extern "C" fn(
    env: sys::napi_env,
    str_: *const u16,
    length: isize,
    finalize: Option<Finalize>,
    finalize_hint: *mut c_void,
    result: *mut sys::napi_value,
    copied: *mut bool,
) -> sys::napi_status;

/// The host's `node_api_create_external_string_utf16`, when it has one.
fn create_external() -> Option<CreateExternalUtf16> {
    static FN: OnceLock<Option<CreateExternalUtf16>> = OnceLock::new();
    *FN.get_or_init(|| {
        if std::env::var_os("WIRECONTRACT_NODE_NO_EXTERNAL").is_some() {
            return None;
        }
        // SAFETY: `dlsym` with a NUL-terminated name; RTLD_DEFAULT searches the process,
        // whose `node` executable exports the Node-API.
        let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"node_api_create_external_string_utf16".as_ptr()) };
        if sym.is_null() {
            None
        } else {
            // SAFETY: the symbol is Node-API's function of this signature (js_native_api.h).
            Some(unsafe { std::mem::transmute::<*mut c_void, CreateExternalUtf16>(sym) })
        }
    })
}

/// Frees a buffer made by [`string`]: `data` its first unit, `hint` its length in units.
unsafe extern "C" fn finalize(_env: sys::napi_env, data: *mut c_void, hint: *mut c_void) {
    let len = hint as usize;
    // SAFETY: `data`/`len` are exactly what `Box::into_raw` gave in `string`, and Node-API
    // calls the finalizer once.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(data.cast::<u16>(), len)) });
}

/// A JavaScript string of these code units: external (one copy into a buffer V8 references)
/// from [`MIN_UNITS`] units on when the host has external strings, else copied into V8's heap.
pub fn string(env: sys::napi_env, units: &[u16]) -> napi::Result<sys::napi_value> {
    let (Some(create), true) = (create_external(), units.len() >= MIN_UNITS) else {
        return js_string(env, units);
    };
    let Ok(len) = isize::try_from(units.len()) else {
        return js_string(env, units);
    };
    let buf: Box<[u16]> = units.into();
    let n = buf.len();
    let data = Box::into_raw(buf).cast::<u16>();
    let mut out = std::ptr::null_mut();
    let mut copied = false;
    // SAFETY: `data` holds `len` units and stays valid until `finalize` frees it, which
    // Node-API calls when V8 collects the string (or at once when it copied them).
    let status = unsafe { create(env, data, len, Some(finalize), n as *mut c_void, &raw mut out, &raw mut copied) };
    if status == sys::Status::napi_ok {
        return Ok(out);
    }
    // Refused before taking the buffer (a length Node-API does not accept): it may still
    // hold it, so it is left alone (never freed twice), and the string is copied instead.
    js_string(env, units)
}
