package dev.wirecontract.graphmind

import dev.wirecontract.graphmind.docs.weatherAgent
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.net.InetAddress
import java.net.ServerSocket
import java.net.Socket
import java.net.URI
import java.net.http.HttpClient
import java.net.http.WebSocket
import java.nio.file.Path
import java.util.concurrent.CancellationException
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import kotlin.concurrent.thread

/**
 * The JVM session host ([SessionHost] over `java.net.http.WebSocket`) against `wirecontract
 * listen`: a pause answered with continue, one answered with an inject, a disconnect while held
 * (fail-open, then the `exec.resumed` in the reconnect's replay), and the docs' adapter; how a
 * run ends (the run block, a failure whose message holds a lone surrogate).
 */
@Timeout(60)
class SessionHostTest {
    /** `wirecontract listen` as a child process with a record file; `--exit-after-runs 1`. */
    class Listener(dir: Path, vararg flags: String) : AutoCloseable {
        val record: File = dir.resolve("record.jsonl").toFile()
        private val output = StringBuffer()
        private val proc: Process
        val url: String
        val port: Int

        init {
            val cli = System.getProperty("wirecontract.cli") ?: error("-Dwirecontract.cli is not set")
            check(File(cli).canExecute()) { "wirecontract CLI not found at $cli (40-kotlin.sh builds it)" }
            proc = ProcessBuilder(listOf(cli, "listen", "--listen", "127.0.0.1:0", "--record", record.path, "--exit-after-runs", "1") + flags)
                .redirectErrorStream(true).start()
            val reader = proc.inputStream.bufferedReader()
            val first = reader.readLine() ?: error("listener printed nothing")
            check(first.startsWith("listening on ws://")) { first }
            url = first.removePrefix("listening on ")
            port = url.substringAfterLast(':').substringBefore('/').toInt()
            thread(isDaemon = true) { reader.forEachLine { output.append(it).append('\n') } }
        }

        fun output(): String = output.toString()

        fun waitExit(): Int {
            check(proc.waitFor(10, TimeUnit.SECONDS)) { "listener did not exit:\n${output()}" }
            return proc.exitValue()
        }

        fun frames(): List<JSONObject> = record.readLines().filter { it.isNotBlank() }.map { JSONObject(it) }

        override fun close() {
            proc.destroyForcibly()
        }
    }

    /** A loopback TCP relay that can drop every connection and refuse new ones (an outage). */
    class Proxy(private val targetPort: Int) : AutoCloseable {
        private val server = ServerSocket(0, 50, InetAddress.getLoopbackAddress())
        private val sockets = CopyOnWriteArrayList<Socket>()
        @Volatile private var down = false
        @Volatile var connections = 0
        val url = "ws://127.0.0.1:${server.localPort}/ingest"

        init {
            thread(isDaemon = true) {
                while (!server.isClosed) {
                    val client = runCatching { server.accept() }.getOrNull() ?: break
                    if (down) { client.close(); continue }
                    val upstream = runCatching { Socket(InetAddress.getLoopbackAddress(), targetPort) }.getOrNull()
                    if (upstream == null) { client.close(); continue }
                    connections++
                    sockets += listOf(client, upstream)
                    for ((from, to) in listOf(client to upstream, upstream to client)) {
                        thread(isDaemon = true) {
                            runCatching { from.getInputStream().copyTo(to.getOutputStream()) }
                            runCatching { from.close() }
                            runCatching { to.close() }
                        }
                    }
                }
            }
        }

        fun goDown() {
            down = true
            sockets.forEach { runCatching { it.close() } }
            sockets.clear()
        }

        fun comeUp() {
            down = false
        }

        override fun close() {
            goDown()
            server.close()
        }
    }

    /** Generous deadlines: a busy CI machine must not turn a slow first connect into a 10 s retry. */
    private val patient = AppSessionConfig(connectTimeoutMs = 5000L, handshakeTimeoutMs = 5000L)

    private val tool = GateNode("tool:lookup", NodeKind.TOOL, "lookup", "call_1")

    private fun started(node: GateNode) =
        Message.NodeStarted(NodeStarted(nodeId = node.nodeId, kind = node.kind, name = node.name, instanceId = node.instanceId!!))

