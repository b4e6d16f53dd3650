"""A person repairs a procedure: replaces its steps before approving it, or retires it.

The rules, written once for every surface:

- **Edit** replaces the title and steps of a procedure that is not served (PENDING,
  NEEDS_REVIEW, REJECTED or RETIRED: :data:`EDITABLE_FROM`); a VALIDATED one is refused, since
  an edit must never change what agents are served without an approval (reject or retire it,
  edit it, then approve it). The status stays as it was: an edited procedure is served only
  once a person approves it (a rejected or retired one with ``overrule``). The edited steps are
  held to a proposal's bounds, normalised as a proposal's are (list markers dropped), and
  scrubbed like every stored text; the id stays the proposal's, so a run proposing the
  original steps again only counts as one more source, and never brings them back. The write
  is conditional on the status and on the revision the editor read: an approval, a rejection
  or another edit made meanwhile is never overwritten unseen.
- **Retire** takes a served procedure (VALIDATED, or NEEDS_REVIEW once flagged) out of service
  for good, with a reason: bootstrap never serves it again, runs proposing it again only count
  as sources, and approving it again overrules the retirement (``overrule``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from agent_memory.core.model.decisions import MAX_REASON, check_texts, digest
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound
from agent_memory.core.model.models import Procedure, ProcedureStatus
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, scrub_texts
from agent_memory.core.tiers import procedural

# A proposal's bounds (core/api/contracts.py's ProcedureModel; a test holds them equal), which a
# person's edit is held to as well: the largest procedure's item is sized by them.
MAX_STEPS = 50
MAX_STEP_CHARS = 2_000
MAX_TITLE_CHARS = 200
MAX_EDITOR = procedural.MAX_REVIEWER
# The most edits one procedure takes: its revision's digits count in its item, which the
# largest procedure, rejected with the longest reason and edited by the longest editor, fills
# to within a few bytes of DynamoDB's 400 KB (tests/limits/test_repair_limits.py). A procedure
# edited this often wants retiring and proposing afresh.
MAX_REVISION = 999

EDITABLE_FROM = (
    ProcedureStatus.PENDING,
    ProcedureStatus.NEEDS_REVIEW,
    ProcedureStatus.REJECTED,
    ProcedureStatus.RETIRED,
)
RETIRABLE_FROM = (ProcedureStatus.VALIDATED, ProcedureStatus.NEEDS_REVIEW)


@dataclass(frozen=True, slots=True)
class Edited:
    """A procedure after a person's edit, with what its history entry keeps: who edited and
    why (scrubbed) and the digest of the steps replaced (never the steps themselves).
    """

    procedure: Procedure
    editor: str
    reason: str
    replaced_digest: str


def steps_digest(title: str, steps: tuple[str, ...]) -> str:
    """The SHA-256 of a procedure's title and steps, as the history names replaced steps."""
    return digest(json.dumps([title, *steps], ensure_ascii=False))


def checked_steps(steps: object) -> tuple[str, ...]:
    """A person's steps as a proposal's are stored (each without its list marker, trimmed),
    held to a proposal's bounds; ``InvalidInput`` names ``steps`` and the step at fault.
    """
    if isinstance(steps, str) or not isinstance(steps, list | tuple):
        raise InvalidInput("steps", "must be a list of steps")
    if not 1 <= len(steps) <= MAX_STEPS:
        raise InvalidInput("steps", f"must hold 1-{MAX_STEPS} steps (got {len(steps)})")
    kept: list[str] = []
    for number, step in enumerate(steps, 1):
        if not isinstance(step, str):
            raise InvalidInput("steps", f"step {number} must be text")
        text = procedural.normalize_step(step)
        if not text:
            raise InvalidInput("steps", f"step {number} is blank")
        if len(text) > MAX_STEP_CHARS:
            raise InvalidInput(
                "steps", f"step {number} holds more than {MAX_STEP_CHARS:,} characters"
            )
        kept.append(text)
    return tuple(kept)


def checked_title(title: str | None) -> str | None:
    """A person's title, trimmed and within a proposal's bound (None: keep the one it has)."""
    if title is None:
        return None
    text = title.strip()
    if not text or len(text) > MAX_TITLE_CHARS:
        raise InvalidInput("title", f"must be 1-{MAX_TITLE_CHARS:,} characters")
    return text


def _checked_signature(editor: str, reason: str) -> tuple[str, str]:
    editor, reason = editor.strip(), reason.strip()
    if not editor or len(editor) > MAX_EDITOR:
        raise InvalidInput("reviewer", f"must be 1-{MAX_EDITOR} characters")
    if not reason:
        raise InvalidInput("reason", "say why: the history keeps it")
    check_texts(editor, "", reason)
    return editor, reason


