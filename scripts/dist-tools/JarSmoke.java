import dev.wirecontract.graphmind.Envelope;
import dev.wirecontract.graphmind.ParseResult;
import dev.wirecontract.graphmind.Shrunk;
import dev.wirecontract.graphmind.Wirecontract_uniffiKt;
import dev.wirecontract.graphmind.jvm.Frame;
import dev.wirecontract.graphmind.jvm.GraphMind;
import dev.wirecontract.graphorin.ClientMessage;
import dev.wirecontract.graphorin.ParseException;
import dev.wirecontract.graphorin.ServerMessage;
import dev.wirecontract.graphorin.Wirecontract_uniffi_graphorinKt;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The smoke suite of the jar, run with only the jar and its two dependencies (JNA, the Kotlin
 * standard library) on the class path, natively or under qemu:
 *
 *   java -cp JAR:JNA:KOTLIN:DIR JarSmoke VECTORS     (VECTORS: written by scripts/lib/dist-run.sh)
 *   java -cp ... JarSmoke --expect-missing PLATFORM  (a jar without this platform's library)
 *
 * 1. Every shared GraphMind vector's verdict (and type), through the uniffi API (JNA) and the JVM
 *    fast path (JNI): both halves load the same library file.
 * 2. Every shared Graphorin vector's verdict and variant; each accepted frame serialized and
 *    parsed back equal.
 * 3. One frame of each GraphMind message type (the first accepted vector's message) built with
 *    createEnvelope, serialized and parsed back equal.
 * 4. Every shared shrink vector's text and tier.
 * With --expect-missing: loading fails with an UnsatisfiedLinkError naming the platform and the
 * override property (wirecontract.library.path).
 *
 * The vectors arrive as tab-separated base64 (UTF-16BE, so lone surrogates survive) fields: Java
 * has no JSON reader of its own and the library is what is under test.
 */
public final class JarSmoke {
    private static String text(String b64) {
        return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_16BE);
    }

    private static void fail(String msg) {
        System.out.println("jar smoke: FAILED: " + msg);
        System.exit(1);
    }

    private static String kind(ParseResult r) {
        if (r instanceof ParseResult.Ok) return "ok";
        if (r instanceof ParseResult.UnknownType) return "unknown-type";
        if (r instanceof ParseResult.VersionMismatch) return "version-mismatch";
        return "invalid";
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--expect-missing")) {
            try {
                GraphMind.INSTANCE.parse("{}");
            } catch (UnsatisfiedLinkError e) {
                String m = String.valueOf(e.getMessage());
                if (!m.contains(args[1]) || !m.contains("wirecontract.library.path")) {
                    fail("the error does not name the platform " + args[1] + " and wirecontract.library.path: " + m);
                }
                System.out.println("jar smoke: a jar without " + args[1] + " refuses to load: " + m);
                return;
            }
            fail("loaded a library for " + args[1] + " from a jar without one");
        }
        System.out.println("jar smoke: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
            + " on " + System.getProperty("os.arch"));
        int gm = 0, go = 0, shrink = 0;
        Map<String, Envelope> firstOk = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "gm": {
                    String name = text(f[1]), expect = text(f[2]), type = text(f[3]), frame = text(f[4]);
                    ParseResult r = Wirecontract_uniffiKt.parseEnvelopeJson(frame, null);
                    if (!kind(r).equals(expect)) fail("graphmind " + name + ": " + kind(r) + ", expected " + expect);
                    Frame fast = GraphMind.INSTANCE.parse(frame);
                    if (!fast.getVerdict().getWire().equals(expect)) {
                        fail("graphmind " + name + " (JNI): " + fast.getVerdict().getWire() + ", expected " + expect);
                    }
                    if (r instanceof ParseResult.Ok) {
                        Envelope env = ((ParseResult.Ok) r).getEnvelope();
                        if (!env.getMessageType().equals(type)) fail("graphmind " + name + ": type " + env.getMessageType());
                        firstOk.putIfAbsent(type, env);
                    }
                    gm++;
                    break;
                }
                case "go": {
                    String name = text(f[1]), expect = text(f[2]), variant = text(f[3]), direction = text(f[4]), frame = text(f[5]);
                    try {
                        if (direction.equals("server")) {
                            ServerMessage m = Wirecontract_uniffi_graphorinKt.parseServerMessage(frame);
                            if (!m.variant().wireValue().equals(variant)) fail("graphorin " + name + ": variant " + m.variant().wireValue());
                            String s = Wirecontract_uniffi_graphorinKt.serializeServerMessage(m);
                            if (!Wirecontract_uniffi_graphorinKt.parseServerMessage(s).equals(m)) fail("graphorin " + name + ": round trip differs");
                        } else {
                            ClientMessage m = Wirecontract_uniffi_graphorinKt.parseClientMessage(frame);
                            if (!m.variant().wireValue().equals(variant)) fail("graphorin " + name + ": variant " + m.variant().wireValue());
                            String s = Wirecontract_uniffi_graphorinKt.serializeClientMessage(m);
                            if (!Wirecontract_uniffi_graphorinKt.parseClientMessage(s).equals(m)) fail("graphorin " + name + ": round trip differs");
                        }
                        if (!expect.equals("ok")) fail("graphorin " + name + ": accepted, expected " + expect);
                    } catch (ParseException e) {
                        if (expect.equals("ok")) fail("graphorin " + name + ": refused: " + e);
                    }
                    go++;
                    break;
                }
                case "shrink": {
                    String name = text(f[1]), payload = text(f[2]), type = text(f[4]), want = text(f[5]);
                    long max = Long.parseLong(text(f[3]));
                    long tier = Long.parseLong(text(f[6]));
                    Shrunk s = Wirecontract_uniffiKt.shrinkPayloadJson(payload, max, type.isEmpty() ? null : type);
                    if (s.getTier() != tier || !s.getJson().equals(want)) fail("shrink " + name + ": tier " + s.getTier());
                    shrink++;
                    break;
                }
                default:
                    fail("unknown line kind " + f[0]);
            }
        }
        System.out.println("jar smoke: " + gm + " GraphMind vectors give their verdicts (uniffi and JNI)");
        System.out.println("jar smoke: " + go + " Graphorin vectors give their verdicts; accepted ones round-trip");
        List<String> types = Wirecontract_uniffiKt.messageTypes();
        for (String t : types) {
            Envelope src = firstOk.get(t);
            if (src == null) fail("no accepted vector of type " + t);
            Envelope built = Wirecontract_uniffiKt.createEnvelope(src.getMessage(), 7L, "run_smoke", 1L, null);
            String s = Wirecontract_uniffiKt.serializeEnvelope(built);
            ParseResult back = Wirecontract_uniffiKt.parseEnvelopeJson(s, null);
            if (!(back instanceof ParseResult.Ok) || !((ParseResult.Ok) back).getEnvelope().equals(built)) {
                fail(t + ": built, serialized and parsed back differs");
            }
        }
        System.out.println("jar smoke: " + types.size() + " message types built, serialized and parsed back");
        System.out.println("jar smoke: " + shrink + " shrink vectors give their text and tier");
        if (gm == 0 || go == 0 || shrink == 0) fail("no vectors read");
        System.out.println("jar smoke: all passed");
    }
}
