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

/// The characters of one external string: an anonymous memory mapping of its own, so that a
/// buffer the pool does not keep goes back to the kernel when it is dropped (`munmap`).
///
/// Buffers from the allocator did not (issue 40, item 11): a stream of large frames freed
/// hundreds of 36–252 KiB blocks in mixed sizes; glibc's malloc (its mmap threshold rises to
/// the largest block freed) and mimalloc both kept the freed memory, and the process stayed
/// +250 MiB (glibc) or +648 MiB (mimalloc) above its start after every string had been
/// collected, against +42 MiB without external strings. `test/memory.test.js` bounds it.
struct Buf(memmap2::MmapMut);

impl Buf {
    /// Room for `units` code units (at least one page).
    fn units(&self) -> usize {
        self.0.len() / 2
    }
}

/// Buffers of collected external strings, kept for the next ones: V8 lets tens of megabytes of
/// external strings pile up between collections, and memory fresh from the kernel costs a page
/// fault and a zeroing per page, which was a third of the large-frame path (docs/performance.md).
#[derive(Default)]
struct Pool {
    bufs: Vec<Buf>,
    units: usize,
}

/// At most this many code units (2 bytes each: 64 MiB) wait in the pool.
pub const POOL_MAX_UNITS: usize = 32 << 20;

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

/// A buffer with room for `n` units: the pool's smallest that fits and is at most twice as
/// large, else a new mapping; `None` when the kernel refuses one.
fn take(n: usize) -> Option<Buf> {
    let found = POOL.try_with(|pool| {
        let mut pool = pool.try_borrow_mut().ok()?;
        let (at, _) = pool.bufs.iter().enumerate().filter(|(_, b)| b.units() >= n && b.units() <= 2 * n).min_by_key(|(_, b)| b.units())?;
        let buf = pool.bufs.swap_remove(at);
        pool.units -= buf.units();
        Some(buf)
    });
    match found.ok().flatten() {
        Some(buf) => Some(buf),
        None => memmap2::MmapMut::map_anon(n.checked_mul(2)?).ok().map(Buf),
    }
}

/// Returns a buffer to the pool, or unmaps it when the pool is full (or gone, at exit).
fn give(buf: Buf) {
    let mut buf = Some(buf);
    let _ = POOL.try_with(|pool| {
        if let Ok(mut pool) = pool.try_borrow_mut() {
            let units = buf.as_ref().map_or(0, Buf::units);
            if pool.units + units <= POOL_MAX_UNITS {
                pool.units += units;
                pool.bufs.extend(buf.take());
            }
        }
    });
    drop(buf);
}

/// Takes back a buffer made by [`string`]: `hint` is its boxed [`Buf`] (`data`, its first
/// unit, is inside it). Never panics (it is called from V8's garbage collector through C).
unsafe extern "C" fn finalize(env: sys::napi_env, _data: *mut c_void, hint: *mut c_void) {
    // SAFETY: `hint` is the `Box<Buf>` that `string` gave up with `Box::into_raw`, and
    // Node-API calls the finalizer once.
    let buf = *unsafe { Box::from_raw(hint.cast::<Buf>()) };
    // A null `env`: the environment is gone (the thread's heap is being torn down).
    if !env.is_null() {
        adjust(env, -external_bytes(&buf));
    }
    give(buf);
}

/// The bytes a live string's buffer is reported to V8 as.
fn external_bytes(buf: &Buf) -> i64 {
    i64::try_from(buf.0.len()).unwrap_or(i64::MAX)
}

/// Tells V8 how much memory live external strings hold, so that its collections keep pace
/// with them (V8 does not count the buffers; without this, a stream of large frames ran to
/// several hundred MiB before a collection freed them). Callable from a finalizer run by the
/// collector (a "basic" Node-API call).
fn adjust(env: sys::napi_env, bytes: i64) {
    let mut total = 0i64;
    // SAFETY: `env` is a live environment; the status is ignored (the count is advisory).
    let _ = unsafe { sys::napi_adjust_external_memory(env, bytes, &raw mut total) };
}

/// A JavaScript string of these code units: external (one copy into a buffer V8 references)
/// from [`MIN_UNITS`] units on when the host has external strings, else copied into V8's heap.
pub fn string(env: sys::napi_env, units: &[u16]) -> napi::Result<sys::napi_value> {
    let (Some(create), true) = (create_external(), units.len() >= MIN_UNITS) else {
        return js_string(env, units);
    };
    let (Ok(len), Some(mut buf)) = (isize::try_from(units.len()), take(units.len())) else {
        return js_string(env, units);
    };
    #[allow(clippy::cast_ptr_alignment, reason = "a mapping starts on a page boundary")]
    let data = buf.0.as_mut_ptr().cast::<u16>();
    // SAFETY: the mapping is page-aligned (so aligned for u16) and holds at least
    // `units.len()` units; `units` is another allocation.
    unsafe { std::ptr::copy_nonoverlapping(units.as_ptr(), data, units.len()) };
    // The mapping's address does not move with the box that holds it.
    // Counted before the call: when Node-API copies the units it runs the finalizer (which
    // takes the count back) before returning.
    let bytes = external_bytes(&buf);
    adjust(env, bytes);
    let hint = Box::into_raw(Box::new(buf));
    let mut out = std::ptr::null_mut();
    let mut copied = false;
    // SAFETY: `data` holds `len` units and stays valid until `finalize` takes the box back,
    // which Node-API calls when V8 collects the string (or at once when it copied them).
    let status = unsafe { create(env, data, len, Some(finalize), hint.cast(), &raw mut out, &raw mut copied) };
    if status == sys::Status::napi_ok {
        return Ok(out);
    }
    // Refused before taking the buffer (a length Node-API does not accept): it may still
    // hold it, so it is left alone (never freed twice), and the string is copied instead.
    adjust(env, -bytes);
    js_string(env, units)
}