def edit(
    ports: MemoryPorts,
    procedure_id: str,
    *,
    tenant_id: str,
    steps: object,
    editor: str,
    reason: str,
    title: str | None = None,
    expected_revision: int | None = None,
) -> Edited:
    """Replace an unserved procedure's steps (and title, when given) as a person edited them.

    Everything is checked, then scrubbed (a detector failure writes nothing), then written by
    one conditional write. ``expected_revision`` is the revision the editor read (None: the
    one read here). Raises ``InvalidInput`` naming the field, ``NotFound``, or ``Conflict``
    when the procedure is served, or changed since it was read.
    """
    new_steps = checked_steps(steps)
    new_title = checked_title(title)
    editor, reason = _checked_signature(editor, reason)
    current = ports.procedures.get(procedure_id, tenant_id=tenant_id)
    if current is None:
        raise NotFound(f"no procedure {procedure_id!r}")
    check_editable(current, expected_revision)
    pseudonyms = pseudonyms_for(ports.pseudonym_key, current.tenant_id)
    texts = [editor, reason, new_title or current.title, *new_steps]
    clean = scrub_texts(texts, ports.pii, pseudonyms).texts
    editor, reason = clean[0][:MAX_EDITOR], clean[1][:MAX_REASON]
    stored_title = clean[2][:MAX_TITLE_CHARS]
    stored_steps = tuple(step[:MAX_STEP_CHARS] for step in clean[3:])
    if (stored_title, stored_steps) == (current.title, current.steps):
        raise InvalidInput("steps", "are the procedure's steps already: nothing to edit")
    updated = ports.procedures.replace_steps(
        procedure_id,
        tenant_id=current.tenant_id,
        title=stored_title,
        steps=stored_steps,
        edited_by=editor,
        revision=current.revision if expected_revision is None else expected_revision,
        allowed_from=EDITABLE_FROM,
        now=ports.clock(),
    )
    if updated is None:
        found = ports.procedures.get(procedure_id, tenant_id=current.tenant_id)
        if found is None:
            raise NotFound(f"no procedure {procedure_id!r}")
        check_editable(found, expected_revision)
        raise Conflict(f"procedure {procedure_id} changed while it was edited: read it again")
    return Edited(updated, editor, reason, steps_digest(current.title, current.steps))


def check_editable(procedure: Procedure, expected_revision: int | None) -> None:
    """Refuse (``Conflict``, saying why) an edit of a served procedure, of one edited the most
    times one takes, or of another revision than the one read.
    """
    p = procedure
    if p.status not in EDITABLE_FROM:
        raise Conflict(
            f"procedure {p.procedure_id} is {p.status} and served as it is: an edit never "
            "changes what is served; reject or retire it, edit it, then approve it"
        )
    if p.revision >= MAX_REVISION:
        raise Conflict(
            f"procedure {p.procedure_id} was edited {p.revision} times, the most one takes: "
            "retire it, and approve a fresh proposal instead"
        )
    if expected_revision is not None and expected_revision != p.revision:
        by = f" by {p.edited_by}" if p.edited_by else ""
        raise Conflict(
            f"procedure {p.procedure_id} is at revision {p.revision}{by}, not "
            f"{expected_revision} as read: read its steps again before editing them"
        )


def retire(
    ports: MemoryPorts,
    procedure_id: str,
    *,
    tenant_id: str,
    reviewer: str,
    reason: str,
) -> Procedure:
    """Take a served procedure out of service for good (RETIRED), the person's name and reason
    scrubbed and kept as its review; ``Conflict`` if it is not served (VALIDATED or
    NEEDS_REVIEW).
    """
    current = ports.procedures.get(procedure_id, tenant_id=tenant_id)
    if current is None:
        raise NotFound(f"no procedure {procedure_id!r}")
    reviewer, note = procedural.signed(ports, current.tenant_id, reviewer, reason)
    return procedural.transition(
        ports.procedures,
        procedure_id,
        ProcedureStatus.RETIRED,
        RETIRABLE_FROM,
        reviewer=reviewer,
        note=note,
        now=ports.clock(),
        tenant_id=current.tenant_id,
        reason_needed="a retirement",
    )


__all__ = [
    "EDITABLE_FROM",
    "MAX_STEPS",
    "MAX_STEP_CHARS",
    "MAX_TITLE_CHARS",
    "RETIRABLE_FROM",
    "Edited",
    "checked_steps",
    "checked_title",
    "edit",
    "retire",
    "steps_digest",
]
