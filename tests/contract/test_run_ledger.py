"""RunLedger contract: a run's record written once, failures kept for replay, listed by tenant."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.run_records import RunRecord
from agent_memory.core.ports import Checkpoint, RunEntryKind, RunLedger
from tests.contract.builders import AWKWARD_CONFIDENCE, DAY, NOW, in_threads
from tests.contract.conftest import Stores

VALUE: dict[str, Any] = {
    "state": {"run": {"agent_id": "reviewer"}},
    "score": AWKWARD_CONFIDENCE,
    "count": 3,
    "big": 2**53 + 1,
    "flag": True,
    "nothing": None,
    "nested": {"list": [1, "two", 3.5, [], {}], "text": 'ünïcode 📦 "quoted"\n'},
}


def start(runs: RunLedger, run_id: str = "r1", **overrides: Any) -> bool:
    fields: dict[str, Any] = {"tenant_id": "acme", "agent_id": "reviewer", "run_id": run_id}
    fields |= overrides
    value = fields.pop("value", VALUE)
    now = fields.pop("now", NOW)
    expires_at = fields.pop("expires_at", NOW + DAY)
    return runs.start_run(**fields, value=value, now=now, expires_at=expires_at)


def fail(runs: RunLedger, run_id: str = "r1", **overrides: Any) -> str:
    fields: dict[str, Any] = {"tenant_id": "acme", "agent_id": "reviewer", "run_id": run_id}
    fields |= overrides
    value = fields.pop("value", {"failures": 1})
    expires_at = fields.pop("expires_at", None)
    runs.put_failure(**fields, value=value, now=NOW, expires_at=expires_at)
    return runs.failure_key(fields["tenant_id"], fields["agent_id"], fields["run_id"])


def test_store_satisfies_the_port(run_ledger: RunLedger) -> None:
    assert isinstance(run_ledger, RunLedger)


# --- a run's record ----------------------------------------------------------------------------


def test_a_started_run_reads_back_exactly_with_its_identity(run_ledger: RunLedger) -> None:
    assert start(run_ledger) is True

    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)

    assert entry is not None and entry.value == VALUE
    assert (entry.kind, entry.tenant_id, entry.agent_id, entry.run_id) == (
        RunEntryKind.RUN,
        "acme",
        "reviewer",
        "r1",
    )
    assert run_ledger.entry(entry.key, now=NOW) == entry


def test_a_run_never_recorded_is_none(run_ledger: RunLedger) -> None:
    assert run_ledger.run("acme", "reviewer", "nope", now=NOW) is None


def test_starting_a_recorded_run_again_is_refused_and_keeps_the_first_record(
    run_ledger: RunLedger,
) -> None:
    start(run_ledger, value={"v": 1})

    assert start(run_ledger, value={"v": 2}) is False
    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)
    assert entry is not None and entry.value == {"v": 1}


def test_a_run_whose_record_expired_starts_again(run_ledger: RunLedger) -> None:
    start(run_ledger, value={"v": 1}, now=NOW - DAY, expires_at=NOW)

    assert start(run_ledger, value={"v": 2}) is True
    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)
    assert entry is not None and entry.value == {"v": 2}


def test_concurrent_starts_of_one_run_write_exactly_once(run_ledger: RunLedger) -> None:
    results = in_threads(lambda i: start(run_ledger, value={"writer": i}), range(16))

    assert results.count(True) == 1
    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)
    assert entry is not None and entry.value == {"writer": results.index(True)}


def test_a_record_expiring_exactly_now_is_absent(run_ledger: RunLedger) -> None:
    start(run_ledger, now=NOW - DAY, expires_at=NOW)

    assert run_ledger.run("acme", "reviewer", "r1", now=NOW) is None
    assert run_ledger.run("acme", "reviewer", "r1", now=NOW - 0.001) is not None


def test_two_agents_runs_of_one_id_are_two_records(run_ledger: RunLedger) -> None:
    start(run_ledger, value={"by": "reviewer"})

    assert start(run_ledger, agent_id="drafter", value={"by": "drafter"}) is True
    drafter = run_ledger.run("acme", "drafter", "r1", now=NOW)
    assert drafter is not None and drafter.value == {"by": "drafter"}


def test_a_run_of_another_tenant_is_another_record(run_ledger: RunLedger) -> None:
    start(run_ledger)

    assert run_ledger.run("acme2", "reviewer", "r1", now=NOW) is None


def test_rewrite_replaces_the_value_and_the_expiry_in_place(run_ledger: RunLedger) -> None:
    start(run_ledger, value={"v": 1}, expires_at=NOW + 1)
    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)
    assert entry is not None

    run_ledger.rewrite(entry, {"v": 2}, now=NOW, expires_at=NOW + 10 * DAY)

    later = run_ledger.run("acme", "reviewer", "r1", now=NOW + DAY)
    assert later is not None and later.value == {"v": 2} and later.key == entry.key


def test_values_json_cannot_carry_are_refused(run_ledger: RunLedger) -> None:
    with pytest.raises(InvalidInput):
        start(run_ledger, value={"x": float("nan")})


# --- a run's content digest ---------------------------------------------------------------------

DIGEST = "9f" * 32


def test_a_run_records_content_digest_is_kept_through_its_life(run_ledger: RunLedger) -> None:
    # Given a run recorded with the digest of its event's content
    record = RunRecord({"run": {"run_id": "r1"}}, scrubbed_at=NOW, digest=DIGEST)
    assert start(run_ledger, value=record.json())
    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)
    assert entry is not None
    # When it is marked consolidated, then a redaction rewords its state
    done = replace(RunRecord.read(entry.value), consolidated_at=NOW + 1)
    run_ledger.rewrite(entry, done.json(), now=NOW, expires_at=NOW + DAY)
    redacted = replace(done, state={"run": {"run_id": "r1", "task": "[REDACTED]"}})
    assert run_ledger.reword(entry.key, redacted.json())
    # Then the record still holds the digest: the same content is a replay, other content not
    later = run_ledger.run("acme", "reviewer", "r1", now=NOW + 2)
    assert later is not None
    kept = RunRecord.read(later.value)
    assert kept == redacted and kept.digest == DIGEST
    assert not kept.differs(DIGEST) and kept.differs("0e" * 32)


def test_a_run_recorded_before_digests_takes_any_content_for_a_replay(
    run_ledger: RunLedger,
) -> None:
    # Given a run recorded by an older version, without a digest
    start(run_ledger, value={"state": {"run": {"run_id": "r1"}}, "scrubbed_at": NOW})
    entry = run_ledger.run("acme", "reviewer", "r1", now=NOW)
    assert entry is not None
    # Then no content is told apart from it
    record = RunRecord.read(entry.value)
    assert record.digest is None and not record.differs(DIGEST)


# --- the keys underneath ------------------------------------------------------------------------


def test_records_are_kept_under_the_keys_stores_were_written_with(stores: Stores) -> None:
    # Given a run and a failure written through the port
    start(stores.run_ledger, value={"run": 1})
    key = fail(stores.run_ledger, value={"failed": 1})

    # Then they sit under the keys the ledger has always used, so older stores still read
    table = stores.ledger_table
    assert table.get("acme#run#reviewer/r1", now=NOW) == {"run": 1}
    assert key == "acme#failed#reviewer/r1"
    assert table.get(key, now=NOW) == {"failed": 1}


def test_records_kept_by_an_older_store_are_read(stores: Stores) -> None:
    table = stores.ledger_table
    table.put("acme#run#reviewer/r1", {"run": 1}, now=NOW, expires_at=NOW + DAY)
    table.put("acme#failed#reviewer/r2", {"failed": 2}, now=NOW, expires_at=None)
    table.put("acme#failed#r3", {"failed": 3}, now=NOW, expires_at=None)

    run = stores.run_ledger.run("acme", "reviewer", "r1", now=NOW)
    failures = {(e.agent_id, e.run_id): e.value for e in stores.run_ledger.failures("acme")}

    assert run is not None and run.value == {"run": 1}
    assert failures == {("reviewer", "r2"): {"failed": 2}, (None, "r3"): {"failed": 3}}


# --- failures ----------------------------------------------------------------------------------


def test_a_failure_reads_back_by_its_key_with_its_identity(run_ledger: RunLedger) -> None:
    key = fail(run_ledger, value={"failures": 2, "event": VALUE})

    entry = run_ledger.entry(key, now=NOW)

    assert entry is not None and entry.value == {"failures": 2, "event": VALUE}
    assert (entry.kind, entry.tenant_id, entry.agent_id, entry.run_id) == (
        RunEntryKind.FAILURE,
        "acme",
        "reviewer",
        "r1",
    )
    assert run_ledger.identify(key) == ("acme", "reviewer", "r1")


def test_a_failure_without_an_agent_is_named_by_its_run_alone(run_ledger: RunLedger) -> None:
    key = fail(run_ledger, "0123abcd", tenant_id="_unroutable", agent_id=None)

    assert run_ledger.identify(key) == ("_unroutable", None, "0123abcd")
    [entry] = run_ledger.failures("_unroutable")
    assert entry.key == key and entry.agent_id is None


def test_a_failure_put_again_replaces_its_value_and_expiry(run_ledger: RunLedger) -> None:
    fail(run_ledger, value={"failures": 1}, expires_at=NOW + 1)

    key = fail(run_ledger, value={"failures": 2}, expires_at=None)

    entry = run_ledger.entry(key, now=NOW + 10_000 * DAY)
    assert entry is not None and entry.value == {"failures": 2}


def test_a_failure_expiring_now_is_absent_but_still_listed(run_ledger: RunLedger) -> None:
    # Listings have no clock: a resolved failure left to expire is still listed (and resolved).
    key = fail(run_ledger, value={"resolved": True}, expires_at=NOW)

    assert run_ledger.entry(key, now=NOW) is None
    assert [e.key for e in run_ledger.failures("acme")] == [key]


def test_delete_removes_the_entry_and_is_quiet_when_absent(run_ledger: RunLedger) -> None:
    key = fail(run_ledger)

    run_ledger.delete(key)
    run_ledger.delete(key)

    assert run_ledger.entry(key, now=NOW) is None
    assert list(run_ledger.failures("acme")) == []


def test_a_key_that_names_no_run_is_not_an_entry(stores: Stores) -> None:
    # Given a job's checkpoint in the same store
    stores.checkpoints.save(Checkpoint.DECAY_PROGRESS, {"step": 1}, now=NOW)
    key = "_decay#progress"

    # Then the run ledger neither reads, names nor deletes it
    assert stores.run_ledger.entry(key, now=NOW) is None
    assert stores.run_ledger.identify(key) is None
    stores.run_ledger.delete(key)
    assert stores.checkpoints.load(Checkpoint.DECAY_PROGRESS, now=NOW) == {"step": 1}


# --- listings ----------------------------------------------------------------------------------


def test_failures_lists_exactly_the_tenants_failures(run_ledger: RunLedger) -> None:
    fail(run_ledger, "r1")
    fail(run_ledger, "r2", agent_id="drafter")
    start(run_ledger, "r3")
    for tenant in ("acme2", "acm", "acme-x"):
        fail(run_ledger, tenant_id=tenant)

    listed = sorted((e.agent_id, e.run_id) for e in run_ledger.failures("acme"))

    assert listed == [("drafter", "r2"), ("reviewer", "r1")]


def test_failures_lists_large_numbers_completely(run_ledger: RunLedger) -> None:
    for i in range(1_201):
        fail(run_ledger, f"r{i:05d}", value={"i": i})
    fail(run_ledger, tenant_id="acmez")

    listed = sorted((e.run_id, e.value["i"]) for e in run_ledger.failures("acme"))

    assert listed == [(f"r{i:05d}", i) for i in range(1_201)]


def test_entries_of_a_tenant_are_its_runs_and_failures_only(stores: Stores) -> None:
    runs = stores.run_ledger
    start(runs, "r1")
    fail(runs, "r2")
    start(runs, "r1", tenant_id="acme2")
    stores.checkpoints.save(Checkpoint.INGESTION_JOB, {"job_id": "j"}, now=NOW)

    listed = sorted((e.kind.value, e.run_id) for e in runs.entries("acme"))

    assert listed == [("failed", "r2"), ("run", "r1")]


def test_entries_of_every_tenant_hold_no_job_state(stores: Stores) -> None:
    runs = stores.run_ledger
    start(runs, "r1")
    fail(runs, "r2", tenant_id="acme2")
    fail(runs, "d1g3st", tenant_id="_unroutable", agent_id=None)
    stores.checkpoints.save(Checkpoint.REEMBEDDING, {"stage": "embedding"}, now=NOW)

    listed = sorted((e.tenant_id, e.run_id) for e in runs.entries())

    assert listed == [("_unroutable", "d1g3st"), ("acme", "r1"), ("acme2", "r2")]


def test_entries_include_expired_records(run_ledger: RunLedger) -> None:
    start(run_ledger, now=NOW - DAY, expires_at=NOW - 1)

    assert [e.run_id for e in run_ledger.entries("acme")] == ["r1"]


def test_entries_allow_deleting_while_iterating(run_ledger: RunLedger) -> None:
    for i in range(600):
        fail(run_ledger, f"r{i:04d}")

    for entry in run_ledger.entries("acme"):
        run_ledger.delete(entry.key)

    assert list(run_ledger.entries("acme")) == []


def test_purge_expired_removes_at_most_limit_and_never_a_live_record(stores: Stores) -> None:
    runs = stores.run_ledger
    for i in range(3):
        start(runs, f"old-{i}", now=NOW - DAY, expires_at=NOW - i)
    start(runs, "live", expires_at=NOW + 1)
    fail(runs, "kept")
    stores.checkpoints.save(Checkpoint.INGESTION_JOB, {"i": 10}, now=NOW)

    purged = runs.purge_expired(NOW, limit=2)

    assert 0 <= purged <= 2
    if stores.purges_expired:
        assert purged == 2
    assert runs.run("acme", "reviewer", "live", now=NOW) is not None
    assert len(list(runs.failures("acme"))) == 1
    assert stores.checkpoints.load(Checkpoint.INGESTION_JOB, now=NOW) == {"i": 10}
    assert len(list(runs.entries("acme"))) == 5 - purged
