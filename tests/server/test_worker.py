"""Scale-out mode's analyses and hints are jobs done by a `muggins worker` process (a real one here): without a
worker the request is answered 503 with Retry-After and the job waits on the queue (its depth at /metrics);
a worker started then does it, and its analysis is the one worked out in-process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from muggins.analysis import analyse_record
from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import next_state, play_out

SAMPLES = 2


def metric(client: TestClient, name: str) -> float:
    line = next(x for x in client.get("/metrics").text.splitlines() if x.startswith(name + " "))
    return float(line.split()[-1])


def worker(redis_url: str, db: str, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "muggins", "worker", "--redis", redis_url, "--db", db,
                                 "--jobs", "1"], stdout=out, stderr=subprocess.STDOUT)


def test_analyses_and_hints_are_done_by_a_worker_process(redis_url: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    app = create_app(db, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6, seats_burst=1e6,
                     redis_url=redis_url, analysis_samples=SAMPLES, worker_patience=1.0)
    proc = None
    with TestClient(app) as c:
        t = new_table(c, seats=[None, "beginner"], options={"target": 60}, hints=True)
        tok = sit(c, t["id"], 0)
        with table_socket(c, t["id"], tok) as ws:
            last = play_out(ws, 0)
        assert last["table"]["status"] == "finished"
        # no worker yet: a clear refusal, and the job stays queued
        r = c.get(f"/api/tables/{t['id']}/analysis")
        assert r.status_code == 503 and r.headers["Retry-After"] == "5", r.text
        assert "no worker" in r.json()["error"]
        assert metric(c, "muggins_worker_queue") == 1.0
        try:
            proc = worker(redis_url, db, tmp_path / "worker.log")
            r = c.get(f"/api/tables/{t['id']}/analysis")
            for _ in range(20):  # asked again while the worker starts, as the page does on a 503
                if r.status_code != 503:
                    break
                r = c.get(f"/api/tables/{t['id']}/analysis")
            assert r.status_code == 200, r.text
            got = r.json()
            record = c.get(f"/api/tables/{t['id']}/record").json()
            here = analyse_record(record, samples=SAMPLES, seed=0).to_json()
            assert {k: got[k] for k in here} == here
            png = c.get(f"/api/tables/{t['id']}/analysis.png")
            assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
            assert f"table {t['id']} analysed" in (tmp_path / "worker.log").read_text()
            assert app.state.insight.running == {}  # nothing of it ran in the server's process
            hint_at_every_turn(c)
            assert metric(c, "muggins_worker_queue") == 0.0
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(20)


def hint_at_every_turn(c: TestClient) -> None:
    """A seat's hints, asked at its turns of a new game, name one of its legal moves at that position."""
    t = new_table(c, seats=[None, "beginner"], options={"target": 31}, hints=True)
    tok = sit(c, t["id"], 0)
    auth = {"authorization": f"Bearer {tok}"}
    asked = 0
    with table_socket(c, t["id"], tok) as ws:
        m: dict[str, Any] = next_state(ws)
        while asked < 3 and not m["view"]["over"]:
            view = m["view"]
            if 0 in view.get("waiting_for", view["to_act"]) and view["legal"]:
                r = c.get(f"/api/tables/{t['id']}/hint", headers=auth)
                assert r.status_code == 200, r.text
                hint = r.json()
                assert hint["index"] == m["table"]["actions"] and hint["seat"] == 0
                assert hint["move"] is None or hint["move"] in view["legal"], (hint, view["legal"])
                asked += 1
                ws.send_json({"type": "act", "move": view["legal"][0], "at": m["table"]["actions"], "ref": "x"})
                while (r2 := ws.receive_json()).get("ref") != "x":
                    m = r2 if r2["type"] == "state" else m
            else:
                m = next_state(ws)
    assert asked == 3
