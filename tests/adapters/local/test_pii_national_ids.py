"""Other countries' national identity and personal tax numbers in the local PII detector
(NATIONAL_ID, TAX_ID): generated with python-stdnum's own check-digit functions."""

from __future__ import annotations

import importlib
import string
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.local.pii.national_ids import Scheme, schemes
from tests.adapters.local._pii_helpers import found

NATIONAL = ("NATIONAL_ID", "TAX_ID")
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


def _module(name: str) -> Any:
    return importlib.import_module(f"stdnum.{name}")


def _scheme(module: str) -> Scheme:
    return next(s for s in schemes() if s.module == module)


digits = st.text(string.digits, min_size=1, max_size=1)


def _date(draw: st.DrawFn) -> tuple[int, int, int]:
    return (
        draw(st.integers(1940, 2009)),
        draw(st.integers(1, 12)),
        draw(st.integers(1, 28)),
    )


def _n(draw: st.DrawFn, size: int) -> str:
    return draw(st.text(string.digits, min_size=size, max_size=size))


@st.composite
def cn_ric(draw: st.DrawFn) -> str:
    year, month, day = _date(draw)
    body = draw(st.sampled_from(["110105", "310104", "440106", "510107"]))
    body += f"{year:04d}{month:02d}{day:02d}" + _n(draw, 3)
    return body + _module("cn.ric").calc_check_digit(body + "0")  # it reads the first 17


@st.composite
def it_codicefiscale(draw: st.DrawFn) -> str:
    year, month, day = _date(draw)
    letters = draw(st.text(string.ascii_uppercase, min_size=6, max_size=6))
    day += draw(st.sampled_from([0, 40]))  # women's days are 41-71
    body = f"{letters}{year % 100:02d}{'ABCDEHLMPRST'[month - 1]}{day:02d}"
    body += draw(st.sampled_from("ABCDEFGHLMZ")) + _n(draw, 3)
    return body + _module("it.codicefiscale").calc_check_digit(body)


@st.composite
def es_dni(draw: st.DrawFn) -> str:
    body = _n(draw, 8)
    return body + _module("es.dni").calc_check_digit(body)


@st.composite
def es_nie(draw: st.DrawFn) -> str:
    body = draw(st.sampled_from("XYZ")) + _n(draw, 7)
    return body + _module("es.nie").calc_check_digit(body)


@st.composite
def pl_pesel(draw: st.DrawFn) -> str:
    year, month, day = _date(draw)
    month += 20 if year >= 2000 else 0
    body = f"{year % 100:02d}{month:02d}{day:02d}" + _n(draw, 4)
    return body + _module("pl.pesel").calc_check_digit(body)


@st.composite
def tr_tckimlik(draw: st.DrawFn) -> str:
    body = draw(st.sampled_from("123456789")) + _n(draw, 8)
    return body + _module("tr.tckimlik").calc_check_digits(body)


@st.composite
def fr_nir(draw: st.DrawFn) -> str:
    year, month, _ = _date(draw)
    body = f"{draw(st.sampled_from('12'))}{year % 100:02d}{month:02d}"
    body += f"{draw(st.integers(1, 95)):02d}" + _n(draw, 6)
    return body + _module("fr.nir").calc_check_digits(body)


@st.composite
def jp_in(draw: st.DrawFn) -> str:
    body = _n(draw, 11)
    return body + _module("jp.in_").calc_check_digit(body)


@st.composite
def ro_cnp(draw: st.DrawFn) -> str:
    year, month, day = _date(draw)
    sex = "1" if year < 2000 else "5"
    body = f"{sex}{year % 100:02d}{month:02d}{day:02d}{draw(st.integers(1, 46)):02d}"
    body += _n(draw, 3)
    return body + _module("ro.cnp").calc_check_digit(body)


@st.composite
def br_cpf(draw: st.DrawFn) -> str:
    # stdnum.br.cpf has no public check-digit function: the two digits are searched for.
    body = _n(draw, 9)
    assume(len(set(body)) > 1)
    valid = [body + f"{d:02d}" for d in range(100) if _module("br.cpf").is_valid(body + f"{d:02d}")]
    assume(valid)
    number = valid[0]
    return f"{number[:3]}.{number[3:6]}.{number[6:9]}-{number[9:]}"


