"""The server's figures at ``/metrics``, in the Prometheus text format (prometheus-client), for a
Prometheus server or any scraper to watch: tables by status, open sockets, actions and their latency, bot
and store failures, the analysis queue, table lease changes.

Each app has its own registry (two apps in one process, as in the tests, count apart). The figures are
totals over all tables: nothing in them tells a seat anything about a hand."""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

# seconds from a move's arrival to its broadcast: a move applied in-process takes well under 1 ms, one whose
# table is slow to answer (a busy process, a relay over Redis) up to seconds
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
STATUSES = ("open", "playing", "finished", "abandoned")


class _Snapshot(Collector):
    """What is read at each scrape: the tables in memory by status, the analyses and hints waiting or running."""

    def __init__(self, manager: Any, insight: Any) -> None:
        self.manager = manager
        self.insight = insight

    def collect(self) -> Iterable[GaugeMetricFamily]:
        tables = GaugeMetricFamily("muggins_tables", "Tables held by this process, by status", labels=["status"])
        counts = Tally(t.status for t in list(self.manager.tables.values()))
        for status in sorted({*STATUSES, *counts}):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        queue = GaugeMetricFamily("muggins_analysis_queue", "Analyses and hints waiting or being computed",
                                  labels=["kind"])
        queue.add_metric(["analysis"], len(self.insight.running))
        queue.add_metric(["hint"], len(self.insight.hint_tasks))
        yield queue
        queued = getattr(self.insight, "queued", None)
        if queued is not None:  # scale-out mode: the jobs on the workers' queue, over all the processes
            yield GaugeMetricFamily("muggins_worker_queue", "Analysis and hint jobs waiting for a worker (scale-out)",
                                    value=queued)


class Metrics:
    """The figures of one app."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self, manager: Any, insight: Any) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.sockets = Gauge("muggins_sockets", "WebSockets open on this process", registry=r)
        self.actions = Counter("muggins_actions", "Actions applied and stored, by game and by who played them",
                               ["game", "by"], registry=r)
        self.latency = Histogram("muggins_action_latency_seconds",
                                 "Seconds from a person's move arriving on a socket to its broadcast",
                                 buckets=LATENCY_BUCKETS, registry=r)
        self.store_writes = Histogram("muggins_store_write_seconds",
                                      "Seconds each action waited for its commit (on a writer thread: its table's "
                                      "next action waits, the other tables do not)",
                                      buckets=LATENCY_BUCKETS, registry=r)
        self.bot_failures = Counter("muggins_bot_failures", "Bot moves that failed (to choose or to apply)",
                                    registry=r)
        self.store_failures = Counter("muggins_store_write_failures",
                                      "Writes to the database that failed (the change was refused)", registry=r)
        self.lease_changes = Counter("muggins_lease_changes",
                                     "Tables this process took over or gave up (scale-out mode)", registry=r)
        r.register(_Snapshot(manager, insight))

    def action(self, game: str, bot: bool, stored: float = 0.0) -> None:
        """An action applied, its commit having taken ``stored`` seconds."""
        self.actions.labels(game, "bot" if bot else "person").inc()
        self.store_writes.observe(stored)

    def bot_failed(self) -> None:
        self.bot_failures.inc()

    def store_failed(self) -> None:
        self.store_failures.inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


class NoMetrics:
    """What a table manager counts to when no figures are kept."""

    def action(self, game: str, bot: bool, stored: float = 0.0) -> None:
        pass

    def bot_failed(self) -> None:
        pass

    def store_failed(self) -> None:
        pass
