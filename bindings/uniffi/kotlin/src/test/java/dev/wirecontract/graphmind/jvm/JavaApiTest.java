package dev.wirecontract.graphmind.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/**
 * The JVM API from plain Java: parse, build and serialize one frame of every message type (the
 * first accepted frame of each type among the shared conformance vectors and real-client
 * captures), with {@code long} counters and no Kotlin-only construct.
 */
class JavaApiTest {
    private static File shared() {
        String env = System.getenv("WIRECONTRACT_SHARED");
        File repo = new File(System.getProperty("wirecontract.repo", "../../../.."));
        try {
            return env != null ? new File(env) : new File(repo.getCanonicalFile().getParentFile(), "shared");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Map<String, String> oneFramePerType() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        File[] files = new File(shared(), "real-client").listFiles((d, n) -> n.endsWith(".jsonl"));
        List<File> all = new java.util.ArrayList<>();
        all.add(new File(shared(), "vectors/graphmind/conformance.jsonl"));
        // This repository's own vectors: where a contract author adds a frame of a new type.
        all.add(new File(System.getProperty("wirecontract.repo", "../../../.."), "vectors/graphmind/extra.jsonl"));
        if (files != null) all.addAll(List.of(files));
        for (File f : all) {
            for (String line : Files.readAllLines(f.toPath(), StandardCharsets.UTF_8)) {
                if (line.isBlank()) continue;
                JSONObject o = new JSONObject(line);
                if (!"ok".equals(o.optString("expect"))) continue;
                Frame frame = GraphMind.parse(o.getString("frame"));
                if (frame.isOk()) out.putIfAbsent(frame.getType(), o.getString("frame"));
            }
        }
        return out;
    }

    @Test
    void parseBuildAndSerializeEveryType() throws Exception {
        Map<String, String> frames = oneFramePerType();
        assertEquals(new HashSet<>(MessageTypes.ALL), frames.keySet(), "a frame of every type");
        for (Map.Entry<String, String> e : frames.entrySet()) {
            Frame parsed = GraphMind.parse(e.getValue().getBytes(StandardCharsets.UTF_8));
            assertEquals(Verdict.OK, parsed.getVerdict(), e.getKey());
            long seq = parsed.getSeq();
            byte[] built = GraphMind.build(e.getKey(), seq, parsed.getRunId(), parsed.getPayload(), parsed.getTs());
            Frame again = GraphMind.parse(built);
            assertEquals(Verdict.OK, again.getVerdict(), e.getKey());
            assertEquals(e.getKey(), again.getType());
            assertEquals(seq, again.getSeq());
            assertEquals(new String(built, StandardCharsets.UTF_8),
                GraphMind.buildString(e.getKey(), seq, parsed.getRunId(), parsed.getPayload(), parsed.getTs()));
            // The overload without ts: now.
            assertTrue(GraphMind.parse(GraphMind.build(e.getKey(), seq, parsed.getRunId(), parsed.getPayload())).getTs() > 0);
        }
    }

    @Test
    void javaSeesLongsAndClearErrors() {
        JsonText payload = new JsonWriter().beginObject().name("mode").value(RunMode.STEP.getWire()).endObject().toJsonText();
        String frame = GraphMind.buildString("mode.set", 7L, "run-1", payload, 1L);
        assertEquals("{\"gm\":1,\"seq\":7,\"ts\":1,\"runId\":\"run-1\",\"type\":\"mode.set\",\"payload\":{\"mode\":\"step\"}}", frame);
        WireException e = assertThrows(WireException.class, () -> GraphMind.build("mode.set", -1L, "r", payload, 0L));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
        assertEquals(1L, GraphMind.PROTOCOL_VERSION);
    }

    @Test
    void matchersAndEnumsFromJava() {
        BreakpointMatcher a = new BreakpointMatcher(NodeKind.TOOL);
        BreakpointMatcher b = new BreakpointMatcher(NodeKind.TOOL, null, PausePoint.BEFORE);
        assertEquals(a, b);
        Set<BreakpointMatcher> set = new HashSet<>(List.of(a));
        assertTrue(set.contains(b));
        assertEquals(NodeKind.TOOL, NodeKind.fromWire("tool"));
        assertEquals("tool-args", TokenChannel.TOOL_ARGS.getWire());
        assertTrue(Breakpoints.shouldPause(RunMode.RUN, List.of(a), NodeKind.TOOL, "search", PausePoint.BEFORE));
    }

    /**
     * Buffer sizes of the fast path (the internal {@code Utf8} object, public to Java): computed
     * in {@code long}, so that a 716,000,000-unit string (whose {@code 3 * length} wraps to a
     * negative {@code int}: NegativeArraySizeException in {@code parse(String)},
     * ArrayIndexOutOfBoundsException in {@code build}) is sized right or refused with a
     * WireException naming the argument, without allocating gigabytes here.
     */
    @Test
    void bufferSizesDoNotOverflowInt() {
        assertEquals(2_148_000_000L, Utf8.bound(716_000_000));
        assertEquals(3L * Integer.MAX_VALUE * 3, Utf8.bound(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));
        WireException e = assertThrows(WireException.class, () -> Utf8.arraySize(Utf8.bound(716_000_000), "payload"));
        assertTrue(e.getMessage().startsWith("payload: 2148000000 bytes of UTF-8"), e.getMessage());
        assertEquals(716_000_000, Utf8.arraySize(716_000_000L, "payload"));
        // The exact length, which decides past the largest array: 1 + 2 + 3 + 4 bytes, a lone
        // surrogate 3; escaped: a quote 2, a control character 6.
        assertEquals(10L, Utf8.length("a\u00e9\u20ac\ud83d\ude00", false));
        assertEquals(3L, Utf8.length("\ud800", false));
        assertEquals(8L, Utf8.length("\"\u0001", true));
    }
}
