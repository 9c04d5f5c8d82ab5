"""Packaging: the installed wheel imports cleanly with warnings as errors (a module that, say,
declares no free-threading support on a free-threaded build or uses a deprecated C API would
warn at import), and the abi3 floor is what pyproject.toml states."""

from __future__ import annotations

import subprocess
import sys

import wirecontract


def test_import_raises_no_runtime_warning() -> None:
    code = "import wirecontract, wirecontract.graphmind, wirecontract.graphorin; print(wirecontract.__name__)"
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "wirecontract"


def test_native_module_is_the_abi3_build() -> None:
    # One .abi3.so serves every CPython >= 3.10; a version-specific build would be named
    # _native.cpython-3XX-....so.
    native = wirecontract._native.__file__  # type: ignore[attr-defined]
    assert native is not None and native.endswith(".abi3.so"), native


def test_default_build_has_the_gil() -> None:
    # Free-threaded CPython is not supported yet (README): the tests run on default builds.
    is_gil_enabled = getattr(sys, "_is_gil_enabled", None)
    assert is_gil_enabled is None or is_gil_enabled()
