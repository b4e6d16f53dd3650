"""National identity and personal tax numbers of every country ``python-stdnum`` validates.

The schemes are read from ``stdnum`` itself: every country module whose description names a
person's number (identity, citizen, birth, resident, social security, health) or a tax number
that is not only a company's (VAT and business registers are left out: they name firms). A
number is reported after one of its labels (the abbreviation and native name ``stdnum`` gives,
plus the words people write: "DNI", "codice fiscale", "Steuer-ID", "身份证号", ...) when the
module's ``is_valid`` accepts it; without a label only in a format unique to it ("123.456.789-09",
a codice fiscale, an 18-digit Chinese resident id with its birth date and ISO 7064 digit).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from agent_memory.adapters.local.pii._labels import labelled, lower
from agent_memory.core.ports import PiiEntity

NATIONAL_ID = "NATIONAL_ID"
TAX_ID = "TAX_ID"

# Countries whose numbers carry an Amazon Comprehend type of their own (identifiers.py).
_OWN_TYPES = frozenset({"gb", "ca", "us", "in_"})
_PERSONAL = re.compile(
    r"personal|\bperson\b|pessoas f[ií]sicas|physical person|persona f[ií]sica|citizen|"
    r"individual|identity|national identifi|national number|birth number|social security|"
    r"resident|foreigner|health|henkilötunnus|mispar zehut|identification number",
    re.I,
)
_TAX = re.compile(r"\btax\b|fiscal|tribut|steuer|contribuyente", re.I)
_NOT_PERSONAL = re.compile(
    r"\bVAT\b|company|business|corporate|enterprise|organi[sz]ation|\bbank|IBAN|postal|postcode|"
    r"securities|drugs|meter|school|student|pupil|trade|commercial|receipt|payment|real estate|"
    r"entities|excise|Leitweg|banknote|passport|Handelsregister|entrepris|jur[ií]dica|"
    r"econ[oó]mico|social credit|matricule",
    re.I,
)
# Numbers of persons and firms alike, or described without a person's word ("VAT number" for
# Spain's NIF, which is the DNI or NIE of a person).
_ALSO_PERSONAL = {
    "es.nif": TAX_ID,
    "pt.nif": TAX_ID,
    "li.peid": TAX_ID,
    "is_.kennitala": NATIONAL_ID,
    "be.bis": NATIONAL_ID,
}

# Words people write before these numbers, beside the abbreviation and native name stdnum gives.
_EXTRA_LABELS: dict[str, tuple[str, ...]] = {
    "ar.dni": ("DNI", "documento nacional de identidad", "documento de identidad"),
    "ar.cuit": ("CUIT", "CUIL", "C.U.I.T.", "C.U.I.L."),
    "at.vnr": ("Sozialversicherungsnummer", "SV-Nummer", "SVNR", "VSNR", "e-card"),
    "at.tin": ("Steuernummer", "Abgabenkontonummer"),
    "be.nn": (
        "rijksregisternummer",
        "numéro national",
        "numéro de registre national",
        "Nationalregisternummer",
        "INSZ",
        "NISS",
    ),
    "be.bis": ("BIS-nummer", "numéro bis"),
    "bg.egn": ("ЕГН", "EGN"),
    "bg.pnf": ("ЛНЧ", "LNCh"),
    "br.cpf": ("CPF", "C.P.F.", "cadastro de pessoa física", "cadastro de pessoas físicas"),
    "ch.ssn": ("AHV", "AVS", "AHV-Nummer", "numéro AVS", "Sozialversicherungsnummer", "AHVN13"),
    "cl.rut": ("RUT", "RUN", "R.U.T."),
    "cn.ric": (
        *("身份证", "身份证号", "身份证号码", "居民身份证", "公民身份号码", "身分證"),
        *("ID card", "resident identity card"),
    ),
    "co.nit": ("NIT", "cédula", "cedula", "C.C."),
    "cz.rc": ("rodné číslo", "RČ", "rodného čísla"),
    "de.idnr": (
        "Steuer-ID",
        "Steuer-IdNr",
        "Steueridentifikationsnummer",
        "IdNr",
        "Identifikationsnummer",
        "steuerliche Identifikationsnummer",
        "TIN",
    ),
    "de.stnr": ("Steuernummer", "St.-Nr.", "StNr"),
    "dk.cpr": ("CPR", "CPR-nummer", "personnummer"),
    "ec.ci": ("cédula", "cedula", "cédula de identidad"),
    "ee.ik": ("isikukood", "personal code"),
    "es.dni": ("DNI", "D.N.I.", "documento nacional de identidad", "NIF", "N.I.F."),
    "es.nie": ("NIE", "N.I.E.", "número de identidad de extranjero", "NIF"),
    "es.nif": ("NIF", "N.I.F.", "número de identificación fiscal"),
    "fi.hetu": ("HETU", "henkilötunnus", "henkilötunnukseni", "personbeteckning"),
    "fr.nir": (
        "NIR",
        "numéro de sécurité sociale",
        "n° de sécurité sociale",
        "sécurité sociale",
        "numéro INSEE",
        "carte vitale",
        "NSS",
    ),
    "fr.nif": ("numéro fiscal", "numéro d'identification fiscale", "SPI"),
    "gr.amka": ("ΑΜΚΑ", "AMKA"),
    "hr.oib": ("OIB",),
    "id.nik": ("NIK", "KTP"),
    "ie.pps": ("PPS", "PPSN", "PPS number", "personal public service"),
    "il.idnr": ("תעודת זהות", "מספר זהות", "teudat zehut", "Israeli ID"),
    "is_.kennitala": ("kennitala", "kt."),
    "it.codicefiscale": ("codice fiscale", "cod. fisc.", "C.F.", "CF", "tessera sanitaria"),
    "jp.in_": ("マイナンバー", "個人番号", "my number", "My Number", "マイナンバーカード"),
    "kr.rrn": ("주민등록번호", "주민번호", "RRN", "resident registration number"),
    "lt.asmens": ("asmens kodas", "asmens kodą"),
    "mu.nid": ("NID", "national identity card"),
    "mx.curp": ("CURP",),
    "mx.rfc": ("RFC", "registro federal de contribuyentes"),
    "my.nric": ("NRIC", "MyKad", "IC number", "No. K/P", "kad pengenalan"),
    "nl.bsn": ("BSN", "burgerservicenummer", "sofinummer", "sofi-nummer"),
    "no.fodselsnummer": ("fødselsnummer", "fodselsnummer", "personnummer"),
    "pe.cui": ("DNI", "CUI"),
    "pk.cnic": ("CNIC", "NIC", "شناختی کارڈ"),
    "pl.pesel": ("PESEL", "numer PESEL"),
    "pt.cc": ("cartão de cidadão", "cartao de cidadao", "CC"),
    "pt.nif": ("NIF", "contribuinte", "número de contribuinte"),
    "ro.cnp": ("CNP", "cod numeric personal"),
    "ru.inn": ("ИНН", "INN"),
    "se.personnummer": ("personnummer", "personnumret", "personnr"),
    "si.emso": ("EMŠO", "EMSO"),
    "sk.rc": ("rodné číslo", "RČ"),
    "th.pin": ("เลขประจำตัวประชาชน", "Thai ID"),
    "tr.tckimlik": (
        "TC Kimlik",
        "T.C. Kimlik",
        "TC kimlik no",
        "TCKN",
        "kimlik numarası",
        "T.C. No",
        "TC No",
    ),
    "ua.rntrc": ("РНОКПП", "ІПН", "ідентифікаційний код", "RNOKPP"),
    "za.idnr": ("ID number", "identity number", "SA ID"),
}
# Formats unique enough, with their check digits or date, to need no label.
_STRONG_SHAPES: dict[str, str] = {
    "cn.ric": r"[1-8]\d{5}(?:19|20)\d{9}[\dX]",
    "it.codicefiscale": r"[A-Z]{6}[\dLMNP-V]{2}[ABCDEHLMPRST][\dLMNP-V]{2}[A-Z][\dLMNP-V]{3}[A-Z]",
    "mx.curp": r"[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z\d]\d",
    "es.dni": r"\d{8}-?[A-Z]",
    "es.nie": r"[XYZ]-?\d{7}-?[A-Z]",
    "br.cpf": r"\d{3}\.\d{3}\.\d{3}-\d{2}",
    "kr.rrn": r"\d{6}-\d{7}",
    "fr.nir": r"[1-478] \d{2} \d{2} (?:\d{2}|2[AB]) \d{3} \d{3}(?: \d{2})",
    "fi.hetu": r"\d{6}[-+A-FU-Y]\d{3}[\dA-Y]",
    "ch.ssn": r"756\.\d{4}\.\d{4}\.\d{2}",
    "be.nn": r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}",
    "pt.cc": r"\d{8} ?\d ?[A-Z]{2}\d",
    "cl.rut": r"\d{1,2}\.\d{3}\.\d{3}-[\dK]",
    "ar.cuit": r"2[0347]-\d{8}-\d",
    "pk.cnic": r"\d{5}-\d{7}-\d",
    "my.nric": r"\d{6}-\d{2}-\d{4}",
}
# Short or generic words in stdnum's descriptions that are no label by themselves.
_GENERIC = frozenset(
    {
        "id number",
        "identity number",
        "tax registration number",
        "ric no.",
        "nric no.",
        "cnic number",
        "ruc number",
        "company number",
        "postcode",
        "lithuanian",
    }
)
# Brazil's RG has no national check digit (stdnum has no module): its label and format only.
_RG = labelled(
    NATIONAL_ID,
    "RG|registro geral|carteira de identidade",
    r"(?-i:\bRG\b)|\bregistro\s+geral\b|\bcarteira\s+de\s+identidade\b",
    r"\d{1,2}\.\d{3}\.\d{3}-?[\dX]|\d{7,9}-[\dX]",
    score=0.8,
)
# Between a label and its value: "CPF do cliente: 123.456.789-09", "DNI nº 12345678Z".
_WINDOW = 40
# Letters and digits in groups joined by up to three separators ("830005997 - 1",
# "156 / 141 / 14808"); across a space only to a group with a digit soon or one or two capitals
# ("12345678 Z"), so prose after a number stays out. The boundaries are ASCII, as CJK text runs
# on without spaces. It starts at a digit or at letters a digit follows soon ("RSSMRA85…",
# "A-700555-R"); the first character is matched before the look-behind so the scan can skip
# to candidates.
_CANDIDATE = re.compile(
    r"(?:\d|[A-Za-z](?=[A-Za-z]{0,7}[ .\-/]{0,3}\d))(?<![A-Za-z\d.\-/].)"
    r"(?:[A-Za-z\d]|[.\-/\u2013\u2014]{1,3}(?=[A-Za-z\d])"
    r"|[ .\-/\u2013\u2014]{1,3}(?=[A-Za-z]{0,3}\d|[A-Z]{1,2}(?![A-Za-z\d])))*"
)
_DIGIT_COUNT = 5
_FIVE_DIGITS = re.compile(r"\d(?:\D*\d){4}")
_MAX_GROUPS = 8


@dataclass(frozen=True, slots=True)
class Scheme:
    """One stdnum module for a person's number: its entity type and the words that label it."""

    module: str
    kind: str
    labels: tuple[str, ...]

    def valid(self, candidate: str) -> bool:
        """True if the module's ``is_valid`` accepts ``candidate``."""
        try:
            return bool(_import(self.module).is_valid(candidate))
        except Exception:  # a validator's bug on odd input is a rejection
            return False


