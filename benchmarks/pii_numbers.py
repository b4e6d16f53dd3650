"""National identifiers, phone numbers by region and over-scrubbing of non-English text.

Corpora nobody here wrote, read at run time from paths given as arguments, never committed:

1. National identity and personal tax numbers: the numbers in python-stdnum's own tests
   (``tests/*.doctest`` of github.com/arthurdejong/python-stdnum) and its modules' docstrings,
   for every scheme ``national_ids.schemes()`` reads. A number its module accepts is a positive,
   set in a sentence of the country's language twice: after one of the scheme's labels (they
   take turns) and with no label (only the formats unique to a scheme are expected then). A
   number every personal module of its country rejects (the tests' invalid numbers, and each
   valid one with its last character changed) is a look-alike that must be kept, set after
   the label. Numbers are split by a hash: even = dev (the half looked at while tuning),
   odd = held out.
2. Phone numbers of declared regions: fixed and mobile numbers built from libphonenumber's
   prefix files (``resources/geocoding/en`` area codes and ``resources/carrier/en`` mobile
   prefixes of github.com/google/libphonenumber), filled up to a valid number of the region
   (``phonenumbers.is_valid_number``), printed in the national format and as bare digits, in
   a sentence of the region's language without a phone word, scanned by a detector declared
   for that region; then with a phone word and no region declared. Order numbers of the same
   lengths after an order word must be kept.
3. Over-scrubbing of non-English technical text: the ``msgstr`` of the Python documentation's
   translations (``.po`` files of github.com/python/python-docs-fr, -es, -ja), files split by
   hash into dev and held out: the share of characters scrubbed, by type.

    python benchmarks/pii_numbers.py --stdnum-tests PATH/tests --libphonenumber PATH/resources \
        --po fr=PATH es=PATH ja=PATH --out benchmarks/results/pii_numbers.json [--show-errors dev]

``--show-errors`` prints that split's misses, look-alikes found and over-scrubbed strings to
stdout only; the results files hold counts, no sentence or string of the corpora.
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import sys
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import phonenumbers  # noqa: E402

from agent_memory.adapters.local.pii import LocalPiiDetector  # noqa: E402
from agent_memory.adapters.local.pii.national_ids import Scheme, schemes  # noqa: E402
from agent_memory.core.ports import PiiEntity  # noqa: E402
from benchmarks.results_file import write_results  # noqa: E402

LANGUAGE = {
    **dict.fromkeys("de at ch li".split(), "de"),
    **dict.fromkeys("fr be lu mc dz tn ma sn gn".split(), "fr"),
    **dict.fromkeys("es ar cl co mx pe ec do cr cu gt py uy ve sv".split(), "es"),
    **dict.fromkeys("br pt mz".split(), "pt"),
    **dict.fromkeys("it sm".split(), "it"),
    "nl": "nl",
    "pl": "pl",
    "jp": "ja",
    **dict.fromkeys("cn tw".split(), "zh"),
    "kr": "ko",
    "tr": "tr",
    **dict.fromkeys("ru by kz".split(), "ru"),
    "ua": "ru",
    "se": "sv",
    **dict.fromkeys("dk no".split(), "da"),
}
# (labelled, unlabelled) sentences per language; {label} and {number} are filled in.
SENTENCES = {
    "de": (
        "Bitte tragen Sie Ihre {label} {number} in das Formular ein.",
        "Die Angabe {number} wurde gestern vom Amt geprüft und ist korrekt.",
    ),
    "fr": (
        "Merci d'indiquer votre {label} : {number} sur le formulaire.",
        "Le dossier porte la mention {number} depuis la semaine dernière.",
    ),
    "es": (
        "El cliente facilitó su {label} {number} para la factura.",
        "En el expediente figura {number} desde la semana pasada.",
    ),
    "pt": (
        "O cliente informou o {label} {number} no cadastro.",
        "No processo consta {number} desde a semana passada.",
    ),
    "it": (
        "Il cliente ha indicato il {label} {number} nel modulo.",
        "Nella pratica risulta {number} dalla settimana scorsa.",
    ),
    "nl": (
        "De klant gaf zijn {label} {number} op het formulier.",
        "In het dossier staat {number} sinds vorige week.",
    ),
    "pl": (
        "Klient podał {label} {number} w formularzu.",
        "W aktach widnieje {number} od zeszłego tygodnia.",
    ),
    "ja": ("お客様の{label}は{number}です。", "書類には{number}と記載されています。"),
    "zh": ("客户的{label}是{number}。", "文件上写着{number}。"),
    "ko": ("고객의 {label}는 {number}입니다.", "서류에는 {number}라고 적혀 있습니다."),
    "tr": (
        "Müşteri {label} {number} bilgisini forma yazdı.",
        "Dosyada {number} kaydı geçen haftadan beri duruyor.",
    ),
    "ru": (
        "Клиент указал {label} {number} в анкете.",
        "В деле значится {number} с прошлой недели.",
    ),
    "sv": (
        "Kunden angav {label} {number} i formuläret.",
        "I ärendet står {number} sedan förra veckan.",
    ),
    "da": (
        "Kunden oplyste {label} {number} i formularen.",
        "I sagen står {number} siden sidste uge.",
    ),
    "en": (
        "The customer gave their {label} {number} on the form.",
        "The file has shown {number} since last week.",
    ),
}
PHONE_SENTENCES = {
    "de": (
        "Die Zentrale ist unter {number} besetzt.",
        "Telefon: {number}",
        "Bestellnummer {number}",
    ),
    "fr": ("Le secrétariat répond au {number} le matin.", "Tél. : {number}", "Commande {number}"),
    "es": (
        "La oficina atiende en el {number} por la mañana.",
        "Teléfono: {number}",
        "Pedido {number}",
    ),
    "pt": (
        "A secretaria atende no {number} pela manhã.",
        "WhatsApp do cliente: {number}",
        "Pedido {number}",
    ),
    "it": (
        "La segreteria risponde al {number} la mattina.",
        "Telefono: {number}",
        "Ordine {number}",
    ),
    "nl": (
        "Het secretariaat is bereikbaar op {number} in de ochtend.",
        "Telefoon: {number}",
        "Bestelling {number}",
    ),
    "pl": ("Sekretariat odbiera pod {number} rano.", "Telefon: {number}", "Zamówienie {number}"),
    "ja": ("事務所は{number}で午前中に対応します。", "電話: {number}", "注文番号 {number}"),
    "zh": ("办公室的号码是{number}，上午有人。", "电话：{number}", "订单 {number}"),
    "ko": ("사무실은 {number}에서 오전에 응대합니다.", "전화: {number}", "주문 {number}"),
    "tr": (
        "Sekreterlik sabahları {number} üzerinden yanıt veriyor.",
        "Telefon: {number}",
        "Sipariş {number}",
    ),
    "ru": ("Секретарь отвечает по {number} утром.", "Телефон: {number}", "Заказ {number}"),
    "sv": ("Kansliet svarar på {number} på förmiddagen.", "Telefon: {number}", "Order {number}"),
    "en": (
        "The front desk answers on {number} in the morning.",
        "Phone: {number}",
        "Order {number}",
    ),
}
PHONE_REGIONS = (
    "DE",
    "AT",
    "CH",
    "FR",
    "BE",
    "ES",
    "MX",
    "AR",
    "BR",
    "PT",
    "IT",
    "NL",
    "PL",
    "JP",
    "CN",
    "KR",
    "TR",
    "RU",
    "SE",
    "GB",
    "US",
    "IN",
)
REGION_LANGUAGE = {
    "AT": "de",
    "CH": "de",
    "BE": "fr",
    "MX": "es",
    "AR": "es",
    "BR": "pt",
    "GB": "en",
    "US": "en",
    "IN": "en",
    "SE": "sv",
    "JP": "ja",
    "CN": "zh",
    "KR": "ko",
}
PHONES_PER_REGION = 120
MAX_PER_SCHEME = 150
_LITERAL = re.compile(r"""(?:validate|is_valid|check|compact|format)\(\s*['"]([^'"]{5,40})['"]""")
_BLOCK = re.compile(r">>> numbers = '''\n(.*?)'''", re.S)


def split_of(key: str) -> str:
    return "dev" if zlib.crc32(key.encode()) % 2 == 0 else "held_out"


# --- national identifiers -------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One sentence with its gold span (None for a look-alike that must be kept)."""

    scheme: Scheme
    text: str
    gold: tuple[int, int] | None
    labelled: bool
    split: str


def literals(source: str) -> Iterator[str]:
    for block in _BLOCK.findall(source):
        for line in block.splitlines():
            value = line.removeprefix("...").strip()
            if value and sum(c.isalnum() for c in value) >= 5:
                yield value
    yield from _LITERAL.findall(source)


def sentence(language: str, labelled: bool, label: str, number: str) -> tuple[str, tuple[int, int]]:
    template = SENTENCES[language][0 if labelled else 1]
    before, _, after = template.partition("{number}")
    head = before.format(label=label)
    return head + number + after.format(label=label), (len(head), len(head) + len(number))


def identifier_cases(tests: Path) -> list[Case]:
    by_country: dict[str, list[Scheme]] = defaultdict(list)
    for scheme in schemes():
        by_country[scheme.module.split(".")[0]].append(scheme)
    cases: list[Case] = []
    rng = random.Random(7)
    sharing: dict[str, set[Scheme]] = defaultdict(set)
    for scheme in schemes():
        for label in scheme.labels:
            sharing[label.casefold()].add(scheme)
    for country, members in sorted(by_country.items()):
        language = LANGUAGE.get(country.rstrip("_"), "en")
        for scheme in members:
            # A look-alike is rejected by every scheme of its country and every scheme that
            # shares a label with it ("NIT" is Colombia's, Guatemala's and El Salvador's).
            rivals = set(members).union(*(sharing[label.casefold()] for label in scheme.labels))
            module = importlib.import_module(f"stdnum.{scheme.module}")
            doctest = tests / f"test_{scheme.module.replace('.', '_').rstrip('_')}.doctest"
            source = (module.__doc__ or "") + (doctest.read_text() if doctest.exists() else "")
            valid, invalid = [], []
            for value in dict.fromkeys(literals(source)):
                if scheme.valid(value):
                    valid.append(value)
                elif (
                    not any(s.valid(value) for s in rivals) and sum(c.isdigit() for c in value) >= 5
                ):
                    invalid.append(value)
            valid = valid[:MAX_PER_SCHEME]
            for value in valid:
                changed = value[:-1] + rng.choice([c for c in "0123456789" if c != value[-1]])
                if not any(s.valid(changed) for s in rivals):
                    invalid.append(changed)
            for n, value in enumerate(valid):
                label = scheme.labels[n % len(scheme.labels)]
                for labelled in (True, False):
                    text, gold = sentence(language, labelled, label, value)
                    cases.append(Case(scheme, text, gold, labelled, split_of(value)))
            for n, value in enumerate(dict.fromkeys(invalid)):
                label = scheme.labels[n % len(scheme.labels)]
                text, _ = sentence(language, True, label, value)
                cases.append(Case(scheme, text, None, True, split_of(value)))
    return cases


def score_identifiers(cases: list[Case], show: str | None) -> dict[str, Any]:
    detector = LocalPiiDetector()
    rows: dict[tuple[str, str, str, str], Counter[str]] = defaultdict(Counter)
    for case in cases:
        found = [e for e in detector.detect(case.text) if e.type in ("NATIONAL_ID", "TAX_ID")]
        country = case.scheme.module.split(".")[0].rstrip("_").upper()
        kind = case.scheme.kind
        form = "labelled" if case.labelled else "unlabelled"
        if case.gold is None:
            row = rows[(kind, country, "look-alike", case.split)]
            row["lookalikes"] += 1
            row["kept"] += not found
            if found and show == case.split:
                print("LOOK-ALIKE FOUND", case.scheme.module, case.text)
            continue
        row = rows[(kind, country, form, case.split)]
        row["gold"] += 1
        hit = [
            e for e in found if e.begin < case.gold[1] and case.gold[0] < e.end and e.type == kind
        ]
        row["found"] += bool(hit)
        row["predicted"] += len(found)
        row["correct"] += len(hit)
        if not hit and show == case.split and case.labelled:
            print("MISSED", case.scheme.module, case.text)
    return {"|".join(k): dict(v) for k, v in sorted(rows.items())}


# --- phone numbers ---------------------------------------------------------------------------


def prefixes(resources: Path, code: int, kind: str) -> list[str]:
    path = resources / kind / "en" / f"{code}.txt"
    if not path.exists():
        return []
    return [
        line.split("|")[0][len(str(code)) :]
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and line[0].isdigit()
    ]


def region_numbers(
    resources: Path, region: str, rng: random.Random
) -> list[phonenumbers.PhoneNumber]:
    code = phonenumbers.country_code_for_region(region)
    found: dict[str, phonenumbers.PhoneNumber] = {}
    pool = [p for kind in ("geocoding", "carrier") for p in prefixes(resources, code, kind)]
    rng.shuffle(pool)
    for prefix in pool:
        if len(found) >= PHONES_PER_REGION:
            break
        lengths = list(range(len(prefix) + 3, 13))
        rng.shuffle(lengths)  # the shortest valid length is the rarest in use
        for length in lengths:
            national = prefix + "".join(
                rng.choice("0123456789") for _ in range(length - len(prefix))
            )
            number = phonenumbers.parse(f"+{code}{national}")
            if (
                phonenumbers.is_valid_number(number)
                and phonenumbers.region_code_for_number(number) == region
                and phonenumbers.number_type(number)
                in (
                    phonenumbers.PhoneNumberType.FIXED_LINE,
                    phonenumbers.PhoneNumberType.MOBILE,
                    phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
                )
            ):
                found[national] = number
                break
    return list(found.values())


def _covers(found: list[PiiEntity], text: str, value: str) -> bool:
    """True if a find overlaps ``value`` in ``text`` (a name elsewhere does not count)."""
    begin = text.index(value)
    return any(e.begin < begin + len(value) and begin < e.end for e in found)


def _valid_in(digits: str, region: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(digits, region))
    except phonenumbers.NumberParseException:
        return False


def score_phones(resources: Path, show: str | None) -> dict[str, Any]:
    rng = random.Random(11)
    plain = LocalPiiDetector()
    rows: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for region in PHONE_REGIONS:
        declared = LocalPiiDetector(regions=(region,))
        language = REGION_LANGUAGE.get(region, LANGUAGE.get(region.lower(), "en"))
        quiet, worded, order = PHONE_SENTENCES.get(language, PHONE_SENTENCES["en"])
        for number in region_numbers(resources, region, rng):
            printed = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
            bare = re.sub(r"\D", "", printed)
            split = split_of(bare)
            for form, value in (("national format", printed), ("bare digits", bare)):
                for condition, template, detector in (
                    ("declared, no phone word", quiet, declared),
                    ("phone word, none declared", worded, plain),
                ):
                    text = template.replace("{number}", value)
                    begin = text.index(value)
                    found = [
                        e
                        for e in detector.detect(text)
                        if e.type == "PHONE" and e.begin < begin + len(value) and begin < e.end
                    ]
                    row = rows[(region, f"{condition}, {form}", split)]
                    row["gold"] += 1
                    row["found"] += bool(found)
                    if not found and show == split:
                        print("MISSED PHONE", region, text)
            digits = "".join(rng.choice("0123456789") for _ in range(len(bare)))
            text = quiet.replace("{number}", digits)
            row = rows[(region, "random digits, declared, no word", split)]
            row["lookalikes"] += 1
            row["kept"] += not _covers(declared.detect(text), text, digits)
            row["valid"] += _valid_in(digits, region)
            text = order.replace("{number}", digits)
            row = rows[(region, "order number, declared", split)]
            row["lookalikes"] += 1
            kept = not _covers(declared.detect(text), text, digits)
            row["kept"] += kept
            if not kept and show == split:
                print("ORDER NUMBER FOUND", region, text)
    return {"|".join(k): dict(v) for k, v in sorted(rows.items())}


# --- over-scrubbing ---------------------------------------------------------------------------

_MSGSTR = re.compile(r'^msgstr "(.*)"\n((?:".*"\n)*)', re.M)


def msgstrs(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    parts = []
    for m in _MSGSTR.finditer(text):
        body = m.group(1) + "".join(line[1:-1] for line in m.group(2).splitlines())
        if body:
            parts.append(body.replace("\\n", "\n").replace('\\"', '"'))
    return "\n\n".join(parts)


def score_overscrub(corpora: dict[str, Path], limit: int, show: str | None) -> dict[str, Any]:
    detector = LocalPiiDetector()
    result: dict[str, Any] = {}
    for language, folder in corpora.items():
        for split in ("dev", "held_out"):
            chars = 0
            by_type: Counter[str] = Counter()
            examples: Counter[str] = Counter()
            for path in sorted(folder.rglob("*.po")):
                if split_of(str(path.relative_to(folder))) != split or chars >= limit:
                    continue
                text = msgstrs(path)
                for start in range(0, len(text), 50_000):
                    chunk = text[start : start + 50_000]
                    chars += len(chunk)
                    for e in detector.detect(chunk):
                        by_type[e.type] += e.end - e.begin
                        if e.type not in ("NAME",):
                            examples[f"{e.type}: {chunk[e.begin : e.end][:40]}"] += 1
            result[f"{language}|{split}"] = {
                "chars": chars,
                "scrubbed_share": sum(by_type.values()) / chars if chars else 0.0,
                "by_type": {k: v / chars for k, v in by_type.most_common()},
            }
            if show == split:  # to stdout only: the corpus's text stays out of the results
                for example, count in examples.most_common(12):
                    print("OVERSCRUB", language, count, example)
    return result


# --- report ------------------------------------------------------------------------------------


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "-"


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "# Local PII detector: national numbers, phones by region, non-English text",
        "",
        "Corpora nobody here wrote, read at run time (see `benchmarks/pii_numbers.py`).",
        "",
    ]
    ids = results.get("identifiers", {})
    if ids:
        lines += [
            "## National identity and personal tax numbers (python-stdnum's test numbers)",
            "",
            "| type | split | form | gold | recall | precision | look-alikes kept |",
            "|---|---|---|---|---|---|---|",
        ]
        totals: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
        for key, row in ids.items():
            kind, _country, form, split = key.split("|")
            totals[(kind, split, form)].update(row)
        for (kind, split, form), row in sorted(totals.items()):
            if form == "look-alike":
                lines.append(
                    f"| {kind} | {split} | look-alike after its label | - | - | - | "
                    f"{row['kept']} / {row['lookalikes']} |"
                )
            else:
                lines.append(
                    f"| {kind} | {split} | {form} | {row['gold']} | "
                    f"{_ratio(row['found'], row['gold'])} | "
                    f"{_ratio(row['correct'], row['predicted'])} | - |"
                )
        lines += [
            "",
            "Per country (labelled recall dev / held out; look-alikes kept):",
            "",
            "| type | country | recall dev | recall held out | unlabelled recall | "
            "look-alikes kept |",
            "|---|---|---|---|---|---|",
        ]
        countries: dict[tuple[str, str], dict[str, Counter[str]]] = defaultdict(
            lambda: defaultdict(Counter)
        )
        for key, row in ids.items():
            kind, country, form, split = key.split("|")
            bucket = form if form != "labelled" else f"labelled {split}"
            countries[(kind, country)][bucket].update(row)
        for (kind, country), b in sorted(countries.items()):
            dev, held, bare, look = (
                b["labelled dev"],
                b["labelled held_out"],
                b["unlabelled"],
                b["look-alike"],
            )
            lines.append(
                f"| {kind} | {country} | {_ratio(dev['found'], dev['gold'])} ({dev['gold']}) | "
                f"{_ratio(held['found'], held['gold'])} ({held['gold']}) | "
                f"{_ratio(bare['found'], bare['gold'])} | {look['kept']} / {look['lookalikes']} |"
            )
    phones = results.get("phones", {})
    if phones:
        lines += [
            "",
            "## Phone numbers by region (libphonenumber's prefixes, valid numbers)",
            "",
            "| region | condition | recall dev | recall held out | order numbers kept |",
            "|---|---|---|---|---|",
        ]
        table: dict[tuple[str, str], dict[str, Counter[str]]] = defaultdict(
            lambda: defaultdict(Counter)
        )
        for key, row in phones.items():
            region, condition, split = key.split("|")
            table[(region, condition)][split].update(row)
        for (region, condition), b in sorted(table.items()):
            if condition.startswith("random"):
                both = b["dev"] + b["held_out"]
                lines.append(
                    f"| {region} | {condition} (valid numbers of the region: {both['valid']}) "
                    f"| - | - | {both['kept']} / {both['lookalikes']} |"
                )
            elif condition.startswith("order"):
                both = b["dev"] + b["held_out"]
                lines.append(
                    f"| {region} | {condition} | - | - | {both['kept']} / {both['lookalikes']} |"
                )
            else:
                lines.append(
                    f"| {region} | {condition} | {_ratio(b['dev']['found'], b['dev']['gold'])} | "
                    f"{_ratio(b['held_out']['found'], b['held_out']['gold'])} | - |"
                )
    over = results.get("overscrub", {})
    if over:
        lines += [
            "",
            "## Over-scrubbing: Python documentation translations (msgstr)",
            "",
            "| language | split | characters | scrubbed | by type |",
            "|---|---|---|---|---|",
        ]
        for key, row in over.items():
            language, split = key.split("|")
            types = ", ".join(f"{k} {v:.4%}" for k, v in row["by_type"].items())
            lines.append(
                f"| {language} | {split} | {row['chars']:,} | {row['scrubbed_share']:.3%} "
                f"| {types} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stdnum-tests", type=Path, help="python-stdnum's tests folder")
    parser.add_argument("--libphonenumber", type=Path, help="libphonenumber's resources folder")
    parser.add_argument("--po", nargs="*", default=[], help="LANG=FOLDER of .po files")
    parser.add_argument("--po-chars", type=int, default=1_500_000, help="characters per split")
    parser.add_argument("--out", type=Path, help="JSON results; a .md beside it")
    parser.add_argument("--show-errors", choices=("dev", "held_out"))
    args = parser.parse_args()
    results: dict[str, Any] = {}
    started = time.perf_counter()
    if args.stdnum_tests:
        results["identifiers"] = score_identifiers(
            identifier_cases(args.stdnum_tests), args.show_errors
        )
    if args.libphonenumber:
        results["phones"] = score_phones(args.libphonenumber, args.show_errors)
    if args.po:
        corpora = {item.split("=", 1)[0]: Path(item.split("=", 1)[1]) for item in args.po}
        results["overscrub"] = score_overscrub(corpora, args.po_chars, args.show_errors)
    results["seconds"] = round(time.perf_counter() - started, 1)
    report = markdown(results)
    print(report)
    if args.out:
        write_results(args.out, results, report)


if __name__ == "__main__":
    main()
