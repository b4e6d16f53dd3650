"""ModelRegistry contract: the store's active embedding model, recorded at a switch."""

from __future__ import annotations

from agent_memory.core.ports import ActiveModel, ModelRegistry
from tests.contract.builders import DAY, NOW
from tests.contract.conftest import Stores

SWITCHED = ActiveModel("bge-small", 384, switched_at=NOW - 0.5, previous_model_id="hashing-256")


def test_store_satisfies_the_port(model_registry: ModelRegistry) -> None:
    assert isinstance(model_registry, ModelRegistry)


def test_a_store_that_never_recorded_a_model_has_none(model_registry: ModelRegistry) -> None:
    assert model_registry.active_model(now=NOW) is None


def test_a_recorded_model_reads_back_exactly(model_registry: ModelRegistry) -> None:
    model_registry.set_active_model(SWITCHED, now=NOW)

    assert model_registry.active_model(now=NOW + 10_000 * DAY) == SWITCHED


def test_recording_a_model_replaces_the_last(model_registry: ModelRegistry) -> None:
    model_registry.set_active_model(ActiveModel("hashing-256", 256), now=NOW)

    model_registry.set_active_model(SWITCHED, now=NOW)

    assert model_registry.active_model(now=NOW) == SWITCHED


def test_the_model_an_older_store_recorded_is_read(stores: Stores) -> None:
    # Given the record a store kept before the registry had a port
    record = {"model_id": "bge-small", "dimension": 384, "switched_at": 1.5}
    record |= {"previous_model_id": "hashing-256"}
    stores.ledger_table.put("_embedding#active", record, now=NOW, expires_at=None)

    # Then it is the active model
    assert stores.model_registry.active_model(now=NOW) == ActiveModel(
        "bge-small", 384, 1.5, "hashing-256"
    )
