/**
{{matcher_doc}} *
 * Equality is the protocol's (graphmind-v1 §5.12, what dedupe and `breakpoint.clear` use): same `kind`, `name` and effective point, where an absent `point` means [PausePoint.BEFORE]; so `BreakpointMatcher(kind = TOOL)` equals `BreakpointMatcher(kind = TOOL, point = BEFORE)` and both hash alike. Every field optional (`null`: absent). No native call.
 */
class BreakpointMatcher @JvmOverloads constructor(
{{matcher_fields}}) {
    /** The point used for equality and matching: [point], or [PausePoint.BEFORE] when absent (§5.12). */
    val effectivePoint: PausePoint
        get() = point ?: PausePoint.BEFORE

    /** Whether this matcher selects a gate (§5.12): effective point equal, then [kind] and [name] when present. */
    fun matches(kind: NodeKind, name: String, point: PausePoint): Boolean =
        effectivePoint == point && (this.kind == null || this.kind == kind) && (this.name == null || this.name == name)

    /** A copy with the fields given changed (Java: use the constructor). */
    fun copy(kind: NodeKind? = this.kind, name: String? = this.name, point: PausePoint? = this.point): BreakpointMatcher =
        BreakpointMatcher(kind, name, point)

    /** Protocol equality (§5.12): kind, name and effective point. */
    override fun equals(other: Any?): Boolean =
        other is BreakpointMatcher && kind == other.kind && name == other.name && effectivePoint == other.effectivePoint

    /** Agrees with [equals]: hashes the effective point. */
    override fun hashCode(): Int = ((kind?.hashCode() ?: 0) * 31 + (name?.hashCode() ?: 0)) * 31 + effectivePoint.hashCode()

    /** The wire object, members in spec order, absent ones left out: `{"kind":"tool","point":"after"}`. */
    fun toJson(): JsonText {
        val w = JsonWriter().beginObject()
{{matcher_to_json}}        return w.endObject().toJsonText()
    }

    /** The wire object (see [toJson]). */
    override fun toString(): String = "BreakpointMatcher" + toJson()
}

/** The pause decision of graphmind-v1 §5.12, in plain Kotlin (no native call). */
object Breakpoints {
    /**
     * Why a gate pauses, or `null` when it does not: [PauseReason.BREAKPOINT] when any matcher
     * matches (checked first), else [PauseReason.STEP] in [RunMode.STEP] at a `before` or
     * `error` point.
     */
    @JvmStatic
    fun pauseReason(mode: RunMode, breakpoints: Collection<BreakpointMatcher>, kind: NodeKind, name: String, point: PausePoint): PauseReason? {
        for (m in breakpoints) {
            if (m.matches(kind, name, point)) return PauseReason.BREAKPOINT
        }
        return if (mode == RunMode.STEP && (point == PausePoint.BEFORE || point == PausePoint.ERROR)) PauseReason.STEP else null
    }

    /** Whether a gate pauses: `pauseReason(...) != null`. */
    @JvmStatic
    fun shouldPause(mode: RunMode, breakpoints: Collection<BreakpointMatcher>, kind: NodeKind, name: String, point: PausePoint): Boolean =
        pauseReason(mode, breakpoints, kind, name, point) != null
}
