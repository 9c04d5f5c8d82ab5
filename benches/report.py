#!/usr/bin/env python3
"""Prints the one benchmark table of scripts/bench from criterion's samples and the Python,
Node.js and Kotlin benchmarks' JSON (and simdjson's stage 1 alone, `native-*.json`, when it
ran), with each target checked (ratios from one run; the smoke corpus makes no timing claims,
so its targets print without a verdict, except the Node.js ones, which the smoke run also
measures on a small large-frame corpus and prints met/MISSED).

Usage: report.py RESULTS_DIR CRITERION_DIR CORPUS... [--node-only CORPUS...]
  --node-only  corpora only the Node.js benchmark ran on (rows and targets from its JSON)
"""

import json
import sys
from pathlib import Path

RUST_ROWS = [
    ("serde_json_value", "Rust serde_json::from_slice::<Value> (parse only)"),
    ("simd_json_borrowed", "Rust simd-json borrowed Value (parse only)"),
    ("wirecontract_str", "Rust wirecontract parse(&str)"),
    ("wirecontract_bytes", "Rust wirecontract parse(&[u8]) (+UTF-8 check)"),
]
PY_ROWS = [
    ("orjson", "Python orjson.loads (parse only)"),
    ("json", "Python json.loads (parse only)"),
    ("msgspec", "Python msgspec tagged Structs, opaque Raw (validating)"),
    ("msgspec_any", "Python msgspec tagged Structs, opaque Any (validating)"),
    ("simdjson", "Python simdjson DOM parse (SIMD, UTF-8 checked)"),
    ("pydantic", "Python pydantic v2 TypeAdapter union (validating)"),
    ("wirecontract", "Python wirecontract parse_envelope_json"),
    ("msgspec_to_builtins", "Python msgspec decode(Any) + to_builtins"),
    ("wirecontract_to_dict", "Python wirecontract parse + .to_dict()"),
    ("orjson_dumps", "Python orjson.dumps(dict) -> bytes [serialize]"),
    ("orjson_dumps_again", "Python orjson.dumps, same dicts again (UTF-8 kept) [ref]"),
    ("wirecontract_serialize", "Python serialize_envelope -> str [serialize]"),
    ("wirecontract_serialize_bytes", "Python serialize_envelope_bytes -> bytes [serialize]"),
    ("wirecontract_create_serialize", "Python create_envelope + serialize_envelope [ref]"),
    ("str_floor", "Python bytes.decode('utf-8') of those frames [str floor]"),
]

NODE_ROWS = [
    ("json_parse", "Node JSON.parse (parse only)"),
    ("zod", "Node zod 4 loose schema (reference-equivalent, validating)"),
    ("wirecontract", "Node @wirecontract/node parseEnvelopeJson"),
]

# simdjson's stage 1 alone in C++ (benches/native/simdjson_stage1.cpp), by kernel: the
# reference front end of the parse rows' floor, not an implementation of the contract.
NATIVE_ROWS = [
    ("avx2", "C++ simdjson stage 1 alone, AVX2 (index + UTF-8 only)"),
    ("best", "C++ simdjson stage 1 alone, best kernel here"),
]
KOTLIN_ROWS = [
    ("jackson_readtree", "Kotlin/JVM Jackson ObjectMapper.readTree (parse only)"),
    ("uniffi_single", "Kotlin/JVM uniffi parseEnvelopeJsonBytes, one call a frame"),
    ("uniffi_batch256", "Kotlin/JVM uniffi parseEnvelopesJsonBytes, 256 a call"),
]


def criterion_best(crit: Path, corpus: str, bench: str) -> float | None:
    """Best seconds per corpus pass over criterion's samples (flat sampling)."""
    f = crit / corpus / bench / "new" / "sample.json"
    if not f.exists():
        return None
    s = json.loads(f.read_text())
    return min(t / n for t, n in zip(s["times"], s["iters"])) / 1e9


SHRINK_ROWS = [
    ("wirecontract", "Python wirecontract graphmind.shrink_payload(dict)"),
    ("wirecontract_json", "Python wirecontract graphmind.shrink_payload_json(bytes)"),
    ("graphmind_ai", "Python graphmind-ai 0.5.1 graphmind.shrink.serialize_payload(dict)"),
]


