"""Procedural memory: step lists proposed by runs, served only after a human validates them."""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass

from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.model import receipts
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound
from agent_memory.core.model.markers import PROCEDURAL, Line, Section
from agent_memory.core.model.models import (
    Procedure,
    ProcedureStatus,
    Review,
    RunArtifacts,
    RunFinished,
)
from agent_memory.core.model.policies import DAY, ProceduralPolicy
from agent_memory.core.model.requests import Surface
from agent_memory.core.ports import FeedbackCount, MemoryPorts, ProcedureStore
from agent_memory.core.privacy.scrubbing import pseudonyms_for, scrub_signed

# A list marker opening a step: only a marker followed by whitespace is one ("1. Read",
# "2) Sign", "Step 3: Compare", "a) Check", "- Read", "• Read"). Anything else is the step's
# own text and stays as written: "1.5x the fees", "24-hour notice", "e-mail", "e.g. the cap",
# "3.14", "A. Smith signs" (an initial, not a marker: capital letters count only with a
# parenthesis), "10:30", "-5% margin", "*important*", "v2. rollout". A lower-case letter with a
# full stop ("a. Read") is one only before a capital letter: "p. 12", "c. 1990", "i. e. the fee"
# and "e. coli" stay whole.
_NUMBER = r"[0-9]{1,3}(?:\.[0-9]{1,3})*"
_ROMAN = r"(?:i{1,3}|iv|vi{0,3}|ix|x)"
_MARKER = re.compile(
    rf"""
    (?:
        [Ss][Tt][Ee][Pp][ \t]*{_NUMBER}[ \t]*(?:[.):]|[-\u2013\u2014](?=\s))  # Step 3: / Step 3 -
      | {_NUMBER}[.)]                         # 1.  2)  1.2.
      | \({_NUMBER}\)                         # (1)
      | \(?(?:[a-z]|{_ROMAN}|[A-Z])\)          # a)  (b)  iv)  A)
      | (?P<letter>[a-z]|{_ROMAN})\.           # a.  iv.  (before a capital: not "p. 12")
      | [-*+\u2022\u2023\u25e6\u25aa\u25cf\u2013\u2014\u00b7\u2043]  # - * + • ‣ ◦ ▪ ● – — · ⁃
    )
    \s+
    """,
    re.VERBOSE,
)
MAX_REVIEWER = 128
# A reason is stored on the procedure's item, which the largest procedure nearly fills
# (DynamoDB's 400 KB): 1,000 characters of 4-byte text fit in the ~5 KB it leaves.
MAX_REVIEW_NOTE = 1_000

APPROVABLE_FROM = (
    ProcedureStatus.PENDING,
    ProcedureStatus.NEEDS_REVIEW,
    ProcedureStatus.REJECTED,
    ProcedureStatus.RETIRED,
)
REJECTABLE_FROM = (ProcedureStatus.PENDING, ProcedureStatus.NEEDS_REVIEW, ProcedureStatus.VALIDATED)
# A person's decision that a procedure is not to be served, by the status it leaves: approving
# a procedure in one of them overrules that person, which is only done when asked (``overrule``).
OVERRULED = {ProcedureStatus.REJECTED: "rejection", ProcedureStatus.RETIRED: "retirement"}


def normalize_step(step: str) -> str:
    """A step as it is stored: without the list marker that opens it (``"1. "``, ``"- "``,
    ``"Step 3: "``), leading and trailing whitespace removed, every other character as given.
    """
    text = step.strip()
    marker = _MARKER.match(text)
    if marker is None:
        return text
    rest = text[marker.end() :]
    if marker.group("letter") is not None and not rest[:1].isupper():
        return text
    return rest.strip()


def step_identity(step: str) -> str:
    """What two steps must share to be the same step: their text without a list marker, read
    in Unicode compatibility form (``"ﬁ"`` as ``"fi"``, ``"１"`` as ``"1"``), whitespace
    collapsed, case folded. It only names a procedure (:func:`procedure_id`); no stored text
    is in this form.
    """
    text = " ".join(unicodedata.normalize("NFKC", step).split())
    return normalize_step(text).casefold()


def procedure_id(tenant_id: str, task_type: str, steps: tuple[str, ...]) -> str:
    """Deterministic id of a step list: the same steps proposed again get the same id."""
    canonical = "\n".join(step_identity(s) for s in steps)
    digest = hashlib.sha256(f"{tenant_id}\0{task_type}\0{canonical}".encode()).hexdigest()
    return f"proc-{digest[:24]}"


