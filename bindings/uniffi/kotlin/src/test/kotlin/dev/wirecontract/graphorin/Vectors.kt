package dev.wirecontract.graphorin

import org.json.JSONObject
import java.io.File

/** One Graphorin conformance line: direction `server` or `client`, verdict `ok` or `invalid`. */
data class Vector(
    val id: String,
    val name: String,
    val direction: String,
    val frame: String,
    val expect: String,
    val variant: String?,
    val why: String,
)

/**
 * The Graphorin conformance material: the shared vectors and this repository's extra vectors
 * (every `.jsonl` file in `vectors/graphorin`). `shared/` is `<repo>/../shared` unless `WIRECONTRACT_SHARED`
 * says otherwise. Lines are read with org.json, independently of the library under test.
 */
object Vectors {
    val repo: File = File(System.getProperty("wirecontract.repo") ?: "../../..").canonicalFile
    val shared: File = (System.getenv("WIRECONTRACT_SHARED")?.let(::File) ?: File(repo.parentFile, "shared")).canonicalFile

    val all: List<Vector> by lazy { load() }
    val ok: List<Vector> by lazy { all.filter { it.expect == "ok" } }

    private fun lines(file: File): List<JSONObject> {
        check(file.isFile) { "conformance material missing: $file (set WIRECONTRACT_SHARED)" }
        return file.readLines(Charsets.UTF_8).filter { it.isNotBlank() }.map { JSONObject(it) }
    }

    private fun vector(label: String, o: JSONObject) = Vector(
        id = "$label/${o.getString("name")}",
        name = o.getString("name"),
        direction = o.getString("direction"),
        frame = o.getString("frame"),
        expect = o.getString("expect"),
        variant = if (o.isNull("variant")) null else o.getString("variant"),
        why = o.getString("why"),
    )

    private fun load(): List<Vector> {
        val shared = lines(File(shared, "vectors/graphorin/conformance.jsonl")).map { vector("conformance", it) }
        check(shared.size == 110) { "expected the 110 shared Graphorin vectors, found ${shared.size}" }
        val own = File(repo, "vectors/graphorin").listFiles { f -> f.name.endsWith(".jsonl") }.orEmpty().sortedBy { it.name }
            .flatMap { f -> lines(f).map { vector(f.nameWithoutExtension, it) } }
        check(own.size >= 50) { "our extra Graphorin vectors are missing: ${own.size}" }
        return shared + own
    }
}

/** A parsed frame of either direction, or the parse error. */
sealed interface Parsed {
    data class Server(val message: ServerMessage) : Parsed
    data class Client(val message: ClientMessage) : Parsed
    data class Failed(val error: ParseException) : Parsed
}

fun parse(direction: String, frame: String): Parsed = try {
    when (direction) {
        "server" -> Parsed.Server(parseServerMessage(frame))
        "client" -> Parsed.Client(parseClientMessage(frame))
        else -> error("unknown direction $direction")
    }
} catch (e: ParseException) {
    Parsed.Failed(e)
}

fun parseBytes(direction: String, frame: ByteArray): Parsed = try {
    when (direction) {
        "server" -> Parsed.Server(parseServerMessageBytes(frame))
        else -> Parsed.Client(parseClientMessageBytes(frame))
    }
} catch (e: ParseException) {
    Parsed.Failed(e)
}

/** Exceptions have no structural equality: compare what they carry. */
val ParseException.summary: String
    get() = when (this) {
        is ParseException.Json -> "json($reason, $offset)"
        is ParseException.Schema -> "schema($issues, $id, $replyId)"
        is ParseException.Internal -> "internal($reason)"
    }

val Parsed.summary: String
    get() = when (this) {
        is Parsed.Failed -> error.summary
        else -> toString()
    }

/** The wire name of a server variant, spelled here independently of the library. */
val ServerMessage.wire: String
    get() = when (this) {
        is ServerMessage.RpcSuccess -> "rpc-success"
        is ServerMessage.RpcFailure -> "rpc-failure"
        is ServerMessage.Subscribed -> "subscribed"
        is ServerMessage.Unsubscribed -> "unsubscribed"
        is ServerMessage.Event -> "event"
        is ServerMessage.Lifecycle -> "lifecycle"
        is ServerMessage.ErrorFrame -> "error"
        is ServerMessage.Pong -> "pong"
        is ServerMessage.ReplayMarker -> "replay-marker"
    }

/** The wire name of a client variant (its `method`), spelled here independently. */
val ClientMessage.wire: String
    get() = when (this) {
        is ClientMessage.Initialize -> "initialize"
        is ClientMessage.Subscribe -> "subscription.subscribe"
        is ClientMessage.Unsubscribe -> "subscription.unsubscribe"
        is ClientMessage.RunCancel -> "run.cancel"
        is ClientMessage.Ping -> "ping"
        is ClientMessage.CancelledNotification -> "notifications/cancelled"
    }

/** The reference's guards, by the variant they recognize. */
val serverGuards: List<Pair<String, (ServerMessage) -> Boolean>> = listOf(
    "rpc-success" to ::isRpcSuccess,
    "rpc-failure" to ::isRpcFailure,
    "subscribed" to ::isSubscribedFrame,
    "unsubscribed" to ::isUnsubscribedFrame,
    "event" to ::isEventFrame,
    "lifecycle" to ::isLifecycleFrame,
    "error" to ::isErrorFrame,
    "pong" to ::isPongFrame,
    "replay-marker" to ::isReplayMarkerFrame,
)

val clientGuards: List<Pair<String, (ClientMessage) -> Boolean>> = listOf(
    "initialize" to ::isInitializeRequest,
    "subscription.subscribe" to ::isSubscribeRequest,
    "subscription.unsubscribe" to ::isUnsubscribeRequest,
    "run.cancel" to ::isRunCancelRequest,
    "ping" to ::isPingRequest,
    "notifications/cancelled" to ::isCancelledNotification,
)

/** Runs [block] on a fresh thread whose stack is only [stackBytes] (default 256 KiB). */
fun <T> onSmallStack(stackBytes: Long = 256L * 1024, block: () -> T): T {
    var outcome: Result<T>? = null
    val t = Thread(null, { outcome = runCatching(block) }, "small-stack", stackBytes)
    t.start()
    t.join()
    return outcome!!.getOrThrow()
}
