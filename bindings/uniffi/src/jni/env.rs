//! Small safe wrappers over the `JNIEnv` function table (jni-sys), used by the entry points.

use jni_sys::{jbyte, jbyteArray, jlong, jlongArray, jsize, JNIEnv};
use std::ffi::CString;

/// The calling thread's `JNIEnv`, valid for the duration of one native call.
pub(super) struct Env(*mut JNIEnv);

impl Env {
    /// Wraps the `env` argument the JVM passed to a native method.
    ///
    /// # Safety
    /// `env` must be the pointer the JVM passed to the current native call.
    pub(super) unsafe fn new(env: *mut JNIEnv) -> Self {
        Env(env)
    }

    /// Length of a Java array, in elements.
    pub(super) fn array_len(&self, array: jbyteArray) -> usize {
        // SAFETY: `array` is a live local reference passed by the JVM.
        unsafe { ((**self.0).GetArrayLength.expect("GetArrayLength"))(self.0, array) as usize }
    }

    /// Runs `f` over the bytes `[offset, offset + len)` of a Java `byte[]`, pinned (no copy on
    /// HotSpot) for the duration of `f`. `f` must not call back into the JVM. `None` when the
    /// range is out of bounds or the JVM could not pin the array (out of memory).
    pub(super) fn with_bytes<R>(&self, array: jbyteArray, offset: usize, len: usize, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        let total = self.array_len(array);
        if offset > total || len > total - offset {
            return None;
        }
        // SAFETY: the critical region lasts until the matching release below, and `f` makes no
        // JNI call. `JNI_ABORT`: the array was only read, nothing is copied back.
        unsafe {
            let get = (**self.0).GetPrimitiveArrayCritical.expect("GetPrimitiveArrayCritical");
            let release = (**self.0).ReleasePrimitiveArrayCritical.expect("ReleasePrimitiveArrayCritical");
            let ptr = get(self.0, array, std::ptr::null_mut()).cast::<u8>();
            if ptr.is_null() {
                return None;
            }
            let bytes = if len == 0 { &[][..] } else { std::slice::from_raw_parts(ptr.add(offset), len) };
            // A panic inside `f` is caught by the entry point after the region is released.
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(bytes)));
            release(self.0, array, ptr.cast(), jni_sys::JNI_ABORT);
            out.ok()
        }
    }

    /// The first `len` bytes of a Java `byte[]`, copied (no critical region: the garbage
    /// collector never waits). `None` when `len` is past the array's end, or when the JVM raised
    /// an exception (out of memory), which is then pending: the caller returns without another
    /// JNI call.
    pub(super) fn copy_bytes(&self, array: jbyteArray, len: usize) -> Option<Vec<u8>> {
        if len > self.array_len(array) {
            return None;
        }
        let mut out = vec![0_u8; len];
        // SAFETY: `out` holds `len` bytes and `len` is within the array (checked above); the
        // JVM copies into it and raises ArrayIndexOutOfBoundsException itself on a bad range.
        unsafe {
            ((**self.0).GetByteArrayRegion.expect("GetByteArrayRegion"))(self.0, array, 0, len as jsize, out.as_mut_ptr().cast::<jbyte>());
        }
        (!self.exception_pending()).then_some(out)
    }

    /// Whether a Java exception is pending on this thread.
    pub(super) fn exception_pending(&self) -> bool {
        // SAFETY: ExceptionCheck is callable at any time, an exception pending or not.
        unsafe { ((**self.0).ExceptionCheck.expect("ExceptionCheck"))(self.0) == jni_sys::JNI_TRUE }
    }

    /// Copies `values` into the start of a Java `long[]` (which must be long enough).
    pub(super) fn set_longs(&self, array: jlongArray, values: &[jlong]) {
        // SAFETY: the caller passes an array of at least `values.len()` elements (checked on the
        // JVM side); a shorter one raises ArrayIndexOutOfBoundsException, not UB.
        unsafe { ((**self.0).SetLongArrayRegion.expect("SetLongArrayRegion"))(self.0, array, 0, values.len() as jsize, values.as_ptr()) }
    }

    /// A new Java `byte[]` holding `bytes`; null (with OutOfMemoryError pending) on failure.
    pub(super) fn new_bytes(&self, bytes: &[u8]) -> jbyteArray {
        // SAFETY: plain JNI allocation and copy into the new array.
        unsafe {
            let array = ((**self.0).NewByteArray.expect("NewByteArray"))(self.0, bytes.len() as jsize);
            if !array.is_null() {
                ((**self.0).SetByteArrayRegion.expect("SetByteArrayRegion"))(self.0, array, 0, bytes.len() as jsize, bytes.as_ptr().cast::<jbyte>());
            }
            array
        }
    }

    /// Raises a Java exception of class `class` (JNI name, `a/b/C`) with `message`; the native
    /// method must return right after.
    pub(super) fn throw(&self, class: &str, message: &str) {
        let class = CString::new(class).unwrap_or_default();
        // An interior NUL cannot be carried by a C string: shown as U+2400.
        let message = CString::new(message.replace('\0', "\u{2400}")).unwrap_or_default();
        // SAFETY: FindClass/ThrowNew with valid C strings; a missing class leaves
        // NoClassDefFoundError pending instead, which is still an exception.
        unsafe {
            let cls = ((**self.0).FindClass.expect("FindClass"))(self.0, class.as_ptr());
            if !cls.is_null() {
                ((**self.0).ThrowNew.expect("ThrowNew"))(self.0, cls, message.as_ptr());
            }
        }
    }
}
