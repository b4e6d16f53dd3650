"""At-least-once delivery and the state machine's retry policy, as test drivers.

:func:`schedule` turns distinct events into deliveries, some of them redelivered, either
concurrently with the first delivery or after it completed. :class:`StateMachineModel` runs the
consolidation steps the way ``statemachines/consolidation.asl.json`` does: each Task retried on
the errors its ``Retry`` names, up to its ``MaxAttempts``, then caught, recorded and
dead-lettered. The policy is read from the ASL file itself, so the model cannot drift from it.
"""

from __future__ import annotations

import functools
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.moto_workflow import ASL

Event = dict[str, Any]
_ANY_ERROR = "States.ALL"


@dataclass(frozen=True)
class Delivery:
    """One delivery of an event; ``copies`` > 1 means that many concurrent deliveries."""

    event: Event
    copies: int = 1


@dataclass(frozen=True)
class Schedule:
    """First deliveries (some doubled concurrently), then redeliveries of completed runs."""

    first: tuple[Delivery, ...]
    later: tuple[Delivery, ...]

    @property
    def sent(self) -> int:
        return sum(d.copies for d in (*self.first, *self.later))

    @property
    def duplicates(self) -> int:
        return self.sent - len(self.first)

    @property
    def concurrent_duplicates(self) -> int:
        return sum(d.copies - 1 for d in self.first)


def schedule(
    events: Sequence[Event], *, duplicate_share: float, concurrent_share: float, seed: int
) -> Schedule:
    """Redeliver ``duplicate_share`` of the events: ``concurrent_share`` of those as 2-3
    simultaneous deliveries, the rest once more after the first delivery completed.
    """
    rng = random.Random(seed)
    first, later = [], []
    for event in events:
        if rng.random() >= duplicate_share:
            first.append(Delivery(event))
        elif rng.random() < concurrent_share:
            first.append(Delivery(event, copies=rng.choice((2, 3))))
        else:
            first.append(Delivery(event))
            later.append(Delivery(event))
    rng.shuffle(later)
    return Schedule(tuple(first), tuple(later))


def deliver(plan: Schedule, process: Callable[[Event], Any], *, workers: int = 4) -> list[Any]:
    """Process every delivery: the first wave on ``workers`` threads (concurrent copies start
    together at a barrier), then the redeliveries once the first wave is done. The results of
    every ``process`` call, in no particular order.
    """
    results: list[Any] = []
    lock = threading.Lock()

    def keep(result: Any) -> None:
        with lock:
            results.append(result)

    def run(delivery: Delivery) -> None:
        if delivery.copies == 1:
            keep(process(delivery.event))
            return
        barrier = threading.Barrier(delivery.copies)

        def copy() -> None:
            barrier.wait()
            keep(process(delivery.event))

        threads = [threading.Thread(target=copy) for _ in range(delivery.copies)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    for wave in (plan.first, plan.later):
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, wave))
    return results


@dataclass(frozen=True)
class Retrier:
    """One ``Retry`` entry: the errors it matches, how many retries, and their backoff."""

    errors: frozenset[str]
    max_attempts: int
    interval: float = 1.0
    backoff_rate: float = 2.0
    max_delay: float | None = None
    full_jitter: bool = False

    @classmethod
    def from_asl(cls, retry: dict[str, Any]) -> Retrier:
        """The entry as Step Functions reads it, its defaults included."""
        return cls(
            frozenset(retry["ErrorEquals"]),
            int(retry.get("MaxAttempts", 3)),
            float(retry.get("IntervalSeconds", 1)),
            float(retry.get("BackoffRate", 2.0)),
            retry.get("MaxDelaySeconds"),
            retry.get("JitterStrategy") == "FULL",
        )

    def matches(self, error_name: str) -> bool:
        return error_name in self.errors or _ANY_ERROR in self.errors

    def delay(self, retry: int, rng: random.Random) -> float:
        """Seconds before retry number ``retry`` (0-based), as Step Functions computes it."""
        wait = self.interval * self.backoff_rate**retry
        if self.max_delay is not None:
            wait = min(wait, self.max_delay)
        return rng.uniform(0, wait) if self.full_jitter else wait


