"""What a run left in facts and procedures, found and taken back: the contract of
``FactStore.sightings``/``unsee`` and ``ProcedureStore.run_traces``/``untrace``/``delete``,
on which forgetting one run everywhere it counted is built.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.models import RUN_IDS_KEPT, SOURCE_RUN_IDS_KEPT, FactStatus
from agent_memory.core.model.policies import HOUR, Independence
from agent_memory.core.ports import FactStore, ProcedureStore, RunTrace, Sighting
from tests.contract.builders import NOW, observation, procedure

_TENANTS = itertools.count()
_SLOW = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# A sighting: (agent, minutes after NOW); the run ids are their positions.
_SIGHTINGS = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 300)), min_size=1, max_size=8
)


@_SLOW
@given(seen=_SIGHTINGS, data=st.data())
def test_unseeing_runs_takes_back_exactly_the_confirmations_they_added(
    facts: FactStore, seen: list[tuple[str, int]], data: st.DataObject
) -> None:
    # Given a fact seen by runs of several agents, some within an hour of each other (those
    # sightings are no confirmation), each run's own contribution noted as it was counted
    tenant = f"t{next(_TENANTS)}"
    added: dict[str, int] = {}
    before = 0
    for position, (agent, minutes) in enumerate(seen):
        run_id = f"{agent}/run-{position}"
        after = facts.observe(
            observation(
                tenant_id=tenant, run_id=run_id, agent_id=agent, seen_at=NOW + minutes * 60
            ),
            Independence(same_agent_gap=HOUR),
        )
        added[run_id], before = after.confirmations - before, after.confirmations
    # When some of the runs are taken back
    gone = data.draw(st.sets(st.sampled_from(sorted(added))))
    last = None
    for run_id in sorted(gone):
        last = facts.unsee(tenant, "billing", "h-1", run_id)
        assert last is not None
    # Then the fact counts what the other runs added, and its log names them only
    fact = facts.get(tenant, "billing", "h-1")
    assert fact is not None
    assert fact.confirmations == sum(n for run, n in added.items() if run not in gone)
    assert fact.sightings == len(added) - len(gone)
    assert fact.run_ids == frozenset(added) - gone
    assert {s.run_id for s in facts.sightings(tenant)} == set(added) - gone
    if last is not None:
        assert last == fact


def test_unseeing_a_run_the_log_never_held_changes_nothing(facts: FactStore) -> None:
    facts.observe(observation())

    assert facts.unsee("acme", "billing", "h-1", "run-unknown") is None
    assert facts.unsee("acme", "billing", "h-missing", "run-1") is None
    assert facts.unsee("other", "billing", "h-1", "run-1") is None
    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None and (fact.sightings, fact.confirmations) == (1, 1)


def test_unseeing_twice_takes_back_once(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1", agent_id="a"))
    facts.observe(observation(run_id="run-2", agent_id="b"))

    first = facts.unsee("acme", "billing", "h-1", "run-2")
    again = facts.unsee("acme", "billing", "h-1", "run-2")

    assert first is not None and (first.sightings, first.confirmations) == (1, 1)
    assert again is None


def test_sightings_name_every_run_of_every_fact_of_the_tenant_only(facts: FactStore) -> None:
    # Given two facts of the tenant, one of them in another domain, and another tenant's fact
    facts.observe(observation(run_id="run-1"))
    facts.observe(observation(run_id="run-2"))
    facts.observe(observation(domain="hr", fact_hash="h-2", run_id="run-1"))
    facts.observe(observation(tenant_id="other", run_id="run-9"))

    found = set(facts.sightings("acme"))

    assert found == {
        Sighting("billing", "h-1", "run-1"),
        Sighting("billing", "h-1", "run-2"),
        Sighting("hr", "h-2", "run-1"),
    }


def test_a_run_counted_past_the_full_log_is_found_and_taken_back(facts: FactStore) -> None:
    # Given a fact whose log is full, then seen by two more runs: one counted (another agent),
    # one not (the same agent within the hour)
    for i in range(RUN_IDS_KEPT):
        facts.observe(observation(run_id=f"run-{i}", agent_id="a", seen_at=NOW))
    facts.observe(observation(run_id="late-counted", agent_id="b", seen_at=NOW + 60))
    facts.observe(observation(run_id="late-not", agent_id="b", seen_at=NOW + 120))
    before = facts.get("acme", "billing", "h-1")
    assert before is not None and before.sightings == RUN_IDS_KEPT + 2
    late = {s.run_id for s in facts.sightings("acme")} - {f"run-{i}" for i in range(RUN_IDS_KEPT)}
    assert late == {"late-counted", "late-not"}

    # When both are taken back
    not_counted = facts.unsee("acme", "billing", "h-1", "late-not")
    counted = facts.unsee("acme", "billing", "h-1", "late-counted")

    # Then each takes back what it added, and neither is found again
    assert not_counted is not None and not_counted.confirmations == before.confirmations
    assert counted is not None and counted.confirmations == before.confirmations - 1
    assert counted.sightings == RUN_IDS_KEPT
    assert facts.unsee("acme", "billing", "h-1", "late-counted") is None


def _feedback(
    procedures: ProcedureStore, run_id: str, *, succeeded: bool, procedure_id: str = "proc-1"
) -> None:
    procedures.record_feedback(
        procedure_id,
        tenant_id="acme",
        run_id=run_id,
        receipt_id=f"receipt-of-{run_id}",
        succeeded=succeeded,
        now=NOW,
    )


def test_run_traces_name_sources_and_feedback_of_the_tenant_only(
    procedures: ProcedureStore,
) -> None:
    # Given a procedure proposed by two runs, one of which also reported on it, a run that
    # only reported, and another tenant's procedure
    procedures.propose(procedure(), "run-1")
    procedures.propose(procedure(), "run-2")
    _feedback(procedures, "run-2", succeeded=True)
    _feedback(procedures, "run-3", succeeded=False)
    procedures.propose(procedure(tenant_id="other", procedure_id="proc-9"), "run-1")

    traces = set(procedures.run_traces("acme"))

    assert traces == {
        RunTrace("proc-1", "run-1", source=True, feedback=False),
        RunTrace("proc-1", "run-2", source=True, feedback=True),
        RunTrace("proc-1", "run-3", source=False, feedback=True),
    }


def test_untrace_takes_back_a_runs_proposal_and_feedback(procedures: ProcedureStore) -> None:
    # Given a procedure two runs proposed, each reporting a result
    procedures.propose(procedure(), "run-1")
    procedures.propose(procedure(), "run-2")
    _feedback(procedures, "run-1", succeeded=True)
    _feedback(procedures, "run-2", succeeded=False)

    # When one run is taken back, twice
    after = procedures.untrace("proc-1", tenant_id="acme", run_id="run-1")
    again = procedures.untrace("proc-1", tenant_id="acme", run_id="run-1")

    # Then the procedure counts the other run only, once
    assert after is not None and again == after
    assert after.proposed_by == 1 and after.source_run_ids == frozenset({"run-2"})
    assert (after.times_applied, after.times_succeeded) == (1, 0)
    assert set(procedures.run_traces("acme")) == {RunTrace("proc-1", "run-2", True, True)}


def test_a_released_receipt_counts_again(procedures: ProcedureStore) -> None:
    # Given a run's feedback taken back
    procedures.propose(procedure(), "run-1")
    _feedback(procedures, "run-1", succeeded=True)
    procedures.untrace("proc-1", tenant_id="acme", run_id="run-1")

    # When the run reports again
    count = procedures.record_feedback(
        "proc-1",
        tenant_id="acme",
        run_id="run-1",
        receipt_id="receipt-of-run-1",
        succeeded=True,
        now=NOW,
    )

    # Then it counts: nothing of the forgotten report remains
    assert count.value == "counted"


def test_untrace_of_another_tenants_procedure_changes_nothing(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(), "run-1")

    assert procedures.untrace("proc-1", tenant_id="other", run_id="run-1") is None
    stored = procedures.get("proc-1")
    assert stored is not None and stored.proposed_by == 1


def test_a_source_past_the_full_log_is_found_and_taken_back(procedures: ProcedureStore) -> None:
    # Given a procedure whose source log is full, proposed by one run more
    for i in range(SOURCE_RUN_IDS_KEPT):
        procedures.propose(procedure(), f"run-{i}")
    procedures.propose(procedure(), "late")

    # When the late run is taken back
    assert RunTrace("proc-1", "late", True, False) in set(procedures.run_traces("acme"))
    after = procedures.untrace("proc-1", tenant_id="acme", run_id="late")

    # Then the procedure counts the others
    assert after is not None and after.proposed_by == SOURCE_RUN_IDS_KEPT
    assert RunTrace("proc-1", "late", True, False) not in set(procedures.run_traces("acme"))


def test_a_procedure_whose_sources_were_all_taken_back_counts_a_new_proposal(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(), "run-1")
    procedures.untrace("proc-1", tenant_id="acme", run_id="run-1")

    procedures.propose(procedure(), "run-2")

    stored = procedures.get("proc-1")
    assert stored is not None and stored.source_run_ids == frozenset({"run-2"})


def test_delete_removes_one_procedure_and_its_logs(procedures: ProcedureStore) -> None:
    # Given two procedures of the tenant, one with feedback
    procedures.propose(procedure(), "run-1")
    _feedback(procedures, "run-1", succeeded=True)
    procedures.propose(procedure(procedure_id="proc-2", steps=("Other",)), "run-1")

    # When one is deleted (twice), and by another tenant
    assert not procedures.delete("proc-1", tenant_id="other")
    assert procedures.delete("proc-1", tenant_id="acme")
    assert not procedures.delete("proc-1", tenant_id="acme")

    # Then only the other remains, with its log
    assert procedures.get("proc-1") is None
    assert set(procedures.run_traces("acme")) == {RunTrace("proc-2", "run-1", True, False)}
    # And the id can be proposed afresh, its old feedback forgotten
    procedures.propose(procedure(), "run-5")
    _feedback(procedures, "run-1", succeeded=True)
    fresh = procedures.get("proc-1")
    assert fresh is not None and fresh.times_applied == 1


def test_withdraw_moves_a_confirmed_fact_back_to_pending_and_off_every_serving_list(
    facts: FactStore,
) -> None:
    # Given a confirmed fact staged for the KB, and one ingested
    facts.observe(observation())
    facts.observe(observation(fact_hash="h-2"))
    for key in ("h-1", "h-2"):
        facts.confirm("acme", "billing", key, now=NOW)
        facts.mark_staged("acme", "billing", key, now=NOW)
    facts.mark_ingested("acme", "billing", "h-2", now=NOW)

    # When both are withdrawn, the first twice
    assert facts.withdraw("acme", "billing", "h-1")
    assert not facts.withdraw("acme", "billing", "h-1")
    assert facts.withdraw("acme", "billing", "h-2")

    # Then neither is served nor awaits ingestion, and decay sees them as pending
    for key in ("h-1", "h-2"):
        fact = facts.get("acme", "billing", key)
        assert fact is not None and fact.status is FactStatus.PENDING
        assert (fact.confirmed_at, fact.staged_at, fact.ingested_at) == (None, None, None)
    assert facts.fast_path("acme", None) == []
    assert facts.awaiting_ingestion(limit=10).items == ()
    pending = facts.pending_seen_before(NOW + 1, limit=10).items
    assert {f.fact_hash for f in pending} == {"h-1", "h-2"}


def test_withdraw_of_a_fact_not_confirmed_changes_nothing(facts: FactStore) -> None:
    facts.observe(observation())

    assert not facts.withdraw("acme", "billing", "h-1")
    assert not facts.withdraw("acme", "billing", "h-missing")
