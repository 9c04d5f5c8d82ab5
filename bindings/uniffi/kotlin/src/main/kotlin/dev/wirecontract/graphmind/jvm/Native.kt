package dev.wirecontract.graphmind.jvm

import java.io.File
import java.nio.file.Files
import java.nio.file.StandardCopyOption

/**
 * The JNI entry points of the native library (`bindings/uniffi/src/jni/`), and its loading.
 *
 * The library is found, in order: the system property `wirecontract.library.path` (a file);
 * the file uniffi's JNA half is told to load (`uniffi.component.wirecontract_uniffi.libraryOverride`,
 * when it names a file) or finds on `jna.library.path`, so that both halves run the same build;
 * the resource `/<platform>/<libname>` of this jar (JNA's platform names: `linux-x86-64`,
 * `linux-aarch64`, `darwin-aarch64`, `win32-x86-64`), copied to a temporary file once per
 * process; else `System.loadLibrary("wirecontract_uniffi")` (Android's `jniLibs/<abi>/`,
 * `java.library.path`), whose failure becomes an [UnsatisfiedLinkError] naming the platform and
 * the property. The jar's copy is then given to the uniffi (JNA) half through
 * `libraryOverride` unless already set, so one copy of the library serves both when this loader
 * runs first. No `jna.library.path` is needed.
 */
internal object Native {
    /** Longs written by [parse] (`OUT_LEN` in `parse.rs`). */
    const val OUT_LEN = 8

    /** The system property naming the library file to load instead of the jar's. */
    const val LIBRARY_PATH_PROPERTY = "wirecontract.library.path"

    /** uniffi's property naming the library its JNA half loads. */
    private const val JNA_OVERRIDE_PROPERTY = "uniffi.component.wirecontract_uniffi.libraryOverride"

    init {
        val file = locate()
        if (file != null) {
            System.load(file.absolutePath)
        } else {
            try {
                System.loadLibrary("wirecontract_uniffi")
            } catch (e: UnsatisfiedLinkError) {
                throw missingPlatform(platform(), e)
            }
        }
    }

    /** Loads the library: a call runs this object's initializer (once per process). */
    internal fun load() = Unit

    /**
     * The error for a platform this jar carries no library for and `java.library.path` does not
     * hold one either: names the platform (JNA's resource directory the jar would need) and the
     * property that points at a library built by hand.
     */
    internal fun missingPlatform(platform: String, cause: Throwable?): UnsatisfiedLinkError {
        val name = System.mapLibraryName("wirecontract_uniffi")
        val err = UnsatisfiedLinkError(
            "wirecontract: this jar has no native library for platform $platform (no resource /$platform/$name; " +
                "it carries linux-x86-64, linux-aarch64, darwin-x86-64, darwin-aarch64 when built by scripts/dist), " +
                "and java.library.path has none: build the library for $platform and set -D$LIBRARY_PATH_PROPERTY=<path to $name>",
        )
        if (cause != null) err.initCause(cause)
        return err
    }

    /** Verdict code and spans of one frame: see `parse.rs`. Never throws for bad input. */
    @JvmStatic
    external fun parse(frame: ByteArray, offset: Int, length: Int, out: LongArray): Int

    /** Builds and serializes a frame from UTF-8 parts: see `build.rs`. Throws [WireException]. */
    @JvmStatic
    external fun build(buf: ByteArray, payloadLen: Int, typeLen: Int, runIdLen: Int, seq: Long, ts: Long, hasTs: Boolean): ByteArray

    internal fun platform(): String {
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
        System.getProperty(LIBRARY_PATH_PROPERTY)?.let { return File(it) }
        val name = System.mapLibraryName("wirecontract_uniffi")
        // What the JNA half loads, when it is told a file: the same build for both halves.
        System.getProperty(JNA_OVERRIDE_PROPERTY)?.let { File(it) }?.takeIf { it.isFile }?.let { return it }
        System.getProperty("jna.library.path")?.split(File.pathSeparator)?.map { File(it, name) }?.firstOrNull { it.isFile }?.let { return it }
        // No library for this platform in the jar: java.library.path (or Android's jniLibs);
        // when that fails too, init throws missingPlatform's error.
        val input = Native::class.java.getResourceAsStream("/${platform()}/$name") ?: return null
        val file = Files.createTempFile("wirecontract-", "-$name").toFile()
        file.deleteOnExit()
        input.use { Files.copy(it, file.toPath(), StandardCopyOption.REPLACE_EXISTING) }
        if (System.getProperty(JNA_OVERRIDE_PROPERTY) == null) System.setProperty(JNA_OVERRIDE_PROPERTY, file.absolutePath)
        return file
    }
}