# Issue 41's shrink targets: same-run ratios to graphmind-ai's serialize_payload, and MB/s of
# input for Rust.
SHRINK_TARGETS = [("wirecontract", 10.0), ("wirecontract_json", 15.0)]
RUST_SHRINK_MB_S = 1000.0


# Node.js rows of the shrink table (benches/node/shrink_bench.js), and its target: shrinkPayload
# at least as fast as a plain JSON.stringify of the same value.
NODE_SHRINK_ROWS = [
    ("json_stringify", "Node JSON.stringify(value) (the reference's first step)"),
    ("shrink_payload", "Node @wirecontract/node shrinkPayload(value)"),
    ("serialize_payload", "Node @wirecontract/node serializePayload(value)"),
]


def shrink_table(sh: dict, rust: "dict | None", node: "dict | None" = None) -> "list[str]":
    """Prints the payload-shrinking table (benches/python/shrink_bench.py, the Rust row of
    benches/examples/shrink_profile.rs and the Node.js rows of benches/node/shrink_bench.js, on
    the same payload); returns its target lines."""
    mb = sh["payload_bytes"] / 1e6
    header = f"| {'payload shrinking':<8} | {'implementation':<66} | {'ms/shrink':>9} | {'MB/s':>7} |"
    print(f"\npayload shrinking: one {sh['payload_bytes']:,} B {sh['type']} payload to {sh['max_bytes']:,} B, same payload, same run, best of {sh['rounds']}")
    print(header)
    print("|" + "|".join("-" * len(c) for c in header.split("|")[1:-1]) + "|")
    rows = [(label, sh["rows"].get(key)) for key, label in SHRINK_ROWS]
    if rust:
        rows.insert(0, (f"Rust wirecontract shrink_payload_json(&str) ({rust['profile']})", rust["seconds"]))
    if node:
        rows += [(label, node["rows"].get(key)) for key, label in NODE_SHRINK_ROWS]
    for label, t in rows:
        if t:
            print(f"| {f'{mb:.0f} MB':<17} | {label:<66} | {t * 1e3:>9.1f} | {sh['payload_bytes'] / t / 1e6:>7.1f} |")
    agree = "outputs agree byte for byte" if sh["agree"] else f"outputs DIFFER at character {sh['first_difference']}"
    print(f"  tier {sh['tier']}, {sh['output_bytes']:,} B out; {agree}")
    checks = []
    theirs = sh["rows"].get("graphmind_ai")
    for key, want in SHRINK_TARGETS:
        ours = sh["rows"].get(key)
        ratio = theirs / ours if ours and theirs else float("nan")
        label = dict(SHRINK_ROWS)[key].removeprefix("Python wirecontract graphmind.")
        name = f"python {label} >= {want:g}x graphmind-ai ({mb:.0f} MB)"
        checks.append(f"  {'shrink':<11} {name:<58} {ratio:6.2f}x  {'met' if ratio >= want else 'MISSED'}")
    if node:
        ratio = node["rows"]["json_stringify"] / node["rows"]["shrink_payload"]
        checks.append(f"  {'shrink':<11} {f'node shrinkPayload >= 1x JSON.stringify ({mb:.0f} MB)':<58} {ratio:6.2f}x  {'met' if ratio >= 1 else 'MISSED'}")
    if rust:
        mb_s = rust["payload_bytes"] / rust["seconds"] / 1e6
        name = f"rust shrink_payload_json >= {RUST_SHRINK_MB_S:g} MB/s ({mb:.0f} MB)"
        note = "" if rust["profile"] == "release" else " (debug build: no claim)"
        checks.append(f"  {'shrink':<11} {name:<58} {mb_s:6.0f} MB/s  {'met' if mb_s >= RUST_SHRINK_MB_S else 'MISSED'}{note}")
    return checks


# Issue 41's event-building targets: (row, anchor row, label, at least this ratio of the
# anchor's time to the row's).
EMIT_TARGETS = [
    ("wc_bytes", "orjson", "python create_envelope + serialize_envelope_bytes vs orjson.dumps", 1.0),
    ("wc_str", "orjson", "python create_envelope + serialize_envelope vs orjson.dumps", 0.8),
    ("wc_typed", "msgspec", "python gm.NodeToken + create + serialize_bytes vs msgspec", 1.0),
    ("wc_emit", "graphmind_ai_emit", "python AppSession.emit vs graphmind-ai Session.emit", 3.0),
]

