// The app-side session host for the JVM: the sans-IO AppSession (Rust, through uniffi) driven
// over the JDK's own java.net.http.WebSocket. Hand-written; compiled with the generated bindings
// by bindings/uniffi/kotlin/pom.xml. Spec: graphmind-session.md. No protocol rule lives here:
// seq, handshake, replay, gates, fail-open and heldMs are the core's; this file owns the socket,
// the clock and the waiting.
package dev.wirecontract.graphmind

import java.io.PrintWriter
import java.io.StringWriter
import java.net.URI
import java.net.http.HttpClient
import java.net.http.WebSocket
import java.security.SecureRandom
import java.util.concurrent.CancellationException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionStage
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.Executors
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.ScheduledFuture
import java.util.concurrent.TimeUnit

/**
 * Epoch milliseconds read from a monotonic clock ([System.nanoTime]), fractions kept: never
 * steps back, so hold times and deadlines survive wall-clock adjustments; resolves
 * sub-millisecond holds for `heldMs` (two decimals, spec §3.9); its whole part still makes
 * sensible frame `ts` values.
 */
class MonotonicClock {
    private val epochMs = System.currentTimeMillis().toDouble()
    private val nano0 = System.nanoTime()

    /** Now, in epoch milliseconds. */
    fun nowMs(): Double = epochMs + (System.nanoTime() - nano0) / 1_000_000.0
}

/** Thrown by an adapter when a gate answered [Decision.Abort]; [SessionHost.Run] ends the run `aborted`. */
class RunAbortedException(val runId: String?) : RuntimeException("run $runId was aborted by the viewer")

/**
 * The asyncio-style host of one [AppSession] over `java.net.http.WebSocket`.
 *
 * Lazy like the core (spec T1): nothing connects until the first [emit], [gate], [run] or
 * [ready]. While detached, events are buffered by the core and gates continue (fail-open); after
 * a drop the core reconnects (200/400/800 ms, then `retryIntervalMs`) and replays its buffer.
 * Thread-safe: every core call and every action runs under one lock; futures are completed
 * outside it, so their continuations may call back into the host.
 *
 * @param url the viewer's ingest endpoint (default `ws://127.0.0.1:4747/ingest`).
 * @param config the core's configuration (`idBase` defaults to random hex here).
 * @param onWarn called with each `Warn` action's rule key and text (default: [StderrWarnings],
 *   rate-limited, control characters escaped).
 * @param flushTimeoutMs how long [close] waits for queued frames to leave, in ms.
 * @param maxFrameBytes the largest viewer message read, in UTF-8 bytes (default 16 MiB, the
 *   contract's frame limit): a larger one is not buffered past the limit; the socket is closed
 *   with 1008 (the JDK's WebSocket cannot send 1009) and the core detaches (fail-open, then
 *   reconnect and replay).
 * @param maxQueueBytes frame text (UTF-16 units) queued for a viewer that does not read (default
 *   16 Mi): past it the socket is aborted (no close frame fits behind the stuck writes) and the
 *   core detaches; its ring replays on the next attachment. At least the ring's byte bound
 *   (`ringMaxBytes`, or the core's [defaultRingMaxBytes], 8 MiB, when the config leaves it null;
 *   else [IllegalArgumentException]): a replay queues the whole ring at once.
 * @param writeStallTimeoutMs how long one write may stay unfinished (default 30 000 ms, like
 *   `listen --slow-reader-timeout`; `0`: no limit): a viewer that reads too slowly for a write to
 *   finish by then is dropped as a queue overflow is (socket aborted, `onWarn("write-stall", …)`,
 *   the core detaches, reconnects and replays its ring), so a slow reader cannot hold the queue
 *   just under [maxQueueBytes] for ever.
 */
