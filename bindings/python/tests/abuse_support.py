"""Hostile peers for the abuse tests of the asyncio session hosts, written against raw
sockets (RFC 6455 by hand) so they can do what no well-behaved WebSocket library does: announce
a huge frame and stream it from a small reused buffer, or stop reading. Each runs in a daemon
thread with bounded waits; peak RSS is sampled from /proc."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import socket
import struct
import threading
import time
from collections.abc import Callable

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
ACK = (
    '{"gm":1,"seq":0,"ts":1,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"fake/1"},'
    '"capabilities":[],"breakpoints":[],"mode":"run"}}'
)
CHUNK = b"x" * (1 << 20)


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class RssPeak:
    """Samples this process's RSS every 5 ms while open; ``growth`` is peak minus start."""

    def __init__(self) -> None:
        self.start = rss_bytes()
        self.peak = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, rss_bytes())

    def __enter__(self) -> RssPeak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self.peak = max(self.peak, rss_bytes())

    @property
    def growth(self) -> int:
        return self.peak - self.start


def header(opcode: int, length: int, *, fin: bool = True, masked: bool) -> bytes:
    b0 = (0x80 if fin else 0) | opcode
    m = 0x80 if masked else 0
    if length < 126:
        out = struct.pack("!BB", b0, m | length)
    elif length < 65536:
        out = struct.pack("!BBH", b0, m | 126, length)
    else:
        out = struct.pack("!BBQ", b0, m | 127, length)
    return out + (b"\0\0\0\0" if masked else b"")  # a zero mask leaves the payload as it is


def read_exact(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        part = sock.recv(n - len(buf))
        if not part:
            raise ConnectionError("closed")
        buf += part
    return buf


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """One frame: (opcode, unmasked payload)."""
    b0, b1 = read_exact(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", read_exact(sock, 2))
    elif n == 127:
        (n,) = struct.unpack("!Q", read_exact(sock, 8))
    mask = read_exact(sock, 4) if b1 & 0x80 else b"\0\0\0\0"
    data = bytearray(read_exact(sock, n))
    for i in range(n):
        data[i] ^= mask[i % 4]
    return b0 & 0x0F, bytes(data)


def close_code(payload: bytes) -> int:
    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005


def stream_frame(sock: socket.socket, length: int, *, masked: bool) -> int:
    """Sends a text frame header announcing ``length`` bytes, then ``x`` bytes from one reused
    1 MiB buffer until done or the peer gives up; returns the bytes of payload sent."""
    sent = 0
    with contextlib.suppress(OSError):
        sock.sendall(header(0x1, length, masked=masked))
        while sent < length:
            part = CHUNK[: min(len(CHUNK), length - sent)]
            sock.sendall(part)
            sent += len(part)
    return sent


class RawViewer:
    """A viewer on 127.0.0.1 that answers each connection's ``hello`` with a ``hello.ack`` and
    then calls ``after_ack(sock)`` on its thread (which may stream, flood or stop reading).
    With ``ack=False`` it upgrades the socket and never answers ``hello``.
    ``close_codes`` collects the app's close codes; ``connections`` counts upgrades."""

    def __init__(self, after_ack: Callable[[socket.socket], None], *, rcvbuf: int | None = None, ack: bool = True) -> None:
        self.after_ack = after_ack
        self.ack = ack
        self.close_codes: list[int] = []
        self.connections = 0
        self.server = socket.socket()
        if rcvbuf is not None:
            self.server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.url = f"ws://127.0.0.1:{self.server.getsockname()[1]}/ingest"
        self._socks: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.server.accept()
            except OSError:
                return
            self._socks.append(sock)
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        sock.settimeout(30)
        with sock, contextlib.suppress(OSError, ConnectionError):
            head = b""
            while b"\r\n\r\n" not in head:
                part = sock.recv(4096)
                if not part:
                    return
                head += part
            key = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key:"))
            accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
            sock.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            self.connections += 1
            while True:
                op, data = read_frame(sock)
                if op == 0x8:
                    self.close_codes.append(close_code(data))
                    return
                if op == 0x1 and self.ack and b'"type":"hello"' in data:
                    sock.sendall(header(0x1, len(ACK), masked=False) + ACK.encode())
                    self.after_ack(sock)
                    self.drain_for_close(sock)
                    return

    def drain_for_close(self, sock: socket.socket) -> None:
        """Reads on until the app's close frame or EOF (recording the close code); the caller
        then closes the socket, as a peer ending the closing handshake does."""
        with contextlib.suppress(OSError, ConnectionError):
            while True:
                op, data = read_frame(sock)
                if op == 0x8:
                    self.close_codes.append(close_code(data))
                    return

    def close(self) -> None:
        self.server.close()
        for s in self._socks:
            with contextlib.suppress(OSError):
                s.close()


def raw_client(url: str, *, timeout: float = 10.0) -> socket.socket:
    """A WebSocket connection to ``url`` (ws://host:port/path) after the opening handshake."""
    hostport, path = url.removeprefix("ws://").split("/", 1)
    host, port = hostport.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    key = base64.b64encode(os.urandom(16))
    sock.sendall(
        b"GET /" + path.encode() + b" HTTP/1.1\r\nHost: " + hostport.encode()
        + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
        + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        part = sock.recv(4096)
        if not part:
            raise ConnectionError("closed during the upgrade")
        head += part
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock


def wait_for(cond: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return cond()
