package dev.wirecontract.graphmind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wirecontract.graphmind.jvm.Records;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The uniffi API (not only the fast path) from plain Java: every function takes and returns
 * {@code long}, never an unsigned Kotlin type, so no JVM name is mangled; a negative counter
 * is a {@code ContractException} saying "too small", never a wrapped value.
 */
class UniffiJavaTest {
    private static final String FRAME = "{\"gm\":1,\"seq\":7,\"ts\":9,\"runId\":\"r\",\"type\":\"mode.set\",\"payload\":{\"mode\":\"step\"}}";

    @Test
    void parsesBuildsAndSerializesWithLongCounters() throws Exception {
        ParseResult r = Wirecontract_uniffiKt.parseEnvelopeJson(FRAME, null);
        assertTrue(r instanceof ParseResult.Ok, r.toString());
        Envelope env = ((ParseResult.Ok) r).getEnvelope();
        long seq = env.getSeq();
        assertEquals(7L, seq);
        assertEquals(9L, env.getTs());
        assertEquals(FRAME, Wirecontract_uniffiKt.serializeEnvelope(env));

        Envelope built = Wirecontract_uniffiKt.createEnvelopeJson("mode.set", "{\"mode\":\"step\"}", 7L, "r", 9L, null);
        assertEquals(FRAME, Wirecontract_uniffiKt.serializeEnvelope(built));
        Envelope typed = Wirecontract_uniffiKt.createEnvelope(new Message.ModeSet(new ModeSet(RunMode.STEP, "{}")), 7L, "r", 9L, 524_288L);
        assertEquals(built, typed);

        List<ParseResult> batch = Wirecontract_uniffiKt.parseEnvelopesJson(List.of(FRAME, "{"), new ParseOptions(1024L, 64L));
        assertTrue(batch.get(1) instanceof ParseResult.Invalid);
        assertEquals(16L * 1024 * 1024, Wirecontract_uniffiKt.defaultMaxFrameBytes());
        assertEquals(524_288L, Wirecontract_uniffiKt.defaultMaxPayloadBytes());
        assertEquals(1L, Wirecontract_uniffiKt.shrinkPayloadJson("{\"a\":1}", 100L, "node.finished").getTier());
    }

    @Test
    void negativeAndUnsafeIntegersAreContractExceptionsNotWrapped() {
        ContractException.Build e = assertThrows(ContractException.Build.class,
            () -> Wirecontract_uniffiKt.createEnvelopeJson("mode.set", "{\"mode\":\"step\"}", -1L, "r", null, null));
        assertEquals("seq", e.getIssues().get(0).dottedPath());
        assertEquals("too small: expected integer to be >= 0, received -1", e.getIssues().get(0).getMessage());
        ContractException.Build big = assertThrows(ContractException.Build.class,
            () -> Wirecontract_uniffiKt.createEnvelope(new Message.ModeSet(new ModeSet(RunMode.RUN, "{}")), 1L, "r", 1L << 53, null));
        assertEquals("ts", big.getIssues().get(0).dottedPath());
        assertTrue(big.getIssues().get(0).getMessage().startsWith("too big"), big.getIssues().toString());
        assertThrows(ContractException.Build.class, () -> Wirecontract_uniffiKt.shrinkPayloadJson("{}", -5L, null));
        ParseResult bad = Wirecontract_uniffiKt.parseEnvelopeJson(FRAME, new ParseOptions(-1L, null));
        assertTrue(bad instanceof ParseResult.Invalid && ((ParseResult.Invalid) bad).getReason().startsWith("options.maxFrameBytes: too small"), bad.toString());
    }

    @Test
    void theCheckedEnvelopeRefusesAnInvalidCopyWhereItIsMade() throws Exception {
        dev.wirecontract.graphmind.jvm.Envelope env =
            dev.wirecontract.graphmind.jvm.Envelope.ofJson("mode.set", dev.wirecontract.graphmind.jvm.JsonText.of("{\"mode\":\"step\"}"), 7L, "r", 9L);
        assertEquals(FRAME, env.getFrame());
        assertEquals(8L, env.withSeq(8L).getSeq());
        assertThrows(ContractException.Build.class, () -> env.withSeq(-1L));
        assertThrows(ContractException.Build.class, () -> dev.wirecontract.graphmind.jvm.Envelope.from(env.getRecord().copy(
            -1L, 9L, "r", "mode.set", env.getMessage(), "{}")));
    }

