"""``MemoryClient``: one interface over the embedded memory and a deployed stack.

Example (local mode, a store in ``$AGENT_MEMORY_HOME`` or ``~/.agent-memory``)::

    from agent_memory.sdk import MemoryClient

    with MemoryClient.local() as memory:
        reply = memory.bootstrap("acme", "reviewer", "Review the Tailspin MSA")
        # The block ("" until something relevant is remembered) goes in a message of its own
        # after the instructions; the guidance, naming its boundaries, in the instructions.
        memory_message, guidance = reply["context"], reply.get("context_guidance")
        ...  # the agent runs
        handle = memory.finish_run(
            tenant_id="acme", agent_id="reviewer", run_id="run-0001",
            task="Review the Tailspin MSA", outcome="COMPLETED",
        )
        print(handle.wait()["episode"])  # "written"
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from itertools import islice
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Protocol, TypeVar, cast

from agent_memory.app.messages import (
    AssertFact,
    Bootstrap,
    CorrectFact,
    DecideProcedure,
    EditProcedure,
    FlagMemory,
    ForgetRun,
    ForgetRuns,
    GetEpisode,
    GetFact,
    History,
    ListAgents,
    ListEpisodes,
    ListFacts,
    ListProcedures,
    Message,
    RedactText,
    RetireProcedure,
    RetractFact,
    SearchEpisodes,
    ShowProcedure,
)
from agent_memory.app.wire import (
    bootstrap_message,
    episode_message,
    flag_message,
    review_message,
    search_message,
)
from agent_memory.core.api.bootstrap_reply import found_in
from agent_memory.core.api.episode_record import EpisodePage, EpisodeRecord
from agent_memory.core.api.episode_search import EpisodeSearch
from agent_memory.core.api.fact_record import FactPage, FactRecord
from agent_memory.core.api.flag_page import FlagRecord
from agent_memory.core.api.history_page import HistoryPage
from agent_memory.core.model.errors import Conflict, InvalidInput, StoreUnavailable
from agent_memory.core.model.identifiers import checked_id
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.policies import Policies
from agent_memory.core.model.requests import BootstrapRequest, Surface
from agent_memory.core.model.scope import MAX_TEAM_AGENTS, ScopeKind
from agent_memory.core.model.tenant_identity import TenantIdentity
from agent_memory.core.ports import ChatModel, Embedder, PiiDetector
from agent_memory.core.workflows.forgetting import RunsForgotten
from agent_memory.core.workflows.redaction import TextRedacted
from agent_memory.sdk.aws import (
    AwsBackend,
    IdentityProofs,
    RetryPolicy,
    aws_clients,
    aws_session,
    function_name_of,
    operator_application,
    settings_from_environment,
    settings_from_outputs,
    stack_outputs,
)
from agent_memory.sdk.bounds import plain
from agent_memory.sdk.errors import ConfigurationError, StoreUnavailableError, invalid
from agent_memory.sdk.events import DEFAULT_SOURCE, ValidatedRun, run_finished
from agent_memory.sdk.handles import RunHandle
from agent_memory.sdk.served import ServedReceipts
from agent_memory.sdk.types import BootstrapReply, ProcedureView, SearchReply

Mode = Literal["local", "aws"]
R = TypeVar("R")
M = TypeVar("M", bound=Message[Any])
# A moment a caller names: an aware datetime, or seconds since the epoch.
Moment = datetime | float
DEFAULT_STACK = "AgentMemory"


class Backend(Protocol):
    """What a mode provides; the client validates before calling it."""

    def handle(self, message: Message[R]) -> R:
        """The application's answer to a checked message (on AWS, by the function that
        serves it).
        """
        ...

    def submit(self, run: ValidatedRun) -> RunHandle:
        """Report a validated RunFinished event."""
        ...

    def close(self, *, wait: bool = True) -> None:
        """Release what the backend holds."""
        ...


class MemoryClient:
    """Memory for an agent: ``bootstrap`` when a run starts, ``finish_run`` when it ends.

    Build one with :meth:`local`, :meth:`aws`, :meth:`aws_from_stack` or :meth:`aws_from_env`;
    every method then behaves the same in both modes. Input is validated here, before anything
    is sent or written: a bad field raises :class:`InvalidInputError` naming it. Safe to share
    between threads.
    """

    def __init__(self, backend: Backend, mode: Mode) -> None:
        self._backend = backend
        self.mode: Mode = mode
        self._served = ServedReceipts()

    @classmethod
    def local(
        cls,
        path: str | Path | None = None,
        *,
        llm: str | None = None,
        chat: ChatModel | None = None,
        embedder: Embedder | None = None,
        pii: PiiDetector | None = None,
        policies: Policies | None = None,
        max_workers: int = 1,
    ) -> MemoryClient:
        """The embedded memory in ``path`` (default ``$AGENT_MEMORY_HOME``, else
        ``~/.agent-memory``), created on first use.

        ``llm`` (``ollama:llama3.1:8b``, ``bedrock:<model id>``; default ``$AGENT_MEMORY_LLM``)
        or ``chat`` (any ``ChatModel``, e.g. ``LangChainChat(model)``) extracts artifacts from
        runs that carry none; without either, the deterministic extractor does. ``embedder``,
        ``pii`` and ``policies`` replace the local models and the default policies;
        ``max_workers`` threads consolidate finished runs in the background.
        """
        from dataclasses import replace

        from agent_memory.sdk.local import LocalBackend
        from agent_memory.wiring.local import local_application
        from agent_memory.wiring.local_settings import LocalSettings

        settings = LocalSettings.from_environment(path)
        if llm is not None:
            settings = replace(settings, llm=llm)
        try:
            app = local_application(
                settings, embedder=embedder, pii=pii, chat=chat, policies=policies
            )
        except InvalidInput as error:
            raise invalid(error) from None
        except Conflict as error:
            # E.g. an embedder other than the store's active model: its vectors would not match.
            raise ConfigurationError(str(error)) from None
        except StoreUnavailable as error:
            raise StoreUnavailableError(str(error)) from None
        return cls(LocalBackend(app, max_workers=max_workers), "local")

    @classmethod
    def aws(
        cls,
        *,
        event_bus_name: str,
        bootstrap_function_name: str,
        procedure_review_function_name: str | None = None,
        episodes_function_name: str | None = None,
        region: str | None = None,
        session: Any | None = None,
        source: str = DEFAULT_SOURCE,
        retry: RetryPolicy | None = None,
        events_client: Any | None = None,
        lambda_client: Any | None = None,
        tenant_identity: str = "payload",
    ) -> MemoryClient:
        """A deployed stack: runs go to ``event_bus_name``, bootstrap to its function, review
        and single episodes (``get_episode``, ``list_episodes``, ``forget_run``,
        ``list_agents``) to theirs, if named.

        Credentials and region come from ``session`` (a ``boto3.Session``) or boto3's defaults.
        ``source`` is the events' ``Source``; ``retry`` bounds PutEvents retries; pre-built
        ``events_client``/``lambda_client`` replace the ones the SDK makes. For a stack
        deployed with ``-c tenantIdentity=principal-tag``, pass ``tenant_identity=
        "principal-tag"``: each bootstrap then carries a signed proof of the caller's identity,
        and each run the source its tenant's tag allows (``source`` is not used).
        """
        if events_client is None or lambda_client is None:
            events, lambda_ = aws_clients(region, session)
            events_client = events_client or events
            lambda_client = lambda_client or lambda_
        proofs = episode_proofs = None
        try:
            mode = TenantIdentity.parse(tenant_identity)
        except InvalidInput as error:
            raise invalid(error) from None
        if mode is TenantIdentity.PRINCIPAL_TAG:
            signer = session or aws_session(region)
            proofs = IdentityProofs(
                signer,
                audience=function_name_of(bootstrap_function_name),
                region=region or lambda_client.meta.region_name,
            )
            if episodes_function_name:
                episode_proofs = IdentityProofs(
                    signer,
                    audience=function_name_of(episodes_function_name),
                    region=region or lambda_client.meta.region_name,
                )
        backend = AwsBackend(
            events=events_client,
            lambda_=lambda_client,
            event_bus_name=event_bus_name,
            bootstrap_function_name=bootstrap_function_name,
            procedure_review_function_name=procedure_review_function_name,
            source=source,
            retry=retry or RetryPolicy(),
            proofs=proofs,
            episodes_function_name=episodes_function_name,
            episode_proofs=episode_proofs,
        )
        return cls(backend, "aws")

    @classmethod
    def aws_from_stack(
        cls,
        stack_name: str = DEFAULT_STACK,
        *,
        region: str | None = None,
        session: Any | None = None,
        operator: bool = False,
        **options: Any,
    ) -> MemoryClient:
        """:meth:`aws` configured from the stack's outputs (``EventBusName``,
        ``BootstrapFunctionName``, ``ProcedureReviewFunctionName``, ``EpisodesFunctionName``).

        With ``operator``, a person's decisions about tenant memory (``history``,
        ``forget_runs``) run over the stack's stores on the session's credentials, which the
        stack's operator policy must grant; no agent-facing function serves them.
        """
        outputs = stack_outputs(stack_name, region=region, session=session)
        settings = settings_from_outputs(outputs, stack_name)
        client = cls.aws(**cast(Any, settings), region=region, session=session, **options)
        if operator:
            backend = cast(AwsBackend, client._backend)
            backend.operator = operator_application(stack_name, region=region, session=session)
        return client

    @classmethod
    def aws_from_env(cls, environ: Mapping[str, str] | None = None, **options: Any) -> MemoryClient:
        """:meth:`aws` configured from ``AGENT_MEMORY_EVENT_BUS``,
        ``AGENT_MEMORY_BOOTSTRAP_FUNCTION`` and optionally
        ``AGENT_MEMORY_PROCEDURE_REVIEW_FUNCTION``, ``AGENT_MEMORY_EPISODES_FUNCTION`` and
        ``AGENT_MEMORY_REGION``.
        """
        settings = settings_from_environment(os.environ if environ is None else environ)
        return cls.aws(**{**cast(Any, settings), **options})

    def bootstrap(
        self,
        tenant_id: str,
        agent_id: str,
        task: str,
        *,
        task_type: str | None = None,
        domain: str | None = None,
        scope: ScopeKind = "agent",
        team: Sequence[str] | None = None,
        surface: Surface = "sdk",
    ) -> BootstrapReply:
        """The memory of a run about to start.

        Give the model ``reply["context"]`` in a message of its own, after its instructions and
        before the task (never inside the task text), and add ``reply["context_guidance"]`` to
        the instructions: it names the block's boundaries and says its quoted lines are data.
        ``task_type`` selects the procedure to recommend, ``domain`` narrows the facts.
        ``scope`` widens whose past runs are read: ``"agent"`` (the default, this agent's),
        ``"team"`` (the agents in ``team`` and this one) or ``"tenant"`` (every agent of the
        tenant); each episode names its author (``agent_id``). The procedure's serving
        receipt (``reply["procedure"]["receipt"]``) is kept by the client: a run of this agent
        reporting on that procedure (``procedure_feedback`` in :meth:`finish_run`, or
        :meth:`record_procedure_result`) carries it back. ``surface`` names who reads the
        block (``"sdk"``; an integration names itself): the block tells the model how to
        report the procedure's result with what that surface offers.
        """
        request = _request(tenant_id, agent_id, task, task_type, domain, scope, team, surface)
        reply = self._backend.handle(Bootstrap(request))
        self._served.keep(request.tenant_id, request.agent_id, reply)
        return reply

    def search(
        self,
        tenant_id: str,
        agent_id: str,
        query: str,
        *,
        domain: str | None = None,
        scope: ScopeKind = "agent",
        team: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> SearchReply:
        """Past episodes and confirmed facts relevant to ``query``, best first, at most
        ``limit`` of each: the retrieval of :meth:`bootstrap` (same thresholds, same scope),
        without the block or a procedure.
        """
        if limit is not None:
            # By its type: no method of the caller's object is run.
            if type(limit) is bool or not issubclass(type(limit), int):
                raise invalid(InvalidInput("limit", "must be a whole number"))
            limit = int.__int__(limit)
        if limit is not None and limit < 1:
            raise invalid(InvalidInput("limit", "must be at least 1"))
        request = _request(tenant_id, agent_id, query, None, domain, scope, team, field="query")
        return found_in(self._backend.handle(Bootstrap(request)), limit)

    def search_episodes(
        self,
        tenant_id: str,
        agent_id: str,
        query: str,
        *,
        scope: ScopeKind = "agent",
        team: Sequence[str] | None = None,
        limit: int = 10,
        units: int = 10,
        min_similarity: float | None = None,
        since: Moment | None = None,
        until: Moment | None = None,
    ) -> EpisodeSearch:
        """The scope's past runs ranked against ``query``, best first: at most ``limit``
        episodes (each with its best units) and ``units`` units across them, ranked as
        :meth:`bootstrap` ranks them but in full (no threshold unless ``min_similarity``).
        With ``since`` or ``until`` (as :meth:`list_episodes` takes them), only runs created
        in ``[since, until)`` are ranked. ``reply["left_out"]`` counts what a reply too large
        to send left out.
        """
        request: dict[str, Any] = {"action": "search", "tenant_id": tenant_id}
        request |= {"agent_id": agent_id, "query": query, "scope": scope}
        request |= {"limit": limit, "units": units}
        if team is not None:
            request["team"] = _team(team)
        if min_similarity is not None:
            request["min_similarity"] = min_similarity
        request |= _window(since, until)
        return self._backend.handle(_parsed(SearchEpisodes, search_message, request))

    def finish_run(self, event: Mapping[str, Any] | None = None, /, **fields: Any) -> RunHandle:
        """Report a finished run (a RunFinished event) for consolidation.

        Pass the event's detail as a mapping, as keyword fields, or both (fields win).
        The event is validated first: a bad one raises :class:`InvalidInputError` naming the
        field, and nothing is sent or written. Locally the run is then consolidated in the
        background (``handle.wait()`` returns the summary); on AWS it is on the bus when this
        returns (``handle.wait()`` returns the receipt), retried on throttling and transient
        failures; an event over 256 KB raises :class:`EventTooLargeError`.

        ``procedure_feedback`` counts only with the serving receipt of the bootstrap that served
        the procedure: without one given, the client adds one its bootstraps kept for this
        tenant, agent and procedure (with none, the report is sent and not counted).
        """
        validated = run_finished(event, fields)
        taken = self._served.attach(validated.detail)
        if taken is not None:
            validated = validated.with_receipt(taken)
        try:
            return self._backend.submit(validated)
        except BaseException:
            if taken is not None:
                self._served.give_back(validated.detail, taken)
            raise

    def record_procedure_result(
        self,
        tenant_id: str,
        agent_id: str,
        run_id: str,
        procedure_id: str,
        succeeded: bool,
        *,
        task: str,
        task_type: str | None = None,
        domain: str | None = None,
        outcome: Literal["COMPLETED", "PARTIAL", "FAILED"] | None = None,
        receipt: str | None = None,
    ) -> RunHandle:
        """Report whether a procedure served to run ``run_id`` worked.

        Feedback travels in the run's RunFinished event (``procedure_feedback``) and is counted
        once per run, so it is normally sent inside :meth:`finish_run`. This method sends that
        event for a run with nothing else to report; the run is consolidated like any other.
        Do not use it for a run already finished: the first event of a run id is the one kept.
        It counts only with the serving receipt of the bootstrap that served the procedure:
        ``receipt`` (the reply's ``procedure["receipt"]``), else one this client kept.
        """
        detail = {
            "tenant_id": tenant_id,
            "agent_id": agent_id,
            "run_id": run_id,
            "task": task,
            "task_type": task_type,
            "domain": domain,
            "outcome": outcome,
            "procedure_feedback": {
                "procedure_id": procedure_id,
                "succeeded": succeeded,
                "receipt": receipt,
            },
        }
        return self.finish_run({k: v for k, v in detail.items() if v is not None})

    def list_procedures(
        self, tenant_id: str, *, status: ProcedureStatus | str | None = None
    ) -> list[ProcedureView]:
        """The tenant's procedures, optionally only those in ``status`` (e.g. ``PENDING``)."""
        request: dict[str, Any] = {"action": "list", "tenant_id": tenant_id}
        if status is not None:
            request["status"] = status
        return self._backend.handle(_parsed(ListProcedures, review_message, request))

    def get_procedure(self, tenant_id: str, procedure_id: str) -> ProcedureView:
        """One procedure of the tenant; :class:`NotFoundError` if it has none by that id."""
        return self._review("show", tenant_id, procedure_id)

    def approve_procedure(
        self,
        tenant_id: str,
        procedure_id: str,
        *,
        reviewer: str,
        overrule: bool = False,
        expected_revision: int | None = None,
    ) -> ProcedureView:
        """Validate a procedure: from now on it is served (as a trial for its first uses).
        A procedure a person rejected or retired is approved only with ``overrule=True``
        (else ``ConflictError`` names that decision); the history keeps both decisions. With
        ``expected_revision`` (the ``revision`` of the steps you read), an edit made since is
        never approved unread (``ConflictError``).
        """
        fields: dict[str, Any] = {"reviewer": reviewer}
        if overrule:
            fields["overrule"] = overrule
        if expected_revision is not None:
            fields["expected_revision"] = expected_revision
        return self._review("approve", tenant_id, procedure_id, **fields)

    def reject_procedure(
        self, tenant_id: str, procedure_id: str, *, reviewer: str, reason: str
    ) -> ProcedureView:
        """Reject a procedure, saying why; it is never served."""
        return self._review("reject", tenant_id, procedure_id, reviewer=reviewer, reason=reason)

    def edit_procedure(
        self,
        tenant_id: str,
        procedure_id: str,
        steps: Sequence[str],
        *,
        reviewer: str,
        reason: str,
        title: str | None = None,
        expected_revision: int | None = None,
    ) -> ProcedureView:
        """Replace the steps (and ``title``, when given) of a procedure not served yet
        (PENDING, NEEDS_REVIEW, REJECTED or RETIRED), saying why; it keeps its id and status
        and is served once approved. Pass the ``revision`` you read as ``expected_revision``:
        ``ConflictError`` then says if someone edited it since. Steps are held to a proposal's
        bounds (``InvalidInputError`` names ``steps``) and scrubbed like every stored text.
        """
        if isinstance(steps, str):
            raise invalid(InvalidInput("steps", "must be a list of steps, not one string"))
        fields: dict[str, Any] = {"steps": list(steps), "reviewer": reviewer, "reason": reason}
        if title is not None:
            fields["title"] = title
        if expected_revision is not None:
            fields["expected_revision"] = expected_revision
        return self._review("edit", tenant_id, procedure_id, **fields)

    def retire_procedure(
        self, tenant_id: str, procedure_id: str, *, reviewer: str, reason: str
    ) -> ProcedureView:
        """Take a served procedure out of service for good, saying why: no bootstrap serves it
        again, runs proposing it again do not bring it back, and approving it again takes
        ``overrule=True``.
        """
        return self._review("retire", tenant_id, procedure_id, reviewer=reviewer, reason=reason)

    def get_episode(self, tenant_id: str, agent_id: str, run_id: str) -> EpisodeRecord | None:
        """The agent's stored episode of run ``run_id`` (every text field, as scrubbed), or
        None: an episode is there once its run is consolidated (locally, ``handle.wait()``).
        """
        request = {"action": "get", "tenant_id": tenant_id, "agent_id": agent_id, "run_id": run_id}
        return self._backend.handle(_parsed(GetEpisode, episode_message, request))

    def list_episodes(
        self,
        tenant_id: str,
        agent_id: str,
        *,
        limit: int = 100,
        cursor: str | None = None,
        since: Moment | None = None,
        until: Moment | None = None,
    ) -> EpisodePage:
        """One page of the agent's unexpired episodes, newest first (at most ``limit``, up to
        100); pass the page's ``cursor`` back for the next one (None on the last page), with
        the same ``since`` and ``until``: only episodes created in ``[since, until)`` (each an
        aware ``datetime`` or seconds since the epoch; a naive ``datetime`` is refused).
        """
        request: dict[str, Any] = {"action": "list", "tenant_id": tenant_id, "limit": limit}
        if cursor is not None:
            request["cursor"] = cursor
        request["agent_id"] = agent_id
        request |= _window(since, until)
        return self._backend.handle(_parsed(ListEpisodes, episode_message, request))

    def forget_run(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Forget one item the agent's store keeps (the LangGraph store's ``delete``): its
        episode and its consolidation records, so the same id may be reported again (and is
        consolidated afresh; on AWS, with a new ``finished_at``); True if it had an episode.
        A run that is no store item is refused (:class:`ForbiddenError`): no agent deletes
        what a run taught; a person does, with :meth:`forget_runs`.
        """
        ids = {"tenant_id": tenant_id, "agent_id": agent_id, "run_id": run_id}
        request = {"action": "forget", **ids}
        return self._backend.handle(_parsed(ForgetRun, episode_message, request))

    def get_fact(self, tenant_id: str, domain: str, fact_hash: str) -> FactRecord | None:
        """One fact of the tenant's domain by its hash (as a reply names it), with its
        confirmations: which agents' runs counted, and whether the knowledge base serves it yet;
        None if there is none.
        """
        request = {"action": "fact", "tenant_id": tenant_id, "domain": domain}
        request["fact_hash"] = fact_hash
        return self._backend.handle(_parsed(GetFact, episode_message, request))

    def list_facts(
        self,
        tenant_id: str,
        *,
        status: str | None = None,
        domain: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> FactPage:
        """One page of the tenant's facts, each as :meth:`get_fact` reads it (of one ``status``,
        e.g. ``"CONFIRMED"``, and one ``domain`` when given; at most ``limit``, up to 100, fewer
        when their records would pass the reply's size limit); pass the page's ``cursor`` back
        for the next one (None on the last page).
        """
        request: dict[str, Any] = {"action": "facts", "tenant_id": tenant_id, "limit": limit}
        for name, value in (("status", status), ("domain", domain), ("cursor", cursor)):
            if value is not None:
                request[name] = value
        return self._backend.handle(_parsed(ListFacts, episode_message, request))

    def retract_fact(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        *,
        reviewer: str,
        reason: str | None = None,
    ) -> FactRecord:
        """Retract a fact (an operator's decision, kept in the history): served nowhere from
        the next bootstrap on, its knowledge-base document deleted, and agents' later sightings
        never promote it again. :class:`NotFoundError` if there is none; :class:`ConflictError`
        if it was retracted already. The fact after.
        """
        request = {"action": "retract", "tenant_id": tenant_id, "domain": domain}
        request |= {"fact_hash": fact_hash, "reviewer": reviewer}
        return self._repair(RetractFact, request, reason)

    def correct_fact(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        content: str,
        *,
        reviewer: str,
        reason: str | None = None,
    ) -> FactRecord:
        """Put ``content`` in a fact's place (an operator's decision, kept in the history): a
        new fact, confirmed in the reviewer's name and served from the next bootstrap on, and
        the old one retracted. The content is held to an agent's fact's bounds and scrubbed of
        PII as stored text is. The new fact.
        """
        request = {"action": "correct", "tenant_id": tenant_id, "domain": domain}
        request |= {"fact_hash": fact_hash, "content": content, "reviewer": reviewer}
        return self._repair(CorrectFact, request, reason)

    def assert_fact(
        self,
        tenant_id: str,
        domain: str,
        content: str,
        *,
        reviewer: str,
        reason: str | None = None,
    ) -> FactRecord:
        """A fact of the reviewer's own (an operator's decision, kept in the history),
        confirmed at once and served from the next bootstrap on; agents' facts still need
        independent confirmations. The fact.
        """
        request = {"action": "assert", "tenant_id": tenant_id, "domain": domain}
        request |= {"content": content, "reviewer": reviewer}
        return self._repair(AssertFact, request, reason)

    def _repair(
        self,
        kind: type[RetractFact | CorrectFact | AssertFact],
        request: dict[str, Any],
        reason: str | None,
    ) -> FactRecord:
        if reason is not None:
            request["reason"] = reason
        return self._backend.handle(_parsed(kind, review_message, request))

    def flag_memory(
        self,
        tenant_id: str,
        agent_id: str,
        kind: Literal["episode", "fact", "procedure"],
        record_id: str,
        reason: str,
        *,
        run_id: str | None = None,
    ) -> FlagRecord:
        """Report an item memory served this agent as wrong, and why: an ``episode`` (its
        ``run_id`` as the reply names it; another agent's as ``"{agent_id}/{run_id}"``), a
        ``fact`` (its ``fact_hash``) or a ``procedure`` (its ``procedure_id``); ``run_id``
        names the run that found it wrong, if you like. From the agent's next bootstrap or
        search on, the item is not served to it; other agents are still served it until a
        person decides (``agent-memory flags``). Flagging the same item again answers the same
        flag; an agent may hold 100 open flags. Nothing is deleted or rewritten: on AWS the
        bootstrap function keeps the flag.

        Example::

            reply = client.bootstrap("acme", "reviewer", "Review the MSA")
            fact = reply["facts"][0]["fact_hash"]
            client.flag_memory("acme", "reviewer", "fact", fact, "The cap changed in 2026")
        """
        request: dict[str, Any] = {"action": "flag", "tenant_id": tenant_id}
        request |= {"agent_id": agent_id, "kind": kind, "record_id": record_id}
        request["reason"] = reason
        if run_id is not None:
            request["run_id"] = run_id
        return self._backend.handle(_parsed(FlagMemory, flag_message, request))

    def history(
        self,
        tenant_id: str,
        *,
        limit: int = 50,
        cursor: str | None = None,
        record_id: str | None = None,
    ) -> HistoryPage:
        """One page of the tenant's history, newest first: every decision people made about
        its memory (who, when, what, about which record, why), or only those about
        ``record_id`` (a procedure's id, a fact's ``domain/hash``, an ``agent/run``). Locally;
        on AWS as an operator (``aws_from_stack(..., operator=True)``).
        """
        tenant = _parsed_tenant(tenant_id)
        if record_id is not None:
            record_id = _text(record_id, "record_id")
        return self._backend.handle(History(tenant, limit, cursor, record_id))

    def forget_runs(
        self,
        tenant_id: str,
        agent_id: str,
        run_id: str | None = None,
        *,
        reviewer: str,
        reason: str | None = None,
    ) -> RunsForgotten:
        """Forget one run of the agent (every run of it when ``run_id`` is None) everywhere it
        counted: its episode, its sightings of facts (a fact no longer confirmed stops being
        served), its proposals and feedback on procedures, its ledger records. A person's
        decision, recorded in the history as ``reviewer``'s with ``reason``; idempotent (the
        receipt of a second call finds nothing). Locally, or on AWS as an operator.
        """
        tenant = _parsed_tenant(tenant_id)
        agent = _parsed_id(agent_id, "agent_id", "agent id")
        run = None if run_id is None else _parsed_id(run_id, "run_id", "run id")
        texts = _checked({"reviewer": _text(reviewer, "reviewer"), "reason": reason})
        return self._backend.handle(ForgetRuns(tenant, agent, run, **_as_actor(texts)))

    def redact(
        self, tenant_id: str, text: str, *, reviewer: str, reason: str | None = None
    ) -> TextRedacted:
        """Remove ``text`` (a secret the PII scrubber missed) from every record of the tenant
        that holds it, in any case and in look-alike characters, replaced by ``[REDACTED]``:
        episodes (re-embedded), facts (moved to the hash of their new content, their KB
        documents rewritten), procedures, the run ledger, flags and the history. A person's
        decision, recorded as ``reviewer``'s with ``reason`` and a keyed digest of the text
        (HMAC-SHA256 under the pseudonym key; never the text); idempotent. A text shorter than
        four characters is refused. Locally, or on AWS as an operator.
        """
        tenant = _parsed_tenant(tenant_id)
        texts = _checked(
            {"reviewer": _text(reviewer, "reviewer"), "reason": reason, "text": _text(text, "text")}
        )
        return self._backend.handle(RedactText(tenant, texts["text"], **_as_actor(texts)))

    def list_agents(self, tenant_id: str) -> list[str]:
        """The tenant's agents that have unexpired episodes, sorted (reads every episode of the
        tenant: for listings, not for every run).
        """
        request = {"action": "agents", "tenant_id": tenant_id}
        return self._backend.handle(_parsed(ListAgents, episode_message, request))

    def _review(
        self, action: str, tenant_id: str, procedure_id: str, **fields: Any
    ) -> ProcedureView:
        request = {"action": action, "tenant_id": tenant_id, "procedure_id": procedure_id}
        kinds: dict[str, type[ShowProcedure | DecideProcedure | EditProcedure | RetireProcedure]]
        kinds = {"show": ShowProcedure, "edit": EditProcedure, "retire": RetireProcedure}
        kind = kinds.get(action, DecideProcedure)
        return self._backend.handle(_parsed(kind, review_message, {**request, **fields}))

    def close(self, *, wait: bool = True) -> None:
        """Stop accepting runs; with ``wait`` (the default), finish consolidating queued ones."""
        self._backend.close(wait=wait)

    def __enter__(self) -> MemoryClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryClient(mode={self.mode!r})"


def _checked(request: dict[str, Any]) -> dict[str, Any]:
    """A request built from the caller's arguments, as plain JSON data within the bounds of an
    event (no object of the caller's reaches a backend, nor the JSON of a Lambda payload).
    """
    checked: dict[str, Any] = plain(request)
    return checked


def _parsed(kind: type[M], parse: Callable[[Any], object], request: dict[str, Any]) -> M:
    """The caller's request, made plain JSON and parsed once into its message (``kind``)."""
    try:
        message = parse(_checked(request))
    except InvalidInput as error:
        raise invalid(error) from None
    assert isinstance(message, kind)
    return message


def _request(
    tenant_id: str,
    agent_id: str,
    task: str,
    task_type: str | None,
    domain: str | None,
    scope: ScopeKind = "agent",
    team: Sequence[str] | None = None,
    surface: Surface = "sdk",
    *,
    field: str = "task",
) -> BootstrapRequest:
    data: dict[str, Any] = {"tenant_id": tenant_id, "agent_id": agent_id, "task": task}
    if surface != "sdk":
        data["surface"] = surface
    if task_type is not None:
        data["task_type"] = task_type
    if domain is not None:
        data["domain"] = domain
    data["scope"] = scope
    try:
        if team is not None:
            data["team"] = _team(team)
        return bootstrap_message(plain(data)).request
    except InvalidInput as error:
        if field != "task" and (
            error.field == "task" or error.field.startswith(("task.", "task["))
        ):
            error = InvalidInput(field + error.field.removeprefix("task"), error.message)
        raise invalid(error) from None


def _parsed_tenant(tenant_id: object) -> str:
    """The tenant id, held to the identifier rule (``InvalidInputError`` naming it)."""
    return _parsed_id(tenant_id, "tenant_id", "tenant id")


def _parsed_id(value: object, field: str, kind: str) -> str:
    """An identifier argument, held to the identifier rule (``InvalidInputError`` naming it)."""
    try:
        return checked_id(_text(value, field), field, kind)
    except InvalidInput as error:
        raise invalid(error) from None


def _text(value: object, field: str) -> str:
    """A text argument (``InvalidInputError`` naming it when it is not one)."""
    if not isinstance(value, str):
        raise invalid(InvalidInput(field, "must be a string"))
    return value


def _as_actor(texts: dict[str, Any]) -> dict[str, Any]:
    """Who decided and why, as a decision's message names them."""
    reason = texts["reason"]
    if reason is not None and not isinstance(reason, str):
        raise invalid(InvalidInput("reason", "must be a string"))
    return {"actor": texts["reviewer"], "reason": reason}


def _window(since: object, until: object) -> dict[str, object]:
    """``since`` and ``until`` as a request's numbers of seconds since the epoch (absent when
    None); a ``datetime`` without a time zone is refused naming its field (which moment it
    means is the caller's machine's guess, and a store's times are absolute).
    """
    window: dict[str, object] = {}
    for field, moment in (("since", since), ("until", until)):
        if isinstance(moment, datetime):
            if moment.tzinfo is None or moment.utcoffset() is None:
                raise invalid(InvalidInput(field, "needs a time zone (e.g. tzinfo=UTC)"))
            moment = moment.timestamp()
        if moment is not None:
            window[field] = moment
    return window


def _team(team: object) -> object:
    """The ``team`` argument, read at most one name past the most a team may have (enough to
    refuse it): a sequence that never ends is not read to its end.
    """
    if issubclass(type(team), str | list | tuple):
        return team
    try:
        return list(islice(team, MAX_TEAM_AGENTS + 1))  # type: ignore[call-overload]
    except Exception as error:
        raise InvalidInput(
            "team", f"must be a list of agent ids (reading it failed: {type(error).__name__})"
        ) from None