EMIT_ROWS = [
    ("orjson", "orjson.dumps(envelope dict)"),
    ("wc_bytes", "wirecontract create_envelope(dict) + serialize_envelope_bytes"),
    ("wc_str", "wirecontract create_envelope(dict) + serialize_envelope"),
    ("msgspec", "msgspec Struct envelope built + encode"),
    ("wc_typed", "wirecontract gm.NodeToken(...) + create_envelope + serialize_envelope_bytes"),
    ("graphmind_ai_emit", "graphmind-ai 0.5.1 Session.emit (no viewer)"),
    ("wc_emit", "wirecontract AppSession.emit (no viewer)"),
]


def emit_table(em: dict) -> "list[str]":
    """Prints the event-building table (benches/python/emit_bench.py); returns its target lines."""
    ns = em["ns_per_event"]
    header = f"| {'implementation':<76} | {'ns/event':>9} |"
    print(f"\nbuilding and emitting events: {em['events']:,} {em['type']} events (one per token batch), same run, best of {em['rounds']}; built frames equal orjson's and msgspec's")
    print(header)
    print("|" + "|".join("-" * len(c) for c in header.split("|")[1:-1]) + "|")
    for key, label in EMIT_ROWS:
        if key in ns:
            print(f"| {label:<76} | {ns[key]:>9.0f} |")
    checks = []
    for key, anchor, label, want in EMIT_TARGETS:
        ratio = ns[anchor] / ns[key] if ns.get(key) and ns.get(anchor) else float("nan")
        checks.append(f"  {'emit':<11} {f'{label} >= {want:g}x':<68} {ratio:6.2f}x  {'met' if ratio >= want else 'MISSED'}")
    return checks


NODE_TARGETS = [
    ("node parseEnvelopeJson vs zod 4 loose schema (reference-equivalent)", "zod", 1.0),
    ("node parse vs JSON.parse (parse only)", "json_parse", None),
]


def node_only(results: Path, corpus: str, lines: list[str], checks: list[str], notes: list[str]) -> None:
    """Rows and targets of a corpus only the Node.js benchmark ran on (smoke: large-smoke)."""
    node_file = results / f"node-{corpus}.json"
    if not node_file.exists():
        return
    node = json.loads(node_file.read_text())
    frames, nbytes, rows = node["frames"], node["bytes"], node["rows"]
    for key, label in NODE_ROWS:
        t = rows.get(key)
        if t:
            lines.append(f"| {corpus:<11} | {label:<58} | {frames / t:>11,.0f} | {nbytes / t / 1e6:>8.1f} | {'n/a':>12} |")
    ours = rows.get("wirecontract")
    for name, other, want in NODE_TARGETS:
        if not ours or not rows.get(other):
            continue
        val = rows[other] / ours
        if want is None:
            verdict = "  (ceiling)"
        else:
            verdict = ("  met" if val >= want else "  MISSED") + (" (smoke: small corpus)" if "smoke" in corpus else "")
        checks.append(f"  {corpus:<11} {name:<68} {val:6.2f}x{verdict}")
    for who, ag in node["agreement"].items():
        notes.append(
            f"  {corpus:<11} {'node ' + who:<22} agree {ag['agree']:>7,}  documented label errors (seq:-1 unknown type) {ag['label_errors']:>4}  disagree {ag['disagree']}"
        )


JVM_ROWS = [
    # (row name, ours, theirs, target ratio ours/theirs, strict "<")
    ("jvm build+serialize node.token vs Jackson data class", "build_ours", "build_jackson", 3.0, False),
    ("jvm parse (one frame a call) vs Jackson readValue data class", "parse_ours", "parse_jackson", 3.0, False),
    ("jvm parse vs Jackson + networknt json-schema-validator (validating)", "parse_ours", "validate_networknt", 1.0, True),
    # The typed API of the README: uniffi's records, over JNI (issue 41 part 2).
    ("typed createEnvelope + serializeEnvelope vs Jackson data class", "build_typed", "build_jackson", 3.0, False),
    ("typed parseEnvelopeJsonBytes vs Jackson readValue data class", "parse_typed", "parse_jackson", 3.0, False),
]


