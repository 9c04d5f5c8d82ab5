package dev.wirecontract.graphmind

/**
 * Loads the native library for the JNI entry points (`JniCalls`), on Android: the app's
 * `jniLibs/<abi>/libwirecontract_uniffi.so`, as JNA finds it for uniffi's half. (The jar has its
 * own `NativeLibrary`, which loads the jar's copy.)
 */
internal object NativeLibrary {
    fun load() = System.loadLibrary("wirecontract_uniffi")
}
