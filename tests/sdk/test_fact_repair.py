"""A person repairs a fact through the SDK (``RetractFact``, ``CorrectFact``, ``AssertFact``):
locally, what the next bootstrap serves and what the history keeps; on AWS, one invocation of
the review function with the request's published form.
"""

from __future__ import annotations

import json

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import Ingest
from agent_memory.core.model.decisions import digest
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.sdk import ConflictError, InvalidInputError, NotFoundError
from tests.sdk.conftest import REVIEW_FUNCTION, LocalMemory, StubbedAws
from tests.sdk.test_aws_episodes import invoke_reply
from tests.sdk.test_get_fact import FACT, HASH, confirmed_by_three_agents
from tests.support.memory import run_event

TASK = "liability cap fees red flag"
BETTER = "Liability caps below 2x fees are a red flag"


def served(local: LocalMemory) -> dict[str, str]:
    """The facts the next bootstrap serves, by hash, with where each came from."""
    reply = local.client.bootstrap("acme", "reviewer", TASK, domain="contracts")
    return {f["fact_hash"]: f["source"] for f in reply["facts"]}


def ingest(local: LocalMemory) -> None:
    Application(local.ports()).handle(Ingest())


def test_a_retracted_fact_is_served_neither_from_the_kb_nor_the_fast_path(
    local: LocalMemory,
) -> None:
    # Given a confirmed fact the knowledge base serves
    confirmed_by_three_agents(local)
    ingest(local)
    assert served(local) == {HASH: "knowledge_base"}
    # When a person retracts it
    record = local.client.retract_fact(
        "acme", "contracts", HASH, reviewer="alice", reason="wrong threshold"
    )
    # Then the next bootstrap serves it from nowhere, before and after the next ingestion
    assert (record["status"], record["served_from"]) == ("RETRACTED", None)
    assert served(local) == {}
    ingest(local)
    assert served(local) == {}
    found = local.client.get_fact("acme", "contracts", HASH)
    assert found is not None and found["kb_document"] == "ingested"  # the removal, ingested
    # And the history keeps the decision with a digest of the content, never the content
    [decision] = local.client.history("acme")["decisions"]
    assert (decision["action"], decision["kind"]) == ("retract", "fact")
    assert decision["record_id"] == f"contracts/{HASH}"
    assert decision["digest"] == digest(FACT) and FACT not in json.dumps(decision)


def test_agents_seeing_a_retracted_fact_again_never_bring_it_back(local: LocalMemory) -> None:
    confirmed_by_three_agents(local)
    local.client.retract_fact("acme", "contracts", HASH, reviewer="alice")

    for agent in ("fourth", "fifth", "sixth"):
        local.client.finish_run(run_event(f"run-{agent}", agent_id=agent)).wait()

    found = local.client.get_fact("acme", "contracts", HASH)
    assert found is not None and (found["status"], found["sightings"]) == ("RETRACTED", 6)
    assert served(local) == {}


def test_retracting_twice_or_a_missing_fact_is_refused(local: LocalMemory) -> None:
    confirmed_by_three_agents(local)
    local.client.retract_fact("acme", "contracts", HASH, reviewer="alice")

    with pytest.raises(ConflictError, match="retracted already"):
        local.client.retract_fact("acme", "contracts", HASH, reviewer="alice")
    with pytest.raises(NotFoundError):
        local.client.retract_fact("acme", "contracts", "0" * 32, reviewer="alice")
    assert len(local.client.history("acme")["decisions"]) == 1