class SessionHost(
    url: String? = null,
    config: AppSessionConfig = AppSessionConfig(),
    private val onWarn: (rule: String, text: String) -> Unit = StderrWarnings(),
    private val flushTimeoutMs: Long = 1000,
    private val maxFrameBytes: Long = DEFAULT_MAX_FRAME_BYTES,
    private val maxQueueBytes: Long = DEFAULT_MAX_QUEUE_BYTES,
    private val writeStallTimeoutMs: Long = DEFAULT_WRITE_STALL_TIMEOUT_MS,
) : AutoCloseable {
    init {
        require(writeStallTimeoutMs >= 0) { "writeStallTimeoutMs must not be negative, got $writeStallTimeoutMs" }
        require(maxFrameBytes > 0) { "maxFrameBytes must be positive, got $maxFrameBytes" }
        require(maxQueueBytes > 0) { "maxQueueBytes must be positive, got $maxQueueBytes" }
        // A replay queues the whole ring at once: a smaller queue would drop every attachment.
        // The ring's default bound is the core's.
        val ring = config.ringMaxBytes ?: defaultRingMaxBytes()
        require(maxQueueBytes >= ring) { "maxQueueBytes ($maxQueueBytes) must be at least ringMaxBytes ($ring)" }
    }

    // The core reads the process environment (GRAPHMIND_URL, the kill switch, GRAPHMIND_LOOP_*,
    // GRAPHMIND_HIDE_*); an explicit url or config field beats it.
    private val config = config.copy(url = config.url ?: url, idBase = config.idBase ?: randomHex(3), env = config.env ?: System.getenv())

    /** The sans-IO core (state, seq, held pauses, buffered frames). */
    val core: AppSession = AppSession(this.config)

    /** The clock every input is stamped with. */
    val clock = MonotonicClock()

    private val lock = Any()
    private val http: HttpClient = HttpClient.newHttpClient()
    private val scheduler: ScheduledExecutorService = Executors.newSingleThreadScheduledExecutor { r ->
        Thread(r, "wirecontract-session-timer").apply { isDaemon = true }
    }
    private var attempt: Attempt? = null
    private val closing = mutableListOf<Attempt>()
    private val gates = HashMap<String, CompletableFuture<Decision>>()
    private val waiters = HashMap<Long, CompletableFuture<Boolean>>()
    private val aborted: MutableSet<String> = ConcurrentHashMap.newKeySet()
    private var timer: ScheduledFuture<*>? = null
    private var timerAt: Double? = null
    private var closed = false

    /** One connection attempt: the handshake future, then the open socket and its ordered send chain. */
    private inner class Attempt {
        var opening: CompletableFuture<WebSocket>? = null
        var ws: WebSocket? = null
        var chain: CompletableFuture<WebSocket>? = null
        val text = StringBuilder()
        /** UTF-8 bytes of the message being assembled in [text]. */
        var textBytes = 0L
        /** Frame text (UTF-16 units) handed to [chain] and not yet written. */
        val queued = java.util.concurrent.atomic.AtomicLong()
    }

    /**
     * Emits a typed event (spec §2.3) in [run] (`null`: the implicit run). Returns the seq taken,
     * `null` after [close]. Throws [ContractException.Build] for a payload breaking a rule or a
     * type the app may not send.
     */
    fun emit(message: Message, run: String? = null): Long? = locked { core.emit(message, run, clock.nowMs()) }

    /**
     * Queues one streamed delta of [nodeId] ([channel] `text`, `reasoning` or `tool-args`): the
     * core batches deltas into one `node.token` per node per `tokenBatchMs` window (34 ms) and
     * flushes a node's batch before its `node.finished`, at a run's end and at [close].
     */
    fun pushToken(nodeId: String, channel: String, value: String, run: String? = null): Unit =
        locked { core.pushToken(nodeId, channel, value, run, clock.nowMs()) }

    /** [emit] with the payload as JSON text, validated against [messageType]. */
    fun emitJson(messageType: String, payloadJson: String, run: String? = null): Long? =
        locked { core.emitJson(messageType, payloadJson, run, clock.nowMs()) }

    /**
     * The gate at [point] of [node] (spec §3): completes with [Decision.Continue] at once when
     * nothing pauses or the session is detached; otherwise when the viewer resumes, the pause
     * times out, the connection drops (fail-open: continue) or the host closes. Cancelling the
     * future settles the pause with `continue` (`exec.resumed` is sent). On [Decision.Abort] the
     * run is already marked aborted: throw [RunAbortedException].
     */
    fun gate(point: PausePoint, node: GateNode, run: String? = null): CompletableFuture<Decision> {
        val future = CompletableFuture<Decision>()
        val pauseId = locked {
            val id = core.gate(point, node, run, clock.nowMs())
            if (id != null) gates[id] = future
            id
        }
        if (pauseId == null) {
            future.complete(Decision.Continue)
            return future
        }
        future.whenComplete { _, error ->
            if (error is CancellationException) locked {
                gates.remove(pauseId)
                core.cancel(pauseId, clock.nowMs())
            }
        }
        return future
    }

    /**
     * Completes with `true` when attached (the `hello.ack`), `false` after [timeoutMs] (default
     * the config's `readyTimeoutMs`, 2000) or when closed. Connects now when idle (spec T22).
     */
    fun ready(timeoutMs: Long? = null): CompletableFuture<Boolean> {
        val future = CompletableFuture<Boolean>()
        locked { waiters[core.ready(clock.nowMs(), timeoutMs)] = future }
        return future
    }

    /** Whether the viewer aborted [runId] (an `AbortRun` action arrived). */
    fun isAborted(runId: String): Boolean = runId in aborted

    /**
     * Starts a run: the core emits `run.started` with the config's `app` and `sdk` and `meta` =
     * `{"name": name}` followed by the members of [metaJson] (a JSON object text; its own `name`
     * wins). End the returned [Run] with [Run.fail] or [Run.close] to send `run.finished`; the
     * block form `run(name) { run -> … }` does that for you and sees the block's exception.
     * Throws [ContractException.Build] when [metaJson] is not a JSON object.
     */
    fun run(name: String, metaJson: String? = null, runId: String = "run_" + randomHex(6)): Run {
        locked { core.startRun(runId, name, metaJson, clock.nowMs()) }
        return Run(runId, name)
    }

    /**
     * Runs [block] in a new run (`run.started` as [run] above, `runId` `null`: a random one) and
     * sends its `run.finished`: `ok` when [block] returns (its result is returned); when it
     * throws, [Run.fail] with the throwable (`error`, or `aborted` for a [RunAbortedException] or
     * a [CancellationException]), then the throwable is rethrown. `use {}` on a [Run] cannot do
     * this: [Run.close] never sees the exception, so a failing block would finish `ok`.
     */
    inline fun <T> run(name: String, metaJson: String? = null, runId: String? = null, block: (Run) -> T): T {
        val run = if (runId == null) run(name, metaJson) else run(name, metaJson, runId)
        var threw = false
        try {
            return block(run)
        } catch (e: Throwable) {
            threw = true
            // Failing to report must not hide the block's own exception.
            runCatching { run.fail(e) }.exceptionOrNull()?.let(e::addSuppressed)
            throw e
        } finally {
            if (!threw) run.close() // also on a non-local return from block
        }
    }

    /**
     * One run of this host. [fail] sends `run.finished` with `error` and the throwable (`aborted`
     * for a [RunAbortedException] or [CancellationException]); [close] sends `ok`. The core makes
     * it `aborted` whenever the viewer aborted the run. Only the first end is sent.
     */
    inner class Run internal constructor(val runId: String, val name: String) : AutoCloseable {
        // Set only once the core took the `run.finished`: an end the core refused leaves the run
        // open, so a later fail or close can still end it on the wire.
        @Volatile private var finished = false

        /** Whether the viewer aborted this run. */
        val aborted: Boolean get() = isAborted(runId)

        /** [SessionHost.emit] in this run. */
        fun emit(message: Message): Long? = this@SessionHost.emit(message, runId)

        /** [SessionHost.pushToken] in this run. */
        fun pushToken(nodeId: String, channel: String, value: String): Unit = this@SessionHost.pushToken(nodeId, channel, value, runId)

        /** [SessionHost.gate] in this run. */
        fun gate(point: PausePoint, node: GateNode): CompletableFuture<Decision> = this@SessionHost.gate(point, node, runId)

        /**
         * Ends the run with `error` and [error]'s class name, message and stack text (or
         * `aborted` for a [RunAbortedException] or a [CancellationException]). A lone surrogate
         * in that text is sent as U+FFFD (the core's rule for a run end's error info). No-op once
         * the run ended.
         */
        fun fail(error: Throwable) {
            if (finished) return
            if (error is RunAbortedException || error is CancellationException) {
                finish(RunEnd.Aborted)
                return
            }
            val stack = StringWriter().also { error.printStackTrace(PrintWriter(it)) }.toString()
            finish(RunEnd.Failed(name = error.javaClass.simpleName, message = error.message ?: "", stack = stack))
        }

        /**
         * Ends the run with `ok` (no-op once it ended), so `use {}` always ends it. It cannot see
         * an exception leaving a `use {}` block, which then also finishes `ok` (unless the viewer
         * aborted the run): prefer `SessionHost.run(name) { run -> … }`, or call [fail] yourself.
         */
        override fun close() {
            if (finished) return
            finish(RunEnd.Ok)
        }

        /** Under the host's lock, so two threads ending the run send one `run.finished`. */
        private fun finish(end: RunEnd) = locked {
            if (!finished) {
                core.finishRun(runId, end, clock.nowMs())
                finished = true
            }
        }
    }

    /**
     * Disposes the core (spec §2.5: every held gate gets `exec.resumed{continue}`, the implicit run
     * finishes, the socket closes with 1000), then waits up to `flushTimeoutMs` for queued frames.
     */
    override fun close() {
        val pending = locked {
            if (closed) return@locked emptyList<CompletableFuture<WebSocket>>()
            closed = true
            core.dispose(clock.nowMs())
            (closing + listOfNotNull(attempt)).mapNotNull { it.chain }
        }
        for (chain in pending) runCatching { chain.get(flushTimeoutMs, TimeUnit.MILLISECONDS) }
        synchronized(lock) {
            timer?.cancel(false)
            attempt?.ws?.abort()
            attempt = null
        }
        scheduler.shutdownNow()
    }

    // ---- carrying out actions ------------------------------------------------------------

    /** Runs [body] under the lock, then the actions it caused; completes futures after unlocking. */
    private fun <T> locked(body: () -> T): T {
        val completions = ArrayList<() -> Unit>()
        val result = synchronized(lock) {
            val r = body()
            pump(completions)
            r
        }
        completions.forEach { it() }
        return result
    }

    private fun pump(completions: MutableList<() -> Unit>) {
        // Until the core has nothing more to say: carrying out an action (a dropped socket)
        // can make it produce more (fail-open releases).
        while (true) {
            val actions = core.pollActions()
            if (actions.isEmpty()) break
            pumpOnce(actions, completions)
        }
        followTimer(core.pollTimeout())
    }

    private fun pumpOnce(actions: List<SessionAction>, completions: MutableList<() -> Unit>) {
        for (action in actions) {
            when (action) {
                is SessionAction.Send -> send(action.frame)
                is SessionAction.Release -> gates.remove(action.pauseId)?.let { f -> completions += { f.complete(action.decision) } }
                is SessionAction.Connect -> connect(action.url)
                is SessionAction.Close -> dropAttempt(action.code.toInt(), action.reason)
                is SessionAction.AbortRun -> aborted += action.runId
                is SessionAction.ReadySettled -> waiters.remove(action.waiter)?.let { f -> completions += { f.complete(action.attached) } }
                is SessionAction.Warn -> completions += { onWarn(action.rule, action.text) }
            }
        }
    }

    private fun followTimer(deadline: Double?) {
        if (deadline == timerAt) return
        timer?.cancel(false)
        timerAt = deadline
        timer = null
        if (deadline == null || scheduler.isShutdown) return
        val delayUs = ((deadline - clock.nowMs()) * 1000.0).coerceAtLeast(0.0).toLong()
        timer = scheduler.schedule(Runnable {
            locked {
                timerAt = null
                core.handleTimeout(clock.nowMs())
            }
        }, delayUs, TimeUnit.MICROSECONDS)
    }

    private fun send(frame: String) {
        val a = attempt ?: return
        val chain = a.chain ?: return
        val size = frame.length.toLong()
        val before = a.queued.getAndAdd(size)
        if (before > 0 && before + size > maxQueueBytes) {
            // The viewer stopped reading: give the connection up (the core replays its ring
            // on the next attachment) instead of queueing without bound.
            completionsOutsideLock { onWarn("queue-limit", "the viewer stopped reading: over $maxQueueBytes queued; connection aborted") }
            a.ws?.abort()
            abandon(a)
            return
        }
        a.chain = chain.thenCompose { ws -> watched(a, ws, ws.sendText(frame, true)) }.also { next ->
            next.whenComplete { _, error ->
                a.queued.addAndGet(-size)
                if (error != null) lost(a)
            }
        }
    }

    /**
     * [sending] with a watchdog: if it has not finished after [writeStallTimeoutMs], the viewer
     * reads too slowly; the socket is aborted and the core detaches (it reconnects and replays).
     */
    private fun watched(a: Attempt, ws: WebSocket, sending: CompletableFuture<WebSocket>): CompletableFuture<WebSocket> {
        if (writeStallTimeoutMs == 0L || sending.isDone || scheduler.isShutdown) return sending
        val watchdog = runCatching {
            scheduler.schedule(Runnable {
                if (!sending.isDone) {
                    onWarn("write-stall", "a write to the viewer stalled for $writeStallTimeoutMs ms; connection aborted")
                    ws.abort()
                    lost(a)
                }
            }, writeStallTimeoutMs, TimeUnit.MILLISECONDS)
        }.getOrNull()
        sending.whenComplete { _, _ -> watchdog?.cancel(false) }
        return sending
    }

    /** Warnings raised inside the lock run on the timer thread, never under the lock. */
    private fun completionsOutsideLock(body: () -> Unit) {
        if (!scheduler.isShutdown) runCatching { scheduler.execute(body) }
    }

    /** Under the lock: [a] is gone; the core detaches (fail-open) and schedules a reconnect. */
    private fun abandon(a: Attempt) {
        if (attempt === a) {
            attempt = null
            core.transportClosed(clock.nowMs())
        }
    }

    private fun connect(url: String) {
        val a = Attempt()
        attempt = a
        val listener = object : WebSocket.Listener {
            override fun onOpen(webSocket: WebSocket) {} // no request(1) yet: frames wait for transportOpened

            override fun onText(webSocket: WebSocket, data: CharSequence, last: Boolean): CompletionStage<*>? {
                a.textBytes += utf8Length(data)
                if (a.textBytes > maxFrameBytes) {
                    // Over the limit: stop reading and buffering, and close. `listen` and the Python
                    // hosts close with 1009; java.net.http.WebSocket refuses to send 1009 (its
                    // sendClose allows neither 1009 nor 1013), so this host closes with 1008.
                    a.text.setLength(0)
                    a.text.trimToSize()
                    onWarn("frame-limit", "a viewer message exceeded maxFrameBytes ($maxFrameBytes); closed with 1008")
                    webSocket.sendClose(1008, "message too big").whenComplete { _, _ -> webSocket.abort() }
                    locked { abandon(a) }
                    return null
                }
                a.text.append(data)
                if (last) {
                    val frame = a.text.toString()
                    a.text.setLength(0)
                    a.textBytes = 0
                    locked { if (attempt === a) core.frameReceived(frame, clock.nowMs()) }
                }
                webSocket.request(1)
                return null
            }

            override fun onBinary(webSocket: WebSocket, data: java.nio.ByteBuffer, last: Boolean): CompletionStage<*>? {
                // Binary messages are no GraphMind frames; read on without keeping them.
                webSocket.request(1)
                return null
            }

            override fun onClose(webSocket: WebSocket, statusCode: Int, reason: String): CompletionStage<*>? {
                lost(a)
                return null
            }

            override fun onError(webSocket: WebSocket, error: Throwable) = lost(a)
        }
        // A URL that is no WebSocket URL (`not a url`, `ws://[::1`, `http://…`) fails like a
        // refused connection (fail-open, retried on the core's schedule): it never throws into
        // the app's call that happened to start the attempt.
        val opening = try {
            http.newWebSocketBuilder().buildAsync(URI.create(url), listener)
        } catch (e: IllegalArgumentException) {
            attempt = null
            core.transportFailed(clock.nowMs())
            return
        }
        a.opening = opening
        opening.whenComplete { ws, error ->
            locked {
                when {
                    attempt !== a -> ws?.abort()
                    error != null -> {
                        attempt = null
                        core.transportFailed(clock.nowMs())
                    }
                    else -> {
                        a.ws = ws
                        a.chain = CompletableFuture.completedFuture(ws)
                        core.transportOpened(clock.nowMs())
                        ws.request(1)
                    }
                }
            }
        }
    }

    /** `Close`: the core is already detached; this socket's events are ignored from now on. */
    private fun dropAttempt(code: Int, reason: String) {
        val a = attempt ?: return
        attempt = null
        val chain = a.chain
        if (chain == null) {
            a.opening?.cancel(true)
            return
        }
        a.chain = chain.thenCompose { ws -> ws.sendClose(code, reason) }
        closing.removeIf { it.chain?.isDone == true }
        closing += a
    }

    private fun lost(a: Attempt) {
        locked {
            if (attempt === a) {
                attempt = null
                a.ws?.abort()
                core.transportClosed(clock.nowMs())
            }
        }
    }

    companion object {
        /** Default [maxFrameBytes]: the contract's frame limit (16 MiB). */
        const val DEFAULT_MAX_FRAME_BYTES: Long = 16L * 1024 * 1024

        /** Default [maxQueueBytes] (16 Mi UTF-16 units of queued frame text). */
        const val DEFAULT_MAX_QUEUE_BYTES: Long = 16L * 1024 * 1024

        /** Default [writeStallTimeoutMs]: 30 s, as `listen --slow-reader-timeout`. */
        const val DEFAULT_WRITE_STALL_TIMEOUT_MS: Long = 30_000

        private val random = SecureRandom()

        /** UTF-8 length of [s] (a lone surrogate counts 3, as generalized UTF-8 sends it). */
        internal fun utf8Length(s: CharSequence): Long {
            var n = 0L
            var i = 0
            while (i < s.length) {
                val c = s[i]
                n += when {
                    c.code < 0x80 -> 1
                    c.code < 0x800 -> 2
                    c.isHighSurrogate() && i + 1 < s.length && s[i + 1].isLowSurrogate() -> { i++; 4 }
                    else -> 3
                }
                i++
            }
            return n
        }

        private fun randomHex(bytes: Int): String = ByteArray(bytes).also { random.nextBytes(it) }.joinToString("") { "%02x".format(it) }
    }
}

