"""Consolidation throughput (runs per second, local): ``consolidate`` over realistic events with
artifacts, alternating a fast fake embedder (model time excluded) and the real local embedder,
both with the real local PII detector, each on its own fresh store.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.core.ports import Embedder, FloatArray, MemoryPorts, PiiDetector, PiiEntity
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks.bench_latency import with_calibration
from benchmarks.synthetic import HashingEmbedder, run_event
from benchmarks.timing import Summary, paired_ratios, percentile


class TimedEmbedder:
    """An ``Embedder`` that adds up the seconds its wrapped model spends, and the characters
    it is handed (``chars``: documents and queries; ``document_chars``: documents only).
    """

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.chars = 0
        self.document_chars = 0

    @property
    def model_id(self) -> str:
        """The wrapped model's id."""
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        """The wrapped model's dimension."""
        return self.inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        """Embed through the wrapped model, timed."""
        started = time.perf_counter()
        try:
            return self.inner.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - started
            size = sum(len(t) for t in texts)
            self.chars += size
            self.document_chars += size

    def embed_query(self, text: str) -> FloatArray:
        """Embed through the wrapped model, timed."""
        started = time.perf_counter()
        try:
            return self.inner.embed_query(text)
        finally:
            self.seconds += time.perf_counter() - started
            self.chars += len(text)


class TimedPii:
    """A ``PiiDetector`` that adds up the seconds its wrapped detector spends."""

    def __init__(self, inner: PiiDetector) -> None:
        self.inner = inner
        self.seconds = 0.0

    @property
    def max_chunk_chars(self) -> int:
        """The wrapped detector's limit."""
        return self.inner.max_chunk_chars

    def detect(self, text: str) -> list[PiiEntity]:
        """Detect through the wrapped detector, timed."""
        started = time.perf_counter()
        try:
            return self.inner.detect(text)
        finally:
            self.seconds += time.perf_counter() - started


def consolidation_benchmark(
    count: int, *, real_embedder: Embedder | None, seed: int = 17
) -> dict[str, Any]:
    """Consolidate ``count`` events into each store, alternating stores event by event."""
    rng = random.Random(seed)
    events = [run_event(i, rng) for i in range(count)]
    with tempfile.TemporaryDirectory(prefix="bench-consolidate-") as tmp:
        lanes: dict[str, tuple[MemoryPorts, TimedEmbedder, TimedPii]] = {}
        embedders: dict[str, Embedder] = {"excluding_model": HashingEmbedder()}
        if real_embedder is not None:
            embedders["with_local_model"] = real_embedder
        for name, inner in embedders.items():
            embedder, pii = TimedEmbedder(inner), TimedPii(LocalPiiDetector())
            ports = local_ports(LocalSettings(store=Path(tmp) / name), embedder=embedder, pii=pii)
            embedder.embed_query("warm the model up")
            pii.detect("Warm up: Jane Doe, jane@example.com")
            embedder.seconds = pii.seconds = 0.0
            lanes[name] = (with_calibration(ports, embedder.model_id), embedder, pii)
        latencies: dict[str, list[float]] = {name: [] for name in lanes}
        episodes_written: dict[str, int] = dict.fromkeys(lanes, 0)
        for event in events:
            for name, (ports, _, _) in lanes.items():
                started = time.perf_counter()
                state = consolidate(event, ports)
                latencies[name].append(time.perf_counter() - started)
                episodes_written[name] += bool(state.episode_written)
        result: dict[str, Any] = {
            "events": count,
            "messages_per_event_mean": round(sum(len(e["messages"]) for e in events) / count, 1),
        }
        for name, (_, embedder, pii) in lanes.items():
            total = sum(latencies[name])
            result[name] = {
                "runs_per_second": round(count / total, 2),
                "latency_ms": {
                    "p50": round(percentile(latencies[name], 50) * 1000, 2),
                    "p95": round(percentile(latencies[name], 95) * 1000, 2),
                },
                "share_in_embedder": round(embedder.seconds / total, 3),
                "share_in_pii_detector": round(pii.seconds / total, 3),
                "episodes_written": episodes_written[name],
                "embedder": embedder.model_id,
            }
        if "with_local_model" in latencies:
            result["with_over_excluding_model_latency"] = Summary.of(
                paired_ratios(latencies["with_local_model"], latencies["excluding_model"])
            ).as_dict()
        return result
