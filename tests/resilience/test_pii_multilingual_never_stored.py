"""Personal data and credentials in many languages never stored, locally and on AWS.

Each item of ``tests/support/multilingual_pii.py`` (names in other scripts, passwords stated in
other languages, provider tokens outside any provider list, national phone numbers and
identifiers, card, bank and address formats of other countries) is written into a different
field of a run: the task, a message, the summary, a finding, the approach, a fact, a procedure
step. On AWS, Comprehend reads English and Spanish only
(https://docs.aws.amazon.com/comprehend/latest/dg/how-pii.html): a Comprehend that finds
nothing stands for it, so what is caught there is caught by the detectors run beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.ports import PiiEntity
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.tenants import export_tenant
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.resilience.aws_lambdas import aws_memory
from tests.support.embedder import HashingEmbedder
from tests.support.ledger import ledger_values
from tests.support.memory import HASHING_CALIBRATION, Clock, run_event
from tests.support.multilingual_pii import ITEMS, Item

FIELDS = ("task", "message", "summary", "finding", "approach", "fact", "step")


class ReadsNothing:
    """Comprehend on a language it does not read: no entity."""

    max_chunk_chars = 25_000

    def detect(self, text: str) -> list[PiiEntity]:
        return []


def field_of(index: int) -> str:
    return FIELDS[index % len(FIELDS)]


def multilingual_event(run_id: str) -> dict[str, Any]:
    """One run carrying every item, each in the field its position names."""
    placed: dict[str, list[str]] = {name: [] for name in FIELDS}
    for index, item in enumerate(ITEMS):
        placed[field_of(index)].append(item.sentence)
    event = run_event(run_id, task=" ".join(placed["task"]))
    event["messages"] = [
        {"role": "human" if i % 2 else "ai", "content": text}
        for i, text in enumerate(placed["message"])
    ]
    artifacts = event["artifacts"]
    artifacts["task_summary"] = " ".join(placed["summary"])
    artifacts["key_findings"] = placed["finding"]
    artifacts["approach_used"] = " ".join(placed["approach"])
    artifacts["facts"] = [{"content": text, "confidence": 0.9} for text in placed["fact"]]
    artifacts["procedure"] = {"title": "Resolve the billing dispute", "steps": placed["step"]}
    return event


def forms(item: Item) -> set[bytes]:
    """The item's value and identifying parts, as written and JSON-escaped."""
    values = {item.value, *item.parts}
    escaped = {json.dumps(v, ensure_ascii=a)[1:-1] for v in values for a in (True, False)}
    return {v.encode() for v in values | escaped}


def dump(value: Any) -> bytes:
    return json.dumps(
        value, ensure_ascii=False, default=lambda data: bytes(data).decode("utf-8", "replace")
    ).encode()


@pytest.fixture(scope="module")
def local_blob(tmp_path_factory: pytest.TempPathFactory) -> Iterator[bytes]:
    root: Path = tmp_path_factory.mktemp("multilingual")
    ports = local_ports(LocalSettings(store=root), embedder=HashingEmbedder())
    ports = replace(
        ports,
        clock=Clock(),
        calibrations={**ports.calibrations, "test-hashing": HASHING_CALIBRATION},
    )
    consolidate(multilingual_event("ml-run-1"), ports)
    records = [*export_tenant(ports, "acme"), *ledger_values(ports)]
    assert records
    files = b"\n".join(p.read_bytes() for p in root.rglob("*") if p.is_file())
    yield dump(records) + b"\n" + files


@pytest.fixture(scope="module")
def aws_blob() -> Iterator[bytes]:
    with aws_memory(ReadsNothing()) as aws:
        aws.consolidate(multilingual_event("ml-run-aws"))
        items, objects = aws.items(), aws.objects()
    assert items
    yield b"\n".join([dump(items), dump(sorted(objects)), *objects.values()])


def test_the_run_carries_every_item() -> None:
    # Given the event, Then each item's value is in it (so a leak below would be seen)
    blob = dump(multilingual_event("ml-check"))
    assert [i.id for i in ITEMS if not forms(i) & {f for f in forms(i) if f in blob}] == []


@pytest.mark.parametrize("item", ITEMS, ids=[i.id for i in ITEMS])
def test_no_item_reaches_the_local_store(local_blob: bytes, item: Item) -> None:
    # Then neither the value nor a part of it is in any stored record or file of the store
    assert [f for f in forms(item) if f in local_blob] == [], field_of(ITEMS.index(item))


@pytest.mark.parametrize("item", ITEMS, ids=[i.id for i in ITEMS])
def test_no_item_reaches_dynamodb_or_s3(aws_blob: bytes, item: Item) -> None:
    assert [f for f in forms(item) if f in aws_blob] == [], field_of(ITEMS.index(item))
