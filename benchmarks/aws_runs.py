"""RunFinished events of the cost model's sizes: what a tool-using agent sends when a run ends.

A run is a coding-and-operations agent's session: the task, then turns of the assistant
calling tools (searching code, reading files, running tests, querying logs) and the tools'
outputs, in the message shapes the contract takes. Sizes are the issue's: about 10, 40 and
200 messages of about 5, 30 and 150 KB. Each run carries the artifacts an agent distils
(summary, findings, three facts and a procedure), the facts drawn so that independent runs of
different agents confirm them, as a fleet of agents on one code base would. A few messages
hold personal data (a name, an email, a phone number), as real transcripts do.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from typing import Any

TENANT = "acme"
AGENTS = ("ops-1", "ops-2", "ops-3", "ops-4", "ops-5")
TASK_TYPE = "incident_triage"
DOMAIN = "payments_platform"


@dataclass(frozen=True, slots=True)
class RunSize:
    """One size of run: its name, message count and target transcript bytes."""

    name: str
    messages: int
    transcript_bytes: int


SIZES = (
    RunSize("small", 10, 5_000),
    RunSize("typical", 40, 30_000),
    RunSize("large", 200, 150_000),
)

FACTS = (
    "The payments API returns HTTP 429 when a merchant exceeds 50 requests per second.",
    "Ledger reconciliation runs at 02:00 UTC and locks the settlements table for 4 minutes.",
    "The card vault service rotates its signing keys every 30 days.",
    "Refunds older than 180 days must go through the manual chargeback queue.",
    "The checkout service caches exchange rates for 15 minutes.",
    "Webhook deliveries are retried 8 times with exponential backoff up to 24 hours.",
    "The fraud model scores every authorisation above 500 EUR synchronously.",
    "Settlement files from the acquirer arrive as CSV over SFTP before 06:00 UTC.",
    "The orders database fails over to its replica in under 30 seconds.",
    "Merchant onboarding requires a verified IBAN before the first payout.",
    "The payouts job skips merchants whose balance is below 1 EUR.",
    "Idempotency keys on the payments API expire after 24 hours.",
)

TOOLS = ("search_code", "read_file", "run_tests", "query_logs", "describe_deployment")
_WORDS = (
    "service request timeout retry merchant payment ledger settlement queue worker latency "
    "error rate deploy config handler response cache database replica index shard metric "
    "alert window batch job schedule token checkout refund webhook payout invoice balance"
).split()


def _prose(rng: random.Random, chars: int) -> str:
    words: list[str] = []
    total = 0
    while total < chars:
        word = rng.choice(_WORDS)
        words.append(word)
        total += len(word) + 1
    sentences = [" ".join(words[i : i + 12]).capitalize() + "." for i in range(0, len(words), 12)]
    return " ".join(sentences)


def _tool_output(rng: random.Random, tool: str, chars: int) -> str:
    lines: list[str] = []
    if tool == "query_logs":
        while sum(len(line) + 1 for line in lines) < chars:
            lines.append(
                f"2026-12-0{rng.randint(1, 6)}T0{rng.randint(0, 9)}:{rng.randint(10, 59)}:"
                f"{rng.randint(10, 59)}Z level=error svc=payments-api route=/v2/charges "
                f"status={rng.choice((429, 500, 503))} latency_ms={rng.randint(20, 9000)}"
            )
        return "\n".join(lines)
    if tool in ("read_file", "search_code"):
        while sum(len(line) + 1 for line in lines) < chars:
            name = rng.choice(_WORDS)
            lines.append(f"def handle_{name}(request, retries={rng.randint(1, 9)}):")
            lines.append(
                f"    return client.{rng.choice(_WORDS)}(request, timeout={rng.randint(1, 30)})"
            )
        return "\n".join(lines)
    return _prose(rng, chars)


def run_event(size: RunSize, number: int, *, seed: int = 0) -> dict[str, Any]:
    """The ``number``-th RunFinished detail of ``size`` (deterministic for a seed)."""
    rng = random.Random(f"{seed}-{size.name}-{number}")
    agent = AGENTS[number % len(AGENTS)]
    task = f"Triage the {rng.choice(_WORDS)} errors on the payments API after deploy {number}"
    # The first message is the task; then assistant turns calling tools and their outputs,
    # the last message the assistant's answer. Tool outputs carry most of the bytes.
    turns = (size.messages - 2) // 2
    per_output = max(80, (size.transcript_bytes - 600) // max(1, turns) - 160)
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    for turn in range(turns):
        tool = TOOLS[turn % len(TOOLS)]
        call_id = f"call-{turn}"
        messages.append(
            {
                "role": "assistant",
                "content": f"Checking with {tool}: {_prose(rng, 80)}",
                "tool_calls": [call_id],
            }
        )
        output = _tool_output(rng, tool, per_output)
        if turn == 1:
            output += "\nOn-call: Jane Doe <jane.doe@example.com>, +1 415 555 0134."
        messages.append({"role": "tool", "name": tool, "tool_call_id": call_id, "content": output})
    messages.append({"role": "assistant", "content": "Root cause found. " + _prose(rng, 300)})
    facts = [FACTS[(number + k) % len(FACTS)] for k in range(3)]
    return {
        "tenant_id": TENANT,
        "agent_id": agent,
        "run_id": uuid.UUID(int=rng.getrandbits(128)).hex,
        "task": task,
        "task_type": TASK_TYPE,
        "domain": DOMAIN,
        "outcome": "COMPLETED",
        "messages": messages,
        "artifacts": {
            "task_summary": f"Triaged the payments API errors after deploy {number}. "
            + _prose(rng, 200),
            "key_findings": [_prose(rng, 120) for _ in range(3)],
            "tools_used": list(TOOLS),
            "facts": [{"content": fact, "confidence": 0.9} for fact in facts],
            "procedure": {
                "title": "Payments API error triage",
                "steps": [
                    "Query the error logs of the last hour by route and status.",
                    "Compare the error rate before and after the last deploy.",
                    "Read the handler of the failing route and its retry settings.",
                    "Run the route's tests against the deployed configuration.",
                ],
            },
        },
    }


def bootstrap_request(number: int) -> dict[str, Any]:
    """A bootstrap request of one of the agents, before a run like those above."""
    return {
        "tenant_id": TENANT,
        "agent_id": AGENTS[number % len(AGENTS)],
        "task": f"Triage the latency errors on the payments API after deploy {1000 + number}",
        "task_type": TASK_TYPE,
        "domain": DOMAIN,
    }
