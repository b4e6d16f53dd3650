"""JobCheckpoints contract: one saved state per checkpoint, and leases one holder at a time."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.ports import Checkpoint, JobCheckpoints, Lease
from tests.contract.builders import AWKWARD_CONFIDENCE, DAY, NOW, in_threads
from tests.contract.conftest import Stores

VALUE: dict[str, Any] = {
    "step": 2,
    "cursor": "ü#📦",
    "score": AWKWARD_CONFIDENCE,
    "big": 2**53 + 1,
    "nothing": None,
    "nested": {"attempts": {"tenants/acme/a.txt": 3}, "list": [1, "two", 3.5, [], {}]},
}
LEASE = Lease.REEMBEDDING
# The keys checkpoints were kept under before they had a port, in stores written since.
KEPT_UNDER = {
    Checkpoint.DECAY_PROGRESS: "_decay#progress",
    Checkpoint.INGESTION_JOB: "_kb-ingestion#current",
    Checkpoint.INGESTION_REQUESTED: "_kb-ingestion#dirty",
    Checkpoint.INGESTION_RETRIES: "_kb-ingestion#retries",
    Checkpoint.REEMBEDDING: "_embedding#migration",
}


def test_store_satisfies_the_port(checkpoints: JobCheckpoints) -> None:
    assert isinstance(checkpoints, JobCheckpoints)


@pytest.mark.parametrize("checkpoint", list(Checkpoint))
def test_a_saved_state_loads_back_exactly(
    checkpoints: JobCheckpoints, checkpoint: Checkpoint
) -> None:
    checkpoints.save(checkpoint, VALUE, now=NOW)

    assert checkpoints.load(checkpoint, now=NOW) == VALUE


def test_a_checkpoint_never_saved_loads_none(checkpoints: JobCheckpoints) -> None:
    assert checkpoints.load(Checkpoint.DECAY_PROGRESS, now=NOW) is None


def test_each_checkpoint_is_its_own_record(checkpoints: JobCheckpoints) -> None:
    for number, checkpoint in enumerate(Checkpoint):
        checkpoints.save(checkpoint, {"n": number}, now=NOW)

    checkpoints.clear(Checkpoint.INGESTION_JOB)

    loaded = {c: checkpoints.load(c, now=NOW) for c in Checkpoint}
    assert loaded == {
        c: None if c is Checkpoint.INGESTION_JOB else {"n": n} for n, c in enumerate(Checkpoint)
    }


def test_save_replaces_the_state(checkpoints: JobCheckpoints) -> None:
    checkpoints.save(Checkpoint.INGESTION_RETRIES, {"v": 1}, now=NOW)

    checkpoints.save(Checkpoint.INGESTION_RETRIES, {"v": 2}, now=NOW)

    assert checkpoints.load(Checkpoint.INGESTION_RETRIES, now=NOW) == {"v": 2}


def test_a_saved_state_never_expires(checkpoints: JobCheckpoints) -> None:
    checkpoints.save(Checkpoint.REEMBEDDING, {"v": 1}, now=NOW)

    assert checkpoints.load(Checkpoint.REEMBEDDING, now=NOW + 10_000 * DAY) == {"v": 1}


def test_clear_is_quiet_when_nothing_is_saved(checkpoints: JobCheckpoints) -> None:
    checkpoints.clear(Checkpoint.DECAY_PROGRESS)

    assert checkpoints.load(Checkpoint.DECAY_PROGRESS, now=NOW) is None


def test_states_json_cannot_carry_are_refused(checkpoints: JobCheckpoints) -> None:
    with pytest.raises(InvalidInput):
        checkpoints.save(Checkpoint.DECAY_PROGRESS, {"x": float("inf")}, now=NOW)


@pytest.mark.parametrize("checkpoint", list(Checkpoint))
def test_states_kept_by_an_older_store_are_read_and_written_in_place(
    stores: Stores, checkpoint: Checkpoint
) -> None:
    # Given a state kept under the key it had before checkpoints had a port
    stores.ledger_table.put(KEPT_UNDER[checkpoint], {"old": 1}, now=NOW, expires_at=None)

    # When it is loaded and saved again
    loaded = stores.checkpoints.load(checkpoint, now=NOW)
    stores.checkpoints.save(checkpoint, {"new": 2}, now=NOW)

    # Then the old record is the one read and the one replaced
    assert loaded == {"old": 1}
    assert stores.ledger_table.get(KEPT_UNDER[checkpoint], now=NOW) == {"new": 2}


# --- leases ------------------------------------------------------------------------------------


def test_a_free_lease_is_taken(checkpoints: JobCheckpoints) -> None:
    assert checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600) is True


def test_a_held_lease_is_refused_to_another_holder(checkpoints: JobCheckpoints) -> None:
    checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600)

    assert checkpoints.acquire(LEASE, "b", now=NOW + 599, until=NOW + 1200) is False


def test_a_lapsed_lease_is_taken_by_another_holder(checkpoints: JobCheckpoints) -> None:
    checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600)

    assert checkpoints.acquire(LEASE, "b", now=NOW + 600, until=NOW + 1200) is True


def test_concurrent_acquires_give_the_lease_to_exactly_one(checkpoints: JobCheckpoints) -> None:
    results = in_threads(
        lambda i: checkpoints.acquire(LEASE, f"h{i}", now=NOW, until=NOW + 600), range(16)
    )

    assert results.count(True) == 1


def test_a_renewed_lease_is_held_past_its_first_term(checkpoints: JobCheckpoints) -> None:
    checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600)

    checkpoints.renew(LEASE, "a", now=NOW + 500, until=NOW + 1100)

    assert checkpoints.acquire(LEASE, "b", now=NOW + 700, until=NOW + 1300) is False


def test_a_released_lease_is_free(checkpoints: JobCheckpoints) -> None:
    checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600)

    checkpoints.release(LEASE, "a", now=NOW + 1)

    assert checkpoints.acquire(LEASE, "b", now=NOW + 2, until=NOW + 600) is True


def test_only_the_holder_releases_a_lease(checkpoints: JobCheckpoints) -> None:
    # Given a lease that lapsed and was taken by another holder
    checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600)
    checkpoints.acquire(LEASE, "b", now=NOW + 600, until=NOW + 1200)

    # When the first holder, done at last, releases it
    checkpoints.release(LEASE, "a", now=NOW + 700)

    # Then the second still holds it
    assert checkpoints.acquire(LEASE, "c", now=NOW + 800, until=NOW + 1400) is False


def test_a_lease_is_no_saved_state(checkpoints: JobCheckpoints) -> None:
    checkpoints.acquire(LEASE, "a", now=NOW, until=NOW + 600)

    assert checkpoints.load(Checkpoint.REEMBEDDING, now=NOW) is None
