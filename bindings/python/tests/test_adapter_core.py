"""Issue 37, the adapter core: our asyncio and synchronous hosts, configured from the same
environment, play each recorded scenario of the real ``graphmind-ai`` 0.5.1 client
(``vectors/graphmind/adapter-core/``, recorded by ``capture_adapter_core.py``) and put the same
frames on the wire, modulo ids, timestamps, seqs, durations and the loop fingerprint
(``adapter_core_scenarios.normalize``). The scenario code holds no protocol rule: root node,
redaction, token batching and the loop guard's environment are the core's."""

from __future__ import annotations

import asyncio
import json
import pytest

from adapter_core_scenarios import DATA, SCENARIOS, capture, normalize



def recorded(name: str) -> list[dict[str, str]]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("host", ["ours", "ours-sync"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_our_host_matches_the_real_client(name: str, host: str) -> None:
    """Both Python hosts, the asyncio one and the synchronous one."""
    expected = normalize(recorded(name))
    assert expected, "the recording holds frames"
    ours = normalize(asyncio.run(capture(host, name)))
    assert ours == expected


def test_recordings_pin_the_behaviour() -> None:
    """The recordings show what each scenario is about (so a re-capture that lost it fails)."""
    frames = {name: [json.loads(e["frame"]) for e in recorded(name) if e["dir"] == "app->viewer"] for name in SCENARIOS}
    tool = next(f for f in frames["redact-tool-args"] if f["type"] == "node.started" and f["payload"]["nodeId"] == "tool:search")
    assert tool["payload"]["input"] == "__REDACTED__"
    paused = [f for f in frames["loop-guard-env"] if f["type"] == "exec.paused"]
    assert [p["payload"]["nodeId"] for p in paused] == ["tool:search"] and paused[0]["payload"]["reason"] == "loop"
    types = [f["type"] for f in frames["tokens-batch"]]
    assert types.index("node.token") < types.index("node.finished")


def test_env_config_reads_the_real_names() -> None:
    from wirecontract.graphmind.session import env_config

    c = env_config({"GRAPHMIND_URL": "ws://h:1/ingest", "GRAPHMIND_ON_LOOP": "warn", "GRAPHMIND_LOOP_ALLOW": "a, b", "GRAPHMIND_HIDE_OUTPUTS": "1"})
    assert c["url"] == "ws://h:1/ingest" and c["loop_mode"] == "warn" and c["loop_allow"] == ["a", "b"]
    assert c["hide_outputs"] and not c["hide_inputs"] and c["enabled"]
    assert not env_config({"NODE_ENV": "production"})["enabled"]
    assert env_config({"NODE_ENV": "production", "GRAPHMIND": "1"})["enabled"]
    assert not env_config({"GRAPHMIND_DISABLED": "1"})["enabled"]


def test_kill_switch_beats_an_explicit_enabled() -> None:
    from wirecontract.graphmind.session import AppSession

    core = AppSession(env={"GRAPHMIND_DISABLED": "yes"}, enabled=True)
    assert core.emit("graph.hint", {"nodes": []}, 1.0) is None
    assert core.poll_actions() == []
