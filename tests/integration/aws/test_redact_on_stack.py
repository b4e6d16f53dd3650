"""Redacting a text on a deployed stack, as an operator: ``agent-memory --aws-stack NAME
redact`` and ``MemoryClient.aws_from_stack(operator=True).redact``, on the moto-backed stack of
``test_cli_on_stack`` with Bedrock's KB faked over its bucket; afterwards no item of any table
and no version of any object holds the text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows import consolidation
from agent_memory.sdk import MemoryClient
from tests.integration.aws.moto_dynamodb import REGION
from tests.integration.aws.test_cli_on_stack import Cli, moto_stack
from tests.integration.aws.test_forget_runs_on_stack import (
    bedrock_kb_on_moto,
    documents,
    full_stack,
    stored_bytes,
)
from tests.support.memory import run_event

SECRET = "Bluefin Harbor"
FACT = f"Liability disputes go to the {SECRET} desk"
REDACTED = "Liability disputes go to the [REDACTED] desk"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Iterator[Cli]:
    """The stack, where three agents' runs named the secret in their task and confirmed a
    fact holding it (its document staged in the bucket).
    """
    with moto_stack(capsys) as stack, bedrock_kb_on_moto():
        ports = stack.runtime.ports("acme")
        for agent in ("drafter", "auditor", "counsel"):
            event = run_event(f"run-{agent}", agent_id=agent)
            event["task"] = f"Review the cap for the {SECRET} desk"
            event["artifacts"]["facts"] = [{"content": FACT, "confidence": 0.9}]
            consolidation.consolidate(event, ports)
        yield stack


def test_the_cli_redacts_a_text_on_the_stack_to_the_last_byte(cli: Cli) -> None:
    # Given the secret in episodes, the ledger, a confirmed fact and its document
    assert SECRET in stored_bytes(cli)
    assert any(fact_hash(FACT) in key for key in documents(cli))

    # When an operator redacts it on the stack
    code, out, err = cli(
        "redact", "--tenant", "acme", "--text", SECRET, "--yes", "--reviewer", "dpo",
    )  # fmt: skip

    # Then the receipt names what was rewritten, the fact moved to its new key
    assert code == 0, err
    receipt = json.loads(out)
    assert len(receipt["episodes"]) == 3 and receipt["ledger_records"] >= 3
    assert receipt["facts"] == [f"contracts/{fact_hash(FACT)} -> {fact_hash(REDACTED)}"]
    assert any(fact_hash(REDACTED) in key for key in documents(cli))
    # And no item of any table, no version of any object, holds the secret
    assert SECRET not in stored_bytes(cli)
    # And the history names the decision
    code, out, _ = cli("history", "--tenant", "acme", "--json")
    [decision] = json.loads(out)["decisions"]
    assert (decision["action"], decision["kind"], decision["actor"]) == ("redact", "tenant", "dpo")


def test_an_operator_client_redacts_and_an_agent_client_cannot(cli: Cli) -> None:
    stack = full_stack(cli)
    agent = MemoryClient.aws_from_stack(stack, region=REGION)
    with pytest.raises(Exception, match="operator=True"):
        agent.redact("acme", SECRET, reviewer="me")

    operator = MemoryClient.aws_from_stack(stack, region=REGION, operator=True)
    receipt = operator.redact("acme", SECRET, reviewer="dpo", reason="leaked codename")

    assert len(receipt.episodes) == 3
    assert not operator.redact("acme", SECRET, reviewer="dpo").found