@functools.cache
def _import(module: str) -> Any:
    return importlib.import_module(f"stdnum.{module}")


def personal_kind(module: str, description: str) -> str | None:
    """``NATIONAL_ID``, ``TAX_ID`` or None (not a person's number) for a stdnum module."""
    if module in _ALSO_PERSONAL:
        return _ALSO_PERSONAL[module]
    if _NOT_PERSONAL.search(description):
        return None
    if _TAX.search(description):
        return TAX_ID
    return NATIONAL_ID if _PERSONAL.search(description) else None


def description_labels(description: str) -> list[str]:
    """The abbreviations before the brackets of a stdnum description and the native name that
    opens them: "CPF (Cadastro de Pessoas Físicas, …)" gives "CPF", "Cadastro de Pessoas Físicas".
    """
    head, _, rest = description.partition("(")
    parts = re.split(r",| or ", head)
    if rest:
        parts.append(rest.split(",")[0].rstrip(").").strip())
    labels = []
    for part in parts:
        label = part.strip().strip('"').rstrip(".").strip().removeprefix("sometimes ")
        if label.casefold() in _GENERIC or len(label) < 3 or label.isdigit():
            continue
        labels.append(label)
    return labels


@functools.cache
def schemes() -> tuple[Scheme, ...]:
    """Every stdnum country module for a person's number, with its labels (imported once)."""
    import stdnum

    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for country in pkgutil.iter_modules(stdnum.__path__):
            if not country.ispkg or len(country.name.rstrip("_")) != 2:
                continue
            if country.name in _OWN_TYPES:
                continue
            package = importlib.import_module(f"stdnum.{country.name}")
            for sub in pkgutil.iter_modules(package.__path__):
                name = f"{country.name}.{sub.name}"
                module = _import(name)
                if not hasattr(module, "is_valid"):
                    continue
                description = (module.__doc__ or "").strip().split("\n")[0]
                kind = personal_kind(name, description)
                if kind is None:
                    continue
                labels = [*description_labels(description), *_EXTRA_LABELS.get(name, ())]
                found.append(Scheme(name, kind, tuple(dict.fromkeys(labels))))
    return tuple(found)


