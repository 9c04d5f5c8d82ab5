package dev.wirecontract.graphmind

import org.json.JSONObject
import java.io.File

/** One conformance line: where it came from, the frame text, the expected verdict and type. */
data class Vector(val id: String, val frame: String, val expect: String, val type: String?)

/**
 * The conformance material: shared vectors, this repository's extra vectors and every frame the
 * real graphmind-ai client sent. `shared/` is `<repo>/../shared` unless `WIRECONTRACT_SHARED`
 * says otherwise. Lines are read with org.json, independently of the library under test.
 */
object Vectors {
    val repo: File = File(System.getProperty("wirecontract.repo") ?: "../../..").canonicalFile
    val shared: File = (System.getenv("WIRECONTRACT_SHARED")?.let(::File) ?: File(repo.parentFile, "shared")).canonicalFile

    val all: List<Vector> by lazy { load() }

    private fun lines(file: File): List<JSONObject> {
        check(file.isFile) { "conformance material missing: $file (set WIRECONTRACT_SHARED)" }
        return file.readLines(Charsets.UTF_8).filter { it.isNotBlank() }.map { JSONObject(it) }
    }

    private fun vector(id: String, o: JSONObject) =
        Vector(id, o.getString("frame"), o.getString("expect"), if (o.has("type")) o.getString("type") else null)

    private fun load(): List<Vector> {
        val out = mutableListOf<Vector>()
        val files = listOf(
            "conformance" to File(shared, "vectors/graphmind/conformance.jsonl"),
            "extra" to File(repo, "vectors/graphmind/extra.jsonl"),
        )
        for ((label, file) in files) {
            lines(file).forEach { out += vector("$label/${it.getString("name")}", it) }
        }
        val captures = File(shared, "real-client").listFiles { f -> f.name.endsWith(".jsonl") }.orEmpty().sortedBy { it.name }
        check(captures.size >= 8) { "real-client captures missing in $shared" }
        for (f in captures) {
            lines(f).forEachIndexed { i, o -> out += vector("real-client/${f.nameWithoutExtension}:${i + 1}", o) }
        }
        check(out.size > 500) { "only ${out.size} vectors" }
        return out
    }
}

/** The verdict as the vector files spell it. */
val ParseResult.kind: String
    get() = when (this) {
        is ParseResult.Ok -> "ok"
        is ParseResult.UnknownType -> "unknown-type"
        is ParseResult.VersionMismatch -> "version-mismatch"
        is ParseResult.Invalid -> "invalid"
    }

/** The envelope of an `Ok` or `UnknownType` result. */
val ParseResult.envelopeOrNull: Envelope?
    get() = when (this) {
        is ParseResult.Ok -> envelope
        is ParseResult.UnknownType -> envelope
        else -> null
    }

/** Runs [block] on a fresh thread whose stack is only [stackBytes] (default 256 KiB). */
fun <T> onSmallStack(stackBytes: Long = 256L * 1024, block: () -> T): T {
    var outcome: Result<T>? = null
    val t = Thread(null, { outcome = runCatching(block) }, "small-stack", stackBytes)
    t.start()
    t.join()
    return outcome!!.getOrThrow()
}
