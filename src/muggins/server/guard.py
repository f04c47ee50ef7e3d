"""What every request must pass before the tables see it: the origin of a browser request, the size,
type and depth of a JSON body, and how often one client may create tables or take seats."""

from __future__ import annotations

import inspect
import json
import math
import re
import time
from collections import Counter
from collections.abc import Hashable, Iterable
from typing import Any
from urllib.parse import urlsplit

MAX_DEPTH = 16          # JSON nesting: the API's own messages are 3 deep
MAX_INT_DIGITS = 18     # a larger whole number is never a count, an amount or a seat
ORIGINS_ENV = "MUGGINS_ALLOWED_ORIGINS"

# a string (to its end if unterminated: each character is looked at once) or a bracket
_TOKEN = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]', re.S)
_DEFAULT_PORTS = {"http": 80, "https": 443}


class BadRequest(Exception):
    """A request refused before it reaches a table; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


# --- JSON -------------------------------------------------------------------------------------------
def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise BadRequest(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(digits)


def _constant(name: str) -> Any:
    raise BadRequest(f"{name} is not a JSON number")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (brackets inside strings do not count); it
    stops counting once past :data:`MAX_DEPTH`."""
    depth = deepest = 0
    for m in _TOKEN.finditer(text):
        ch = m.group()
        if ch[0] == '"':
            continue
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        else:
            depth -= 1
    return deepest


def parse_json(raw: str | bytes, what: str = "the body") -> Any:
    """``raw`` as JSON, or BadRequest (400) saying why not (of ``what``): not UTF-8, not JSON, nested deeper than
    :data:`MAX_DEPTH` (checked before parsing, so a deep body cannot exhaust the parser's recursion), a
    number of more than :data:`MAX_INT_DIGITS` digits, NaN or Infinity."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest(f"{what} is not UTF-8 text") from None
    if json_depth(raw) > MAX_DEPTH:
        raise BadRequest(f"{what} is nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw, parse_int=_int, parse_constant=_constant)
    except BadRequest:
        raise
    except (ValueError, RecursionError):
        raise BadRequest(f"{what} is not valid JSON") from None


# --- origins ----------------------------------------------------------------------------------------
def origin_key(url: str) -> str | None:
    """``scheme://host:port`` of an origin (lower case, the port always written), or None when ``url``
    is not an http(s) origin (``null``, a path, user info, another scheme)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if scheme not in _DEFAULT_PORTS or not host or parts.username or parts.password:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or _DEFAULT_PORTS[scheme]}"


def parse_origins(values: Iterable[str]) -> set[str]:
    """The allow-list: each value an origin like ``https://games.example.org`` (comma-separated lists
    are split); ValueError names one that is not."""
    out = set()
    for value in values:
        for item in value.split(","):
            if not item.strip():
                continue
            key = origin_key(item)
            if key is None:
                raise ValueError(f"{item.strip()!r} is not an origin; write scheme://host[:port], like "
                                 f"https://games.example.org")
            out.add(key)
    return out


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
_LOCAL_BINDS = ("", "0.0.0.0", "::", "localhost", "127.0.0.1", "::1", "[::1]")


def host_port(host: str, port: int | None) -> str:
    """``host:port`` as an origin writes it (an IPv6 address in brackets)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return host if port is None else f"{host}:{port}"


def own_addresses(host: str, port: int) -> list[str]:
    """The ``host:port`` names a browser reaches a server listening on ``host``, ``port`` by: that
    address, and localhost, 127.0.0.1 and [::1] when it listens on a loopback or on every address."""
    names = {host_port(host, port)}
    if host in _LOCAL_BINDS:
        names.update(f"{n}:{port}" for n in LOOPBACK_NAMES)
    return sorted(names)


class OriginPolicy:
    """Which browser origins may change state: the server's own (the scheme of the request, at the
    address the server listens on or the connection reached; never the request's Host header, which a
    page on another site chooses) and those allowed explicitly (a proxy in front of the server). A
    request without an Origin header (a script, curl) is not a browser's cross-site request."""

    def __init__(self, allowed: Iterable[str] = (), own: Iterable[str] = ()) -> None:
        self.allowed = parse_origins(allowed)
        self.own = list(own)

    def allows(self, origin: str | None, scheme: str, served: str | None) -> bool:
        """``served`` is the ``host:port`` the connection reached (the ASGI server's address)."""
        if origin is None:
            return True
        key = origin_key(origin)
        if key is None:
            return False
        if key in self.allowed:
            return True
        scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        return any(key == origin_key(f"{scheme}://{h}") for h in (*self.own, *([served] if served else [])))

    def check(self, origin: str | None, scheme: str, served: str | None) -> None:
        if not self.allows(origin, scheme, served):
            raise BadRequest(f"cross-site request refused: the origin {origin!r} is not this server's "
                             f"(a server behind a proxy allows it with --allow-origin)", 403)


