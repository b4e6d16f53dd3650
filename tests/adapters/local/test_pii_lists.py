"""The generated lists ship as package data, each exactly as its generator writes it."""

from __future__ import annotations

import pytest

from agent_memory.adapters.local.pii.lists import read_list
from tools.pii_lists import make_country_names, make_places, make_words
from tools.pii_lists.data_files import DATA, data_file, wrapped

HEADERS = {
    **{name: make_words._HEADER for name in make_words.FILES.values()},
    "places-countries.txt": make_places._HEADER,
    "places-cities.txt": make_places._HEADER,
    "country-names.txt": make_country_names._HEADER,
}
SEPARATORS = {"places-countries.txt": " | ", "places-cities.txt": " | "}


def test_every_data_file_is_made_by_a_generator() -> None:
    assert sorted(p.name for p in DATA.glob("*.txt")) == sorted(HEADERS)


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_a_list_reads_back_as_its_generator_would_write_it(name: str) -> None:
    # Given a shipped list, read as the detector reads it
    body = read_list(name.removesuffix(".txt"))
    # When its entries are written again as its generator writes them
    if name == "country-names.txt":
        again = data_file(HEADERS[name], body)
    else:
        separator = SEPARATORS.get(name, " ")
        entries = {e.strip() for e in body.replace("\n", " ").split(separator.strip() or None)}
        again = data_file(HEADERS[name], wrapped(entries - {""}, separator))
    # Then the file is exactly that (its header names where it comes from and its licence)
    assert (DATA / name).read_text(encoding="utf-8") == again