def jvm_table(corpus: str, jvm: dict) -> list[str]:
    """The four JVM rows of issue 13 (benches: bindings/uniffi/kotlin/src/bench JvmBenchmarkTest):
    µs per operation, best and median pass of one JVM run, the ratio of our time to theirs
    (median pass against median pass decides), and the verdict. Printed with a verdict on the
    smoke corpus too (its passes are short: a noisier measurement of the same code)."""
    rows = jvm["rows"]

    def us(key: str, which: str) -> float:
        r = rows[key]
        return r[which] / r["n"] * 1e6

    out = [
        f"\nJVM fast path ({corpus}: {jvm['frames']:,} frames, {jvm['tokens']:,} node.token built; one JVM run, Java {jvm['java']}, "
        f"{jvm['rounds']} passes after warm-up; µs per frame/call, best | median):",
    ]
    for name, ours, theirs, want, strict in JVM_ROWS:
        rb, rm = us(ours, "best") / us(theirs, "best"), us(ours, "median") / us(theirs, "median")
        ok = rm < want if strict else rm <= want
        out.append(
            f"  {corpus:<8} {name:<68} {us(ours, 'best'):7.3f} | {us(ours, 'median'):7.3f} vs {us(theirs, 'best'):7.3f} | {us(theirs, 'median'):7.3f}"
            f"  = {rb:5.2f}x | {rm:5.2f}x  (target {'<' if strict else '<='} {want:g}x)  {'met' if ok else 'MISSED'}"
        )
    b, m = us("should_pause", "best"), us("should_pause", "median")
    out.append(f"  {corpus:<8} {'jvm shouldPause':<68} {b:7.3f} | {m:7.3f} µs a call, no FFI call (target < 1 µs)  {'met' if m < 1 else 'MISSED'}")
    out.append(
        f"  {corpus:<8} build output equal to Jackson's bytes for {jvm['build_equal_to_jackson']:,} of {jvm['tokens']:,} node.token; "
        f"networknt's accept/reject agrees with our verdict on {jvm['schema_agree']:,} of {jvm['frames']:,} frames"
    )
    return out


