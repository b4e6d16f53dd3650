"""The record of recent ingestion jobs, so a job id can be asked about after it ran."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import cast, get_args

from agent_memory.adapters.local.files import write_atomic
from agent_memory.core.model.models import IngestionJob, IngestionState, IngestionStatistics

_STATES: frozenset[str] = frozenset(get_args(IngestionState))
MAX_REASONS = 20  # a job's failure reasons kept in the log (the count is always whole)


class JobLog:
    """The latest ``keep`` jobs in one JSON file; written only under the ingestion lock."""

    def __init__(self, path: Path, *, keep: int = 100) -> None:
        self._path = path
        self._keep = keep

    def record(self, job: IngestionJob) -> None:
        """Add or update a job, forgetting the oldest beyond ``keep``."""
        jobs = self._read()
        jobs.pop(job.job_id, None)  # re-inserted last: dict order is recency order
        jobs[job.job_id] = {
            "status": job.status,
            "started_at": job.started_at,
            "statistics": asdict(job.statistics),
            "failure_reasons": list(job.failure_reasons[:MAX_REASONS]),
        }
        recent = dict(list(jobs.items())[-self._keep :])
        write_atomic(self._path, json.dumps(recent, indent=2).encode() + b"\n")

    def abandon_running(self) -> None:
        """Mark jobs still running as FAILED; call only while holding the ingestion lock.

        Holding the lock proves no job runs, so such a record is left by a crashed process.
        """
        jobs = self._read()
        running = [k for k, v in jobs.items() if v.get("status") in ("STARTING", "IN_PROGRESS")]
        if running:
            for job_id in running:
                jobs[job_id] = {**jobs[job_id], "status": "FAILED"}
            write_atomic(self._path, json.dumps(jobs, indent=2).encode() + b"\n")

    def drop_reasons(self, key_prefix: str) -> int:
        """Remove the failure reasons that name a document under ``key_prefix`` (a forgotten
        tenant's); the counts stay. Call only while holding the ingestion lock.
        """
        jobs = self._read()
        dropped = 0
        for entry in jobs.values():
            reasons = entry.get("failure_reasons")
            if isinstance(reasons, list):
                kept = [r for r in reasons if not str(r).startswith(key_prefix)]
                dropped += len(reasons) - len(kept)
                entry["failure_reasons"] = kept
        if dropped:
            write_atomic(self._path, json.dumps(jobs, indent=2).encode() + b"\n")
        return dropped

    def get(self, job_id: str) -> IngestionJob | None:
        """Return the job, or None if unknown (or long forgotten)."""
        entry = self._read().get(job_id)
        if entry is None:
            return None
        status, started_at = entry.get("status"), entry.get("started_at")
        if status not in _STATES or not isinstance(started_at, int | float):
            return None
        statistics = entry.get("statistics")
        counts = statistics if isinstance(statistics, dict) else {}
        reasons = entry.get("failure_reasons")
        return IngestionJob(
            job_id=job_id,
            status=cast(IngestionState, status),
            started_at=float(started_at),
            statistics=IngestionStatistics(
                **{f: int(counts.get(f, 0)) for f in ("scanned", "indexed", "failed")}
            ),
            failure_reasons=tuple(map(str, reasons)) if isinstance(reasons, list) else (),
        )

    def _read(self) -> dict[str, dict[str, object]]:
        try:
            data = json.loads(self._path.read_bytes())
        except (FileNotFoundError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): v for k, v in data.items() if isinstance(v, dict)}
