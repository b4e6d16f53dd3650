"""The application: every command and query, each answered by its one handler.

Surfaces (the CLI, the SDK's backends, the Lambda functions, the review server, and through
the SDK the MCP server and the framework integrations) build a message and hand it to
:meth:`Application.handle`; nothing of theirs reaches below. The application is wired once per
mode over that mode's ports (``wiring.local``, ``wiring.aws``).

Example::

    app = Application(ports)
    report = app.handle(Ingest())        # typed IngestionReport
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from agent_memory.app import messages as m
from agent_memory.core.ports import MemoryPorts

if TYPE_CHECKING:
    from agent_memory.app.handlers import (
        dossier,
        episodes,
        facts,
        flags,
        history,
        maintenance,
        models,
        reading,
        review,
        runs,
        tenants,
    )
else:

    class _Deferred:
        """A handler module imported when one of its handlers is first called: a command
        loads what it uses (``procedures list`` no consolidation, no event contract).
        """

        def __init__(self, name: str) -> None:
            self._module = f"agent_memory.app.handlers.{name}"

        def __getattr__(self, handler: str) -> Callable[[Any, MemoryPorts], Any]:
            def call(message: Any, ports: MemoryPorts) -> Any:
                return getattr(importlib.import_module(self._module), handler)(message, ports)

            call.__qualname__ = f"{self._module}.{handler}"
            return call

    dossier, episodes, facts, flags, history, maintenance, models = map(
        _Deferred, ("dossier", "episodes", "facts", "flags", "history", "maintenance", "models")
    )
    reading, review, runs, tenants = map(_Deferred, ("reading", "review", "runs", "tenants"))

R = TypeVar("R")

# Each handler takes its message and the narrowest ports it needs; the annotation below makes
# the type checker hold every one to what MemoryPorts provides.
HANDLERS: Mapping[type[m.Message[Any]], Callable[[Any, MemoryPorts], Any]] = {
    m.ConsolidateRun: runs.consolidate_run,
    m.ExtractRun: runs.extract_run,
    m.ContinueRun: runs.continue_run,
    m.RecordFailure: runs.record_failure,
    m.ListRunsToReplay: runs.runs_to_replay,
    m.RedeliveryOf: runs.redelivery_of,
    m.ReplayRun: runs.replay_run,
    m.Bootstrap: reading.bootstrap,
    m.SearchEpisodes: reading.search_episodes,
    m.Stats: reading.stats,
    m.GetEpisode: episodes.get_episode,
    m.ListEpisodes: episodes.list_episodes,
    m.ListAgents: episodes.list_agents,
    m.ForgetRun: episodes.forget_run,
    m.ListProcedures: review.list_procedures,
    m.ShowProcedure: review.show_procedure,
    m.DecideProcedure: review.decide_procedure,
    m.EditProcedure: review.edit_procedure,
    m.RetireProcedure: review.retire_procedure,
    m.ReviewQueue: dossier.review_queue,
    m.CompareProcedure: dossier.compare_procedure,
    m.GetFact: review.get_fact,
    m.ListFacts: facts.list_facts,
    m.RetractFact: facts.retract_fact,
    m.CorrectFact: facts.correct_fact,
    m.AssertFact: facts.assert_fact,
    m.History: history.history,
    m.FlagMemory: flags.flag_memory,
    m.ListFlags: flags.list_flags,
    m.CloseFlag: flags.close_flag,
    m.FastPathFacts: review.fast_path_facts,
    m.ListContestedFacts: review.contested_facts,
    m.ResolveFact: review.resolve_fact,
    m.Ingest: maintenance.ingest,
    m.Decay: maintenance.run_decay,
    m.PreviewDecay: maintenance.preview_decay,
    m.MigrationStatus: models.migration_status,
    m.Reembed: models.advance_migration,
    m.ExportTenant: tenants.export_tenant,
    m.ForgetTenant: tenants.forget,
    m.ForgetRuns: tenants.forget_runs,
    m.RedactText: tenants.redact,
}


class Application:
    """agent-memory's use cases over one set of ports."""

    __slots__ = ("ports",)

    def __init__(self, ports: MemoryPorts) -> None:
        self.ports = ports

    def handle(self, message: m.Message[R]) -> R:
        """Answer ``message`` with its handler."""
        try:
            handler = HANDLERS[type(message)]
        except KeyError:
            raise TypeError(
                f"{type(message).__name__} is not a message of the application"
            ) from None
        return cast(R, handler(message, self.ports))