# A label ends where Latin letters and digits do: "RRN는", "CPF:" (CJK text runs on).
_LATIN = "A-Za-z0-9\u00c0-\u024f"


def _label_source(label: str) -> str:
    # The first character comes before the look-behind that checks what precedes it, so the
    # regex engine can skip ahead to that character.
    first, rest = re.escape(label[0]), re.escape(label[1:]).replace(r"\ ", r"\s+")
    source = first + (rf"(?<![{_LATIN}.].)" if label[0].isascii() and label[0].isalnum() else "")
    source += rest
    if label[-1].isascii() and label[-1].isalnum():
        source += rf"(?![{_LATIN}])"
    return source


@dataclass(frozen=True, slots=True)
class _Label:
    """A label's pattern, the word it starts with (looked up before the pattern is run) and
    the schemes it names.
    """

    label: str
    source: str  # compiled on first use: most labels never occur
    flags: int
    first_word: str  # folded; "" for labels of scripts written without spaces ("身份证号")
    substring: str  # what the text must hold for the pattern to be worth running
    schemes: tuple[Scheme, ...]


# Latin words apart from the other scripts' ("お客様のmy number" holds "my").
_WORD = re.compile(r"[a-z\u00c0-\u024f]+|[^\W\d_a-z\u00c0-\u024f]+")
_UNSPACED = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")


