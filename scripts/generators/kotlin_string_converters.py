"""Makes uniffi's Kotlin string converters cheap for the many short strings a frame holds.

Usage: kotlin_string_converters.py KOTLIN_FILE... (called by scripts/generators/uniffi.sh
after uniffi-bindgen wrote them).

Two bodies change; what crosses does not:
- `FfiConverterString.toUtf8`: uniffi makes a `CharsetEncoder` for every string it writes, to
  refuse a lone surrogate. A frame of ten token deltas writes a dozen strings (each object's
  `extraJson` among them). A string without surrogates now takes `String.toByteArray` (the
  same bytes); one with any surrogate still takes the encoder, which refuses a lone one.
- `FfiConverterTypeHostString.allocationSize`: uniffi sizes a custom type by lowering it, so
  every `HostString` was encoded twice, once to size the buffer and once to write it. The size
  is now counted without encoding (`jvm.Utf8.length`: the exact length of the generalized
  UTF-8 HostStrings.kt writes, a lone surrogate three bytes). It is exact, not the three bytes
  a unit that bounds it: the JNI route sizes its argument array by it (`JniTransport.args`), so
  a bound would allocate three times a large frame and refuse a batch past a third of 2 GiB.

The bodies are recognised by their exact text (pinned uniffi version): one not found stops
generation with a message.
"""

import sys
from pathlib import Path

TO_UTF8 = """    fun toUtf8(value: String): ByteBuffer {
        // Make sure we don't have invalid UTF-16, check for lone surrogates.
        return Charsets.UTF_8.newEncoder().run {
            onMalformedInput(CodingErrorAction.REPORT)
            encode(CharBuffer.wrap(value))
        }
    }
"""

TO_UTF8_FAST = """    fun toUtf8(value: String): ByteBuffer {
        // A string without surrogates is encoded without a CharsetEncoder
        // (scripts/generators/kotlin_string_converters.py); one with any surrogate still takes
        // the encoder, which refuses a lone one.
        if (value.none { it.isSurrogate() }) {
            return ByteBuffer.wrap(value.toByteArray(Charsets.UTF_8))
        }
        return Charsets.UTF_8.newEncoder().run {
            onMalformedInput(CodingErrorAction.REPORT)
            encode(CharBuffer.wrap(value))
        }
    }
"""

HOST_SIZE = """    override fun allocationSize(value: HostString): ULong {
        val builtinValue = dev.wirecontract.graphmind.HostStrings.encode(value)
        return FfiConverterByteArray.allocationSize(builtinValue)
    }
"""

HOST_SIZE_BOUND = """    override fun allocationSize(value: HostString): ULong {
        // The exact length of its generalized UTF-8, counted without encoding it
        // (scripts/generators/kotlin_string_converters.py).
        return 4UL + dev.wirecontract.graphmind.jvm.Utf8.length(value).toULong()
    }
"""


def patch(text: str, old: str, new: str, what: str, path: Path) -> str:
    count = text.count(old)
    if count == 1:
        return text.replace(old, new)
    sys.exit(f"kotlin_string_converters: {what} found {count} times in {path}, not once (uniffi's output changed?)")


def main() -> None:
    for path in map(Path, sys.argv[1:]):
        text = path.read_text()
        text = patch(text, TO_UTF8, TO_UTF8_FAST, "FfiConverterString.toUtf8", path)
        text = patch(text, HOST_SIZE, HOST_SIZE_BOUND, "FfiConverterTypeHostString.allocationSize", path)
        path.write_text(text)


if __name__ == "__main__":
    main()