def test_a_correction_is_served_at_once_in_the_old_facts_place(local: LocalMemory) -> None:
    # Given a confirmed fact the knowledge base serves
    confirmed_by_three_agents(local)
    ingest(local)
    # When a person corrects it, naming someone in the text
    new = local.client.correct_fact(
        "acme", "contracts", HASH, BETTER + " (per Jane Doe)", reviewer="alice", reason="2x"
    )
    # Then the correction, scrubbed, is confirmed in their name and served from the fast path
    assert "Jane Doe" not in new["content"] and new["content"].startswith(BETTER)
    assert (new["status"], new["asserted_by"], new["kb_document"]) == (
        "CONFIRMED",
        "alice",
        "staged",
    )
    assert served(local) == {new["fact_hash"]: "fast_path"}
    # And the old fact is retracted, naming it; the history names both
    old = local.client.get_fact("acme", "contracts", HASH)
    assert old is not None
    assert (old["status"], old["superseded_by"]) == ("RETRACTED", new["fact_hash"])
    [decision] = local.client.history("acme")["decisions"]
    assert decision["action"] == "correct" and decision["record_id"] == f"contracts/{HASH}"
    assert f"contracts/{new['fact_hash']}" in decision["reason"]
    # And once ingested it is served from the knowledge base
    ingest(local)
    assert served(local) == {new["fact_hash"]: "knowledge_base"}


def test_a_persons_fact_is_served_at_once_and_kept_in_the_history(local: LocalMemory) -> None:
    stored = local.client.assert_fact("acme", "contracts", BETTER, reviewer="alice")

    assert stored["fact_hash"] == fact_hash(BETTER)
    assert (stored["status"], stored["asserted_by"], stored["confirmations"]) == (
        "CONFIRMED",
        "alice",
        0,
    )
    assert served(local) == {fact_hash(BETTER): "fast_path"}
    [decision] = local.client.history("acme")["decisions"]
    assert (decision["action"], decision["record_id"]) == (
        "assert",
        f"contracts/{stored['fact_hash']}",
    )


@pytest.mark.parametrize(
    ("content", "field"),
    [("   ", "content"), ("x" * 2001, "content"), (7, "content")],
)
def test_bad_content_is_refused_naming_its_field_and_nothing_is_written(
    local: LocalMemory, content: object, field: str
) -> None:
    confirmed_by_three_agents(local)

    for repair in (
        lambda: local.client.assert_fact("acme", "contracts", content, reviewer="a"),  # type: ignore[arg-type]
        lambda: local.client.correct_fact("acme", "contracts", HASH, content, reviewer="a"),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidInputError) as refused:
            repair()
        assert refused.value.field == field

    assert local.client.history("acme")["decisions"] == []
    assert local.client.list_facts("acme")["facts"][0]["status"] == "CONFIRMED"


def test_a_blank_reviewer_is_refused_naming_the_actor(local: LocalMemory) -> None:
    confirmed_by_three_agents(local)
    with pytest.raises(InvalidInputError) as refused:
        local.client.retract_fact("acme", "contracts", HASH, reviewer="  ")
    assert refused.value.field == "actor"
    assert served(local) == {HASH: "fast_path"}


def test_on_aws_each_repair_is_one_invocation_of_the_review_function(aws: StubbedAws) -> None:
    record = {"fact_hash": HASH, "status": "RETRACTED"}
    requests = [
        {"action": "retract", "tenant_id": "acme", "domain": "contracts", "fact_hash": HASH,
         "reviewer": "alice", "reason": "wrong"},
        {"action": "correct", "tenant_id": "acme", "domain": "contracts", "fact_hash": HASH,
         "content": BETTER, "reviewer": "alice"},
        {"action": "assert", "tenant_id": "acme", "domain": "contracts", "content": BETTER,
         "reviewer": "alice"},
    ]  # fmt: skip
    for request in requests:
        aws.lambda_.add_response(
            "invoke",
            invoke_reply({"fact": record}),
            {
                "FunctionName": REVIEW_FUNCTION,
                "InvocationType": "RequestResponse",
                "Payload": json.dumps(request).encode(),
            },
        )
    client = aws.client
    assert (
        client.retract_fact("acme", "contracts", HASH, reviewer="alice", reason="wrong") == record
    )
    assert client.correct_fact("acme", "contracts", HASH, BETTER, reviewer="alice") == record
    assert client.assert_fact("acme", "contracts", BETTER, reviewer="alice") == record
