"""The README's PII statement, row by row: each figure is the one the benchmark wrote, and each
row's class of data is scrubbed in both modes on generated inputs.

The table under "What PII is caught, by type and language" in the README promises, for each
type and language, what local mode measured on a corpus nobody here wrote. AWS mode runs the
same local detector in its functions (the default deployment, checked here through the Lambda
runtime's own wiring), and ``piiDetector=comprehend`` adds Comprehend beside it, so either
promises at least as much. Every row has an entry in
``ROWS`` and every entry a row: a figure that no result backs, or a row without a test, fails.
"""

from __future__ import annotations

import json
import random
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import boto3
import phonenumbers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stdnum import iban, luhn

from agent_memory.core.ports import PiiDetector, PiiEntity
from agent_memory.core.privacy.scrubbing import AllDetectors, detect_all
from agent_memory.wiring.aws import AwsRuntime
from agent_memory.wiring.detectors import every_detector
from tests.adapters.local.test_pii_national_ids import GENERATORS, _scheme
from tests.integration.aws.moto_dynamodb import settings_for

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
HEADING = "### What PII is caught, by type and language"
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class ReadsNothing:
    """Comprehend on text it has no reading of: no entity."""

    max_chunk_chars = 25_000

    def detect(self, text: str) -> list[PiiEntity]:
        return []


@cache
def local_mode(regions: tuple[str, ...] = ()) -> PiiDetector:
    return every_detector(regions=regions)


class NoComprehend(boto3.Session):
    """A session for the default deployment's runtime: it never makes a Comprehend client."""

    def client(self, service_name: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        assert service_name != "comprehend", "the default deployment made a Comprehend client"
        return super().client(service_name, *args, **kwargs)


@cache
def aws_mode(regions: tuple[str, ...] = ()) -> PiiDetector:
    """What the default deployment's functions scrub with: the runtime's own detectors."""
    tables = {name: name for name in ("episodes", "facts", "procedures", "ledger")}
    deployed = settings_for(tables, pii_regions=regions)
    return AwsRuntime(deployed, session=NoComprehend(region_name="us-east-1")).pii_detectors()


@cache
def aws_comprehend_mode(regions: tuple[str, ...] = ()) -> PiiDetector:
    """``piiDetector=comprehend``: Comprehend (reading nothing of the text) beside the local
    detectors."""
    return AllDetectors(ReadsNothing(), local_mode(regions))


def every_mode(regions: tuple[str, ...] = ()) -> tuple[PiiDetector, ...]:
    return local_mode(regions), aws_mode(regions), aws_comprehend_mode(regions)


@cache
def result(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RESULTS / f"{name}.json").read_text())
    return data


def three(value: float) -> str:
    return f"{value:.3f}"


def percent(share: float) -> str:
    return f"{share * 100:.2f}%"


# --- the figures each row prints, read from the benchmarks' results ------------------------


def presidio(kind: str) -> list[str]:
    held_out = result("pii_quality")["presidio"]["held_out"]["per_type"][kind]
    return [three(held_out["recall"]), three(held_out["precision"])]


def wikineural(language: str) -> list[str]:
    held_out = result("pii_names")["names"][language]["held_out"]
    return [three(held_out["recall"]), three(held_out["precision"])]


def docs_scrubbed(language: str) -> list[str]:
    return [percent(result("pii_names")["technical_text"][language]["held_out"]["share"])]


def numbers(kind: str) -> list[str]:
    """Recall and precision of ``kind`` after its label, held out, over every country."""
    rows = [
        v
        for k, v in result("pii_numbers")["identifiers"].items()
        if k.startswith(f"{kind}|") and k.endswith("|labelled|held_out")
    ]
    gold, found = sum(r["gold"] for r in rows), sum(r["found"] for r in rows)
    predicted, correct = sum(r["predicted"] for r in rows), sum(r["correct"] for r in rows)
    return [three(found / gold), three(correct / predicted)]


