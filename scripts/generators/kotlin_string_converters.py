"""Makes uniffi's Kotlin string converters cheap for the many short strings a frame holds.

Usage: kotlin_string_converters.py KOTLIN_FILE... (called by scripts/generators/uniffi.sh
after uniffi-bindgen wrote them).

Two bodies change; what crosses does not:
- `FfiConverterString.toUtf8`: uniffi makes a `CharsetEncoder` for every string it writes, to
  refuse a lone surrogate. A frame of ten token deltas writes a dozen strings (each object's
  `extraJson` among them), so the encoders were a large part of a typed build. A string
  without a surrogate now takes `String.toByteArray` (the same bytes: UTF-8 of Unicode text);
  one with a surrogate still takes the encoder, which refuses a lone one as before.
- `FfiConverterTypeHostString.allocationSize`: uniffi sizes a custom type by lowering it, so
  every `HostString` was encoded twice, once to size the buffer and once to write it. Its
  generalized UTF-8 (HostStrings.kt) takes at most three bytes per UTF-16 unit, so the size is
  now that bound, as `FfiConverterString.allocationSize` does for plain strings.

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
        // Unicode text (no surrogate at all) is encoded without a CharsetEncoder
        // (scripts/generators/kotlin_string_converters.py); the encoder still refuses a lone one.
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
        // At most three bytes of generalized UTF-8 per UTF-16 unit, without encoding it
        // (scripts/generators/kotlin_string_converters.py).
        return 4UL + value.length.toULong() * 3UL
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