def propose(
    store: ProcedureStore, run: RunFinished, artifacts: RunArtifacts, *, now: float
) -> tuple[str | None, bool]:
    """Propose the run's procedure as PENDING; (procedure id or None, whether it is new).

    Only COMPLETED runs with a task type propose. Proposing steps that already exist adds the
    run to the procedure's sources instead of creating a duplicate.
    """
    draft = artifacts.procedure
    if artifacts.outcome != "COMPLETED" or not run.task_type or draft is None:
        return None, False
    steps = tuple(s for s in (normalize_step(step) for step in draft.steps) if s)
    if not steps:
        return None, False
    new_id = procedure_id(run.tenant_id, run.task_type, steps)
    created = store.propose(
        Procedure(
            tenant_id=run.tenant_id,
            task_type=run.task_type,
            procedure_id=new_id,
            title=draft.title.strip(),
            steps=steps,
            status=ProcedureStatus.PENDING,
            created_at=now,
            updated_at=now,
            source_run_ids=frozenset({run.run_id}),
        ),
        run.run_id,
    )
    return new_id, created


def review(
    store: ProcedureStore,
    procedure_id_: str,
    *,
    approve: bool,
    reviewer: str,
    now: float,
    note: str | None = None,
    tenant_id: str | None = None,
    overrule: bool = False,
    revision: int | None = None,
) -> Procedure:
    """A human's decision on a procedure: approve (VALIDATED) or reject (REJECTED, with reason).

    Approving a REJECTED or RETIRED procedure overrules a person's decision not to serve it
    (:data:`OVERRULED`): it takes ``overrule``, checked in the same conditional write, so a
    rejection or retirement made meanwhile is never overruled unasked. Raises
    :class:`NotFound` for an unknown id and :class:`Conflict` when the procedure is not in a
    state the decision applies to (approving a validated one, say, or a rejected one without
    ``overrule``). With ``revision`` (the steps the reviewer read), the same write holds the
    decision to those steps: an edit made meanwhile is never approved unread (``Conflict``).
    """
    target = ProcedureStatus.VALIDATED if approve else ProcedureStatus.REJECTED
    allowed: tuple[ProcedureStatus, ...] = APPROVABLE_FROM if approve else REJECTABLE_FROM
    if approve and not overrule:
        allowed = tuple(s for s in allowed if s not in OVERRULED)
    return transition(
        store,
        procedure_id_,
        target,
        allowed,
        reviewer=reviewer,
        note=note,
        now=now,
        tenant_id=tenant_id,
        reason_needed=None if approve else "a rejection",
        revision=revision,
    )


def transition(
    store: ProcedureStore,
    procedure_id_: str,
    target: ProcedureStatus,
    allowed: tuple[ProcedureStatus, ...],
    *,
    reviewer: str,
    note: str | None,
    now: float,
    tenant_id: str | None = None,
    reason_needed: str | None = None,
    revision: int | None = None,
) -> Procedure:
    """Move a procedure to ``target`` from a status in ``allowed`` by one conditional write,
    recording the person's review (``reason_needed`` names a decision that takes a reason);
    :class:`Conflict` says why not, naming the decision an approval would overrule.
    """
    reviewer = reviewer.strip()
    if not reviewer or len(reviewer) > MAX_REVIEWER:
        raise InvalidInput("reviewer", f"must be 1-{MAX_REVIEWER} characters")
    if reason_needed is not None and not (note and note.strip()):
        raise InvalidInput("reason", f"{reason_needed} needs a reason")
    if note is not None and len(note) > MAX_REVIEW_NOTE:
        raise InvalidInput("reason", f"must be at most {MAX_REVIEW_NOTE} characters")
    current = store.get(procedure_id_, tenant_id=tenant_id)
    if current is None:
        raise NotFound(f"no procedure {procedure_id_!r}")
    updated = store.set_status(
        procedure_id_,
        tenant_id=current.tenant_id,
        status=target,
        allowed_from=allowed,
        now=now,
        review=Review(reviewer, note.strip() if note else None),
        revision=revision,
    )
    if updated is None:
        found = store.get(procedure_id_, tenant_id=current.tenant_id) or current
        if revision is not None and found.revision != revision and found.status in allowed:
            raise Conflict(
                f"procedure {procedure_id_} was edited since you read it (revision "
                f"{found.revision} by {found.edited_by}, you read {revision}): read it again"
            )
        decision = OVERRULED.get(found.status)
        if target is ProcedureStatus.VALIDATED and decision is not None:
            raise Conflict(
                f"procedure {procedure_id_} was {found.status.lower()} by {found.reviewer} "
                f"({found.review_note!r}); approving it overrules that {decision}, which must "
                "be asked for explicitly (overrule)"
            )
        raise Conflict(f"procedure {procedure_id_} is {found.status}; cannot set {target}")
    return updated