    private fun finished(node: GateNode, output: String) =
        Message.NodeFinished(NodeFinished(nodeId = node.nodeId, instanceId = node.instanceId, output = output, durationMs = 1.5, status = RunStatus.OK))

    private fun until(what: String, cond: () -> Boolean) {
        val deadline = System.nanoTime() + 10_000_000_000L
        while (!cond()) {
            check(System.nanoTime() < deadline) { "timed out waiting for $what" }
            Thread.sleep(5)
        }
    }

    private fun types(frames: List<JSONObject>, dir: String) =
        frames.filter { it.getString("dir") == dir }.map { JSONObject(it.getString("frame")).getString("type") }

    @Test
    fun pauseAndContinue(@TempDir dir: Path) {
        Listener(dir, "--break", "tool", "--on-pause", "continue").use { listener ->
            SessionHost(listener.url, patient.copy(app = "kotlin-host")).use { host ->
                assertTrue(host.ready().get(10, TimeUnit.SECONDS))
                host.run("pause").use { run ->
                    run.emit(started(tool))
                    assertEquals(Decision.Continue, run.gate(PausePoint.BEFORE, tool).get(10, TimeUnit.SECONDS))
                    assertEquals(Decision.Continue, run.gate(PausePoint.AFTER, tool).get(1, TimeUnit.SECONDS)) // not armed
                    run.emit(finished(tool, "7"))
                }
            }
            assertEquals(0, listener.waitExit())
            val frames = listener.frames()
            assertEquals(
                // The run's root node (agent:<name>) wraps the tool's.
                listOf("hello", "run.started", "node.started", "node.started", "exec.paused", "exec.resumed", "node.finished", "node.finished", "run.finished"),
                types(frames, "app->viewer"),
            )
            assertEquals(listOf("hello.ack", "exec.resume"), types(frames, "viewer->app"))
            val done = frames.map { JSONObject(it.getString("frame")) }.first { it.getString("type") == "node.finished" }.getJSONObject("payload")
            assertTrue(done.has("heldMs"))
        }
    }

    @Test
    fun resumeWithInject(@TempDir dir: Path) {
        Listener(dir, "--break", "tool:lookup", "--on-pause", """inject={"v":1}""").use { listener ->
            SessionHost(listener.url, patient).use { host ->
                assertTrue(host.ready().get(10, TimeUnit.SECONDS))
                host.run("inject").use { run ->
                    run.emit(started(tool))
                    val decision = run.gate(PausePoint.BEFORE, tool).get(10, TimeUnit.SECONDS)
                    assertEquals(Decision.Inject("""{"v":1}"""), decision)
                    run.emit(finished(tool, (decision as Decision.Inject).outputJson!!))
                }
            }
            assertEquals(0, listener.waitExit())
            val resumed = listener.frames().map { JSONObject(it.getString("frame")) }.first { it.getString("type") == "exec.resumed" }
            assertEquals("inject", resumed.getJSONObject("payload").getString("action"))
        }
    }

    @Test
    fun disconnectWhileHeld(@TempDir dir: Path) {
        var pauseId = ""
        Listener(dir, "--break", "tool", "--on-pause", "hold").use { listener ->
            Proxy(listener.port).use { proxy ->
                SessionHost(proxy.url, patient).use { host ->
                    assertTrue(host.ready().get(10, TimeUnit.SECONDS))
                    val run = host.run("fail-open")
                    run.emit(started(tool))
                    val held = run.gate(PausePoint.BEFORE, tool)
                    until("the hold") { host.core.heldPauseIds().isNotEmpty() && listener.output().contains("exec.paused") }
                    pauseId = host.core.heldPauseIds().single()
                    proxy.goDown()
                    assertEquals(Decision.Continue, held.get(10, TimeUnit.SECONDS)) // fail-open (the deadline of every wait here: a loaded CI machine once took more than 5 s)
                    assertTrue(host.core.heldPauseIds().isEmpty())
                    until("the detach") { !host.core.isAttached() }
                    assertEquals(Decision.Continue, run.gate(PausePoint.AFTER, tool).getNow(null)) // detached: no hold
                    run.emit(finished(tool, "1"))
                    proxy.comeUp()
                    assertTrue(host.ready(5000L).get(10, TimeUnit.SECONDS))
                    run.close()
                    // run.finished travels through the proxy; closing the host before it got there
                    // would race it (the listener then never sees the run end).
                    until("the run.finished") { listener.output().contains("run.finished") }
                    assertTrue(proxy.connections >= 2)
                }
            }
            assertEquals(0, listener.waitExit())
            val frames = listener.frames()
            val conns = frames.map { it.getInt("conn") }.distinct()
            assertEquals(2, conns.size)
            val second = frames.filter { it.getInt("conn") == conns[1] }
            val hello = JSONObject(second.first { it.optString("type") == "hello" }.getString("frame"))
            val resumed = frames.filter { it.optString("type") == "exec.resumed" }
            assertEquals(1, resumed.map { JSONObject(it.getString("frame")).getLong("seq") }.distinct().size)
            val first = resumed.first()
            assertEquals(conns[1], first.getInt("conn"))
            assertTrue(first.optBoolean("replayed"))
            val env = JSONObject(first.getString("frame"))
            assertEquals("continue", env.getJSONObject("payload").getString("action"))
            assertEquals(pauseId, env.getJSONObject("payload").getString("pauseId"))
            assertTrue(env.getLong("seq") < hello.getLong("seq"))
            assertTrue(hello.getJSONObject("payload").has("resumeToken"))
            assertEquals(listOf("hello.ack", "hello.ack"), types(frames, "viewer->app")) // the listener never resumed
        }
    }