def phones() -> list[str]:
    """Recall held out on declared regions' numbers with no phone word, and on numbers after a
    phone word with none declared; order numbers kept."""
    table = result("pii_numbers")["phones"]

    def share(form: str, field: str = "found", of: str = "gold") -> str:
        rows = [v for k, v in table.items() if f"|{form}|held_out" in k]
        return three(sum(r[field] for r in rows) / sum(r[of] for r in rows))

    return [
        share("declared, no phone word, national format"),
        share("phone word, none declared, national format"),
        share("order number, declared", "kept", "lookalikes"),
    ]


def credentials() -> list[str]:
    corpora = result("pii_credentials")["corpora"]
    return [
        three(corpora["trufflehog"]["held_out"]["recall_whole"]),
        three(corpora["trufflehog"]["held_out"]["precision_on_positives"]),
        three(corpora["gitleaks"]["held_out"]["recall_whole"]),
        three(corpora["gitleaks"]["held_out"]["precision_on_positives"]),
    ]


def ordinary_text() -> list[str]:
    plain = result("pii_quality")["plain_text"]
    english = max(v["scrubbed_fraction"] for k, v in plain.items() if "held_out" in k)
    return [percent(english)] + [
        percent(result("pii_names")["technical_text"][lang]["held_out"]["share"])
        for lang in ("es", "fr", "pt-br", "ja", "zh-cn", "ko")
    ]


# --- generated samples of each row's class ---------------------------------------------------


def english_names(draw: random.Random) -> tuple[str, str]:
    """A name of the census's 300 commonest given names and 1,000 commonest surnames."""
    first = draw.choice(census("first:female")[:300] + census("first:male")[:300])
    last = draw.choice(census("last")[:1000])
    name = f"{first.title()} {last.title()}"
    return draw.choice(ENGLISH).format(name), name


ENGLISH = (
    "Please send the signed contract to {} by Friday.",
    "The ticket was opened by {} yesterday.",
    "Dear {}, your refund has been processed.",
    "I spoke with {} about the invoice.",
)


@cache
def census(kind: str) -> list[str]:
    import names

    return [line.split()[0] for line in Path(names.FILES[kind]).read_text().splitlines() if line]


SPANISH_GIVEN = ["María", "José", "Lucía", "Javier", "Carmen", "Alejandro", "Isabel", "Diego"]
SPANISH_SURNAMES = ["García", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Ruiz"]


def spanish_names(draw: random.Random) -> tuple[str, str]:
    """A given name and two surnames, as Spanish names are written."""
    name = " ".join(
        [
            draw.choice(SPANISH_GIVEN),
            draw.choice(SPANISH_SURNAMES),
            draw.choice(SPANISH_SURNAMES),
        ]
    )
    template = draw.choice(
        [
            "La clienta {} pidió el reembolso ayer.",
            "El contrato lo firmó {} en Madrid.",
            "Hablé con {} sobre la factura pendiente.",
        ]
    )
    return template.format(name), name


@st.composite
def national_numbers(draw: st.DrawFn, kind: str) -> tuple[str, str]:
    module, strategy, template = draw(
        st.sampled_from([g for g in GENERATORS if _scheme(g[0]).kind == kind])
    )
    scheme = _scheme(module)
    number = draw(strategy().filter(scheme.valid))
    label = draw(st.sampled_from(scheme.labels))
    return template.format(label=label, number=number), number


_LOCAL_PART = re.compile(r"[A-Za-z0-9_%+'-]+(?:\.[A-Za-z0-9_%+'-]+)*")
DECLARED = ("DE", "BR", "FR", "ES", "IT", "JP", "GB", "IN")


@st.composite
def declared_phones(draw: st.DrawFn) -> tuple[str, str]:
    region = draw(st.sampled_from(DECLARED))
    kind = draw(
        st.sampled_from(
            [phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE]
        )
    )
    example = phonenumbers.example_number_for_type(region, kind)
    number = phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.NATIONAL)
    return f"{region}: the customer left {number} on the form.", number


