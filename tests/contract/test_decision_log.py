"""DecisionLog contract: each tenant's history, append-only, newest first, paged, isolated."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.decisions import Action, Decision, RecordKind
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.ports import DecisionLog, RunLedger
from tests.contract.builders import NOW, all_pages

_TENANTS = itertools.count()


def decision(n: int, tenant: str = "acme", **overrides: object) -> Decision:
    fields: dict[str, object] = {
        "tenant_id": tenant,
        "action": Action.APPROVE,
        "kind": RecordKind.PROCEDURE,
        "record_id": f"proc-{n}",
        "actor": "Dana",
        "at": NOW + n,
        "reason": None,
        **overrides,
    }
    return Decision(**fields)  # type: ignore[arg-type]


def test_log_satisfies_the_port(decisions: DecisionLog) -> None:
    assert isinstance(decisions, DecisionLog)


def test_every_field_reads_back(decisions: DecisionLog) -> None:
    # Given a decision with every field set, text of every kind in its reason
    made = decision(
        1,
        action=Action.FORGET,
        kind=RecordKind.RUN,
        record_id="reviewer/run-7",
        reason='Carried a secret: "quotes", a\nnewline, 🔑 and ünïcode',
        digest="ab" * 32,
    )
    decisions.record(made)
    # Then the history holds it exactly
    assert decisions.history("acme", limit=10).items == (made,)


def test_history_is_newest_first_and_pages_without_gaps(decisions: DecisionLog) -> None:
    # Given 7 decisions, recorded out of time order
    made = [decision(n) for n in (3, 0, 6, 1, 5, 2, 4)]
    for one in made:
        decisions.record(one)
    # When the history is read 3 at a time
    pages = all_pages(lambda cursor: decisions.history("acme", limit=3, cursor=cursor))
    # Then every decision comes once, newest first
    found = [d for page in pages for d in page.items]
    assert [d.at for d in found] == sorted((d.at for d in made), reverse=True)
    assert [len(page.items) for page in pages] == [3, 3, 1]


def test_recording_a_decision_again_keeps_one(decisions: DecisionLog) -> None:
    one = decision(1)
    decisions.record(one)
    decisions.record(one)
    assert decisions.history("acme", limit=10).items == (one,)


def test_decisions_at_the_same_moment_are_all_kept(decisions: DecisionLog) -> None:
    for n in range(3):
        decisions.record(decision(0, record_id=f"proc-{n}"))
    assert len(decisions.history("acme", limit=10).items) == 3


def test_a_tenant_sees_its_own_history_only(decisions: DecisionLog) -> None:
    # Given decisions of two tenants whose ids share a prefix
    decisions.record(decision(1, "acme"))
    decisions.record(decision(2, "acme-eu"))
    # Then each reads its own
    assert [d.tenant_id for d in decisions.history("acme", limit=10).items] == ["acme"]
    assert [d.tenant_id for d in decisions.history("acme-eu", limit=10).items] == ["acme-eu"]


def test_a_cursor_of_another_tenant_is_refused(decisions: DecisionLog) -> None:
    # Given a page of globex's history with more to come
    for n in range(3):
        decisions.record(decision(n, "globex"))
    cursor = decisions.history("globex", limit=1).cursor
    assert cursor is not None
    # When acme's history is asked to continue from it, then it is refused by name
    with pytest.raises(InvalidInput) as refused:
        decisions.history("acme", limit=1, cursor=cursor)
    assert refused.value.field == "cursor"


def test_forget_deletes_the_tenants_history_and_no_other(
    decisions: DecisionLog, run_ledger: RunLedger
) -> None:
    # Given decisions of two tenants, and a run record of the forgotten one
    for n in range(3):
        decisions.record(decision(n, "acme"))
    decisions.record(decision(9, "globex"))
    run_ledger.start_run("acme", "reviewer", "r1", {"state": {}}, now=NOW, expires_at=NOW + 60)
    # When acme's history is forgotten
    assert decisions.forget("acme") == 3
    # Then it is empty, globex's stays, and the run ledger is untouched
    assert decisions.history("acme", limit=10).items == ()
    assert len(decisions.history("globex", limit=10).items) == 1
    assert run_ledger.run("acme", "reviewer", "r1", now=NOW) is not None


def test_the_run_ledger_does_not_list_decisions(
    decisions: DecisionLog, run_ledger: RunLedger
) -> None:
    decisions.record(decision(1))
    assert list(run_ledger.entries("acme")) == []
    assert list(run_ledger.failures("acme")) == []


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"actor": " "}, "actor"),
        ({"actor": "x" * 201}, "actor"),
        ({"reason": "x" * 2_001}, "reason"),
        ({"record_id": "x" * 513}, "record_id"),
    ],
)
def test_a_decision_out_of_bounds_is_refused_naming_its_field(
    overrides: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        decision(1, **overrides)
    assert refused.value.field == field


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    moments=st.lists(st.floats(0, 4e9, allow_nan=False), min_size=1, max_size=12),
    page=st.integers(1, 5),
)
def test_any_history_pages_back_whole(
    decisions: DecisionLog, moments: list[float], page: int
) -> None:
    # Given decisions at any moments, of a fresh tenant
    tenant = f"t{next(_TENANTS)}"
    made = [decision(n, tenant, at=at) for n, at in enumerate(moments)]
    for one in made:
        decisions.record(one)
    # When it is read page by page
    pages = all_pages(lambda cursor: decisions.history(tenant, limit=page, cursor=cursor))
    found = [d for p in pages for d in p.items]
    # Then each decision comes exactly once, newest first (to the microsecond)
    assert sorted(d.decision_id for d in found) == sorted(d.decision_id for d in made)
    times = [round(d.at, 6) for d in found]
    assert times == sorted(times, reverse=True)


def test_one_records_decisions_page_back_alone_past_many_others(decisions: DecisionLog) -> None:
    # Given two decisions about one record, 150 about others between and around them
    wanted = [
        Decision("acme", Action.REJECT, RecordKind.PROCEDURE, "proc-1", "ana", NOW + 10),
        Decision("acme", Action.APPROVE, RecordKind.PROCEDURE, "proc-1", "bo", NOW + 200),
    ]
    for n in range(150):
        decisions.record(
            Decision("acme", Action.APPROVE, RecordKind.PROCEDURE, f"p-{n}", "x", NOW + n)
        )
    for decision in wanted:
        decisions.record(decision)
    # When the record's history is read one at a time
    first = decisions.history("acme", limit=1, record_id="proc-1")
    second = decisions.history("acme", limit=1, cursor=first.cursor, record_id="proc-1")
    # Then its decisions come alone, newest first, and the second page is the last
    assert [*first.items, *second.items] == list(reversed(wanted))
    assert second.cursor is None
    assert decisions.history("acme", limit=5, record_id="proc-9").items == ()