/**
 * The default `onWarn` of [SessionHost]: one stderr line per warning, control characters (C0,
 * DEL, C1) escaped as `\xNN` so peer text cannot forge lines or drive a terminal, at most [burst]
 * lines per [intervalMs]; the lines over it are counted and reported with the next line written.
 */
class StderrWarnings(private val burst: Int = 20, private val intervalMs: Long = 10_000) : (String, String) -> Unit {
    private var windowStart = System.nanoTime()
    private var used = 0
    private var suppressed = 0L

    @Synchronized
    override fun invoke(rule: String, text: String) {
        val now = System.nanoTime()
        if (now - windowStart >= intervalMs * 1_000_000L) {
            windowStart = now
            used = 0
        }
        if (used >= burst) {
            suppressed++
            return
        }
        used++
        val note = if (suppressed > 0) " ($suppressed earlier warnings not printed: rate limit)" else ""
        suppressed = 0
        System.err.println("graphmind session: ${printable(rule)}: ${printable(text)}$note")
    }

    companion object {
        /** [s] with control characters escaped as `\xNN`. */
        fun printable(s: String): String = buildString(s.length) {
            for (c in s) {
                if (c.code < 0x20 || c.code in 0x7F..0x9F) append("\\x%02x".format(c.code)) else append(c)
            }
        }
    }
}