@dataclass(frozen=True)
class Task:
    """A Task state: its name, the core step it runs (if any) and its retriers."""

    state: str
    step: str | None
    retriers: tuple[Retrier, ...]


def asl_tasks(path: Path = ASL) -> dict[str, Task]:
    """Every Task state of the ASL, in definition order, by state name."""
    states = json.loads(path.read_text())["States"]
    tasks = {}
    for name, state in states.items():
        if state["Type"] != "Task":
            continue
        comment = state.get("Comment", "")
        step = comment.removeprefix("core step: ") if comment.startswith("core step: ") else None
        retriers = tuple(Retrier.from_asl(r) for r in state.get("Retry", []))
        tasks[name] = Task(name, step, retriers)
    return tasks


@dataclass
class Outcome:
    """How one run's consolidation ended under the model."""

    tenant_id: str
    run_id: str
    state: Event | None = None
    error: dict[str, str] | None = None
    recorded: bool = False
    event: Event | None = None

    @property
    def consolidated(self) -> bool:
        return self.state is not None


@dataclass
class StateMachineModel:
    """The ASL's Task/Retry/Catch behaviour around two callables.

    ``call_step(step, state)`` runs one core step; ``record(payload)`` records a failed run
    (RecordFailedRun) and ``dead_letter(payload)`` sends it on (SendToDeadLetterQueue).
    Retries wait the ASL's backoff times ``time_scale`` (0: retry at once).
    """

    call_step: Callable[[str, Event], Event]
    record: Callable[[Event], Any]
    dead_letter: Callable[[Event], Any] = lambda payload: None
    time_scale: float = 0.0
    tasks: dict[str, Task] = field(default_factory=asl_tasks)
    retries: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _rng: random.Random = field(default_factory=lambda: random.Random(0))

    def run(self, event: Event) -> Outcome:
        """Consolidate ``event`` through every core step, in the ASL's order."""
        outcome = Outcome(*_identity(event), event=event)
        state = event
        for task in self.tasks.values():
            if task.step is None:
                continue
            try:
                state = self._attempt(task, functools.partial(self.call_step, task.step, state))
            except Exception as error:
                outcome.error = {
                    "Error": type(error).__name__,
                    "Cause": str(error),
                    "Step": str(task.step),
                }
                payload = {"event": event, "error": outcome.error}
                try:
                    self._attempt(
                        self.tasks["RecordFailedRun"], functools.partial(self.record, payload)
                    )
                    outcome.recorded = True
                except Exception:
                    outcome.recorded = False  # the ASL still dead-letters the event
                self.dead_letter(payload)
                return outcome
        outcome.state = state
        return outcome

    def _attempt(self, task: Task, call: Callable[[], Any]) -> Any:
        used = [0] * len(task.retriers)
        while True:
            try:
                return call()
            except Exception as error:
                name = type(error).__name__
                index = next((i for i, r in enumerate(task.retriers) if r.matches(name)), None)
                if index is None or used[index] >= task.retriers[index].max_attempts:
                    raise
                with self._lock:
                    self.retries[name] += 1
                    delay = task.retriers[index].delay(used[index], self._rng)
                used[index] += 1
                if self.time_scale:
                    time.sleep(delay * self.time_scale)


def _identity(event: Event) -> tuple[str, str]:
    detail = event.get("detail", event) if isinstance(event, dict) else {}
    return str(detail.get("tenant_id")), str(detail.get("run_id"))


def distinct(events: Iterable[Event]) -> list[Event]:
    """Events with one entry per (tenant, run)."""
    seen: dict[tuple[str, str], Event] = {}
    for event in events:
        seen.setdefault(_identity(event), event)
    return list(seen.values())
