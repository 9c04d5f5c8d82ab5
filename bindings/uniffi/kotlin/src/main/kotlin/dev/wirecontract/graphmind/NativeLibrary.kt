package dev.wirecontract.graphmind

/**
 * Loads the native library for the JNI entry points (`JniCalls`), on the JVM, as `jvm.Native`
 * finds it: the file JNA is told to load when there is one, else the jar's own copy (then handed
 * to JNA too, when JNA has not loaded one already). The Android library has its own
 * `NativeLibrary` (`System.loadLibrary`).
 */
internal object NativeLibrary {
    fun load() = dev.wirecontract.graphmind.jvm.Native.load()
}
