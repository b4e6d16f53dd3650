"""The national-number benchmark's readers on tiny inputs written here (no line of
python-stdnum's tests, libphonenumber's files or the documentation translations)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import pii_numbers


def test_literals_come_from_number_blocks_and_validate_calls() -> None:
    # Given a doctest in python-stdnum's layout: a block of numbers and a validate() call
    source = (
        ">>> validate('390.533.447-05')\n'39053344705'\n"
        ">>> numbers = '''\n...\n... 111.444.777-35\n... 1234\n... '''\n"
    )
    # When its literals are read / Then both numbers come out and the short one does not
    assert list(pii_numbers.literals(source)) == ["111.444.777-35", "390.533.447-05"]


def test_a_sentence_puts_the_number_where_its_gold_span_says() -> None:
    # Given a labelled and an unlabelled German sentence
    for labelled in (True, False):
        text, (begin, end) = pii_numbers.sentence("de", labelled, "Steuer-ID", "86095742719")
        # Then the gold span holds exactly the number, and the label only when asked for
        assert text[begin:end] == "86095742719"
        assert ("Steuer-ID" in text) is labelled


def test_msgstrs_joins_continued_lines_and_skips_empty_translations(tmp_path: Path) -> None:
    # Given a .po file with a two-line translation and an untranslated entry
    po = tmp_path / "a.po"
    po.write_text(
        'msgid "a"\nmsgstr ""\n"Bonjour "\n"le monde"\n\nmsgid "b"\nmsgstr ""\n',
        encoding="utf-8",
    )
    # When its translations are read / Then only the joined translation is kept
    assert pii_numbers.msgstrs(po) == "Bonjour le monde"


def test_the_split_is_a_stable_function_of_the_key() -> None:
    # Given the same key twice / Then it lands in the same split, one of the two
    assert pii_numbers.split_of("01310-100") == pii_numbers.split_of("01310-100")
    assert {pii_numbers.split_of(str(n)) for n in range(20)} == {"dev", "held_out"}