# --- rate of costly requests ------------------------------------------------------------------------
class RateLimiter:
    """A token bucket: ``rate`` requests a second on average, bursts up to ``burst``."""

    __slots__ = ("burst", "last", "level", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.last = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now

    def allow(self) -> bool:
        self._refill()
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next request would be allowed."""
        self._refill()
        return 0.0 if self.level >= 1.0 else (1.0 - self.level) / self.rate if self.rate > 0 else math.inf

    def full(self) -> bool:
        self._refill()
        return self.level >= self.burst


class ClientLimits:
    """One bucket per client address for one kind of request (creating tables, taking seats)."""

    MAX_CLIENTS = 10000

    def __init__(self, what: str, per_minute: float, burst: float) -> None:
        self.what = what
        self.rate = per_minute / 60.0
        self.burst = burst
        self.buckets: dict[str, RateLimiter] = {}

    def charge(self, client: str) -> None:
        """Count one request of ``client``, or BadRequest (429, with the seconds to wait) when it has
        made too many."""
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= self.MAX_CLIENTS:  # forget the clients that have been quiet
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full()}
            bucket = self.buckets[client] = RateLimiter(self.rate, self.burst)
        if not bucket.allow():
            wait = max(1, math.ceil(bucket.wait()))
            raise BadRequest(f"too many {self.what} from your address; try again in {wait} s", 429, wait)


class SocketGate:
    """The WebSockets of each client address: at most ``per_client`` open at once, and new ones opened
    at ``per_minute`` on average (bursts up to ``burst``)."""

    def __init__(self, per_client: int, per_minute: float, burst: float) -> None:
        self.per_client = per_client
        self.attempts = ClientLimits("connections", per_minute, burst)
        self.open: Counter[str] = Counter()

    def enter(self, client: str) -> None:
        """Count a new socket of ``client``, or BadRequest (429) saying why it may not open; every
        attempt counts, the refused ones too."""
        self.attempts.charge(client)
        if self.open[client] >= self.per_client:
            raise BadRequest(f"too many open connections from your address (at most {self.per_client}); "
                             f"close some tabs and try again", 429)
        self.open[client] += 1

    def leave(self, client: str) -> None:
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]


class SharedLimiters:
    """One message rate limiter per key (a seat of a table), shared by every socket that holds the key:
    ten sockets on one seat token get one socket's burst. A limiter is dropped when its last socket
    closes and its bucket is full again."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.limiters: dict[Hashable, RateLimiter] = {}
        self.users: Counter[Hashable] = Counter()

    def take(self, key: Hashable) -> RateLimiter:
        if len(self.limiters) > 2 * len(self.users) + 1000:  # forget the unused ones that refilled
            self.limiters = {k: b for k, b in self.limiters.items() if k in self.users or not b.full()}
        limiter = self.limiters.get(key)
        if limiter is None:
            limiter = self.limiters[key] = RateLimiter(self.rate, self.burst)
        self.users[key] += 1
        return limiter

    def give_back(self, key: Hashable) -> None:
        self.users[key] -= 1
        if self.users[key] <= 0:
            del self.users[key]


class AllOf:
    """Several rate limiters at once: a message is allowed when each of them allows it."""

    def __init__(self, *limiters: RateLimiter) -> None:
        self.limiters = limiters

    def allow(self) -> bool:
        return all(x.allow() for x in self.limiters)


async def settle(result: Any) -> None:
    """Wait for ``result`` when it is awaitable (a limit counted in Redis), else nothing to wait for."""
    if inspect.isawaitable(result):
        await result
