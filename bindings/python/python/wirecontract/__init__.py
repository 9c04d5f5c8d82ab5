"""wirecontract: agent-debugger wire contracts, compiled from one Rust contract crate.

Submodules:

- :mod:`wirecontract.graphmind`: the GraphMind live-debugger protocol v1.
- :mod:`wirecontract.graphorin`: Graphorin's strict JSON-RPC frames v1.

Any registered protocol, including one with no module of its own yet:
``protocols()`` names them and ``parse_frame(protocol, text)`` parses one frame with that
protocol's registered parser, returning ``(kind, message, object, issues)``.

Issues: ``Issue`` (``path`` dotted from the frame root, ``message``, ``code`` where the protocol
gives one), the same class for every protocol.

Errors: ``BuildError`` (a ``ValueError``) when a frame cannot be built from the values given;
``InternalError`` (a ``RuntimeError``) for a bug inside wirecontract, never pyo3's
``PanicException``.
"""

from wirecontract._native import BuildError, InternalError, Issue, __version__, parse_frame, protocols
from wirecontract import graphmind, graphorin

__all__ = ["BuildError", "InternalError", "Issue", "__version__", "graphmind", "graphorin", "parse_frame", "protocols"]