def signed(
    ports: MemoryPorts, tenant_id: str, reviewer: str, note: str | None
) -> tuple[str, str | None]:
    """A person's name and reason as a procedure stores them: scrubbed like every other stored
    text (a name becomes the tenant's keyed pseudonym) when within their bounds (past them they
    are refused by name before anything is written); a detector failure writes nothing.
    """
    reviewer = reviewer.strip()
    if reviewer and len(reviewer) <= MAX_REVIEWER and len(note or "") <= MAX_REVIEW_NOTE:
        return scrub_signed(
            reviewer,
            note,
            ports.pii,
            pseudonyms_for(ports.pseudonym_key, tenant_id),
            max_who=MAX_REVIEWER,
            max_why=MAX_REVIEW_NOTE,
        )
    return reviewer, note


def decide(
    ports: MemoryPorts,
    procedure_id_: str,
    *,
    approve: bool,
    reviewer: str,
    note: str | None = None,
    tenant_id: str | None = None,
    overrule: bool = False,
    revision: int | None = None,
) -> Procedure:
    """:func:`review` as every surface records a human's decision: the reviewer's name and
    the reason :func:`signed` before anything is written.
    """
    current = ports.procedures.get(procedure_id_, tenant_id=tenant_id)
    if current is None:
        raise NotFound(f"no procedure {procedure_id_!r}")
    reviewer, note = signed(ports, current.tenant_id, reviewer, note)
    return review(
        ports.procedures,
        procedure_id_,
        approve=approve,
        reviewer=reviewer,
        note=note,
        now=ports.clock(),
        tenant_id=current.tenant_id,
        overrule=overrule,
        revision=revision,
    )


def wilson_lower_bound(successes: int, trials: int, z: float = 1.96) -> float:
    """Lower bound of the success rate's 95% interval: 9/10 ranks above 1/1."""
    if trials == 0:
        return 0.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return (centre - spread) / (1 + z * z / trials)


def is_trial(procedure: Procedure, policy: ProceduralPolicy = ProceduralPolicy()) -> bool:
    """A validated procedure still earning its first ``trial_uses`` applications."""
    return procedure.status is ProcedureStatus.VALIDATED and procedure.times_applied < (
        policy.trial_uses
    )


def select_procedure(
    procedures: list[Procedure], policy: ProceduralPolicy = ProceduralPolicy()
) -> Procedure | None:
    """The procedure to serve: VALIDATED only; proven ones by their success record, then
    trial ones (newest review first), so a freshly validated procedure can earn its uses.
    """
    validated = [p for p in procedures if p.status is ProcedureStatus.VALIDATED]
    if not validated:
        return None
    return max(
        validated,
        key=lambda p: (
            not is_trial(p, policy),
            wilson_lower_bound(p.times_succeeded, p.times_applied),
            p.reviewed_at or 0.0,
        ),
    )


@dataclass(frozen=True, slots=True)
class FeedbackResult:
    """What a run's procedure feedback did: counted, or why not (``reason``, None if counted)."""

    procedure_id: str
    counted: bool
    reason: str | None = None


NOT_VALIDATED = "procedure not validated"
RETIRED = "procedure retired: a person took it out of service, so reports on it no longer count"


def serving_receipt(
    key: bytes | None, procedure: Procedure, *, agent_id: str, now: float
) -> str | None:
    """The receipt of serving ``procedure`` to ``agent_id`` at ``now`` (None without a key:
    then no feedback on it can count).
    """
    if key is None:
        return None
    return receipts.issue(
        key,
        tenant_id=procedure.tenant_id,
        agent_id=agent_id,
        procedure_id=procedure.procedure_id,
        now=now,
    )


