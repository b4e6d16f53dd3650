"""A reviewer's name and reason are stored text: scrubbed like every other, on every surface."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.core.model.errors import PiiDetectionFailed
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.support.embedder import HashingEmbedder
from tests.support.memory import Memory, make_memory, proposed_procedure, run_event

REQUEST = BootstrapRequest(
    "acme", "reviewer", "Review the vendor MSA liability cap", "contract_review", "contracts"
)


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


def proposed(memory: Memory) -> str:
    return proposed_procedure(consolidate(run_event("r1"), memory.ports))


def test_an_approving_reviewers_name_is_stored_and_served_as_a_pseudonym(memory: Memory) -> None:
    # Given a proposed procedure
    procedure_id = proposed(memory)
    # When a reviewer approves it under their full name
    updated = procedural.decide(memory.ports, procedure_id, approve=True, reviewer="Jane Doe")
    # Then the record holds the tenant's pseudonym of the name, and bootstrap serves that
    assert updated.reviewer is not None and updated.reviewer.startswith("[NAME-")
    context = bootstrap(REQUEST, memory.ports)["context"]
    assert f"validated by {updated.reviewer}" in context and "Jane Doe" not in context
    assert b"Jane Doe" not in (memory.root / "memory.db").read_bytes()


def test_a_rejection_reason_is_scrubbed_before_it_is_stored(memory: Memory) -> None:
    procedure_id = proposed(memory)
    rejected = procedural.decide(
        memory.ports,
        procedure_id,
        approve=False,
        reviewer="legal-lead",
        note="Wrong steps; ask jane.doe@example.com",
    )
    assert rejected.review_note == "Wrong steps; ask [EMAIL]"
    assert rejected.reviewer == "legal-lead"


def test_a_failing_detector_records_no_decision(memory: Memory) -> None:
    # Given a proposed procedure and a PII detector that is down
    procedure_id = proposed(memory)
    memory.pii.fail = True
    # When a reviewer approves it, the decision fails and nothing is recorded
    with pytest.raises(PiiDetectionFailed):
        procedural.decide(memory.ports, procedure_id, approve=True, reviewer="Jane Doe")
    pending = memory.ports.procedures.get(procedure_id)
    assert pending is not None and pending.reviewer is None


def test_the_local_detector_takes_a_plain_full_name(tmp_path: Path) -> None:
    # The name from the issue, through the product's own local detector
    ports = local_ports(
        LocalSettings(store=tmp_path), embedder=HashingEmbedder(), pii=LocalPiiDetector()
    )
    procedure_id = proposed_procedure(consolidate(run_event("r1"), ports))
    updated = procedural.decide(ports, procedure_id, approve=True, reviewer="Maria Garcia")
    assert updated.reviewer is not None and "Garcia" not in updated.reviewer