# (stdnum module, generator of valid numbers, a sentence of the country's language)
GENERATORS: list[tuple[str, Callable[[], st.SearchStrategy[str]], str]] = [
    ("cn.ric", cn_ric, "客户的{label}是{number}。"),
    (
        "it.codicefiscale",
        it_codicefiscale,
        "Il cliente ha indicato il {label} {number} nel modulo.",
    ),
    ("es.dni", es_dni, "El cliente facilitó su {label} {number} para la factura."),
    ("es.nie", es_nie, "El cliente facilitó su {label} {number} para la factura."),
    ("pl.pesel", pl_pesel, "Klient podał {label} {number} w formularzu."),
    ("tr.tckimlik", tr_tckimlik, "Müşteri {label} {number} bilgisini forma yazdı."),
    ("fr.nir", fr_nir, "Merci d'indiquer votre {label} : {number} sur le formulaire."),
    ("jp.in_", jp_in, "お客様の{label}は{number}です。"),
    ("ro.cnp", ro_cnp, "Clientul a dat {label} {number} în formular."),
    ("br.cpf", br_cpf, "O cliente informou o {label} {number} no cadastro."),
]
# Formats unique enough to be found with no label at all.
UNLABELLED = ["cn.ric", "it.codicefiscale", "es.dni", "es.nie", "br.cpf"]


@pytest.mark.parametrize(("module", "strategy", "template"), GENERATORS, ids=lambda v: str(v))
def test_a_valid_national_number_after_any_of_its_labels_is_found(
    detector: LocalPiiDetector,
    module: str,
    strategy: Callable[[], st.SearchStrategy[str]],
    template: str,
) -> None:
    scheme = _scheme(module)

    @SETTINGS
    @given(number=strategy(), label=st.sampled_from(scheme.labels))
    def check(number: str, label: str) -> None:
        # Given a number stdnum's check digits make valid, after one of the scheme's labels
        assume(scheme.valid(number))
        text = template.format(label=label, number=number)
        # When it is scanned / Then the number is reported with the scheme's type
        assert (scheme.kind, number) in found(detector, text), text

    check()


@pytest.mark.parametrize(("module", "strategy", "template"), GENERATORS, ids=lambda v: str(v))
def test_a_labelled_number_ending_a_sentence_before_capitals_is_found(
    detector: LocalPiiDetector,
    module: str,
    strategy: Callable[[], st.SearchStrategy[str]],
    template: str,
) -> None:
    scheme = _scheme(module)

    @SETTINGS
    @given(
        number=strategy(),
        label=st.sampled_from(scheme.labels),
        stop=st.sampled_from([". ", ", ", "; ", ": ", "). "]),
        after=st.sampled_from(["TC Kimlik No", "OK", "NIF", "Il", "CEP 01310"]),
    )
    def check(number: str, label: str, stop: str, after: str) -> None:
        # Given a labelled number that ends its sentence, and more text in capitals after it
        assume(scheme.valid(number))
        text = f"{label}: {number}{stop}{after}"
        # When it is scanned / Then the number is reported without the punctuation after it
        assert (scheme.kind, number) in found(detector, text), text

    check()


@pytest.mark.parametrize("module", UNLABELLED)
def test_a_number_in_a_format_unique_to_its_scheme_needs_no_label(
    detector: LocalPiiDetector, module: str
) -> None:
    scheme = _scheme(module)
    strategy = next(g for m, g, _ in GENERATORS if m == module)

    @SETTINGS
    @given(number=strategy())
    def check(number: str) -> None:
        # Given a valid number in a sentence with no label
        assume(scheme.valid(number))
        text = f"Reference on file: {number}, see the attached scan."
        # When it is scanned / Then it is found all the same
        assert any(kind in NATIONAL and value == number for kind, value in found(detector, text))

    check()


