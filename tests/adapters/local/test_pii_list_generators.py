"""The generator of the word lists (``tools/pii_lists/make_words.py``), on a tiny SCOWL folder
written here.
"""

from __future__ import annotations

from pathlib import Path

from tools.pii_lists import make_words


def _scowl(folder: Path, lists: dict[str, str]) -> Path:
    for name, words in lists.items():
        (folder / name).write_text("\n".join(words.split()) + "\n", encoding="latin-1")
    return folder


def test_levels_group_sizes_and_drop_names_inflections_and_proper_nouns(tmp_path: Path) -> None:
    # Given SCOWL lists of several sizes, with census names (a given name, a frequent and a
    # rare surname), an inflection, a capitalised entry, a possessive and a word above the
    # spell-checking size
    scowl = _scowl(
        tmp_path,
        {
            "english-words.10": "the cat",
            "english-words.20": "dog the",
            "english-words.35": "cats lantern baker reef",
            "english-words.50": "hummus hummuses mary Paris cat's",
            "american-words.60": "moisturizer",
            "english-words.70": "zyzzyva",
        },
    )
    # When the levels are made
    levels = make_words.levels(scowl)
    # Then each size's words appear once, at the first level that holds them
    assert levels["LEVEL_10"] == {"the", "cat"}
    assert levels["LEVEL_20"] == {"dog"}
    # and an inflection of a listed word ("cats", "hummuses") is left to the lookup's stemming,
    # a surname the census finds in 0.001% of people ("baker") to the name lists, while one it
    # rounds to 0.000% ("reef") stays a word
    assert levels["LEVEL_35"] == {"lantern", "reef"}
    # and sizes 40 to 60 of both spellings form LEVEL_60, less census names and proper nouns
    assert levels["LEVEL_60"] == {"hummus", "moisturizer"}


def test_main_writes_data_files_whose_levels_read_back(tmp_path: Path) -> None:
    # Given a tiny SCOWL folder
    scowl = _scowl(tmp_path, {"english-words.10": "the", "english-words.55": "titanium"})
    # When the data files are generated
    files = make_words.main(scowl)
    # Then each holds its level's words below a commented header
    values = {
        name: {w for line in text.splitlines() if not line.startswith("#") for w in line.split()}
        for name, text in files.items()
    }
    assert values == {
        "words-level-10.txt": {"the"},
        "words-level-20.txt": set(),
        "words-level-35.txt": set(),
        "words-level-60.txt": {"titanium"},
        "words-proper-60.txt": set(),
    }
    assert all(text.startswith("# Common English words") for text in files.values())


def test_proper_words_are_peoples_faiths_and_periods_not_one_persons_name(tmp_path: Path) -> None:
    # Given SCOWL upper lists with demonyms and a faith's adherents (listed with plurals), an
    # abstract noun and an adjective (no plural), a person's name with the same ending as a
    # demonym (no plural), a given name, and a word above the spell-checking size
    scowl = _scowl(
        tmp_path,
        {
            "english-upper.35": "Hawaiian Hawaiians Buddhist Buddhists Jewish Christianity",
            "english-upper.50": "Alaric Titian Victorian Victorians Christian Christians",
            "english-upper.70": "Ruritanian Ruritanians",
        },
    )
    # When the levels are made
    levels = make_words.levels(scowl)
    # Then the peoples, faiths, periods and -ish/-ism/-ity words are listed, lowercase; not the
    # names without a plural, nor a census given name ("Christian"), nor size 70
    assert levels["PROPER_60"] == {"hawaiian", "buddhist", "jewish", "christianity", "victorian"}
