"""Scale-out mode's shared state in Redis: the connection check at start and the per-client-address limits
(new tables, seats taken, connection attempts) counted in Redis, so that they hold across every process
that serves the same site.

Each limit is a token bucket kept in a Redis hash and updated by one Lua script (atomic in Redis, timed by
the Redis server's clock, so every process sees the same bucket)."""

from __future__ import annotations

import math
from typing import Any

from muggins.server.guard import BadRequest, SocketGate

KEY_PREFIX = "muggins:limit:"

# KEYS[1]: the bucket; ARGV: tokens a second, burst. The bucket's level now, refilled since it was last
# counted (timed by the Redis server's clock)
REFILL = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'level', 'ts')
local level = tonumber(v[1]) or burst
local ts = tonumber(v[2]) or now
level = math.min(burst, level + math.max(0, now - ts) * rate)
"""

# Returns {1 allowed / 0 refused, seconds to wait}, an attempt counted.
TOKEN_BUCKET = REFILL + """
local allowed = 0
local wait = '0'
if level >= 1 then
  level = level - 1
  allowed = 1
elseif rate > 0 then
  wait = tostring((1 - level) / rate)
else
  wait = 'inf'
end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'ts', tostring(now))
local ttl = 86400000
if rate > 0 then ttl = math.ceil((burst / rate + 1) * 1000) end
redis.call('PEXPIRE', KEYS[1], ttl)
return {allowed, wait}
"""


# Returns the seconds to wait before the next attempt (0: one may be made now), without counting one.
BUCKET_WAIT = REFILL + """
if level >= 1 then return '0' end
if rate > 0 then return tostring((1 - level) / rate) end
return 'inf'
"""


def _shown(seconds: float) -> int:
    """Whole seconds to tell a client to wait (an hour for a bucket that never refills)."""
    return max(1, math.ceil(seconds)) if math.isfinite(seconds) else 3600


def redis_problem(url: str, timeout: float = 3.0) -> str | None:
    """Why the Redis server at ``url`` cannot be used (a malformed URL, no server answering, no redis-py),
    or None when it answers a PING."""
    try:
        import redis
    except ImportError:
        return "scale-out mode needs redis-py: pip install 'muggins[scale]'"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    except ValueError as e:
        return f"{url!r} is not a Redis URL ({e}); write redis://HOST[:PORT][/DB]"
    try:
        client.ping()
    except Exception as e:
        return f"no Redis server answers at {url}: {e}"
    finally:
        client.close()
    return None


class RedisClientLimits:
    """:class:`muggins.server.guard.ClientLimits` counted in Redis: one bucket per client address and kind
    of request, shared by every process on the same Redis. ``charge`` is a coroutine."""

    def __init__(self, redis: Any, what: str, per_minute: float, burst: float) -> None:
        self.what = what
        self.rate = per_minute / 60.0
        self.burst = burst
        self.script = redis.register_script(TOKEN_BUCKET)
        self.prefix = KEY_PREFIX + what.replace(" ", "-") + ":"

    async def charge(self, client: str) -> None:
        """Count one request of ``client``, or BadRequest (429, with the seconds to wait) when it has made
        too many."""
        allowed, wait = await self.script(keys=[self.prefix + client], args=[self.rate, self.burst])
        if not int(allowed):
            shown = _shown(float(wait))
            raise BadRequest(f"too many {self.what} from your address; try again in {shown} s", 429, shown)


class RedisFailureLimits(RedisClientLimits):
    """Failed attempts per key (a name, an address) counted in Redis: checked before an attempt, counted
    only when it fails (:class:`muggins.server.accounts.FailureLimits` across processes)."""

    def __init__(self, redis: Any, what: str, per_minute: float, burst: float) -> None:
        super().__init__(redis, what, per_minute, burst)
        self.peek = redis.register_script(BUCKET_WAIT)

    async def check(self, key: str) -> None:
        wait = float(await self.peek(keys=[self.prefix + key], args=[self.rate, self.burst]))
        if wait > 0:
            shown = _shown(wait)
            raise BadRequest(f"too many {self.what}; try again in {shown} s", 429, shown)

    async def fail(self, key: str) -> None:
        await self.script(keys=[self.prefix + key], args=[self.rate, self.burst])


class _Uncounted:
    """The attempts of a socket gate whose attempts are counted elsewhere."""

    def charge(self, client: str) -> None:
        pass


class RedisSocketGate(SocketGate):
    """:class:`muggins.server.guard.SocketGate` with the connection attempts counted in Redis; the sockets
    open at once are counted by each process (a process that dies takes its count with it). ``enter`` is a
    coroutine."""

    def __init__(self, redis: Any, per_client: int, per_minute: float, burst: float) -> None:
        super().__init__(per_client, per_minute, burst)
        self.shared_attempts = RedisClientLimits(redis, "connections", per_minute, burst)
        self.attempts = _Uncounted()  # type: ignore[assignment]

    async def enter(self, client: str) -> None:  # type: ignore[override]
        await self.shared_attempts.charge(client)
        super().enter(client)


class SharedRedis:
    """The Redis connection of one scale-out process (redis-py's asyncio client; it connects on first use,
    in the server's event loop)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio

        self.url = url
        self.redis = redis.asyncio.Redis.from_url(url)

    def limits(self, new_tables: Any, seat_takers: Any, sockets: Any) -> tuple[Any, Any, Any]:
        """Redis-counted twins of the process's own limits, with their rates and bursts."""
        def twin(limits: Any) -> RedisClientLimits:
            return RedisClientLimits(self.redis, limits.what, limits.rate * 60.0, limits.burst)
        gate = RedisSocketGate(self.redis, sockets.per_client, sockets.attempts.rate * 60.0, sockets.attempts.burst)
        return twin(new_tables), twin(seat_takers), gate

    async def close(self) -> None:
        await self.redis.aclose()