def _is_abbreviation(label: str) -> bool:
    return not any(c.islower() for c in label)


@functools.cache
def _labels() -> tuple[_Label, ...]:
    by_label: dict[str, list[Scheme]] = {}
    for scheme in schemes():
        for label in scheme.labels:
            # lower(), not casefold(): the text is lowered, and casefold() turns "ς" into "σ"
            key = label if _is_abbreviation(label) else label.lower()
            by_label.setdefault(key, []).append(scheme)
    labels = []
    for key, members in by_label.items():
        flags = 0 if _is_abbreviation(key) else re.I
        words = _WORD.findall(key.lower())
        unspaced = bool(_UNSPACED.search(key)) or not words
        labels.append(
            _Label(
                key,
                _label_source(key),
                flags,
                "" if unspaced else words[0],
                key if unspaced else "",
                # An identity card's label ("cédula") names the identity number before the
                # tax number a valid value may also be.
                tuple(sorted(members, key=lambda m: m.kind != NATIONAL_ID)),
            )
        )
    return tuple(labels)


@functools.cache
def label_words() -> frozenset[str]:
    """Every word of every label, lowercase ("codice", "fiscale", "cédula", "persona")."""
    return frozenset(w for label in _labels() for w in _WORD.findall(label.label.lower()))


@functools.cache
def _compile(source: str, flags: int) -> re.Pattern[str]:
    return re.compile(source, flags)