    @Test
    void matchersAndSessionsFromJava() throws Exception {
        BreakpointMatcher tool = new BreakpointMatcher(NodeKind.TOOL, null, null, "{}");
        assertTrue(Wirecontract_uniffiKt.shouldPause(RunMode.RUN, List.of(tool), NodeKind.TOOL, "search", PausePoint.BEFORE));
        assertFalse(Wirecontract_uniffiKt.shouldPause(RunMode.RUN, List.of(tool), NodeKind.LLM, "m", PausePoint.BEFORE));
        ViewerSession viewer = new ViewerSession((ViewerSessionConfig) null);
        viewer.connectionOpened(1L);
        assertEquals(Received.Rejected.INSTANCE, viewer.frameReceived(1L, "{", 0L));
        assertThrows(ContractException.Build.class, () -> viewer.connectionOpened(-1L));
        assertNull(viewer.pollTimeout());
        AppSession app = new AppSession((AppSessionConfig) null);
        assertTrue(app.nextSeq() >= 0);
        assertThrows(ContractException.Build.class, () -> app.handleTimeout(-1L));
    }

    @Test
    void parseEnvelopeOfATreeWithALoneSurrogateIsInvalidNotAnException() {
        // No @Throws on parseEnvelope: it must answer, never throw (Java could not catch by type).
        JsonValue tree = new JsonValue.ObjectValue(List.of(
            new JsonMember("gm", new JsonValue.NumberValue("1")),
            new JsonMember("runId", new JsonValue.TextValue("r\uD800"))));
        ParseResult r = Wirecontract_uniffiKt.parseEnvelope(tree);
        assertTrue(r instanceof ParseResult.Invalid, r.toString());
        ParseResult.Invalid invalid = (ParseResult.Invalid) r;
        assertEquals("frame is not valid JSON: runId: lone surrogate at UTF-16 index 1: not representable in UTF-8", invalid.getReason());
        assertEquals("runId", invalid.getIssues().get(0).dottedPath());
        assertNull(invalid.getIssues().get(0).getCode());
    }

    @Test
    void graphorinRpcIdToJsonRefusesALoneSurrogateWithACatchableException() {
        dev.wirecontract.graphorin.RpcId id = new dev.wirecontract.graphorin.RpcId.StringId("\uD800");
        String reason;
        try {
            id.toJson();
            reason = null;
        } catch (dev.wirecontract.graphorin.ContractException e) {
            // javac requires this catch: toJson declares @Throws(ContractException::class).
            assertTrue(e instanceof dev.wirecontract.graphorin.ContractException.Build, e.toString());
            reason = ((dev.wirecontract.graphorin.ContractException.Build) e).getReason();
        }
        assertEquals("not a legal RpcId: lone surrogate at UTF-16 index 0: not representable in UTF-8", reason);
    }

    /** A sample argument for the Graphorin factories: an id, a count, then as {@link #sample}. */
    private static Object graphorinSample(Class<?> type, Map<Class<?>, Method> factories) throws Exception {
        if (type == dev.wirecontract.graphorin.RpcId.class) return new dev.wirecontract.graphorin.RpcId.IntId(1L);
        if (type == java.math.BigInteger.class) return java.math.BigInteger.ONE;
        if (type == String.class) return "{}";
        if (type.isEnum() || !factories.containsKey(type)) return sample(type, factories);
        Method f = factories.get(type);
        Object[] args = new Object[f.getParameterCount()];
        for (int i = 0; i < args.length; i++) args[i] = graphorinSample(f.getParameterTypes()[i], factories);
        return f.invoke(null, args);
    }

