"""The demo's past runs: a contract-review agent at work on vendor agreements.

Invented data. Personal details are planted on purpose, so the demo shows them scrubbed.
"""

from __future__ import annotations

from typing import Any

TENANT = "acme-legal"
AGENT = "contract-reviewer"
TASK_TYPE = "contract_review"
DOMAIN = "contract_law"

LIABILITY_FACT = (
    "In vendor MSAs the limitation of liability usually sits in clause 7.3; a cap below 1x "
    "annual fees is a red flag."
)

REVIEW_STEPS = [
    "Locate the limitation-of-liability clause (usually 7.3) and read its carve-outs.",
    "Compare the liability cap with annual fees; flag anything below 1x.",
    "Check indemnities for IP infringement and data breaches.",
    "Check termination for convenience and notice periods.",
    "Summarise the risks by severity with clause references.",
]


def _event(run_id: str, task: str, outcome: str, **extra: Any) -> dict[str, Any]:
    return {
        "tenant_id": TENANT,
        "agent_id": AGENT,
        "run_id": run_id,
        "task": task,
        "task_type": TASK_TYPE,
        "domain": DOMAIN,
        "outcome": outcome,
        **extra,
    }


PAST_RUNS: list[dict[str, Any]] = [
    _event(
        "run-0001",
        "Review the Northwind Traders MSA for liability and indemnity risk.",
        "COMPLETED",
        messages=[
            {"role": "human", "content": "Review the Northwind Traders MSA."},
            {"role": "ai", "content": "Searching for the liability clause.", "tool_calls": ["c1"]},
            {
                "role": "tool",
                "name": "clause_search",
                "tool_call_id": "c1",
                "content": "7.3 Limitation of Liability: capped at 0.5x annual fees.",
            },
            {"role": "ai", "content": "Cap is 0.5x annual fees: below market."},
        ],
        artifacts={
            "task_summary": "Reviewed the Northwind Traders MSA for liability and indemnity "
            "risk; the signatory is Jane Doe (jane.doe@northwind.example, 415-555-0134).",
            "key_findings": [
                "Clause 7.3 caps liability at 0.5x annual fees, below the 1x market norm.",
                "IP indemnity excludes open-source components.",
            ],
            "approach_used": "Read clause 7.3 first, then indemnities, then termination.",
            "tools_used": ["clause_search"],
            "reusable_patterns": ["Start with clause 7.3: it decides most of the risk."],
            "facts": [
                {"content": LIABILITY_FACT, "confidence": 0.9},
                {
                    "content": "IP indemnities in SaaS agreements often exclude open-source "
                    "components.",
                    "confidence": 0.75,
                },
            ],
            "procedure": {"title": "Vendor MSA risk review", "steps": REVIEW_STEPS},
        },
    ),
    _event(
        "run-0002",
        "Review Contoso's SaaS subscription agreement before the renewal call.",
        "COMPLETED",
        artifacts={
            "task_summary": "Reviewed Contoso's SaaS subscription agreement before renewal.",
            "key_findings": [
                "Liability cap in clause 7.3 is 1x annual fees: acceptable.",
                "Auto-renewal needs 90 days' notice.",
            ],
            "approach_used": "Clause 7.3 first, then renewal terms.",
            "tools_used": ["clause_search", "calendar"],
            "reusable_patterns": ["Note renewal notice periods as calendar deadlines."],
            "facts": [
                # The same fact in other words of form only: it must count as the same fact.
                {
                    "content": "in vendor MSAs the limitation of liability usually sits in "
                    "clause 7.3;  a cap below 1x annual fees is a red flag",
                    "confidence": 0.85,
                },
                {
                    "content": "Auto-renewal clauses usually need 60-90 days' notice.",
                    "confidence": 0.6,
                },
            ],
            # The same steps, numbered differently: no duplicate proposal.
            "procedure": {
                "title": "Vendor MSA risk review",
                "steps": [f"{i}. {step}" for i, step in enumerate(REVIEW_STEPS, 1)],
            },
        },
    ),
    _event(
        "run-0003",
        "Review the Fabrikam consulting agreement.",
        "FAILED",
        messages=[
            {"role": "human", "content": "Review the Fabrikam consulting agreement."},
            {"role": "ai", "content": "Fetching the document.", "tool_calls": ["c1"]},
            {
                "role": "tool",
                "name": "document_store",
                "tool_call_id": "c1",
                "content": "error: document is password protected",
            },
            {
                "role": "ai",
                "content": "I could not open the agreement: it is password "
                "protected. Ask Bob Smith at 10.20.30.40 for access.",
            },
        ],
    ),
    _event(
        "run-0004",
        "Review the Litware data processing addendum together with its MSA.",
        "COMPLETED",
        artifacts={
            "task_summary": "Reviewed the Litware DPA and MSA together.",
            "key_findings": [
                "Clause 7.3 caps liability at 0.8x fees; data-breach liability is uncapped.",
                "Sub-processor list is missing from the DPA.",
            ],
            "approach_used": "MSA clause 7.3 first, then the DPA's breach terms.",
            "tools_used": ["clause_search"],
            "reusable_patterns": ["Read the DPA's breach terms against the MSA's cap."],
            "facts": [{"content": LIABILITY_FACT, "confidence": 0.95}],
            "procedure": {"title": "Vendor MSA risk review", "steps": REVIEW_STEPS},
        },
    ),
]

NEW_TASK = "Review the Tailspin Toys vendor MSA and flag liability risks before signature."
# What the demo suggests searching its past runs for.
SEARCH = "data breach liability cap"
