"""wirecontract: agent-debugger wire contracts, compiled from one Rust contract crate.

Submodules:

- :mod:`wirecontract.graphmind`: the GraphMind live-debugger protocol v1.
- :mod:`wirecontract.graphorin`: Graphorin's strict JSON-RPC frames v1.

Any registered protocol, including one with no module of its own yet:
``protocols()`` names them and ``parse_frame(protocol, text)`` parses one frame with that
protocol's registered parser, returning ``(kind, message, object, issues)``.
"""

from wirecontract._native import BuildError, __version__, parse_frame, protocols
from wirecontract import graphmind, graphorin

__all__ = ["BuildError", "__version__", "graphmind", "graphorin", "parse_frame", "protocols"]
