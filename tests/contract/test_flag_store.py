"""FlagStore contract: each tenant's open flags, one per agent and item, read per agent in one
call, listed in pages, closed by id, isolated per tenant.
"""

from __future__ import annotations

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.flags import MAX_OPEN_FLAGS_PER_AGENT, Flag, FlagKind
from agent_memory.core.ports import DecisionLog, FlagStore, RunLedger
from tests.contract.builders import AWKWARD_TIME, NOW, all_pages


def flag(n: int = 1, tenant: str = "acme", agent: str = "reviewer", **overrides: object) -> Flag:
    fields: dict[str, object] = {
        "tenant_id": tenant,
        "agent_id": agent,
        "kind": FlagKind.FACT,
        "record_id": f"hash{n}",
        "reason": "Out of date since the 2026 policy",
        "flagged_at": NOW + n,
        "run_id": None,
        **overrides,
    }
    return Flag(**fields)  # type: ignore[arg-type]


def test_store_satisfies_the_port(flags: FlagStore) -> None:
    assert isinstance(flags, FlagStore)


def test_every_field_reads_back(flags: FlagStore) -> None:
    # Given a flag on another agent's episode, text of every kind in its reason
    made = flag(
        kind=FlagKind.EPISODE,
        record_id="writer/run-7",
        reason='Wrong clause: "quotes", a\nnewline, 🔑 and ünïcode',
        flagged_at=AWKWARD_TIME,
        run_id="run-9",
    )
    # When it is kept, then it reads back exactly, by id, by agent and in the listing
    assert flags.add(made) is True
    assert flags.get("acme", made.flag_id) == made
    assert flags.of_agent("acme", "reviewer", limit=10) == [made]
    assert flags.list("acme", limit=10).items == (made,)


def test_flagging_the_same_item_again_keeps_the_first_flag(flags: FlagStore) -> None:
    # Given an open flag
    first = flag(1, record_id="same")
    assert flags.add(first) is True
    # When the agent flags the same item again, later and for another reason
    again = flag(2, record_id="same", reason="still wrong")
    # Then nothing is written: the first flag stays the one open
    assert flags.add(again) is False
    assert flags.list("acme", limit=10).items == (first,)


def test_of_agent_reads_that_agents_flags_only(flags: FlagStore) -> None:
    # Given flags of two agents whose ids share a prefix, on the same item
    flags.add(flag(1, agent="rev"))
    flags.add(flag(1, agent="reviewer"))
    flags.add(flag(2, agent="reviewer"))
    # Then each agent's read holds its own
    assert {f.agent_id for f in flags.of_agent("acme", "rev", limit=10)} == {"rev"}
    assert len(flags.of_agent("acme", "reviewer", limit=10)) == 2


def test_of_agent_reads_at_most_the_limit(flags: FlagStore) -> None:
    for n in range(5):
        flags.add(flag(n))
    assert len(flags.of_agent("acme", "reviewer", limit=3)) == 3


def test_the_listing_pages_every_open_flag_once(flags: FlagStore) -> None:
    # Given 7 flags of three agents
    made = [flag(n, agent=f"agent-{n % 3}") for n in range(7)]
    for one in made:
        flags.add(one)
    # When the tenant's flags are listed 3 at a time
    pages = all_pages(lambda cursor: flags.list("acme", limit=3, cursor=cursor))
    # Then each comes once
    found = [f.flag_id for page in pages for f in page.items]
    assert sorted(found) == sorted(f.flag_id for f in made)
    assert [len(page.items) for page in pages] == [3, 3, 1]


def test_a_tenant_sees_its_own_flags_only(flags: FlagStore) -> None:
    # Given the same agent and item flagged in two tenants whose ids share a prefix
    flags.add(flag(1, "acme"))
    flags.add(flag(1, "acme-eu"))
    # Then each tenant reads its own
    assert [f.tenant_id for f in flags.list("acme", limit=10).items] == ["acme"]
    assert [f.tenant_id for f in flags.of_agent("acme-eu", "reviewer", limit=10)] == ["acme-eu"]
    assert flags.get("globex", flag(1).flag_id) is None


def test_a_cursor_of_another_tenant_is_refused(flags: FlagStore) -> None:
    for n in range(3):
        flags.add(flag(n, "globex"))
    cursor = flags.list("globex", limit=1).cursor
    assert cursor is not None
    with pytest.raises(InvalidInput) as refused:
        flags.list("acme", limit=1, cursor=cursor)
    assert refused.value.field == "cursor"


def test_closing_a_flag_removes_it_and_the_item_may_be_flagged_again(flags: FlagStore) -> None:
    # Given an open flag
    made = flag(1)
    flags.add(made)
    # When it is closed, then it is handed back once, and is open no more
    assert flags.close("acme", made.flag_id) == made
    assert flags.close("acme", made.flag_id) is None
    assert flags.get("acme", made.flag_id) is None
    assert flags.of_agent("acme", "reviewer", limit=10) == []
    # ... and the agent may flag the item again
    assert flags.add(flag(5, record_id=made.record_id)) is True


def test_forget_deletes_the_tenants_flags_and_nothing_else(
    flags: FlagStore, decisions: DecisionLog, run_ledger: RunLedger
) -> None:
    # Given flags of two tenants, and a run record of the forgotten one
    for n in range(3):
        flags.add(flag(n, "acme"))
    flags.add(flag(1, "globex"))
    run_ledger.start_run("acme", "reviewer", "r1", {"state": {}}, now=NOW, expires_at=NOW + 60)
    # When acme's flags are forgotten
    assert flags.forget("acme") == 3
    # Then acme has none, globex keeps its own, and the run ledger is untouched
    assert flags.list("acme", limit=10).items == ()
    assert len(flags.list("globex", limit=10).items) == 1
    assert run_ledger.run("acme", "reviewer", "r1", now=NOW) is not None


def test_the_run_ledger_and_the_history_do_not_list_flags(
    flags: FlagStore, decisions: DecisionLog, run_ledger: RunLedger
) -> None:
    flags.add(flag(1))
    assert list(run_ledger.entries("acme")) == []
    assert decisions.history("acme", limit=10).items == ()


def test_an_agent_at_the_cap_is_read_whole_in_one_call(flags: FlagStore) -> None:
    # Given an agent holding the most open flags, each at the bounds (longest reason and id)
    reason = "🔑" * 2_000
    for n in range(MAX_OPEN_FLAGS_PER_AGENT):
        flags.add(flag(n, record_id=f"{n:03d}" + "h" * 125, reason=reason))
    # When its flags are read, then every one comes back
    assert len(flags.of_agent("acme", "reviewer", limit=MAX_OPEN_FLAGS_PER_AGENT)) == (
        MAX_OPEN_FLAGS_PER_AGENT
    )
