//! Long JavaScript strings whose characters stay in the addon's memory (V8 external strings).
//!
//! `napi_create_string_utf16` copies a string into V8's heap; a string of more than ~64 Ki
//! code units lands in V8's large-object space, where every one is a fresh `mmap` whose pages
//! the kernel zeroes on first touch and which is unmapped again at the next GC. On the large
//! corpus that page-fault work was half of the addon's time (docs/performance.md §7).
//! `node_api_create_external_string_utf16` makes a string that points at a buffer we own
//! (allocated with the system allocator), taken back by the finalizer when V8 collects the string and kept in
//! a pool for the next strings.
//!
//! The function is experimental in Node 20 (from 20.4.0) and may be absent, so it is looked up
//! by name at run time (`dlsym`), never linked: without it, [`string`] copies as before.

use std::cell::RefCell;
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

/// Buffers of collected external strings, kept for the next ones: V8 lets tens of megabytes of
/// external strings pile up between collections, and memory fresh from the kernel costs a page
/// fault and a zeroing per page, which was a third of the large-frame path (docs/performance.md).
#[derive(Default)]
struct Pool {
    bufs: Vec<Vec<u16>>,
    units: usize,
}

/// At most this many code units (2 bytes each) wait in the pool.
const POOL_MAX_UNITS: usize = 32 << 20;

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

/// An empty buffer with room for `n` units: the pool's smallest that fits and is at most twice
/// as large, else a new one.
fn take(n: usize) -> Vec<u16> {
    let found = POOL.try_with(|pool| {
        let mut pool = pool.try_borrow_mut().ok()?;
        let (at, _) = pool.bufs.iter().enumerate().filter(|(_, b)| b.capacity() >= n && b.capacity() <= 2 * n).min_by_key(|(_, b)| b.capacity())?;
        let buf = pool.bufs.swap_remove(at);
        pool.units -= buf.capacity();
        Some(buf)
    });
    found.ok().flatten().unwrap_or_else(|| Vec::with_capacity(n))
}

/// Returns a buffer to the pool, or frees it when the pool is full (or gone, at exit).
fn give(mut buf: Vec<u16>) {
    buf.clear();
    let _ = POOL.try_with(|pool| {
        if let Ok(mut pool) = pool.try_borrow_mut() {
            if pool.units + buf.capacity() <= POOL_MAX_UNITS {
                pool.units += buf.capacity();
                pool.bufs.push(std::mem::take(&mut buf));
            }
        }
    });
}

/// Takes back a buffer made by [`string`]: `data` its first unit, `hint` its capacity in units.
/// Never panics (it is called from V8's garbage collector through C).
unsafe extern "C" fn finalize(_env: sys::napi_env, data: *mut c_void, hint: *mut c_void) {
    // SAFETY: `data` and the capacity are exactly those of the `Vec` that `string` gave up,
    // and Node-API calls the finalizer once; length 0 (`u16` needs no drop).
    give(unsafe { Vec::from_raw_parts(data.cast::<u16>(), 0, hint as usize) });
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
    let mut buf = take(units.len());
    buf.extend_from_slice(units);
    let capacity = buf.capacity();
    let data = std::mem::ManuallyDrop::new(buf).as_mut_ptr();
    let mut out = std::ptr::null_mut();
    let mut copied = false;
    // SAFETY: `data` holds `len` units and stays valid until `finalize` takes it back, which
    // Node-API calls when V8 collects the string (or at once when it copied them).
    let status = unsafe { create(env, data, len, Some(finalize), capacity as *mut c_void, &raw mut out, &raw mut copied) };
    if status == sys::Status::napi_ok {
        return Ok(out);
    }
    // Refused before taking the buffer (a length Node-API does not accept): it may still
    // hold it, so it is left alone (never freed twice), and the string is copied instead.
    js_string(env, units)
}