    @Test
    void everyGraphorinRecordIsConstructibleFromJava() throws Exception {
        dev.wirecontract.graphorin.ClientInfo info = dev.wirecontract.graphorin.jvm.Records.clientInfo("viewer", "1.0");
        dev.wirecontract.graphorin.InitializeParams params = dev.wirecontract.graphorin.jvm.Records.initializeParams(info);
        assertNull(params.getCapabilities());
        Map<Class<?>, Method> factories = shortestFactories(dev.wirecontract.graphorin.jvm.Records.class);
        Set<String> built = new HashSet<>();
        for (Class<?> type : factories.keySet()) {
            Object record = graphorinSample(type, factories);
            assertEquals(type, record.getClass());
            built.add(type.getSimpleName());
        }
        // One factory per record, and each record holds what a legal frame needs: every frame
        // built from samples serializes through the contract (strict frames, no extraJson).
        assertEquals(new HashSet<>(dev.wirecontract.graphorin.Wirecontract_uniffi_graphorinKt.objectTypes()), built);
        dev.wirecontract.graphorin.ServerReplayMarkerFrame marker = dev.wirecontract.graphorin.jvm.Records.serverReplayMarkerFrame(
            "s", "e", java.math.BigInteger.TWO.pow(64).subtract(java.math.BigInteger.ONE));
        assertEquals("18446744073709551615", marker.getDroppedCount().toString());
        for (Class<?> type : factories.keySet()) {
            Object frame = graphorinSample(type, factories);
            if (type == dev.wirecontract.graphorin.ClientPingRequest.class) {
                String text = dev.wirecontract.graphorin.Wirecontract_uniffi_graphorinKt.serializeClientMessage(
                    new dev.wirecontract.graphorin.ClientMessage.Ping((dev.wirecontract.graphorin.ClientPingRequest) frame));
                assertEquals("{\"v\":\"1\",\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", text);
            }
        }
    }

    private static Map<Class<?>, Method> shortestFactories() {
        return shortestFactories(Records.class);
    }

    /** The shortest factory of each record type in a generated {@code Records} object. */
    private static Map<Class<?>, Method> shortestFactories(Class<?> records) {
        Map<Class<?>, Method> out = new HashMap<>();
        for (Method m : records.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers())) continue;
            Method prev = out.get(m.getReturnType());
            if (prev == null || m.getParameterCount() < prev.getParameterCount()) out.put(m.getReturnType(), m);
        }
        return out;
    }

    /** A value of {@code type}: a sample scalar, the first enum constant, or a record built by its factory. */
    private static Object sample(Class<?> type, Map<Class<?>, Method> factories) throws Exception {
        if (type == String.class) return "x";
        if (type == long.class || type == Long.class) return 1L;
        if (type == double.class || type == Double.class) return 1.0;
        if (type == boolean.class || type == Boolean.class) return true;
        if (type == List.class) return List.of();
        if (type.isEnum()) return type.getEnumConstants()[0];
        Method f = factories.get(type);
        Object[] args = new Object[f.getParameterCount()];
        for (int i = 0; i < args.length; i++) args[i] = sample(f.getParameterTypes()[i], factories);
        return f.invoke(null, args);
    }

    @Test
    void everyRecordIsConstructibleFromJava() throws Exception {
        // Required fields only, then one optional field from the left: @JvmOverloads.
        NodeStarted started = Records.nodeStarted("n", NodeKind.TOOL, "search", "i");
        assertEquals(started, Records.nodeStarted("n", NodeKind.TOOL, "search", "i", null));
        Envelope env = Wirecontract_uniffiKt.createEnvelope(new Message.NodeStarted(started), 1L, "r", 0L, null);
        assertTrue(Wirecontract_uniffiKt.serializeEnvelope(env).contains("\"nodeId\":\"n\""));
        TokenUsage usage = Records.tokenUsage(1L, 2L, true);
        assertEquals(1L, usage.getInputTokens());

        // A walk over the generated factories: one record of every contract object type.
        Map<Class<?>, Method> factories = shortestFactories();
        Set<String> built = new HashSet<>();
        for (Class<?> type : factories.keySet()) {
            Object record = sample(type, factories);
            assertEquals(type, record.getClass());
            built.add(type.getSimpleName());
        }
        assertEquals(new HashSet<>(Wirecontract_uniffiKt.objectTypes()), built);
    }
}
