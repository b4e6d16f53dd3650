"""Facts at the product's maxima read back within Lambda's response payload: a fact names up to
RUN_IDS_KEPT runs and AGENTS_KEPT agents (each id up to 128 characters) beside its text, and a
page of 100 such facts, of 4-byte characters, is past Lambda's 6 MB as escaped JSON: the page
shrinks to the reply budget, and following its cursors lists every fact once; one fact shown
alone stays small.
"""

from __future__ import annotations

from pathlib import Path

from agent_memory.app import Application
from agent_memory.app.wire import MAX_PAGE, episode_message, reply_json
from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.contracts import MAX_ITEM_CHARS
from agent_memory.core.model.models import AGENTS_KEPT, RUN_IDS_KEPT, FactObservation
from tests.limits.test_bootstrap_reply_limit import LAMBDA_RESPONSE_BYTES, wide
from tests.support.memory import Memory, make_memory

LONGEST_ID = 128


def longest_id(kind: str, number: int) -> str:
    mark = f"{kind}-{number:04d}-"
    return mark + "x" * (LONGEST_ID - len(mark))


def most_confirmed_fact(memory: Memory, number: int) -> None:
    """A fact at its longest, seen by more runs and more agents than it names, each counted."""
    for seen in range(max(RUN_IDS_KEPT, AGENTS_KEPT) + 5):
        memory.ports.facts.observe(
            FactObservation(
                tenant_id="acme",
                domain="contracts",
                fact_hash=f"{number:032x}",
                content=wide(MAX_ITEM_CHARS, f"fact {number}"),
                confidence=0.9,
                run_id=longest_id("run", seen),
                seen_at=memory.clock() + seen,
                agent_id=longest_id("agent", seen),
            )
        )


def reply(memory: Memory, request: dict[str, object]) -> dict[str, object]:
    message = episode_message(request)
    return reply_json(message, Application(memory.ports).handle(message))


def test_a_listing_of_the_most_confirmed_facts_pages_within_the_lambda_limit(
    tmp_path: Path,
) -> None:
    # Given a full page of facts, each at its longest with every run and agent it names
    memory = make_memory(tmp_path, stores="memory")
    for number in range(MAX_PAGE):
        most_confirmed_fact(memory, number)
    # When the listing is followed page by page
    sizes, hashes, cursor = [], [], None
    while True:
        page = reply(
            memory, {"action": "facts", "tenant_id": "acme", "limit": MAX_PAGE, "cursor": cursor}
        )
        sizes.append(reply_bytes(page))
        hashes += [f["fact_hash"] for f in page["facts"]]  # type: ignore[attr-defined]
        cursor = page["cursor"]
        if cursor is None:
            break
    # Then no page is over the reply budget (nor Lambda's 6 MB), and every fact comes once
    assert len(sizes) > 1
    assert max(sizes) <= memory.ports.policies.max_reply_bytes <= LAMBDA_RESPONSE_BYTES
    assert sorted(hashes) == [f"{n:032x}" for n in range(MAX_PAGE)]


def test_one_fact_at_its_longest_shows_every_agent_within_the_budget(tmp_path: Path) -> None:
    memory = make_memory(tmp_path, stores="memory")
    most_confirmed_fact(memory, 0)

    shown = reply(
        memory,
        {"action": "fact", "tenant_id": "acme", "domain": "contracts", "fact_hash": f"{0:032x}"},
    )

    record: dict[str, object] = shown["fact"]  # type: ignore[assignment]
    assert len(record["run_ids"]) == RUN_IDS_KEPT  # type: ignore[arg-type]
    assert len(record["counts_again_at"]) == AGENTS_KEPT  # type: ignore[arg-type]
    assert reply_bytes(shown) <= memory.ports.policies.max_reply_bytes // 10
