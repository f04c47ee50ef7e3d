"""Behind a proxy: X-Forwarded-For is believed only from the proxies named by --forwarded-allow-ips, so a
client on its own cannot forge an address to escape the per-address limits. Through a real uvicorn server,
as the test client bypasses uvicorn's proxy middleware."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muggins.cli.main import app as cli_app
from muggins.cli.serve_cmd import trusted_proxies
from tests.server.test_restart import free_port, start

BODY = json.dumps({"game": "dominoes", "seats": [None, "beginner"]}).encode()


@contextmanager
def serving(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    port = free_port()
    proc = start(f"sqlite:///{tmp_path / f'p{port}.db'}", port, *args, env=env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


def create(base: str, forwarded_for: str) -> int:
    req = urllib.request.Request(base + "/api/tables", data=BODY, headers={
        "content-type": "application/json", "x-forwarded-for": forwarded_for})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_forged_forwarded_headers_do_not_reset_the_creation_limit(tmp_path: Path) -> None:
    with serving(tmp_path) as base:
        codes = [create(base, f"203.0.113.{i}") for i in range(13)]
    assert codes[:10] == [201] * 10 and codes[10:] == [429] * 3


def test_a_trusted_proxys_forwarded_address_is_honoured(tmp_path: Path) -> None:
    with serving(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as base:
        own = [create(base, "198.51.100.7") for _ in range(11)]
        other = create(base, "198.51.100.8")  # the proxy's other client has its own allowance
    assert own[:10] == [201] * 10 and own[10] == 429 and other == 201


def test_the_trusted_proxies_come_from_the_environment_too(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "MUGGINS_FORWARDED_ALLOW_IPS": "127.0.0.0/8"}
    with serving(tmp_path, env=env) as base:
        codes = [create(base, f"198.51.100.{i}") for i in range(12)]
    assert codes == [201] * 12


def test_the_trusted_proxies_are_checked() -> None:
    assert trusted_proxies(None) == "" and trusted_proxies(" 10.0.0.1, 10.1.0.0/16 ") == "10.0.0.1,10.1.0.0/16"
    with pytest.raises(ValueError, match="not an IP address"):
        trusted_proxies("proxy.example")
    r = CliRunner().invoke(cli_app, ["serve", "--forwarded-allow-ips", "proxy.example"])
    assert r.exit_code == 2 and "--forwarded-allow-ips" in r.output
