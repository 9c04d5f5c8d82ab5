// Written by scripts/generators/kotlin_jni_calls.py from bindings/uniffi/src/jni/calls.rs. Do not edit.
package dev.wirecontract.graphmind

/**
 * The JNI entry points of the functions routed off JNA (their bodies in wirecontract_uniffi.kt):
 * each takes the arguments as uniffi's converters wrote them (`length` bytes of `args`) and
 * answers a status byte then the return value or the error (`JniTransport`).
 */
internal object JniCalls {
    init {
        NativeLibrary.load()
    }

    @JvmStatic external fun parseEnvelopeJson(args: ByteArray, length: Int): ByteArray
    @JvmStatic external fun parseEnvelopeJsonBytes(args: ByteArray, length: Int): ByteArray
    @JvmStatic external fun parseEnvelopesJson(args: ByteArray, length: Int): ByteArray
    @JvmStatic external fun parseEnvelopesJsonBytes(args: ByteArray, length: Int): ByteArray
    @JvmStatic external fun createEnvelope(args: ByteArray, length: Int): ByteArray
    @JvmStatic external fun createEnvelopeJson(args: ByteArray, length: Int): ByteArray
    @JvmStatic external fun serializeEnvelope(args: ByteArray, length: Int): ByteArray
}