    /** The payloads of the buffered frames of type [type] (nothing is attached: all stay buffered). */
    private fun buffered(core: AppSession, type: String) =
        core.bufferedFrames().map { JSONObject(it) }.filter { it.getString("type") == type }.map { it.getJSONObject("payload") }

    @Test
    fun aMalformedUrlFailsOpenInsteadOfThrowing() {
        // Before: URI.create's IllegalArgumentException escaped the first host call (run, ready).
        for (url in listOf("not a url", "ws://[::1", "http://127.0.0.1:9/ingest")) {
            SessionHost(url = url, config = AppSessionConfig(app = "demo"), onWarn = { _, _ -> }).use { host ->
                host.run("r") { run ->
                    run.emit(Message.NodeStarted(NodeStarted(nodeId = "tool:t", kind = NodeKind.TOOL, name = "t", instanceId = "i1")))
                    assertEquals(Decision.Continue, run.gate(PausePoint.BEFORE, GateNode("tool:t", NodeKind.TOOL, "t")).get(1, TimeUnit.SECONDS), url)
                }
                assertEquals(false, host.ready(50L).get(5, TimeUnit.SECONDS), url)
                assertTrue(buffered(host.core, "run.finished").isNotEmpty(), url)
            }
        }
    }

    @Test
    fun runPayloadsAreTheCores() {
        // A port nothing listens on: the host stays detached, so every frame stays in the ring.
        SessionHost(url = "ws://127.0.0.1:9/ingest", config = AppSessionConfig(app = "demo"), onWarn = { _, _ -> }).use { host ->
            host.run("plain").close()
            host.run("ticket", metaJson = """{"user":"u1","name":"inner"}""").fail(IllegalStateException("boom"))
            host.run("stopped").fail(RunAbortedException(null))
            val started = buffered(host.core, "run.started")
            assertEquals("demo", started[0].getString("app"))
            assertEquals("""{"name":"plain"}""", started[0].getJSONObject("meta").toString())
            // The meta merge is the core's: name first, the host's members after, its own name wins.
            val raw = host.core.bufferedFrames().first { it.contains("inner") }
            assertTrue(raw.contains(""""meta":{"name":"inner","user":"u1"}"""), raw)
            val finished = buffered(host.core, "run.finished")
            assertEquals(listOf("ok", "error", "aborted"), finished.map { it.getString("status") })
            val error = finished[1].getJSONObject("error")
            assertEquals("IllegalStateException", error.getString("name"))
            assertEquals("boom", error.getString("message"))
            assertTrue(error.getString("stack").contains("IllegalStateException: boom"))
            assertTrue(!finished[2].has("error"))
        }
    }

    @Test
    fun aFailureWithALoneSurrogateStillFinishesTheRun() {
        SessionHost(url = "ws://127.0.0.1:9/ingest", onWarn = { _, _ -> }).use { host ->
            val run = host.run("surrogate")
            // A JVM message may hold a lone surrogate (no UTF-8 form): the run must still end.
            run.fail(IllegalStateException("ab\uD800c"))
            run.close() // already ended: no second run.finished
            val finished = buffered(host.core, "run.finished")
            assertEquals(listOf("error"), finished.map { it.getString("status") })
            val error = finished.single().getJSONObject("error")
            assertEquals("ab\uFFFDc", error.getString("message"))
            assertTrue(error.getString("stack").contains("IllegalStateException: ab\uFFFDc"))
        }
    }