@pytest.mark.parametrize(("module", "strategy", "template"), GENERATORS, ids=lambda v: str(v))
def test_a_look_alike_with_a_wrong_check_digit_is_kept_beside_its_label(
    detector: LocalPiiDetector,
    module: str,
    strategy: Callable[[], st.SearchStrategy[str]],
    template: str,
) -> None:
    scheme = _scheme(module)
    rivals = [s for s in schemes() if set(s.labels) & set(scheme.labels)]

    @SETTINGS
    @given(number=strategy(), other=st.sampled_from(string.digits))
    def check(number: str, other: str) -> None:
        # Given a valid number whose last character is changed so no scheme of the label takes it
        assume(scheme.valid(number))
        altered = number[:-1] + other
        assume(altered != number and not any(s.valid(altered) for s in rivals))
        text = template.format(label=scheme.labels[0], number=altered)
        # When it is scanned / Then no national number is reported
        assert not [f for f in found(detector, text) if f[0] in NATIONAL], text

    check()


@SETTINGS
@given(number=st.one_of(pl_pesel(), tr_tckimlik(), jp_in(), ro_cnp()))
def test_a_bare_order_number_that_happens_to_pass_a_check_is_kept(
    detector: LocalPiiDetector, number: str
) -> None:
    # Given digits that pass a national checksum, written as an order number without a label
    text = f"Order {number} shipped on Monday; invoice {number} follows."
    # When it is scanned / Then nothing national is reported
    assert not [f for f in found(detector, text) if f[0] in NATIONAL]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DNI del titular: 11111111H", ("NATIONAL_ID", "11111111H")),
        ("Codice fiscale: RSSMRA85T10A562S", ("TAX_ID", "RSSMRA85T10A562S")),
        ("CPF do cliente: 123.456.789-09", ("NATIONAL_ID", "123.456.789-09")),
        ("身份证号：11010519491231002X", ("NATIONAL_ID", "11010519491231002X")),
        ("Steuer-ID 86095742719", ("TAX_ID", "86095742719")),
        ("BSN 111222333", ("NATIONAL_ID", "111222333")),
        ("TC Kimlik No: 10000000146", ("NATIONAL_ID", "10000000146")),
        ("주민등록번호 971013-9019902", ("NATIONAL_ID", "971013-9019902")),
        ("AHV 756.1234.5678.97", ("NATIONAL_ID", "756.1234.5678.97")),
        ("personnummer 811228-9874", ("NATIONAL_ID", "811228-9874")),
        ("RG: 12.345.678-9", ("NATIONAL_ID", "12.345.678-9")),
    ],
)
def test_a_labelled_national_number_of_the_issue_is_found(
    detector: LocalPiiDetector, text: str, expected: tuple[str, str]
) -> None:
    # Given the issue's samples / When scanned / Then each number is found, whole, with its type
    assert expected in found(detector, text)


def test_every_person_number_module_of_stdnum_is_read_and_company_numbers_are_not() -> None:
    # Given the schemes read from stdnum's country packages
    modules = {s.module: s for s in schemes()}
    # Then the identity and tax numbers of persons the issue names are there, with labels
    for module in (
        "es.dni",
        "es.nie",
        "it.codicefiscale",
        "br.cpf",
        "cn.ric",
        "mx.curp",
        "mx.rfc",
        "pl.pesel",
        "nl.bsn",
        "de.idnr",
        "fr.nir",
        "ch.ssn",
        "se.personnummer",
        "jp.in_",
        "kr.rrn",
        "tr.tckimlik",
    ):
        assert modules[module].labels, module
    # And companies' VAT and register numbers are not personal data
    for module in ("es.cif", "br.cnpj", "de.vat", "fr.siren", "it.iva", "nl.btw", "pl.nip"):
        assert module not in modules


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Codice fiscale: RSSMRA85T10A562S", "Codice"),
        ("Su Cédula de Persona Física 303760289 venció.", "Cédula"),
    ],
)
def test_a_label_before_its_number_is_not_taken_for_a_name(
    detector: LocalPiiDetector, text: str, label: str
) -> None:
    # Given a capitalised label word right before the number it labels
    # When scanned / Then the label is kept and the number scrubbed
    found_ = found(detector, text)
    assert not [value for kind, value in found_ if kind == "NAME" and label in value]
    assert any(kind in NATIONAL for kind, _ in found_)
