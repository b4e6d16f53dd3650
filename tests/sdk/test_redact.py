"""Redacting a text from every record of a tenant (``RedactText``): what the PII scrubber
missed, replaced by ``[REDACTED]`` in episodes, facts and their KB documents, procedures, the
run ledger and the history; through the SDK's local mode, with a search of every byte of the
store afterwards.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.redaction import text_digest
from agent_memory.sdk import InvalidInputError
from tests.sdk.conftest import LocalMemory
from tests.sdk.test_forget_runs import stored_bytes
from tests.support.memory import run_event

SECRET = "Bluefin Harbor"
FACT = f"Liability disputes go to the {SECRET} desk"
REDACTED_FACT = "Liability disputes go to the [REDACTED] desk"


def three_agents_hold_the_secret(local: LocalMemory) -> None:
    """Three agents' runs name the secret in their task, messages, a fact (confirmed, so a KB
    document holds it) and a procedure step.
    """
    for agent in ("reviewer", "drafter", "auditor"):
        event = run_event(f"run-{agent}", agent_id=agent)
        event["task"] = f"Review the cap for the {SECRET} desk"
        event["messages"] = [
            {"role": "user", "content": f"Ask the {SECRET} desk about the cap"},
            {"role": "assistant", "content": "They say the cap is 0.5x fees."},
        ]
        artifacts = event["artifacts"]
        artifacts["facts"] = [{"content": FACT, "confidence": 0.9}]
        artifacts["procedure"] = {
            "title": "Dispute review",
            "steps": [f"Call the {SECRET} desk", "Compare the cap"],
        }
        local.client.finish_run(event).wait(timeout=30)


def served(local: LocalMemory) -> str:
    reply = local.client.bootstrap(
        "acme", "reviewer", "liability disputes desk", domain="contracts"
    )
    return repr(reply)


def test_redacting_removes_the_text_from_every_record_and_every_byte(
    local: LocalMemory,
) -> None:
    # Given the secret in episodes, a confirmed fact (a KB document), a procedure and the ledger
    three_agents_hold_the_secret(local)
    assert SECRET in served(local)
    assert SECRET.encode() in stored_bytes(local.store)

    # When a person redacts it
    receipt = local.client.redact("acme", SECRET, reviewer="dpo", reason="a leaked password")

    # Then the receipt counts what each store rewrote
    new_hash = fact_hash(REDACTED_FACT)
    assert len(receipt.episodes) == 3
    assert receipt.facts == (f"contracts/{fact_hash(FACT)} -> {new_hash}",)
    assert len(receipt.procedures) == 1 and receipt.ledger_records >= 3
    assert receipt.kb_documents == 1 and receipt.kb_index.startswith("ingestion")
    # And what is served shows the replacement, never the secret
    reply = served(local)
    assert SECRET not in reply and "[REDACTED]" in reply
    assert local.client.get_fact("acme", "contracts", new_hash)["content"] == REDACTED_FACT
    episode = local.client.get_episode("acme", "auditor", "run-auditor")
    assert SECRET not in repr(episode) and "[REDACTED]" in episode["task"]
    [procedure] = local.client.list_procedures("acme")
    assert procedure["steps"][0] == "Call the [REDACTED] desk"
    # And no byte of the store (the database, its log, the KB's files) holds it
    assert SECRET.encode() not in stored_bytes(local.store)
    # And the history names the decision with a digest of the text, never the text
    [decision] = local.client.history("acme")["decisions"]
    assert (decision["action"], decision["kind"], decision["record_id"]) == (
        "redact",
        "tenant",
        "acme",
    )
    # A digest keyed by the store's pseudonym key: no one without the key can try candidates
    key = local.ports().pseudonym_key
    assert key is not None
    assert decision["digest"] == text_digest(SECRET, key)
    assert decision["digest"] != hashlib.sha256(SECRET.encode()).hexdigest()
    assert (decision["actor"], decision["reason"]) == ("dpo", "a leaked password")


def test_a_second_redaction_finds_nothing(local: LocalMemory) -> None:
    three_agents_hold_the_secret(local)
    local.client.redact("acme", SECRET, reviewer="dpo")

    again = local.client.redact("acme", SECRET, reviewer="dpo")

    assert not again.found and again.decision_id is None
    assert len(local.client.history("acme")["decisions"]) == 1


def test_other_case_and_look_alike_characters_are_redacted_too(local: LocalMemory) -> None:
    # Given the secret stored in capitals, and in full-width characters with a zero-width space
    event = run_event("run-1")
    event["task"] = "Try BLUEFIN  HARBOR first, then Ｂｌｕｅｆｉｎ\u200b\u3000Ｈａｒｂｏｒ"
    local.client.finish_run(event).wait(timeout=30)

    receipt = local.client.redact("acme", SECRET, reviewer="dpo")

    # Then both readings are replaced
    assert receipt.episodes == ("reviewer/run-1",)
    task = local.client.get_episode("acme", "reviewer", "run-1")["task"]
    assert task == "Try [REDACTED] first, then [REDACTED]"


def test_a_reason_naming_the_text_is_recorded_redacted(local: LocalMemory) -> None:
    three_agents_hold_the_secret(local)

    local.client.redact("acme", SECRET, reviewer="dpo", reason=f"{SECRET} leaked")

    [decision] = local.client.history("acme")["decisions"]
    assert decision["reason"] == "[REDACTED] leaked"


@pytest.mark.parametrize(
    ("text", "reviewer", "field"),
    [
        ("", "dpo", "text"),
        ("   \u200b ", "dpo", "text"),
        ("Blu", "dpo", "text"),
        ("x" * 1_001, "dpo", "text"),
        ("[REDACTED]", "dpo", "replacement"),
        (SECRET, " ", "actor"),
        (7, "dpo", "text"),
    ],
)
def test_bad_input_is_refused_by_name_and_nothing_is_rewritten(
    local: LocalMemory, text: object, reviewer: str, field: str
) -> None:
    three_agents_hold_the_secret(local)

    with pytest.raises(InvalidInputError) as refused:
        local.client.redact("acme", text, reviewer=reviewer)  # type: ignore[arg-type]

    assert refused.value.field == field
    assert SECRET in served(local)
    assert local.client.history("acme")["decisions"] == []


def test_a_redaction_interrupted_midway_is_finished_by_running_it_again(
    local: LocalMemory, tmp_path: Path
) -> None:
    # Given a redaction that fails after rewriting the episodes (its procedures' writes fail)
    three_agents_hold_the_secret(local)
    ports = local.ports()
    from agent_memory.core.workflows.redaction import redact_text

    class Broken(Exception):
        pass

    def fail(*args: object, **kwargs: object) -> None:
        raise Broken

    store = ports.procedures
    original = store.reword
    store.reword = fail  # type: ignore[method-assign]
    with pytest.raises(Broken):
        redact_text(ports, "acme", SECRET, actor="dpo", reason=None)
    store.reword = original  # type: ignore[method-assign]

    # When it runs again
    receipt = local.client.redact("acme", SECRET, reviewer="dpo")

    # Then it finishes what was left, and no byte holds the secret
    assert receipt.episodes == () and len(receipt.procedures) == 1
    assert SECRET.encode() not in stored_bytes(local.store)
