package dev.wirecontract.graphmind.jvm

/**
 * An opaque JSON value (an `unknown` field of the contract, a payload): its exact JSON text.
 * Not a `String`, so `output = "Hello"` does not compile where JSON is meant: write
 * `JsonText.string("Hello")` or `JsonText.of("\"Hello\"")`. `toString()` is the JSON text
 * itself (`"Hello"` with its quotes, `null`, `{"a":1}`); equality is text equality.
 *
 * The text is checked as JSON only by the native side when a frame is built (a malformed
 * text is a [WireException] then). Conversions to tree libraries are one call away and need
 * no dependency here: kotlinx `Json.parseToJsonElement(value.text)`, Jackson
 * `mapper.readTree(value.text)`.
 */
class JsonText private constructor(
    /** The JSON text. */
    @JvmField val text: String,
) {
    /** The JSON text. */
    override fun toString(): String = text

    /** Text equality. */
    override fun equals(other: Any?): Boolean = other is JsonText && other.text == text

    /** The text's hash. */
    override fun hashCode(): Int = text.hashCode()

    /** Constructors. */
    companion object {
        /** JSON `null`. */
        @JvmField
        val NULL: JsonText = JsonText("null")

        /** Wraps JSON text as given (validated when a frame is built). */
        @JvmStatic
        fun of(json: String): JsonText = JsonText(json)

        /** A JSON string holding [value]. */
        @JvmStatic
        fun string(value: String): JsonText = JsonWriter().value(value).toJsonText()

        /** A JSON number (a safe integer stays exact). */
        @JvmStatic
        fun number(value: Long): JsonText = JsonText(value.toString())

        /** A JSON boolean. */
        @JvmStatic
        fun bool(value: Boolean): JsonText = JsonText(value.toString())
    }
}