    /** Returns from inside the run block (a non-local return): the run still finishes `ok`. */
    private fun returnEarly(host: SessionHost): Int {
        host.run("early") { run -> if (run.name == "early") return 7 }
        return 0
    }

    @Test
    fun theRunBlockReportsHowItEnded() {
        SessionHost(url = "ws://127.0.0.1:9/ingest", onWarn = { _, _ -> }).use { host ->
            assertEquals(42, host.run("ok") { 42 })
            val boom = assertThrows<IllegalStateException> { host.run("boom") { throw IllegalStateException("boom") } }
            assertEquals("boom", boom.message) // rethrown as it was
            assertThrows<CancellationException> { host.run("cancelled") { throw CancellationException("stop") } }
            assertThrows<RunAbortedException> { host.run("aborted", runId = "run_a") { throw RunAbortedException("run_a") } }
            assertEquals(7, returnEarly(host))
            // The documented limit of use {}: close() cannot see the exception, the run ends ok.
            assertThrows<IllegalStateException> { host.run("legacy").use { throw IllegalStateException("unseen") } }
            val finished = buffered(host.core, "run.finished")
            assertEquals(listOf("ok", "error", "aborted", "aborted", "ok", "ok"), finished.map { it.getString("status") })
            val error = finished[1].getJSONObject("error")
            assertEquals(listOf("IllegalStateException", "boom"), listOf(error.getString("name"), error.getString("message")))
            val ids = host.core.bufferedFrames().map { JSONObject(it) }.filter { it.getString("type") == "run.finished" }.map { it.getString("runId") }
            assertEquals("run_a", ids[3])
        }
    }

    @Test
    fun runArgumentsAreCheckedByTheCore() {
        val core = AppSession(AppSessionConfig())
        val bad = org.junit.jupiter.api.assertThrows<ContractException.Build> { core.startRun("r", "n", "[1]", 1.0) }
        assertEquals(listOf("meta"), bad.issues.map { it.dottedPath() })
        assertEquals(0L, core.nextSeq())
        assertEquals(0L, core.startRun("r", "n", null, 1.0))
        // run.started 0 and the root node.started 1; the root's node.error 2 and node.finished 3.
        assertEquals(4L, core.finishRun("r", RunEnd.Failed(name = "E", message = "m", stack = null), 2.0))
        core.dispose(3.0)
        assertEquals(null, core.finishRun("r", RunEnd.Ok, 4.0))
    }

    @Test
    fun clockReadingsKeepFractionsAndBadOnesAreRefused() {
        // Spec §3.9: a sub-millisecond hold counts in heldMs (0.25 here), ts is the whole ms.
        val core = AppSession(AppSessionConfig())
        core.ready(1000.0, null)
        core.transportOpened(1000.05)
        val ack = """{"gm":1,"seq":0,"ts":1,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"v"},"capabilities":[],"breakpoints":[{"kind":"tool"}],"mode":"run"}}"""
        core.frameReceived(ack, 1000.1)
        core.emitJson("node.started", """{"nodeId":"tool:t","kind":"tool","name":"t","instanceId":"c1"}""", "r", 1000.2)
        val pause = core.gate(PausePoint.BEFORE, GateNode(nodeId = "tool:t", kind = NodeKind.TOOL, name = "t", instanceId = "c1"), "r", 1000.3)
        assertTrue(pause != null)
        core.frameReceived("""{"gm":1,"seq":1,"ts":1,"runId":"r","type":"exec.resume","payload":{"pauseId":"$pause","action":"continue"}}""", 1000.55)
        core.pollActions()
        core.emitJson("node.finished", """{"nodeId":"tool:t","instanceId":"c1","durationMs":1,"status":"ok"}""", "r", 1001.9)
        val sent = core.pollActions().filterIsInstance<SessionAction.Send>().single().frame
        assertTrue(sent.contains("\"heldMs\":0.25") && sent.contains("\"ts\":1001,"), sent)
        for (bad in listOf(Double.NaN, Double.POSITIVE_INFINITY, -0.5)) {
            val e = org.junit.jupiter.api.assertThrows<ContractException.Build> { core.handleTimeout(bad) }
            assertTrue(e.reason.startsWith("nowMs: "), e.reason)
        }
    }

