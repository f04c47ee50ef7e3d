"""/metrics: the server's figures in the Prometheus text format, after a game was played."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import play_out


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def test_metrics_count_the_tables_sockets_and_actions(client: TestClient) -> None:
    before = samples(client)
    assert before[("muggins_sockets", ())] == 0
    assert before[("muggins_lease_changes_total", ())] == 0
    assert before[("muggins_tables", (("status", "playing"),))] == 0
    t = new_table(client, seats=[None, "beginner"], options={"target": 60})
    waiting = new_table(client, seats=[None, None])
    assert waiting["status"] == "open"
    tok = sit(client, t["id"], 0)
    with table_socket(client, t["id"], tok) as ws:
        during = samples(client)
        assert during[("muggins_sockets", ())] == 1
        assert during[("muggins_tables", (("status", "playing"),))] == 1
        assert during[("muggins_tables", (("status", "open"),))] == 1
        last = play_out(ws, 0)
    after = samples(client)
    assert after[("muggins_sockets", ())] == 0
    assert after[("muggins_tables", (("status", "finished"),))] == 1
    person = after[("muggins_actions_total", (("by", "person"), ("game", "dominoes")))]
    bot = after[("muggins_actions_total", (("by", "bot"), ("game", "dominoes")))]
    assert person + bot == last["table"]["actions"]
    assert person > 0 and bot > 0
    # each acknowledged move of the person was timed from its arrival to its broadcast
    assert after[("muggins_action_latency_seconds_count", ())] == person
    assert after[("muggins_action_latency_seconds_bucket", (("le", "+Inf"),))] == person
    assert after[("muggins_bot_failures_total", ())] == 0
    assert after[("muggins_store_write_failures_total", ())] == 0
    assert after[("muggins_analysis_queue", (("kind", "analysis"),))] == 0


def test_two_apps_count_apart_and_metrics_can_be_refused(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", time_scale=0.0)) as a, \
            TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", time_scale=0.0, metrics=False)) as b:
        new_table(a, seats=[None, None])
        assert "muggins_tables{status=\"open\"} 1.0" in a.get("/metrics").text
        assert b.get("/metrics").status_code == 404
