"""A Rust panic inside the Python boundary surfaces as ``wirecontract.InternalError`` (an
``Exception``), never as pyo3's ``PanicException`` (a ``BaseException`` that ``except
Exception`` misses). The panic is forced through a debug hook that only the test wheel built
with the ``test-hooks`` feature has (scripts/steps/30-python.sh sets
``WIRECONTRACT_TEST_HOOKS=1`` for that run); the shipped wheel must not have it."""

from __future__ import annotations

import os

import pytest

import wirecontract
from wirecontract import _native  # type: ignore[attr-defined]

HOOKS = os.environ.get("WIRECONTRACT_TEST_HOOKS") == "1"


def test_internal_error_is_an_ordinary_exception() -> None:
    assert issubclass(wirecontract.InternalError, RuntimeError)
    assert issubclass(wirecontract.InternalError, Exception)
    assert wirecontract.InternalError.__module__ == "wirecontract"


@pytest.mark.skipif(HOOKS, reason="the shipped-wheel check; this run uses the test-hooks wheel")
def test_the_shipped_wheel_has_no_test_hook() -> None:
    assert not hasattr(_native, "_panic_for_test")


@pytest.mark.skipif(not HOOKS, reason="needs the test-hooks wheel (scripts/steps/30-python.sh builds it)")
def test_a_forced_panic_is_an_internal_error() -> None:
    with pytest.raises(wirecontract.InternalError) as info:
        _native._panic_for_test("boom at the boundary")
    assert "boom at the boundary" in str(info.value)
    assert "please report" in str(info.value)
    # Caught by the broadest handler an application writes.
    try:
        _native._panic_for_test("again")
    except Exception as e:  # noqa: BLE001 - the point of the test
        assert type(e).__name__ == "InternalError"
    # The module still works after a caught panic.
    assert wirecontract.graphmind.parse_envelope_json("{}").kind == "invalid"
