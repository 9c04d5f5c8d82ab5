package dev.wirecontract.graphmind

import java.nio.ByteBuffer

/**
 * How the functions routed off JNA cross (`JniCalls`; their bodies and that object are written by
 * `scripts/generators/kotlin_jni_calls.py` from `bindings/uniffi/src/jni/calls.rs`): the
 * arguments are written by uniffi's generated converters into one buffer of [args], and the
 * answer, a status byte then the value or the declared error, is read back by [answer] with the
 * same converters. One JNI call replaces JNA's call plus the `RustBuffer` allocations and frees
 * around it; the records and exceptions are uniffi's own.
 */
internal object JniTransport {
    private const val RETURNED: Byte = 0
    private const val ERROR: Byte = 1

    /** A buffer for arguments that take at most [size] bytes (uniffi's `allocationSize` sum). */
    @JvmStatic
    fun args(size: ULong): ByteBuffer {
        if (size > Int.MAX_VALUE.toULong()) {
            throw IllegalArgumentException("wirecontract: the arguments take up to $size bytes, over a Java array's 2^31 - 1")
        }
        return ByteBuffer.allocate(size.toInt())
    }

    /** The value of an answer to a function that cannot fail. */
    @JvmStatic
    fun <T> answer(bytes: ByteArray, returned: FfiConverter<T, *>): T {
        val buf = ByteBuffer.wrap(bytes)
        val status = buf.get()
        check(status == RETURNED) { "wirecontract: status $status from a function that declares no error" }
        return returned.read(buf)
    }

    /** The value of an answer, or its declared error thrown. */
    @JvmStatic
    fun <T, E : Throwable> answer(bytes: ByteArray, returned: FfiConverter<T, *>, error: FfiConverterRustBuffer<E>): T {
        val buf = ByteBuffer.wrap(bytes)
        return when (val status = buf.get()) {
            RETURNED -> returned.read(buf)
            ERROR -> throw error.read(buf)
            else -> throw IllegalStateException("wirecontract: unknown answer status $status")
        }
    }
}