@st.composite
def emails_ssns_ips(draw: st.DrawFn) -> tuple[str, str]:
    value = draw(
        st.one_of(
            # Local parts as mail providers issue them: letters, digits and . _ % + - '
            # (RFC 5322's rarer !#$&*/=?^`{|}~ are a known gap: docs/pii.md).
            st.emails().filter(
                lambda e: len(e) < 60 and _LOCAL_PART.fullmatch(e.rsplit("@", 1)[0]) is not None
            ),
            st.tuples(st.integers(1, 665), st.integers(1, 99), st.integers(1, 9999))
            .filter(lambda t: t[0] != 666)
            .map(lambda t: f"{t[0]:03d}-{t[1]:02d}-{t[2]:04d}"),
            st.ip_addresses(v=4).map(str).filter(lambda a: not a.startswith(("0.", "127."))),
        )
    )
    return f"Ticket note: the user wrote from {value} again.", value


@st.composite
def cards(draw: st.DrawFn) -> tuple[str, str]:
    body = "4" + draw(st.text(string.digits, min_size=14, max_size=14))
    number = body + luhn.calc_check_digit(body)
    grouped = draw(st.sampled_from([" ", "-", ".", ""])).join(
        number[i : i + 4] for i in range(0, 16, 4)
    )
    return f"Card on file: {grouped}, please refund.", grouped


@st.composite
def ibans(draw: st.DrawFn) -> tuple[str, str]:
    country, bban = draw(
        st.sampled_from(
            [
                ("DE", "37040044" + "0532013000"),
                ("FR", "3000600001" + "1234567890189"),
                ("ES", "2100" + "0418" + "45" + "0200051332"),
                ("NL", "ABNA" + "0417164300"),
            ]
        )
    )
    compact = country + iban.calc_check_digits(country + "00" + bban) + bban
    return f"Refund to IBAN {iban.format(compact)} today.", iban.format(compact)


CREDENTIAL_NAMES = (
    "password: ",
    "le mot de passe est ",
    "la contraseña es ",
    "Das Passwort lautet ",
    "пароль: ",
    "パスワードは ",
    "api_key=",
    "Authorization: Bearer ",
)


@st.composite
def credential_values(draw: st.DrawFn) -> tuple[str, str]:
    seed = draw(st.integers(0, 2**32))
    value = "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=32))
    name = draw(st.sampled_from(CREDENTIAL_NAMES))
    return f"{name}{value} (from the tool output)", value


@dataclass(frozen=True)
class Row:
    """A row's figures, and its class: generated samples every one of which must be scrubbed,
    or (for a promise made as a rate) a sampler of which at least ``rate`` must be."""

    figures: Callable[[], list[str]]
    sample: st.SearchStrategy[tuple[str, str]] | None = None
    sampler: Callable[[random.Random], tuple[str, str]] | None = None
    rate: float = 1.0
    regions: tuple[str, ...] = ()


ROWS: dict[str, Row] = {
    "`NAME` · English": Row(lambda: presidio("NAME"), sampler=english_names, rate=0.95),
    "`NAME` · Spanish": Row(
        lambda: wikineural("es") + docs_scrubbed("es"), sampler=spanish_names, rate=0.95
    ),
    "`NATIONAL_ID` · 68 countries, after their label": Row(
        lambda: numbers("NATIONAL_ID"), national_numbers("NATIONAL_ID")
    ),
    "`TAX_ID` · of persons, after their label": Row(
        lambda: numbers("TAX_ID"), national_numbers("TAX_ID")
    ),
    "`PHONE` · the declared regions": Row(phones, declared_phones(), regions=DECLARED),
    "`EMAIL`, `SSN`, `IP_ADDRESS` · any language": Row(
        lambda: presidio("EMAIL") + presidio("SSN") + presidio("IP_ADDRESS"), emails_ssns_ips()
    ),
    "`CREDIT_DEBIT_NUMBER` · any language": Row(lambda: presidio("CREDIT_DEBIT_NUMBER"), cards()),
    "`INTERNATIONAL_BANK_ACCOUNT_NUMBER` · any country": Row(
        lambda: presidio("INTERNATIONAL_BANK_ACCOUNT_NUMBER"), ibans()
    ),
    "credentials · key names in 14 languages": Row(credentials, credential_values()),
    "ordinary text scrubbed by mistake": Row(ordinary_text),
}