def record_feedback(
    store: ProcedureStore,
    run: RunFinished,
    *,
    now: float,
    key: bytes | None,
    policy: ProceduralPolicy = ProceduralPolicy(),
) -> FeedbackResult | None:
    """Count the run's report on the procedure it was served: once per run, once per receipt.

    The report counts only with the serving receipt bootstrap handed out (signed with ``key``,
    for this tenant, agent and procedure, at most ``policy.receipt_valid_days`` old by
    ``now``), so an agent never served the procedure cannot move its record. And only a
    procedure that can be served (VALIDATED, or flagged since) counts: reports on a pending or
    rejected one would let it skip its trial once approved, and a retired one is out of
    service. The result says why a report did not count.
    """
    feedback = run.procedure_feedback
    if feedback is None:
        return None
    procedure_id_ = feedback.procedure_id
    try:
        receipt = receipts.verify(
            feedback.receipt,
            key,
            tenant_id=run.tenant_id,
            agent_id=run.agent_id,
            procedure_id=procedure_id_,
            now=now,
            valid_for=policy.receipt_valid_days * DAY,
        )
    except receipts.ReceiptRefused as refused:
        return FeedbackResult(procedure_id_, False, refused.reason)
    served = store.get(procedure_id_, tenant_id=run.tenant_id)
    if served is not None and served.status is ProcedureStatus.RETIRED:
        return FeedbackResult(procedure_id_, False, RETIRED)
    if served is None or served.status not in (
        ProcedureStatus.VALIDATED,
        ProcedureStatus.NEEDS_REVIEW,
    ):
        return FeedbackResult(procedure_id_, False, NOT_VALIDATED)
    count = store.record_feedback(
        procedure_id_,
        tenant_id=run.tenant_id,
        run_id=run.run_id,
        receipt_id=receipt.nonce,
        succeeded=feedback.succeeded,
        now=now,
    )
    if count is FeedbackCount.COUNTED:
        return FeedbackResult(procedure_id_, True)
    return FeedbackResult(procedure_id_, False, count.value)


# How the model reading the block reports the procedure's result, by surface: only what that
# surface lets it do (an MCP host never sees a RunFinished event nor a serving receipt).
_REPORT: dict[Surface, str] = {
    "sdk": "report the result as procedure_feedback, with the reply's procedure.receipt",
    "mcp": "when the task is done, say whether it worked: procedure_id and procedure_succeeded "
    "in record_run, or report_procedure_result; if it is wrong, flag_memory",
    "langgraph": "the application reports whether it worked when the run finishes",
    "strands": "whether it worked is reported with the run's outcome",
}


def format_procedure(
    procedure: Procedure, policy: ProceduralPolicy = ProceduralPolicy(), surface: Surface = "sdk"
) -> Section:
    """The procedural section of the memory context, its last line saying how the model
    reading it on ``surface`` reports the procedure's result.
    """
    rate = procedure.success_rate
    if is_trial(procedure, policy):
        record = Line(
            "(Trial: validated by ",
            procedure.reviewer or "a reviewer",
            f"; {procedure.times_applied} of {policy.trial_uses} trial uses so far)",
        )
    else:
        record = Line(f"(Success rate: {rate or 0.0:.0%} over {procedure.times_applied} uses)")
    lines = [Line("Procedure: ", procedure.title), record, Line("")]
    lines.extend(Line(f"{i}. ", step) for i, step in enumerate(procedure.steps, 1))
    lines.append(Line(""))
    lines.append(
        Line("This procedure is a starting point. Adapt it if the current task requires it.")
    )
    lines.append(Line(f"(procedure_id: {procedure.procedure_id}; {_REPORT[surface]})"))
    title = f"recommended approach for {procedure.task_type}"
    return Section(PROCEDURAL, title, tuple(lines))


def procedure_view(
    procedure: Procedure, policy: ProceduralPolicy = ProceduralPolicy()
) -> ProcedureView:
    """A procedure as replies and listings show it: steps, status, track record, review."""
    return {
        "procedure_id": procedure.procedure_id,
        "tenant_id": procedure.tenant_id,
        "task_type": procedure.task_type,
        "status": procedure.status.value,
        "title": procedure.title,
        "steps": list(procedure.steps),
        "trial": is_trial(procedure, policy),
        "times_applied": procedure.times_applied,
        "times_succeeded": procedure.times_succeeded,
        "success_rate": procedure.success_rate,
        # The first runs that proposed it (the store names a bounded few) and how many did.
        "proposed_by_runs": sorted(procedure.source_run_ids),
        "proposals": procedure.proposed_by,
        "reviewer": procedure.reviewer,
        "reviewed_at": procedure.reviewed_at,
        "review_note": procedure.review_note,
        "revision": procedure.revision,
        "edited_by": procedure.edited_by,
        "edited_at": procedure.edited_at,
    }
