package dev.wirecontract.graphmind

/**
 * Loads the native library for the JNI entry points (`JniCalls`), on the JVM: the jar's own
 * copy, found as `jvm.Native` finds it (the same file then serves uniffi's JNA half). The
 * Android library has its own `NativeLibrary` (`System.loadLibrary`).
 */
internal object NativeLibrary {
    fun load() = dev.wirecontract.graphmind.jvm.Native.load()
}
