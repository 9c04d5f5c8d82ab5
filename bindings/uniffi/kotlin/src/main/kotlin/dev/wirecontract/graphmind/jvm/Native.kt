package dev.wirecontract.graphmind.jvm

import java.io.File
import java.nio.file.Files
import java.nio.file.StandardCopyOption

/**
 * The JNI entry points of the native library (`bindings/uniffi/src/jni/`), and its loading.
 *
 * The library is found, in order: the system property `wirecontract.library.path` (a file);
 * the resource `/<platform>/<libname>` of this jar (JNA's platform names: `linux-x86-64`,
 * `linux-aarch64`, `darwin-aarch64`, `win32-x86-64`), copied to a temporary file once per
 * process; else `System.loadLibrary("wirecontract_uniffi")` (Android's `jniLibs/<abi>/`,
 * `java.library.path`). The same file is then given to the uniffi (JNA) half through
 * `uniffi.component.wirecontract_uniffi.libraryOverride` unless already set, so one copy of
 * the library serves both. No `jna.library.path` is needed.
 */
internal object Native {
    /** Longs written by [parse] (`OUT_LEN` in `parse.rs`). */
    const val OUT_LEN = 8

    init {
        val file = locate()
        if (file != null) System.load(file.absolutePath) else System.loadLibrary("wirecontract_uniffi")
    }

    /** Verdict code and spans of one frame: see `parse.rs`. Never throws for bad input. */
    @JvmStatic
    external fun parse(frame: ByteArray, offset: Int, length: Int, out: LongArray): Int

    /** Builds and serializes a frame from UTF-8 parts: see `build.rs`. Throws [WireException]. */
    @JvmStatic
    external fun build(buf: ByteArray, payloadLen: Int, typeLen: Int, runIdLen: Int, seq: Long, ts: Long, hasTs: Boolean): ByteArray

    private fun platform(): String {
        val os = System.getProperty("os.name").lowercase()
        val arch = when (val a = System.getProperty("os.arch").lowercase()) {
            "amd64", "x86_64" -> "x86-64"
            "aarch64", "arm64" -> "aarch64"
            else -> a
        }
        val prefix = when {
            os.startsWith("linux") -> "linux"
            os.startsWith("mac") || os.startsWith("darwin") -> "darwin"
            os.startsWith("windows") -> "win32"
            else -> os
        }
        return "$prefix-$arch"
    }

    /** The library file to load, or `null` to leave it to `System.loadLibrary`. */
    private fun locate(): File? {
        System.getProperty("wirecontract.library.path")?.let { return File(it) }
        val name = System.mapLibraryName("wirecontract_uniffi")
        // No library for this platform in the jar: java.library.path (or Android's jniLibs),
        // whose UnsatisfiedLinkError then names the library.
        val input = Native::class.java.getResourceAsStream("/${platform()}/$name") ?: return null
        val file = Files.createTempFile("wirecontract-", "-$name").toFile()
        file.deleteOnExit()
        input.use { Files.copy(it, file.toPath(), StandardCopyOption.REPLACE_EXISTING) }
        val override = "uniffi.component.wirecontract_uniffi.libraryOverride"
        if (System.getProperty(override) == null) System.setProperty(override, file.absolutePath)
        return file
    }
}