@functools.cache
def _strong() -> tuple[tuple[re.Pattern[str], Scheme], ...]:
    modules = {s.module: s for s in schemes()}
    return tuple(
        (re.compile(shape), modules[module])
        for module, shape in _STRONG_SHAPES.items()
        if module in modules
    )


def find_national_ids(text: str) -> Iterator[PiiEntity]:
    """National identity and personal tax numbers: after a label of their scheme, validated by
    its stdnum module; without one only in a format unique to the scheme.
    """
    if _FIVE_DIGITS.search(text) is None:
        return
    yield from _unlabelled(text)
    words = set(_WORD.findall(lower(text)))
    # One number after labels of several schemes ("Cédula de Persona Física 303760289", where
    # "cédula" is also Colombia's): the longest label names it.
    best: dict[tuple[int, int], tuple[int, PiiEntity]] = {}
    for label in _labels():
        if label.first_word not in words if label.first_word else label.substring not in text:
            continue
        for m in _compile(label.source, label.flags).finditer(text):
            found = _after_label(text, m.end(), label.schemes)
            if found is not None:
                span, size = (found.begin, found.end), m.end() - m.start()
                if span not in best or best[span][0] < size:
                    best[span] = (size, found)
    for _, entity in best.values():
        yield entity
    yield from _RG.find(text)


def _unlabelled(text: str) -> Iterator[PiiEntity]:
    """Numbers in a format unique to their scheme, whole runs or runs of their groups."""
    strong = _strong()
    for m in _CANDIDATE.finditer(text):
        run = m.group()
        if sum(c.isdigit() for c in run) < _DIGIT_COUNT:
            continue
        for begin, stop in _sub_runs(run):
            value = run[begin:stop]
            hit = next((s for p, s in strong if p.fullmatch(value) and s.valid(value)), None)
            if hit is not None:
                yield PiiEntity(hit.kind, m.start() + begin, m.start() + stop, 0.85)
                break


def _after_label(text: str, end: int, candidates: tuple[Scheme, ...]) -> PiiEntity | None:
    """The first number within ``_WINDOW`` characters after a label, if one of the label's
    schemes accepts it (whole, or a run of its space-separated groups).
    """
    if not candidates:
        return None
    window = text[end : end + _WINDOW + 30]
    for m in _CANDIDATE.finditer(window):
        if m.start() > _WINDOW:
            return None
        if sum(c.isdigit() for c in m.group()) < _DIGIT_COUNT:
            continue
        for begin, stop in _sub_runs(m.group()):
            value = m.group()[begin:stop]
            for scheme in candidates:
                if scheme.valid(value):
                    start = end + m.start() + begin
                    return PiiEntity(scheme.kind, start, start + len(value), 0.85)
        return None  # only the first number after a label is its value
    return None


def _trimmed(run: str, begin: int, end: int) -> tuple[int, int]:
    """``run[begin:end]`` without the punctuation it starts or ends with."""
    while begin < end and not run[begin].isalnum():
        begin += 1
    while end > begin and not run[end - 1].isalnum():
        end -= 1
    return begin, end


def _sub_runs(run: str) -> list[tuple[int, int]]:
    """Spans of ``run`` made of whole space-separated groups, the longest first."""
    groups = [_trimmed(run, m.start(), m.end()) for m in re.finditer(r"[^ ]+", run)]
    # A group of punctuation alone ("-") joins no number; a sentence's full stop after one ends
    # it ("RSSMRA85T10A562S. TC": the number is the first group, without its stop).
    groups = [g for g in groups[:_MAX_GROUPS] if g[1] > g[0]]
    spans = [
        (groups[i][0], groups[j][1]) for i in range(len(groups)) for j in range(i, len(groups))
    ]
    return sorted(spans, key=lambda s: (s[0] - s[1], s[0]))