    @Test
    fun docsAdapterRuns(@TempDir dir: Path) {
        Listener(dir, "--break", "tool", "--break", "llm", "--on-pause", "continue").use { listener ->
            // Warm the JDK's WebSocket stack first: the example keeps the core's 300 ms connect
            // deadline, which a cold JVM on a busy machine can miss (its retry is then 10 s away).
            HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create(listener.url), object : WebSocket.Listener {})
                .get(10, TimeUnit.SECONDS).abort()
            weatherAgent(listener.url) { city -> """{"city":"$city","tempC":21}""" }
            assertEquals(0, listener.waitExit())
            val app = types(listener.frames(), "app->viewer")
            assertEquals(2, app.count { it == "exec.paused" })
            assertEquals(2, app.count { it == "exec.resumed" })
            assertEquals("run.finished", app.last())
        }
    }

    // ---- abuse (issue 40): limits of the host ---------------------------------------------

    /**
     * A viewer message over `maxFrameBytes` is not buffered whole: the host closes with 1008
     * (java.net.http.WebSocket refuses to send 1009) and reconnects.
     */
    @Test
    fun oversizedViewerMessageIsRefused() {
        val big = "x".repeat(3 * 1024 * 1024)
        FakeViewer { conn -> conn.sendText(big, fragments = 6) }.use { viewer ->
            val warnings = CopyOnWriteArrayList<String>()
            SessionHost(viewer.url, patient, onWarn = { rule, _ -> warnings += rule }, maxFrameBytes = 1024L * 1024).use { host ->
                assertTrue(host.ready(10_000).get(15, TimeUnit.SECONDS))
                until("the 1008 close") { 1008 in viewer.closeCodes }
                assertTrue("frame-limit" in warnings, warnings.toString())
                until("a reconnect") { viewer.conns.size >= 2 }
            }
        }
    }

    /** A viewer that stops reading: the queue bound drops the connection; the core reconnects. */
    @Test
    fun viewerThatStopsReadingIsDropped() {
        FakeViewer(receiveBuffer = 16 * 1024) { conn -> conn.stopReading() }.use { viewer ->
            val warnings = CopyOnWriteArrayList<String>()
            SessionHost(viewer.url, patient.copy(ringMaxBytes = 512L * 1024), onWarn = { rule, _ -> warnings += rule }, maxQueueBytes = 1024L * 1024).use { host ->
                assertTrue(host.ready(10_000).get(15, TimeUnit.SECONDS))
                val input = "y".repeat(100_000)
                host.run("flood").use { run ->
                    for (i in 0 until 300) {
                        host.emitJson("node.started", """{"nodeId":"tool:t","kind":"tool","name":"t","instanceId":"i$i","input":"$input"}""", run.runId)
                    }
                }
                until("the drop and a reconnect") { viewer.conns.size >= 2 }
                assertTrue("queue-limit" in warnings, warnings.toString())
            }
        }
    }

    /**
     * A viewer that stops reading while the queue stays under `maxQueueBytes`: the write stalls,
     * and past `writeStallTimeoutMs` the host aborts the socket; the core reconnects.
     */
    @Test
    fun stalledWriteDropsTheConnection() {
        FakeViewer(receiveBuffer = 16 * 1024) { conn -> conn.stopReading() }.use { viewer ->
            val warnings = CopyOnWriteArrayList<String>()
            SessionHost(viewer.url, patient, onWarn = { rule, _ -> warnings += rule }, maxQueueBytes = 64L * 1024 * 1024, writeStallTimeoutMs = 500).use { host ->
                assertTrue(host.ready(10_000).get(15, TimeUnit.SECONDS))
                val input = "y".repeat(100_000)
                host.run("flood").use { run ->
                    // 4 MB: far more than the socket buffers hold, far less than the queue bound.
                    for (i in 0 until 40) {
                        host.emitJson("node.started", """{"nodeId":"tool:t","kind":"tool","name":"t","instanceId":"i$i","input":"$input"}""", run.runId)
                    }
                }
                until("the drop and a reconnect") { viewer.conns.size >= 2 }
                assertTrue("write-stall" in warnings, warnings.toString())
                assertTrue("queue-limit" !in warnings, warnings.toString())
            }
        }
    }

    /**
     * A viewer that upgrades the socket but never answers `hello`: past `handshakeTimeoutMs` the
     * core warns `handshake-timeout`, the host closes the attempt and connects again.
     */
    @Test
    fun silentViewerHitsTheHandshakeTimeout() {
        FakeViewer(ack = false).use { viewer ->
            val warnings = CopyOnWriteArrayList<String>()
            SessionHost(viewer.url, AppSessionConfig(connectTimeoutMs = 5000L, handshakeTimeoutMs = 300L), onWarn = { rule, _ -> warnings += rule }).use { host ->
                assertFalse(host.ready(1000).get(15, TimeUnit.SECONDS))
                until("the handshake-timeout warning and a second attempt ($warnings)") { "handshake-timeout" in warnings && viewer.conns.size >= 2 }
                assertFalse(host.core.isAttached())
            }
        }
    }

    /**
     * `AppSessionConfig(maxBreakpoints)` reaches the core: a `hello.ack` arming five breakpoints
     * arms the first two, with one `breakpoint-limit` warning.
     */
    @Test
    fun breakpointsPastMaxBreakpointsAreNotArmed(@TempDir dir: Path) {
        val flags = (0 until 5).flatMap { listOf("--break", "tool:b$it") }.toTypedArray()
        Listener(dir, *flags, "--on-pause", "continue").use { listener ->
            val warnings = CopyOnWriteArrayList<String>()
            SessionHost(listener.url, patient.copy(maxBreakpoints = 2L), onWarn = { rule, text -> warnings += "$rule: $text" }).use { host ->
                assertTrue(host.ready(10_000).get(15, TimeUnit.SECONDS), listener.output())
                assertEquals(listOf("b0", "b1"), host.core.breakpoints().map { it.name })
                assertEquals(listOf("breakpoint-limit: hello.ack: 3 breakpoints not armed: max_breakpoints is 2"), warnings.filter { it.startsWith("breakpoint-limit") })
            }
        }
    }

    /** The queue bound is checked against the ring's byte bound, the core's default included. */
    @Test
    fun queueBoundBelowTheRingIsRefused() {
        assertEquals(8L * 1024 * 1024, defaultRingMaxBytes())
        val explicit = assertThrows<IllegalArgumentException> {
            SessionHost(config = AppSessionConfig(ringMaxBytes = 1L shl 20), onWarn = { _, _ -> }, maxQueueBytes = 1L shl 19)
        }
        assertEquals("maxQueueBytes (524288) must be at least ringMaxBytes (1048576)", explicit.message)
        val implicit = assertThrows<IllegalArgumentException> { SessionHost(onWarn = { _, _ -> }, maxQueueBytes = 8L * 1024 * 1024 - 1) }
        assertEquals("maxQueueBytes (8388607) must be at least ringMaxBytes (8388608)", implicit.message)
        SessionHost(onWarn = { _, _ -> }, maxQueueBytes = 8L * 1024 * 1024).close()
    }

    /** The default warning printer writes at most `burst` lines per interval and counts the rest. */
    @Test
    fun stderrWarningsLimitTheirRate() {
        val saved = System.err
        val buf = java.io.ByteArrayOutputStream()
        System.setErr(java.io.PrintStream(buf, true, "UTF-8"))
        try {
            val printer = StderrWarnings(burst = 3, intervalMs = 200)
            for (i in 0 until 10) printer("flood", "$i")
            assertEquals(3, buf.toString("UTF-8").lines().count { it.isNotEmpty() })
            Thread.sleep(250)
            printer("after", "quiet")
        } finally {
            System.setErr(saved)
        }
        val lines = buf.toString("UTF-8").lines().filter { it.isNotEmpty() }
        assertEquals(4, lines.size, lines.toString())
        assertEquals("graphmind session: after: quiet (7 earlier warnings not printed: rate limit)", lines.last())
    }

    /** The default warning printer escapes control characters from the peer. */
    @Test
    fun stderrWarningsEscapeControlCharacters() {
        assertEquals("a\\x0ab\\x1b[31m\\x9b", StderrWarnings.printable("a\nb\u001b[31m\u009b"))
    }
}
