"""The Russian names benchmark's reading and scoring on a tiny WikiNEuRal-format file written
here (no sentence of the real dataset), with its counts worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from agent_memory.core.ports import PiiEntity
from benchmarks import pii_russian_names as bench

CONLLU = (
    "0\tВчера\tO\n1\tИван\tB-PER\n2\tПетров\tI-PER\n3\tприехал\tO\n4\tв\tO\n"
    "5\tМоскву\tB-LOC\n6\t.\tO\n\n"
    "0\tАнна\tB-PER\n1\tи\tO\n2\tОлег\tB-PER\n3\tспят\tO\n\n"
)


def test_reads_sentences_as_tokens_joined_by_spaces_with_their_spans(tmp_path: Path) -> None:
    # Given a file of two sentences, one span of two tokens
    (tmp_path / "val.conllu").write_text(CONLLU, encoding="utf-8")
    # When it is read
    first, second = bench.read_conllu(tmp_path / "val.conllu")
    # Then each span covers its tokens in the joined text
    assert first.text == "Вчера Иван Петров приехал в Москву ."
    assert [(k, first.text[b:e]) for k, b, e in first.spans] == [
        ("PER", "Иван Петров"),
        ("LOC", "Москву"),
    ]
    assert [second.text[b:e] for _, b, e in second.spans] == ["Анна", "Олег"]


def test_scores_overlap_with_a_person_and_counts_false_positives_by_gold_type(
    tmp_path: Path,
) -> None:
    # Given the two sentences and a detector that finds "Петров", "Москву" and "Анна"
    (tmp_path / "val.conllu").write_text(CONLLU, encoding="utf-8")
    sentences = list(bench.read_conllu(tmp_path / "val.conllu"))

    def detect(text: str) -> list[PiiEntity]:
        words = [w for w in ("Петров", "Москву", "Анна") if w in text]
        return [PiiEntity("NAME", text.index(w), text.index(w) + len(w)) for w in words]

    # When scored
    score = bench.score_names(detect, sentences, show=False).as_dict()
    # Then 2 of 3 persons are found, 2 of 3 predictions are right, the wrong one on a place
    assert score["recall"] == round(2 / 3, 4)
    assert score["precision"] == round(2 / 3, 4)
    assert score["false_positives_on"] == {"LOC": 1}