def main() -> None:
    args = sys.argv[3:]
    extra = args[args.index("--node-only") + 1 :] if "--node-only" in args else []
    corpora = args[: args.index("--node-only")] if "--node-only" in args else args
    results, crit = Path(sys.argv[1]), Path(sys.argv[2])
    lines = []
    checks = []
    header = f"| {'corpus':<11} | {'implementation':<58} | {'frames/s':>11} | {'MB/s':>8} | {'x serde_json':>12} |"
    lines.append(header)
    lines.append("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    agreement_notes = []
    # Printed after the agreement lines: the Node.js model, and which simdjson kernel ran.
    notes = []
    for corpus in corpora:
        py = json.loads((results / f"python-{corpus}.json").read_text())
        rust_file = results / f"rust-{corpus}.json"
        rust_meta = json.loads(rust_file.read_text()) if rust_file.exists() else None
        frames, nbytes = py["frames"], py["bytes"]
        secs: dict[str, float | None] = {}
        for key, _ in RUST_ROWS:
            secs["rust:" + key] = criterion_best(crit, corpus, key)
        for key, _ in PY_ROWS:
            secs["py:" + key] = py["rows"].get(key)
        node_file = results / f"node-{corpus}.json"
        node = json.loads(node_file.read_text()) if node_file.exists() else None
        for key, _ in NODE_ROWS:
            secs["node:" + key] = node["rows"].get(key) if node else None
        kt_file = results / f"kotlin-{corpus}.json"
        kt = json.loads(kt_file.read_text()) if kt_file.exists() else None
        for key, _ in KOTLIN_ROWS:
            secs["kt:" + key] = kt["rows"].get(key) if kt else None
        for key, _ in NATIVE_ROWS:
            native_file = results / f"native-{corpus}-{key}.json"
            native = json.loads(native_file.read_text()) if native_file.exists() else None
            # Seconds a pass, as the other rows: the tool reports µs per frame over the same frames
            # (none when it refused every frame: then it measured nothing).
            usable = native and native["frames"] == frames and native.get("refused", {}).get("stage1", 0) < frames
            secs["native:" + key] = native["stage1_us"] * native["frames"] / 1e6 if usable else None
            if native and key == "best":
                notes.append(f"  {corpus:<11} simdjson {native['simdjson']} stage 1 alone: best kernel here {native['kernel']}")
        base = secs["rust:serde_json_value"]
        for prefix, rows in (("rust:", RUST_ROWS), ("py:", PY_ROWS), ("node:", NODE_ROWS), ("kt:", KOTLIN_ROWS), ("native:", NATIVE_ROWS)):
            for key, label in rows:
                t = secs.get(prefix + key)
                if t is None:
                    continue
                n, b = frames, nbytes
                if key in ("orjson_dumps", "orjson_dumps_again", "wirecontract_create_serialize", "wirecontract_serialize", "wirecontract_serialize_bytes", "str_floor"):
                    n, b = py["serialized_frames"], py["serialized_bytes"]
                ratio = f"{base / t * n / frames:.2f}" if base else "n/a"
                lines.append(f"| {corpus:<11} | {label:<58} | {n / t:>11,.0f} | {b / t / 1e6:>8.1f} | {ratio:>12} |")

        def r(a: str, b: str) -> float | None:
            ta, tb = secs.get(a), secs.get(b)
            return tb / ta if ta and tb else None

        # The Python targets again from each row's best whole pass (bench.py's stricter
        # estimator): a target met on both is not met by the choice of estimator.
        passes = py.get("rows_best_pass", {})
        strict = [
            (label, passes[b] / passes[a])
            for label, a, b in (
                ("parse/msgspec Raw", "wirecontract", "msgspec"),
                ("parse+to_dict/msgspec", "wirecontract_to_dict", "msgspec_to_builtins"),
                ("serialize (str)/orjson", "wirecontract_serialize", "orjson_dumps"),
                ("serialize (bytes)/orjson", "wirecontract_serialize_bytes", "orjson_dumps"),
            )
            if passes.get(a) and passes.get(b)
        ]
        if strict:
            claim = "  (smoke: no claim)" if corpus == "smoke" else ""
            notes.append(f"  {corpus:<11} Python targets from the best whole pass: " + ", ".join(f"{k} {v:.2f}x" for k, v in strict) + claim)

        want_rust = 1.5 if corpus == "large" else 2.0
        targets = [
            (f"Rust parse >= {want_rust}x serde_json::Value", r("rust:wirecontract_str", "rust:serde_json_value"), want_rust),
            ("Rust parse (bytes, with UTF-8 check) vs serde_json::Value", r("rust:wirecontract_bytes", "rust:serde_json_value"), want_rust),
            ("Rust parse vs simd-json (parse-only ceiling)", r("rust:wirecontract_str", "rust:simd_json_borrowed"), None),
            ("Python parse >= 1.5x orjson.loads", r("py:wirecontract", "py:orjson"), 1.5),
            ("Python parse >= 2x msgspec (opaque as Raw)", r("py:wirecontract", "py:msgspec"), 2.0),
            ("Python parse vs simdjson DOM parse (reference)", r("py:wirecontract", "py:simdjson"), None),
            ("simdjson DOM parse vs msgspec (opaque as Raw) (reference)", r("py:simdjson", "py:msgspec"), None),
            ("simdjson stage 1 alone (AVX2) vs msgspec Raw: front-end floor", r("native:avx2", "py:msgspec"), None),
            ("simdjson stage 1 alone (best kernel) vs msgspec Raw: front-end floor", r("native:best", "py:msgspec"), None),
            ("Python parse vs simdjson stage 1 alone (AVX2): floor", r("py:wirecontract", "native:avx2"), None),
            ("Python parse >= 2x msgspec (opaque as Any)", r("py:wirecontract", "py:msgspec_any"), 2.0),
            ("Python parse >= 5x pydantic v2", r("py:wirecontract", "py:pydantic"), 5.0),
            ("Python parse + to_dict >= msgspec decode + to_builtins", r("py:wirecontract_to_dict", "py:msgspec_to_builtins"), 1.0),
            ("serialize_envelope (str) >= orjson.dumps", r("py:wirecontract_serialize", "py:orjson_dumps"), 1.0),
            ("serialize_envelope_bytes >= orjson.dumps", r("py:wirecontract_serialize_bytes", "py:orjson_dumps"), 1.0),
            ("serialize_envelope (str) vs its floor, bytes.decode alone", r("py:wirecontract_serialize", "py:str_floor"), None),
            ("str floor (bytes.decode alone) vs orjson.dumps", r("py:str_floor", "py:orjson_dumps"), None),
            ("serialize_envelope (str) vs orjson.dumps of dicts dumped before (reference)", r("py:wirecontract_serialize", "py:orjson_dumps_again"), None),
            ("create_envelope + serialize_envelope vs orjson.dumps (reference)", r("py:wirecontract_create_serialize", "py:orjson_dumps"), None),
            ("node parseEnvelopeJson vs zod 4 loose schema (reference-equivalent)", r("node:wirecontract", "node:zod"), 1.0),
            ("node parse vs JSON.parse (parse only)", r("node:wirecontract", "node:json_parse"), None),
            ("Kotlin uniffi (one call a frame) vs Jackson readTree", r("kt:uniffi_single", "kt:jackson_readtree"), None),
            ("Kotlin uniffi (batches of 256) vs Jackson readTree", r("kt:uniffi_batch256", "kt:jackson_readtree"), None),
        ]
        for name, val, want in targets:
            if val is None:
                continue
            if want is None:
                verdict = "  (ceiling)" if "JSON.parse" in name else "  (floor)" if "floor" in name else ""
                if name.endswith(" (reference)"):
                    name, verdict = name.removesuffix(" (reference)"), "  (reference)"
            elif corpus == "smoke" and not name.startswith("node "):
                verdict = "  (smoke: no claim)"
            elif corpus == "smoke":
                verdict = ("  met" if val >= want else "  MISSED") + " (smoke: small corpus)"
            else:
                verdict = "  met" if val >= want else "  MISSED"
            checks.append(f"  {corpus:<11} {name:<68} {val:6.2f}x{verdict}")
        if node:
            mv = node["model_vectors"]
            notes.append(
                f"  {corpus:<11} node zod model: {node['zod']} on Node {node['node']}, agrees with {mv['agree']} shared GraphMind vectors, disagrees with {mv['disagree']}"
            )
        mem = py.get("memory")
        if mem:
            verdict = "met" if mem["ratio"] < 3 else "MISSED"
            checks.append(f"  {corpus:<11} {'peak RSS parsing the largest frame < 3x its size':<68} {mem['ratio']:6.2f}x  {verdict} ({mem['frame_bytes']:,} B frame)")
        kt_agreement = [("kotlin uniffi", kt["agreement"])] if kt else []
        node_agreement = [(f"node {k}", v) for k, v in node["agreement"].items()] if node else []
        for who, ag in ([("rust", rust_meta)] if rust_meta else []) + [(f"python {k}", v) for k, v in py["agreement"].items()] + node_agreement + kt_agreement:
            agreement_notes.append(
                f"  {corpus:<11} {who:<22} agree {ag['agree']:>7,}  documented label errors (seq:-1 unknown type) {ag['label_errors']:>4}  disagree {ag['disagree']}"
            )
    for corpus in extra:
        node_only(results, corpus, lines, checks, agreement_notes)
    print("\n".join(lines))
    shrink_file = results / "python-shrink.json"
    if shrink_file.exists():
        rust_shrink = results / "rust-shrink.json"
        node_shrink = results / "node-shrink.json"
        checks.extend(
            shrink_table(
                json.loads(shrink_file.read_text()),
                json.loads(rust_shrink.read_text()) if rust_shrink.exists() else None,
                json.loads(node_shrink.read_text()) if node_shrink.exists() else None,
            )
        )
    emit_file = results / "python-emit.json"
    if emit_file.exists():
        checks.extend(emit_table(json.loads(emit_file.read_text())))
    print("\ntargets (ratios from this run):")
    print("\n".join(checks))
    for corpus in corpora:
        jvm_file = results / f"kotlin-jvm-{corpus}.json"
        if jvm_file.exists():
            print("\n".join(jvm_table(corpus, json.loads(jvm_file.read_text()))))
    print("\nagreement with the .labels files:")
    print("\n".join(agreement_notes))
    if notes:
        print("\n".join(notes))


if __name__ == "__main__":
    main()
