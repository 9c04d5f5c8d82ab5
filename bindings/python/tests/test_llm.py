"""The LLM conventions (normalize_finish_reason, read_usage, FINISH_REASONS) on the project's
own cases in vectors/graphmind/llm.jsonl, which the Rust, Kotlin, Swift and Node.js suites run too."""

import json
import math
from pathlib import Path

from wirecontract import graphmind as gm

CASES = [json.loads(line) for line in (Path(__file__).resolve().parents[3] / "vectors/graphmind/llm.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_cases_are_there() -> None:
    assert len(CASES) >= 90


def test_finish_reasons_are_the_registry_enum() -> None:
    assert gm.FINISH_REASONS == ("stop", "length", "tool-calls", "content-filter", "error", "other")


def test_every_case() -> None:
    for c in CASES:
        if c["fn"] == "normalizeFinishReason":
            assert gm.normalize_finish_reason(c["raw"], c["hasToolCalls"]) == c["expect"], c["name"]
        else:
            usage = json.loads(c["usageJson"]) if "usageJson" in c else c["usage"]
            view = gm.read_usage(usage)
            got = None if view is None else view.to_dict()
            assert got == c["expect"], c["name"]


def test_host_values() -> None:
    # A bool is no count (as in JavaScript); non-finite floats are no count; other values
    # elsewhere in the dict do not matter.
    assert gm.read_usage({"inputTokens": True, "outputTokens": 1}) is None
    assert gm.read_usage({"inputTokens": math.inf, "outputTokens": 1}) is None
    view = gm.read_usage({"inputTokens": 3, "outputTokens": 4, "inclusive": True, "other": {1, 2}, 5: "x"})
    assert view is not None
    assert (view.input_tokens, view.output_tokens, view.basis, view.cache_read_tokens) == (3, 4, "inclusive", None)
    assert isinstance(view.input_tokens, int)
    assert gm.read_usage({"inputTokens": 1.5, "outputTokens": 0}).input_tokens == 1.5  # type: ignore[union-attr]
    assert gm.normalize_finish_reason("STOP", has_tool_calls=1) == "tool-calls"
    assert gm.normalize_finish_reason("\ud800") == "other"