def statement_rows() -> dict[str, str]:
    """The README table's rows: first cell -> the local-mode cell."""
    readme = (ROOT / "README.md").read_text()
    assert HEADING in readme, f"the README has no {HEADING!r} section"
    section = readme.split(HEADING, 1)[1].split("\n#", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and not set(cells[0]) <= set("-: ") and cells[0] != "what":
            rows[cells[0]] = cells[1]
    return rows


_FIGURE = re.compile(r"\d+\.\d+%?")


def test_every_row_of_the_statement_has_a_test_and_every_test_a_row() -> None:
    assert sorted(statement_rows()) == sorted(ROWS)


@pytest.mark.parametrize("key", list(ROWS))
def test_each_figure_of_a_row_is_the_one_its_benchmark_wrote(key: str) -> None:
    # Given the row as the README prints it, and the benchmarks' results
    printed = _FIGURE.findall(statement_rows()[key])
    # Then its figures are the results', in order
    assert printed == ROWS[key].figures(), key


@pytest.mark.parametrize("key", [k for k, row in ROWS.items() if row.sample is not None])
def test_each_rows_class_is_scrubbed_in_both_modes(key: str) -> None:
    row = ROWS[key]
    assert row.sample is not None

    @SETTINGS
    @given(sample=row.sample)
    def check(sample: tuple[str, str]) -> None:
        # Given a generated sentence holding the row's kind of data
        text, value = sample
        start = text.index(value)
        # When local mode and AWS mode (by default, and with Comprehend reading nothing of it)
        # scan it
        for mode in every_mode(row.regions):
            found = detect_all(text, mode)
            # Then every character of the value is covered
            assert all(_covered(found, i) for i in range(start, start + len(value))), (
                text,
                [(e.type, text[e.begin : e.end]) for e in found],
            )

    check()


def _covered(found: list[PiiEntity], index: int) -> bool:
    return any(e.begin <= index < e.end for e in found)


def _scrubbed_whole(text: str, value: str, mode: PiiDetector) -> bool:
    start = text.index(value)
    found = detect_all(text, mode)
    return all(_covered(found, i) for i in range(start, start + len(value)))


@pytest.mark.parametrize("key", [k for k, row in ROWS.items() if row.sampler is not None])
def test_a_rows_promised_rate_holds_on_a_fixed_sample_in_both_modes(key: str) -> None:
    row = ROWS[key]
    assert row.sampler is not None
    # Given 300 sentences drawn from the row's class with a fixed seed
    draw = random.Random(key)
    samples = [row.sampler(draw) for _ in range(300)]
    for mode in every_mode(row.regions):
        # When each mode scans them, Then at least the promised share is scrubbed whole
        caught = sum(_scrubbed_whole(text, value, mode) for text, value in samples)
        assert caught / len(samples) >= row.rate, (key, caught)


def _repo_python() -> Iterator[str]:
    for path in sorted((ROOT / "src" / "agent_memory" / "core").rglob("*.py")):
        yield path.read_text()


def test_ordinary_text_of_this_repository_is_scrubbed_below_one_percent_in_both_modes() -> None:
    # Given the core's Python source (code, docstrings, comments: no personal data)
    text = "\n".join(_repo_python())
    for mode in every_mode():
        # When it is scanned, Then under 1% of its characters would be scrubbed
        scrubbed = sum(e.end - e.begin for e in detect_all(text, mode))
        assert scrubbed / len(text) < 0.01
