"""The `wirecontract conform` workload (docs/conform.md) written for the real GraphMind
Python client, ``graphmind-ai==0.5.1``, with its public API only.

One run named ``$WIRECONTRACT_CONFORM_RUN`` (the client adds the run's root ``agent`` node):
an ``@tool`` (its wrapper owns the before/after/error gates) and an LLM call streaming tokens
through ``instrument_openai`` on a fake OpenAI client. The scenario
(``$WIRECONTRACT_CONFORM_SCENARIO``) changes only what the contract says: a tool that fails
once (``*-error``), no ``ready()`` before the run (``late-attach``), ``dispose()`` once a
gate is held (``dispose``), the run played twice (``rearm``), ``buffer_size`` and
``pause_timeout``. Exits 0 whatever the run's
outcome. Run by scripts/steps/35-listen.sh as
``wirecontract conform --expect conform_real_client.expected.json -- python conform_real_client.py``.
"""

from __future__ import annotations

import os
import threading
from types import SimpleNamespace
from typing import Any

import graphmind

SCENARIO = os.environ["WIRECONTRACT_CONFORM_SCENARIO"]
RUN_NAME = os.environ.get("WIRECONTRACT_CONFORM_RUN", f"conform-{SCENARIO}")


def _chunk(text: str | None = None, usage: dict[str, int] | None = None) -> Any:
    delta = SimpleNamespace(content=text, tool_calls=None)
    choices = [SimpleNamespace(delta=delta, finish_reason=None)] if usage is None else []
    return SimpleNamespace(choices=choices, usage=SimpleNamespace(**usage) if usage else None)


class FakeCompletions:
    """``chat.completions.create(stream=True)``: three text chunks and a usage chunk."""

    def create(self, **kwargs: Any) -> Any:
        return iter([_chunk("It is "), _chunk("sunny "), _chunk("in Paris."), _chunk(usage={"prompt_tokens": 12, "completion_tokens": 5})])


def main() -> None:
    options: dict[str, Any] = {"url": os.environ["GRAPHMIND_URL"], "enabled": True, "loop_guard": False, "logger": lambda _: None}
    if ring := os.environ.get("WIRECONTRACT_CONFORM_RING_FRAMES"):
        options["buffer_size"] = int(ring)
    if timeout := os.environ.get("WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS"):
        options["pause_timeout"] = int(timeout) / 1000.0
    client = graphmind.GraphMind(app="conform-real-client", **options)
    llm = client.instrument_openai(SimpleNamespace(chat=SimpleNamespace(completions=FakeCompletions())))
    attempts = {"n": 0}

    @client.tool
    def get_weather(city: str) -> dict[str, Any]:
        attempts["n"] += 1
        if SCENARIO.endswith("-error") and attempts["n"] == 1:
            raise RuntimeError("conform: the first attempt fails")
        return {"city": city, "tempC": 21}

    def agent() -> None:
        try:
            with client.run(RUN_NAME):
                get_weather("Paris")
                "".join(c.choices[0].delta.content for c in llm.chat.completions.create(model="gpt-fake", messages=[], stream=True) if c.choices)
        except Exception as e:  # the run ended error or aborted: the outcome under test
            if not (graphmind.is_abort_error(e) or isinstance(e, RuntimeError)):
                raise

    def attach() -> None:
        if SCENARIO != "late-attach":
            for _ in range(5):  # a refused ack (ack-protocol) costs one attempt each
                if client.ready(2.0):
                    break

    attach()
    if SCENARIO == "dispose":
        worker = threading.Thread(target=agent, daemon=True)
        worker.start()
        for _ in range(1000):  # until the tool's before gate is held (10 s at most)
            if client.stats().held_gates:
                break
            worker.join(0.01)
        client.dispose()
        worker.join(5.0)
        return
    agent()
    if SCENARIO == "rearm":  # rearm plays the run twice, the second after re-attaching
        attach()
        agent()
    client.ready(2.0)  # re-attach after a drop, so the ring is replayed before disposing
    client.dispose()


main()
