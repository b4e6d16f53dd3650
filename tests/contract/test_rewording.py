"""Rewriting stored texts in place (a redaction's writes), on every adapter: an episode's texts
and vectors, a fact moved to a new key with its log, a procedure's wording, a ledger record,
a flag and a decision; each keeps everything else as stored.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.decisions import Action, Decision, RecordKind
from agent_memory.core.model.flags import Flag, FlagKind
from agent_memory.core.model.models import EpisodeUnit, FactStatus
from agent_memory.core.ports import (
    DecisionLog,
    EpisodeStore,
    FactStore,
    FlagStore,
    ProcedureStore,
    RunLedger,
)
from tests.contract.builders import NOW, VECTOR, episode, observation, procedure

OTHER = replace(VECTOR, data=bytes(reversed(VECTOR.data)))


def test_an_episode_rewritten_keeps_its_outcome_and_times(episodes: EpisodeStore) -> None:
    # Given an episode with units and a spare vector
    unit = EpisodeUnit("message", 0, "ask the secret desk", "human", VECTOR, VECTOR)
    stored = episode(key_findings=("the secret desk",), units=(unit,), embedding=VECTOR)
    episodes.add(replace(stored, spare_embedding=VECTOR))
    before = episodes.version("acme", "agent-1")

    # When its texts and vectors are rewritten (the spare dropped)
    new_unit = replace(unit, text="ask the [X] desk", embedding=OTHER, spare_embedding=None)
    wanted = replace(
        stored,
        task="[X]",
        key_findings=("the [X] desk",),
        units=(new_unit,),
        embedding=OTHER,
        outcome="FAILED",
        created_at=0.0,
    )
    assert episodes.rewrite(wanted)

    # Then the texts and vectors are the new ones, outcome and times as stored
    after = episodes.get("acme", "agent-1", "run-1", now=NOW)
    assert after == replace(wanted, outcome=stored.outcome, created_at=stored.created_at)
    assert episodes.version("acme", "agent-1") != before


def test_rewriting_a_missing_episode_writes_nothing(episodes: EpisodeStore) -> None:
    assert not episodes.rewrite(episode())
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) is None


def test_a_fact_rekeyed_keeps_its_status_counts_and_log(facts: FactStore) -> None:
    # Given a confirmed fact seen by two runs, staged
    for run in ("r-1", "r-2"):
        facts.observe(observation(run_id=run, agent_id=f"agent-{run}", embedding=VECTOR))
    facts.confirm("acme", "billing", "h-1", now=NOW)
    facts.mark_staged("acme", "billing", "h-1", now=NOW)
    old = facts.get("acme", "billing", "h-1")
    assert old is not None

    # When it moves to a new key with new content
    moved = replace(old, fact_hash="h-2", content="Invoices go to [X]", embedding=OTHER)
    after = facts.rekey("acme", "billing", "h-1", replace(moved, staged_at=None))

    # Then the old key is empty, the new holds the content with the status and the log
    assert facts.get("acme", "billing", "h-1") is None
    assert after is not None and after == facts.get("acme", "billing", "h-2")
    assert (after.content, after.embedding, after.staged_at) == ("Invoices go to [X]", OTHER, None)
    assert (after.status, after.sightings, after.run_ids) == (
        FactStatus.CONFIRMED,
        2,
        old.run_ids,
    )
    assert {s.fact_hash for s in facts.sightings("acme")} == {"h-2"}
    # And it is served from the fast path again, its document to be staged
    assert [f.fact_hash for f in facts.fast_path("acme", "billing")] == ["h-2"]


def test_a_fact_is_not_rekeyed_onto_another(facts: FactStore) -> None:
    facts.observe(observation())
    facts.observe(observation(fact_hash="h-2", content="Another"))
    old = facts.get("acme", "billing", "h-1")
    assert old is not None

    assert facts.rekey("acme", "billing", "h-1", replace(old, fact_hash="h-2")) is None

    assert facts.get("acme", "billing", "h-1") == old


def test_a_fact_rekeyed_in_place_takes_its_new_content(facts: FactStore) -> None:
    facts.observe(observation())
    old = facts.get("acme", "billing", "h-1")
    assert old is not None

    after = facts.rekey("acme", "billing", "h-1", replace(old, content="[X]", review_note="n"))

    assert after is not None and (after.content, after.review_note) == ("[X]", "n")
    assert facts.rekey("acme", "billing", "h-9", old) is None


def test_a_procedure_reworded_keeps_its_id_status_and_counts(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    after = procedures.reword(
        "proc-1", tenant_id="acme", title="[X]", steps=["Ask [X]"], review_note=None
    )

    assert after is not None and (after.title, after.steps) == ("[X]", ("Ask [X]",))
    assert (after.procedure_id, after.status, after.proposed_by) == ("proc-1", "PENDING", 1)
    assert procedures.get("proc-1", tenant_id="acme") == after
    assert (
        procedures.reword("proc-1", tenant_id="other", title="", steps=[], review_note=None) is None
    )


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.dictionaries(st.text(max_size=8), st.text(max_size=20), max_size=4))
def test_a_ledger_record_reworded_keeps_its_expiry(run_ledger: RunLedger, value: dict) -> None:  # type: ignore[type-arg]
    # Given a run's record expiring in a day
    run_ledger.start_run("acme", "a-1", "r-1", {"t": "old"}, now=NOW, expires_at=NOW + 10)
    [entry] = [e for e in run_ledger.entries("acme") if e.run_id == "r-1"]

    # When its value is reworded
    assert run_ledger.reword(entry.key, value)

    # Then it holds the new value, and still expires when it did
    reread = run_ledger.entry(entry.key, now=NOW)
    assert reread is not None and reread.value == value
    assert run_ledger.entry(entry.key, now=NOW + 10) is None
    run_ledger.delete(entry.key)


def test_a_missing_ledger_record_is_not_reworded(run_ledger: RunLedger) -> None:
    key = run_ledger.failure_key("acme", "a-1", "r-1")
    assert not run_ledger.reword(key, {"x": 1})
    assert run_ledger.entry(key, now=NOW) is None


def test_a_flag_and_a_decision_are_reworded(flags: FlagStore, decisions: DecisionLog) -> None:
    flag = Flag("acme", "a-1", FlagKind.FACT, "h-1", "the secret desk", NOW)
    flags.add(flag)
    decision = Decision("acme", Action.FORGET, RecordKind.RUN, "a-1/r-1", "dpo", NOW, "secret")
    decisions.record(decision)

    assert flags.reword(replace(flag, reason="the [X] desk"))
    assert decisions.reword(replace(decision, reason="[X]"))

    assert flags.get("acme", flag.flag_id) == replace(flag, reason="the [X] desk")
    [kept] = decisions.history("acme", limit=10).items
    assert kept == replace(decision, reason="[X]")
    assert not flags.reword(replace(flag, record_id="h-2"))
