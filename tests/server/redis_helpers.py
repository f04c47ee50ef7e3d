"""The Redis server of the scale-out tests: MUGGINS_REDIS_URL names it (.ci/run starts one and sets it; the
suite's conftest moves it to MUGGINS_TEST_REDIS_URL, so that the servers of the other tests stay embedded).
Each test gets that URL's database, flushed before and after; without a reachable server the test skips
(and so fails under CI=true, see tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

REDIS_ENV = "MUGGINS_TEST_REDIS_URL"


def redis_unavailable() -> str | None:
    """Why the Redis tests cannot run, or None when they can."""
    url = os.environ.get(REDIS_ENV, "")
    if not url:
        return "MUGGINS_REDIS_URL is not set (no Redis server to test against)"
    try:
        import redis
    except ImportError:
        return "the scale-out tests need redis-py (pip install -e '.[scale]')"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception as e:
        return f"Redis at MUGGINS_REDIS_URL is not reachable: {e}"
    return None


@pytest.fixture
def redis_url() -> Iterator[str]:
    """MUGGINS_REDIS_URL, its database flushed (before the test and after it)."""
    why = redis_unavailable()
    if why is not None:
        pytest.skip(why)
    import redis

    url = os.environ[REDIS_ENV]
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()
