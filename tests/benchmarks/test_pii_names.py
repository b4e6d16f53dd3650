"""The multilingual names benchmark's readers and scoring on tiny files in each corpus' format,
written here (no sentence of the real corpora), with counts worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_memory.adapters.local.pii import LocalPiiDetector
from benchmarks import pii_names


def test_wikineural_rows_become_sentences_with_person_spans(tmp_path: Path) -> None:
    # Given a val file of two sentences in WikiNEuRal's columns (index, token, tag)
    folder = tmp_path / "data" / "wikineural" / "es"
    folder.mkdir(parents=True)
    rows = ["0\tHabló\tO", "1\tcon\tO", "2\tAna\tB-PER", "3\tRuiz\tI-PER", "4\t.\tO", ""]
    rows += ["0\tVive\tO", "1\ten\tO", "2\tLima\tB-LOC", ""]
    (folder / "val.conllu").write_text("\n".join(rows), encoding="utf-8")
    # When the dev split is read
    docs = list(pii_names.wikineural(tmp_path, "es", "dev"))
    # Then each sentence is its tokens joined by spaces, the person one span of both tokens
    assert [d.text for d in docs] == ["Habló con Ana Ruiz .", "Vive en Lima"]
    assert docs[0].spans == [(10, 18, "PER")]
    assert docs[1].spans == [(8, 12, "LOC")]


def test_resume_characters_are_joined_without_spaces(tmp_path: Path) -> None:
    rows = ["王 B-NAME", "小 M-NAME", "明 E-NAME", "， O", "男 O", ""]
    (tmp_path / "dev.char.bmes").write_text("\n".join(rows), encoding="utf-8")
    docs = list(pii_names.chinese_resume(tmp_path, "dev"))
    assert [(d.text, d.spans) for d in docs] == [("王小明，男", [(0, 3, "PER")])]


def test_japanese_pages_split_by_id_parity(tmp_path: Path) -> None:
    # Given one page with an even id and a person, one with an odd id
    items = [
        {"curid": "2", "text": "山田太郎は歌手。", "entities": [{"span": [0, 4], "type": "人名"}]},
        {"curid": "3", "text": "東京は都市。", "entities": [{"span": [0, 2], "type": "地名"}]},
    ]
    path = tmp_path / "ner.json"
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    # When both splits are read / Then the even page is dev, the odd one held out
    assert [d.spans for d in pii_names.japanese(path, "dev")] == [[(0, 4, "PER")]]
    assert [d.spans for d in pii_names.japanese(path, "held_out")] == [[(0, 2, "地名")]]


def test_score_counts_found_people_and_false_positives_on_other_entities() -> None:
    # Given one sentence whose person is found and whose place is also taken for a person
    text = "Firmó Ana Ruiz en Zorvath ."
    person, place = text.index("Ana Ruiz"), text.index("Zorvath")
    docs = iter([pii_names.Doc(text, [(person, person + 8, "PER"), (place, place + 7, "LOC")])])
    # When it is scored
    tally = pii_names.score(LocalPiiDetector(), docs)
    # Then the person counts as found and the place as a false positive on another entity
    assert (tally.gold, tally.found, tally.predicted, tally.correct) == (1, 1, 2, 1)
    assert tally.on_other_entity == 1


def test_po_texts_keep_only_the_translations(tmp_path: Path) -> None:
    # Given a .po file with a header, one single-line and one continued translation
    po = tmp_path / "a.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: es\\n"\n\n'
        'msgid "Return the value."\nmsgstr "Devuelve el valor."\n\n'
        'msgid "Two lines"\nmsgstr ""\n"Primera línea "\n"y segunda."\n',
        encoding="utf-8",
    )
    # When its texts are read / Then the source strings are left out
    assert (
        pii_names.po_texts(po) == "Language: es\n\n\nDevuelve el valor.\n\nPrimera línea y segunda."
    )
