"""Any interleaving of proposals, edits, decisions and retirements, written as the core writes
them (its allowed statuses, the revision read), never serves a procedure a person did not
approve as it stands, nor a retired one, on every adapter.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.models import ProcedureStatus, Review
from agent_memory.core.ports import ProcedureStore
from agent_memory.core.tiers import procedural
from agent_memory.core.tiers.procedure_repair import EDITABLE_FROM, RETIRABLE_FROM
from tests.contract.builders import NOW, procedure

_TENANTS = itertools.count()
_IDS = ("proc-a", "proc-b")
_OPS = (
    "propose",
    "edit",
    "stale edit",
    "approve",
    "overrule",
    "reject",
    "retire",
    "flag",
)
_STEP = st.tuples(st.sampled_from(_OPS), st.sampled_from(_IDS))
V = ProcedureStatus.VALIDATED


@dataclass
class _Expected:
    """What the store must hold for one procedure, by the rules alone."""

    status: ProcedureStatus
    steps: tuple[str, ...]
    revision: int = 0
    approved_steps: tuple[str, ...] | None = None


def _transition(
    store: ProcedureStore,
    tenant: str,
    pid: str,
    target: ProcedureStatus,
    allowed: tuple[ProcedureStatus, ...],
    now: float,
) -> bool:
    review = Review("lee", "why") if target is not ProcedureStatus.NEEDS_REVIEW else None
    changed = store.set_status(
        pid, tenant_id=tenant, status=target, allowed_from=allowed, now=now, review=review
    )
    return changed is not None


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=st.lists(_STEP, max_size=16))
def test_only_the_steps_a_person_approved_are_ever_served(
    procedures: ProcedureStore, ops: list[tuple[str, str]]
) -> None:
    tenant = f"t{next(_TENANTS)}"
    expected: dict[str, _Expected] = {}
    approvable = tuple(s for s in procedural.APPROVABLE_FROM if s not in procedural.OVERRULED)
    targets = {
        "approve": (V, approvable),
        "overrule": (V, procedural.APPROVABLE_FROM),
        "reject": (ProcedureStatus.REJECTED, procedural.REJECTABLE_FROM),
        "retire": (ProcedureStatus.RETIRED, RETIRABLE_FROM),
        "flag": (ProcedureStatus.NEEDS_REVIEW, (V,)),
    }
    for number, (op, short_id) in enumerate(ops):
        # Ids are unique across tenants, and each example has a tenant of its own.
        pid, now = f"{tenant}-{short_id}", NOW + number
        model = expected.get(pid)
        # When a run proposes, or a person edits or decides (as the core writes it)
        if op == "propose":
            original = (f"{pid} step", "Sign")
            proposal = procedure(tenant_id=tenant, procedure_id=pid, steps=original)
            created = procedures.propose(proposal, f"run-{number}")
            assert created is (model is None)
            expected.setdefault(pid, _Expected(ProcedureStatus.PENDING, original))
        elif op in ("edit", "stale edit"):
            seen = (model.revision if model else 0) + (op == "stale edit")
            steps = (f"edit {number}",)
            edited = procedures.replace_steps(
                pid,
                tenant_id=tenant,
                title="edited",
                steps=steps,
                edited_by="dana",
                revision=seen,
                allowed_from=EDITABLE_FROM,
                now=now,
            )
            allowed = model is not None and op == "edit" and model.status in EDITABLE_FROM
            assert (edited is not None) is allowed
            if model is not None and allowed:
                model.steps, model.revision = steps, model.revision + 1
        else:
            target, allowed_from = targets[op]
            changed = _transition(procedures, tenant, pid, target, allowed_from, now)
            assert changed is (model is not None and model.status in allowed_from)
            if model is not None and changed:
                model.status = target
                if target is V:
                    model.approved_steps = model.steps
        # Then the store holds what the rules say
        for key, want in expected.items():
            stored = procedures.get(key, tenant_id=tenant)
            assert stored is not None
            assert (stored.status, stored.steps, stored.revision) == (
                want.status,
                want.steps,
                want.revision,
            )
        # And what bootstrap would serve is validated, as a person approved it, never retired
        served = procedural.select_procedure(procedures.for_task_type(tenant, "report"))
        if served is not None:
            want = expected[served.procedure_id]
            assert want.status is V
            assert served.steps == want.approved_steps
