"""Routes the typed Kotlin API's hot functions through JNI instead of JNA.

Usage: kotlin_jni_calls.py CALLS_RS KOTLIN_DIR (called by scripts/generators/uniffi.sh after
uniffi-bindgen wrote KOTLIN_DIR).

CALLS_RS (bindings/uniffi/src/jni/calls.rs) exports one JNI entry point per routed function,
`Java_dev_wirecontract_graphmind_JniCalls_<name>`. For each <name>, the top-level function of
that name in uniffi's `wirecontract_uniffi.kt` keeps its signature and documentation; only its
body changes: the arguments are written by the same `FfiConverter`s uniffi's body lowers them
with, into one buffer that crosses through `JniCalls.<name>`, and the answer is read by the
return value's (and the error's) converter (`JniTransport.kt`, in the jar and the AAR). The `JniCalls`
object itself is written into `jni_calls.kt` beside it.

uniffi's body is recognised by shape (pinned uniffi version): `return <Converter>.lift(`, then
`uniffiRustCall()` or `uniffiRustCallWithError(<Exception>)`, then one `<Converter>.lower(`arg`)`
per argument. Anything else (a function not found, a body of another shape, a routed function
without a return value) stops generation with a message.
"""

import re
import sys
from pathlib import Path

PACKAGE = "dev.wirecontract.graphmind"


def routed(calls_rs: str) -> list[str]:
    names = re.findall(r"\bJava_dev_wirecontract_graphmind_JniCalls_(\w+)\b", calls_rs)
    if not names:
        sys.exit("kotlin_jni_calls: no JniCalls entry point in the Rust file")
    return list(dict.fromkeys(names))


def rewrite(kotlin: str, name: str) -> str:
    # uniffi writes a top-level function at an indent of four, its doc comment's `*/` sometimes
    # on the same line.
    head = re.compile(r"^[ \t]*(?:\*/ )?(?:@Throws\(\w+::class\) )?fun `" + re.escape(name) + r"`\(.*\)(?:: (?P<ret>.+?))? \{\n", re.M)
    found = list(head.finditer(kotlin))
    if len(found) != 1:
        sys.exit(f"kotlin_jni_calls: `{name}` found {len(found)} times in uniffi's Kotlin, not once")
    m = found[0]
    if not m.group("ret"):
        sys.exit(f"kotlin_jni_calls: `{name}` returns nothing; routed functions return a value")
    indent = "    "
    end = kotlin.find("\n" + indent + "}\n", m.end())
    if end < 0:
        sys.exit(f"kotlin_jni_calls: the body of `{name}` has no closing brace at its indent")
    body = kotlin[m.end() : end]
    ret = re.search(r"return (FfiConverter\w+)\.lift\(", body)
    error = re.search(r"uniffiRustCallWithError\((\w+)\)", body)
    plain = re.search(r"uniffiRustCall\(\)", body)
    args = re.findall(r"(FfiConverter\w+)\.lower\((`\w+`)\)", body)
    params = re.findall(r"(`\w+`): ", m.group(0).split("(", 1)[1])
    if not ret or bool(error) == bool(plain) or [a for _, a in args] != params:
        sys.exit(f"kotlin_jni_calls: the body of `{name}` is not of the shape uniffi 0.32 writes")
    i = indent + "    "
    lines = [f"{i}// JNI, not JNA (bindings/uniffi/src/jni/calls.rs): the same converters, one crossing."]
    size = " + ".join(f"{conv}.allocationSize({arg})" for conv, arg in args) or "0UL"
    lines.append(f"{i}val uniffiArgs = JniTransport.args({size})")
    lines += [f"{i}{conv}.write({arg}, uniffiArgs)" for conv, arg in args]
    answer = f"JniCalls.{name}(uniffiArgs.array(), uniffiArgs.position())"
    if error:
        error_converter = f"FfiConverterType{error.group(1).removesuffix('Exception')}Error"
        if f"object {error_converter} " not in kotlin:
            sys.exit(f"kotlin_jni_calls: no {error_converter} for {error.group(1)} in uniffi's Kotlin")
        lines.append(f"{i}return JniTransport.answer({answer}, {ret.group(1)}, {error_converter})")
    else:
        lines.append(f"{i}return JniTransport.answer({answer}, {ret.group(1)})")
    return kotlin[: m.end()] + "\n".join(lines) + kotlin[end:]


def calls_object(names: list[str]) -> str:
    externals = "\n".join(f"    @JvmStatic external fun {n}(args: ByteArray, length: Int): ByteArray" for n in names)
    return f"""// Written by scripts/generators/kotlin_jni_calls.py from bindings/uniffi/src/jni/calls.rs. Do not edit.
package {PACKAGE}

/**
 * The JNI entry points of the functions routed off JNA (their bodies in wirecontract_uniffi.kt):
 * each takes the arguments as uniffi's converters wrote them (`length` bytes of `args`) and
 * answers a status byte then the return value or the error (`JniTransport`).
 */
internal object JniCalls {{
    init {{
        NativeLibrary.load()
    }}

{externals}
}}
"""


def main() -> None:
    calls_rs, kotlin_dir = Path(sys.argv[1]), Path(sys.argv[2])
    names = routed(calls_rs.read_text())
    package_dir = kotlin_dir / PACKAGE.replace(".", "/")
    module = package_dir / "wirecontract_uniffi.kt"
    kotlin = module.read_text()
    for name in names:
        kotlin = rewrite(kotlin, name)
    module.write_text(kotlin)
    (package_dir / "jni_calls.kt").write_text(calls_object(names))


if __name__ == "__main__":
    main()
