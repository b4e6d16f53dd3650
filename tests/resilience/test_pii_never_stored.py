"""PII never stored: seeded personal data in every text field never reaches a store, a file, a
log line or a bootstrap reply, locally and on the AWS path.

A corpus of names, emails, phones, SSNs, card numbers, IP addresses and street addresses, each in
several formats, is placed before and after character 5,000 of long texts and in every text
field of a run (task, messages and their senders' names, summary, findings, approach, tools,
patterns, facts, procedure title and steps). Enough runs are consolidated that the facts are
promoted to the knowledge base and procedures proposed; ingestion runs, a procedure is approved,
and a new run bootstraps. The real local PII detector scrubs on both paths: this is about where
text flows, not about Comprehend's recall. Formats the detector cannot catch stay in the corpus
as strict expected failures naming the gap.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.ports import PiiEntity
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import (
    StepFailed,
    consolidate,
    consolidate_or_record,
    failed_runs,
    replay,
)
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.core.workflows.tenants import export_tenant
from agent_memory.wiring.local import DATABASE_FILE
from tests.resilience.aws_lambdas import AwsMemory, aws_memory, capture_everything
from tests.support.ledger import ledger_contents, ledger_values
from tests.support.memory import Memory, make_memory

TENANT, AGENT, TASK_TYPE, DOMAIN = "acme", "reviewer", "contract_review", "contracts"


@dataclass(frozen=True)
class Seed:
    """One piece of personal data; ``parts`` are fragments that identify it on their own."""

    kind: str
    value: str
    parts: tuple[str, ...] = ()
    gap: str | None = None  # why the local detector cannot catch this format (or context)
    # Where a gap shows: in stored records, in KB documents, in the bootstrap reply.
    gap_in: tuple[str, ...] = ("records", "kb", "reply")
    # The word that makes a value PII ("passport C01X00T47"): written before it, never scrubbed.
    context: str = ""

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.value}"

    @property
    def text(self) -> str:
        """The seed as the runs write it: its context word, if any, then its value."""
        return f"{self.context} {self.value}" if self.context else self.value

    @property
    def probe(self) -> str:
        """What must not be stored: the value, or with its context if the value is too short
        to be told from the digits of any hash or timestamp ("CVV 7319", not "7319")."""
        return self.text if len(self.value) < 6 else self.value

    def fragment(self) -> str:
        """The part of the written seed before the middle of its value."""
        lead = len(self.text) - len(self.value)
        cut = lead + len(self.value) // 2
        return self.text[:cut] if len(self.value) < 6 else self.value[: len(self.value) // 2]

    def needles(self) -> list[bytes]:
        """Every form the seed could be written in: as is, Unicode-folded, JSON-escaped, and
        escaped twice (a JSON body inside a logged ``repr``)."""
        forms = {self.probe, unicodedata.normalize("NFKC", self.probe), *self.parts}
        found: set[bytes] = set()
        for form in forms:
            escaped = json.dumps(form)[1:-1]
            found |= {form.encode(), escaped.encode(), json.dumps(escaped)[1:-1].encode()}
        return sorted(found)


SEEDS = (
    Seed("NAME", "Maria Gonzalez", ("Gonzalez",)),
    Seed("NAME", "Kenji Watanabe", ("Watanabe",)),
    Seed("NAME", "Priya Raghunathan", ("Raghunathan",)),
    Seed("NAME", "Okonkwo, Chidinma", ("Okonkwo", "Chidinma")),
    Seed("NAME", "JANE MARTINEZ", ("MARTINEZ",)),
    Seed("NAME", "Sarah O'Connor", ("O'Connor",)),
    Seed("NAME", "Jean-Luc Moreau", ("Jean-Luc",)),
    Seed("NAME", "José Álvarez", ("Álvarez",)),
    Seed("NAME", "rachel greenberg", ("greenberg",)),
    Seed("NAME", "Nguyễn Văn Thành", ("Nguyễn",)),
    Seed("EMAIL", "maria.gonzalez@example.com", ("maria.gonzalez",)),
    Seed("EMAIL", "k.watanabe+legal@mail.example.co.jp", ("k.watanabe",)),
    Seed("EMAIL", "JOHN_SMITH@EXAMPLE.ORG", ("JOHN_SMITH",)),
    Seed("EMAIL", "jürgen.müller@bücher.example", ("jürgen.müller",)),
    Seed("EMAIL", "ｍａｒｉｏ＠ｅｘａｍｐｌｅ．ｃｏｍ", ("mario@example.com",)),
    Seed("EMAIL", "jane.doe\u200b@example.com", ("jane.doe@example.com",)),
    Seed("EMAIL", "ravi\u00ad.kumar@example.net", ("ravi.kumar@example.net", "kumar@example")),
    Seed("EMAIL", "dana[at]example[dot]org", ("dana[at]",)),
    Seed("EMAIL", "j.smith (at) example.co.uk", ("j.smith (at)",)),
    Seed("PHONE", "(415) 555-0132", ("555-0132",)),
    Seed("PHONE", "415-555-0198", ("555-0198",)),
    Seed("PHONE", "+1 415 555 0174", ("555 0174",)),
    Seed("PHONE", "+44 20 7946 0958", ("7946 0958",)),
    Seed("PHONE", "415.555.0111", ("555.0111",)),
    Seed("PHONE", "020 7946 0321", ("7946 0321",)),
    Seed("PHONE", "01 42 68 53 00", ("42 68 53 00",)),
    Seed("PHONE", "(02) 9374 4000", ("9374 4000",)),
    Seed("PHONE", "+234 1 270 0000", ("1 270 0000",)),
    Seed("PHONE", "4155550123", gap="bare digits without a phone word before them"),
    Seed("SSN", "078-05-1120"),
    Seed("SSN", "219 09 9999"),
    Seed("SSN", "536901234", gap="bare nine digits without 'SSN' before them"),
    Seed("SSN", "123\u201345\u20136789", ("123-45-6789",)),
    Seed("SSN", "536-90-\u200b4399", ("536-90-4399",)),
    Seed("SSN", "５３６－９０－４３１１", ("536-90-4311",)),
    Seed("SSN", "536-91-43\u00ad22", ("536-91-4322",)),
    Seed("CREDIT_DEBIT_NUMBER", "4111 1111 1111 1111"),
    Seed("CREDIT_DEBIT_NUMBER", "5500-0000-0000-0004"),
    Seed("CREDIT_DEBIT_NUMBER", "378282246310005"),
    Seed("CREDIT_DEBIT_NUMBER", "6011000990139424"),
    Seed("CREDIT_DEBIT_NUMBER", "4012\u00a08888\u00a08888\u00a01881", ("4012 8888 8888 1881",)),
    Seed(
        "CREDIT_DEBIT_NUMBER",
        "4111\u200b1111\u200b1111\u200b1111",
        ("4111111111111111", "4111 1111 1111 1111"),
    ),
    Seed("CREDIT_DEBIT_NUMBER", "5105\u202f1051\u202f0510\u202f5100", ("5105 1051 0510 5100",)),
    Seed("IP_ADDRESS", "192.168.14.27"),
    Seed("IP_ADDRESS", "10.0.0.254"),
    Seed("IP_ADDRESS", "2001:db8:85a3::8a2e:370:7334"),
    Seed("IP_ADDRESS", "fe80::1ff:fe23:4567:890a"),
    Seed("IP_ADDRESS", "172.016.005.004"),
    Seed("ADDRESS", "1600 Pennsylvania Avenue NW, Washington, DC 20500", ("Pennsylvania Ave",)),
    Seed("ADDRESS", "742 Evergreen Terrace, Springfield, IL 62704", ("Evergreen Terrace",)),
    Seed("ADDRESS", "221B Baker Street, London NW1 6XE", ("Baker Street",)),
    Seed("ADDRESS", "PO Box 1234, Austin, TX 78701", ("Box 1234",)),
    Seed("ADDRESS", "Hauptstraße 5, 10115 Berlin", ("Hauptstraße",)),
    Seed("ADDRESS", "One Microsoft Way, Redmond"),
    # Bank and card details: checksummed ones alone, the rest after the word that says so
    Seed(
        "INTERNATIONAL_BANK_ACCOUNT_NUMBER",
        "DE89 3704 0044 0532 0130 00",
        ("DE89370400440532013000", "3704 0044 0532"),
    ),
    Seed("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "GB29NWBK60161331926819", ("60161331926819",)),
    Seed("SWIFT_CODE", "NWBKGB2L", context="SWIFT"),
    Seed("BANK_ACCOUNT_NUMBER", "31926819", context="account"),
    Seed("BANK_ROUTING", "021000021", context="routing"),
    Seed("BANK_ROUTING", "40-47-84", context="sort code"),
    Seed("CREDIT_DEBIT_CVV", "7319", context="CVV"),
    Seed("CREDIT_DEBIT_EXPIRY", "09/27", context="card exp"),
    Seed("PIN", "4821", context="PIN"),
    # Identity documents and vehicles
    Seed("PASSPORT_NUMBER", "C01X00T47", context="passport"),
    Seed("DRIVER_ID", "D1234-56789-01234", ("D12345678901234",), context="driver's license"),
    Seed("LICENSE_PLATE", "7ABC123", context="licence plate"),
    Seed("VEHICLE_IDENTIFICATION_NUMBER", "1HGCM82633A004352"),
    # National numbers of the countries Comprehend covers
    Seed("UK_NATIONAL_INSURANCE_NUMBER", "AB 12 34 56 C", ("AB123456C",)),
    Seed("UK_NATIONAL_INSURANCE_NUMBER", "JG103759A"),
    Seed("UK_UNIQUE_TAXPAYER_REFERENCE_NUMBER", "1955839661", context="UTR"),
    Seed("UK_NATIONAL_HEALTH_SERVICE_NUMBER", "943 476 5919", ("9434765919",), context="NHS"),
    Seed("CA_SOCIAL_INSURANCE_NUMBER", "130 692 544", ("130692544",), context="SIN"),
    Seed("CA_HEALTH_NUMBER", "1234-567-890-AB", context="health card"),
    Seed("US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER", "912-70-1234", ("912701234",)),
    Seed("IN_PERMANENT_ACCOUNT_NUMBER", "ABCPE1234F"),
    Seed("IN_AADHAAR", "2341 2341 2346", ("234123412346",)),
    Seed("IN_VOTER_NUMBER", "ABC1234566"),
    Seed("IN_NREGA", "AP-01-002-003-004/123"),
    # Devices and accounts
    Seed("MAC_ADDRESS", "00:1A:2B:3C:4D:5E", ("001A2B3C4D5E",)),
    Seed("MAC_ADDRESS", "3c-22-fb-8e-11-a0"),
    Seed("URL", "https://jdoe:s3cret@git.example.com/repo.git", ("jdoe:s3cret",)),
    Seed("USERNAME", "jdoe42", context="username:"),
)
CAUGHT = [s for s in SEEDS if s.gap is None]

# --- the seeded runs -----------------------------------------------------------------------

FILLER = (
    "the reviewer read the schedule and compared each obligation with the standard terms of "
    "the supplier agreement before moving on to the next clause of the document. "
)


def sentences(seeds: tuple[Seed, ...] = SEEDS, offset: int = 0) -> str:
    """Every seed in a sentence of its own, starting from seed ``offset``."""
    turned = seeds[offset:] + seeds[:offset]
    return " ".join(f"The file for case {i} lists {s.text} here." for i, s in enumerate(turned))


def tag(number: int) -> str:
    """Three made-up words unique to ``number``: facts that share no subject (and no figures)
    cannot contradict each other, so every one of them is promoted."""
    syllables = ["ka", "lo", "mi", "re", "su", "to", "va", "ze"]

    def word(n: int) -> str:
        return "".join(syllables[(n >> shift) % 8] for shift in (0, 3, 6)) + "q"

    return " ".join(word(3 * number + k) for k in range(3))


def compact(seeds: tuple[Seed, ...] = SEEDS) -> str:
    return "; ".join(s.text for s in seeds)


def before_and_after_5000(limit: int) -> str:
    """The seeds before character 5,000 and again after it, within ``limit`` characters (in
    sentences before, listed after: twice in sentences would not fit)."""
    head = sentences()
    middle = FILLER * ((5_100 - len(head)) // len(FILLER) + 1)
    text = f"{head} {middle} {compact(SEEDS[7:] + SEEDS[:7])}"
    assert len(head) < 5_000 and text.index(SEEDS[7].value, 5_000) > 5_000 and len(text) <= limit
    return text


def packed(values: list[str], limit: int, joiner: str = " / ") -> list[str]:
    """``values`` joined into as few strings of at most ``limit`` characters as they fit."""
    groups: list[str] = []
    for value in values:
        if groups and len(groups[-1]) + len(joiner) + len(value) <= limit:
            groups[-1] += joiner + value
        else:
            groups.append(value)
    return groups


# Two seeds an item: a list holds at most 50 items.
PAIRS = [SEEDS[i : i + 2] for i in range(0, len(SEEDS), 2)]


def listed(seeds: tuple[Seed, ...]) -> str:
    return " and ".join(s.text for s in seeds)


TITLES = packed([s.text for s in SEEDS], 180, "; ")
SENDERS = packed([s.text for s in SEEDS], 250)
RUNS = max(3, len(TITLES))  # enough to promote facts, and one title per proposed procedure


def seeded_event(number: int, messages: int = 32) -> dict[str, Any]:
    """Run ``number``: the same facts every time (so they are promoted), its own procedure.

    With 32 long messages a run holds more text than one detector call takes (yet stays within
    an event's 256 KiB), and every seed crosses the 1,000-character cut of a message unit in
    some message.
    """
    turns = [
        {
            "role": "human" if i % 2 else "ai",
            "name": SENDERS[i % len(SENDERS)],
            "content": f"{FILLER[: (i * 37) % 900]} {sentences(offset=i)} {FILLER * 8}",
        }
        for i in range(messages)
    ]
    return {
        "tenant_id": TENANT,
        # Each run another agent's: the runs are consolidated within seconds, and one agent's
        # runs would count as independent confirmations of the facts only an hour apart.
        "agent_id": AGENT if number == 1 else f"{AGENT}-{number}",
        "run_id": f"pii-run-{number}",
        "task": before_and_after_5000(8_000),
        "task_type": TASK_TYPE,
        "domain": DOMAIN,
        "outcome": "COMPLETED",
        "messages": turns,
        "artifacts": {
            # The last run leaves the summary to be derived from the task.
            "task_summary": "" if number == RUNS else f"Summary: {compact()}",
            "key_findings": [
                f"Finding {i}: the file names {listed(pair)}." for i, pair in enumerate(PAIRS)
            ],
            "approach_used": before_and_after_5000(8_000),
            "tools_used": [f"crm lookup {listed(pair)}" for pair in PAIRS],
            "reusable_patterns": [
                f"Pattern {i}: ask {listed(pair)} first." for i, pair in enumerate(PAIRS)
            ],
            "facts": [
                {"content": f"{tag(i)}: {listed(pair)}", "confidence": 0.9}
                for i, pair in enumerate(PAIRS)
            ],
            "procedure": {
                "title": f"Review for {TITLES[(number - 1) % len(TITLES)]}",
                "steps": [" ".join(f"Check {s.text}." for s in pair) for pair in PAIRS]
                + [f"Close run {number}"],
            },
        },
    }


BOOTSTRAP = {
    "tenant_id": TENANT,
    "agent_id": AGENT,
    "task": f"The file for case 3 lists {SEEDS[0].value} and {SEEDS[10].value} here.",
    "task_type": TASK_TYPE,
    "domain": DOMAIN,
}

# --- where text may end up -------------------------------------------------------------------


@dataclass
class World:
    """What one path left behind, by place."""

    places: dict[str, bytes]
    counts: dict[str, int]


def dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, default=str).encode()


def local_world(root: Path) -> World:
    """The whole story on a local store with the real detector, everything captured."""
    memory = make_memory(root)
    memory.ports = replace(memory.ports, pii=LocalPiiDetector())
    ports = memory.ports
    with capture_everything() as captured:
        for number in range(1, RUNS + 1):
            consolidate(seeded_event(number), ports)
        run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=memory.clock())
        [first, *_] = ports.procedures.for_task_type(TENANT, TASK_TYPE)
        procedural.review(
            ports.procedures, first.procedure_id, approve=True, reviewer="lead", now=memory.clock()
        )
        reply = bootstrap(parse_bootstrap_request(BOOTSTRAP), ports)
    records = [*export_tenant(ports, TENANT), *ledger_values(ports)]
    kb_files = sorted(p for p in (root / "kb").rglob("*") if p.is_file())
    database = sorted(root.glob(f"{DATABASE_FILE}*"))
    return World(
        places={
            "stored records": dump(records),
            "kb files": b"\n".join(p.read_bytes() for p in kb_files),
            "database file": b"\n".join(p.read_bytes() for p in database),
            "logs and output": captured.text().encode(),
            "bootstrap reply": dump(reply),
        },
        counts={
            "kb documents": len(ports.knowledge_base.document_keys(TENANT)),
            "procedures": len(list(ports.procedures.export(TENANT))),
            "served facts": len(reply["facts"]),
            "served episodes": len(reply["episodes"]),
            "served procedure": int(reply["procedure"] is not None),
            "database files": len(database),
        },
    )


def aws_world() -> World:
    """The same story through the Lambda handlers on moto, with the local detector as PII port."""
    with aws_memory(LocalPiiDetector()) as aws, capture_everything() as captured:
        for number in range(1, RUNS + 1):
            # Fewer messages than locally: chunking is the core's, the same on both paths.
            aws.consolidate(seeded_event(number, messages=len(SENDERS)))
        aws.invoke("ingest", {})
        listed = aws.invoke("procedure_review", {"action": "list", "tenant_id": TENANT})
        approve = {
            "action": "approve",
            "tenant_id": TENANT,
            "reviewer": "lead",
            "procedure_id": listed["procedures"][0]["procedure_id"],
        }
        aws.invoke("procedure_review", approve)
        reply = aws.invoke("bootstrap", BOOTSTRAP)
        return world_of(aws, captured.text(), reply)


def world_of(aws: AwsMemory, logs: str, reply: dict[str, Any]) -> World:
    objects = aws.objects()
    return World(
        places={
            "dynamodb items": dump(aws.items()),
            "s3 objects": dump(sorted(objects)) + b"\n".join(objects.values()),
            "logs and output": logs.encode(),
            "bootstrap reply": dump(reply),
        },
        counts={
            "kb documents": sum(1 for key in objects if key.endswith(".txt")),
            "procedures": len(list(aws.runtime.ports(TENANT).procedures.export(TENANT))),
            "served facts": len(reply["facts"]),
            "served episodes": len(reply["episodes"]),
            "served procedure": int(reply["procedure"] is not None),
        },
    )


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> World:
    return local_world(tmp_path_factory.mktemp("pii-local"))


@pytest.fixture(scope="module")
def on_aws() -> World:
    return aws_world()


# Where each tier's text lands, per path (on AWS the DEBUG log holds botocore's dump of every
# request, stored text included; locally nothing logs stored text).
LOCAL_TIERS = {
    "records": ("stored records", "database file"),
    "kb": ("kb files",),
    "reply": ("bootstrap reply",),
}
AWS_TIERS = {
    "records": ("dynamodb items", "logs and output"),
    "kb": ("s3 objects", "logs and output"),
    "reply": ("bootstrap reply",),
}


def cases(places: tuple[str, ...], tiers: dict[str, tuple[str, ...]]) -> Iterator[Any]:
    for place in places:
        for seed in SEEDS:
            marks = []
            if seed.gap is not None and any(place in tiers[tier] for tier in seed.gap_in):
                reason = f"local PII detector gap ({seed.kind}): {seed.gap}"
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            yield pytest.param(place, seed, id=f"{place}-{seed.id}", marks=marks)


# --- the local path --------------------------------------------------------------------------


def test_the_local_story_promotes_facts_proposes_procedures_and_serves_them(
    local: World,
) -> None:
    # Guards the tests below: each seed really went through every tier
    assert local.counts["kb documents"] >= 1
    assert local.counts["procedures"] == RUNS
    assert local.counts["served facts"] >= 1
    assert local.counts["served episodes"] >= 1
    assert local.counts["served procedure"] == 1
    assert local.counts["database files"] >= 2  # the database and its write-ahead log


def test_the_local_story_stores_type_labels_where_the_pii_was(local: World) -> None:
    stored = local.places["stored records"].decode()
    for label in ("[NAME", "[EMAIL]", "[PHONE]", "[SSN]", "[CREDIT_DEBIT_NUMBER]", "[ADDRESS]"):
        assert label in stored
    assert "[IP_ADDRESS]" in stored


def test_the_local_story_labels_every_seeded_type(local: World) -> None:
    # Guards the tests below: each type was scrubbed as itself, not only as a neighbour's span
    stored = local.places["stored records"].decode()
    assert [s.kind for s in CAUGHT if f"[{s.kind}" not in stored] == []


@pytest.mark.parametrize(
    ("place", "seed"),
    list(
        cases(
            ("stored records", "kb files", "database file", "logs and output", "bootstrap reply"),
            LOCAL_TIERS,
        )
    ),
)
def test_no_seeded_pii_reaches_the_local_store(local: World, place: str, seed: Seed) -> None:
    found = [n.decode() for n in seed.needles() if n in local.places[place]]
    assert found == [], f"{seed.kind} {seed.value!r} found in {place} as {found}"


# --- the AWS path ----------------------------------------------------------------------------


def test_the_aws_story_promotes_facts_proposes_procedures_and_serves_them(on_aws: World) -> None:
    assert on_aws.counts["kb documents"] >= 1
    assert on_aws.counts["procedures"] == RUNS
    assert on_aws.counts["served facts"] >= 1
    assert on_aws.counts["served episodes"] >= 1
    assert on_aws.counts["served procedure"] == 1


def test_the_aws_story_logs_through_powertools(on_aws: World) -> None:
    # Guards the log check below: the handlers' structured logs were captured
    logs = on_aws.places["logs and output"].decode()
    assert '"message":"run consolidated"' in logs


@pytest.mark.parametrize(
    ("place", "seed"),
    list(
        cases(
            ("dynamodb items", "s3 objects", "logs and output", "bootstrap reply"),
            AWS_TIERS,
        )
    ),
)
def test_no_seeded_pii_reaches_the_aws_stores(on_aws: World, place: str, seed: Seed) -> None:
    found = [n.decode() for n in seed.needles() if n in on_aws.places[place]]
    assert found == [], f"{seed.kind} {seed.value!r} found in {place} as {found}"


# --- text cut to a length limit ----------------------------------------------------------


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


def straddling(seed: Seed, cut: int) -> str:
    """Text whose ``cut``-th character falls in the middle of ``seed``'s value."""
    half = len(seed.text) - len(seed.value) + len(seed.value) // 2
    return "x" * (cut - half - 1) + " " + seed.text + " and then the review went on."


@pytest.mark.parametrize("seed", CAUGHT, ids=[s.id for s in CAUGHT])
@pytest.mark.parametrize("limit", ["message unit", "summary from the task"])
def test_pii_cut_by_a_length_limit_leaves_no_fragment(
    tmp_path: Path, detector: LocalPiiDetector, limit: str, seed: Seed
) -> None:
    # Given PII straddling a cut made before storage: a message kept as a 1,000-character
    # unit, or a summary taken from the task's first sentence (300 characters)
    memory = make_memory(tmp_path)
    memory.ports = replace(memory.ports, pii=detector)
    event: dict[str, Any] = {
        "tenant_id": TENANT,
        "agent_id": AGENT,
        "run_id": "cut-1",
        "task": "Review the supplier agreement.",
        "outcome": "COMPLETED",
        "artifacts": {"task_summary": ""},
    }
    if limit == "message unit":
        event["messages"] = [{"role": "human", "content": straddling(seed, 1_000)}]
    else:
        event["task"] = straddling(seed, 297)
    # When the run is consolidated
    consolidate(event, memory.ports)
    # Then neither the seed nor the half of it before the cut is stored anywhere
    stored = dump([*export_tenant(memory.ports, TENANT)])
    fragment = seed.fragment().encode()
    assert [n for n in [*seed.needles(), fragment] if n in stored] == []


# --- a failing detector ----------------------------------------------------------------------


class BrokenDetector:
    """The local detector, failing the way an unreachable model or a bug would."""

    max_chunk_chars = 100_000

    def detect(self, text: str) -> list[PiiEntity]:
        raise RuntimeError("detector crashed")


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


def test_a_failing_detector_writes_nothing_and_records_the_run_for_replay(
    memory: Memory,
) -> None:
    # Given a PII detector that raises
    memory.ports = replace(memory.ports, pii=BrokenDetector())
    event = seeded_event(1)
    # When a seeded run is consolidated
    with pytest.raises(StepFailed) as failed:
        consolidate_or_record(event, memory.ports)
    # Then the scrub step failed, no store holds anything, and only the replayable record exists
    ports = memory.ports
    assert failed.value.step == "scrub"
    assert list(ports.episodes.export(TENANT)) == []
    assert list(ports.facts.export(TENANT)) == []
    assert list(ports.procedures.export(TENANT)) == []
    assert ports.knowledge_base.document_keys(TENANT) == []
    recorded = ports.run_ledger.failure_key(TENANT, AGENT, event["run_id"])
    assert [key for key, _ in ledger_contents(ports)] == [recorded]
    assert [r.event for r in failed_runs(ports.run_ledger)] == [event]


def test_a_replayed_run_leaves_no_raw_pii_in_the_database_file(memory: Memory) -> None:
    # Given a run recorded for replay while the detector was down, raw event included
    broken = replace(memory.ports, pii=BrokenDetector())
    with pytest.raises(StepFailed):
        consolidate_or_record(seeded_event(1), broken)
    # When it is replayed with the detector back, which deletes the failure record
    working = replace(memory.ports, pii=LocalPiiDetector())
    replay(working.run_ledger.failure_key(TENANT, AGENT, "pii-run-1"), working)
    # Then the database files hold none of the caught seeds any more
    files = b"".join(p.read_bytes() for p in memory.root.glob(f"{DATABASE_FILE}*"))
    assert [s.probe for s in CAUGHT if s.probe.encode() in files] == []
