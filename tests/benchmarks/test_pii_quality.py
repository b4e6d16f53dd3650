"""The PII quality benchmark's scoring on a tiny dataset in presidio-research's format, written
here (no sentence of the real dataset), with its counts worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_memory.adapters.local.pii import LocalPiiDetector
from benchmarks import pii_quality


def _sample(text: str, template: int, *spans: tuple[str, str]) -> dict[str, object]:
    return {
        "full_text": text,
        "template_id": template,
        "spans": [
            {
                "entity_type": kind,
                "entity_value": value,
                "start_position": text.index(value),
                "end_position": text.index(value) + len(value),
            }
            for kind, value in spans
        ],
    }


def test_scores_by_template_parity_and_counts_names_on_companies(tmp_path: Path) -> None:
    # Given one dev sample with a person and an email, one held-out sample whose person is
    # missed, one dev sample whose company is labelled ORGANIZATION but reads as a name, and
    # one held-out sample whose street reads as a name
    data = tmp_path / "synth.json"
    samples = [
        _sample(
            "Please ask Priya Sharma at priya@example.com.",
            2,
            ("PERSON", "Priya Sharma"),
            ("EMAIL_ADDRESS", "priya@example.com"),
        ),
        _sample("Ask zq about it, OK?", 3, ("PERSON", "zq")),
        _sample("Contact Grace Hopper for the renewal.", 4, ("ORGANIZATION", "Grace Hopper")),
        _sample("Ask Zorvath Quellington.", 5, ("STREET_ADDRESS", "Zorvath Quellington")),
    ]
    data.write_text(json.dumps(samples), encoding="utf-8")
    # When the benchmark scores them
    splits = pii_quality.score_presidio(LocalPiiDetector(), data)
    # Then even templates are dev, odd ones held out, and each count is as worked out
    dev, held_out = splits["dev"], splits["held_out"]
    assert (dev.samples, held_out.samples) == (2, 2)
    assert dev.tallies["NAME"].as_dict() == {
        "gold": 1,
        "predicted": 2,
        "found": 1,
        "correct": 1,
        "recall": 1.0,
        "precision": 0.5,
        "scrub_precision": 0.5,
    }
    assert dev.tallies["EMAIL"].found == 1
    assert dev.name_on_org_or_place == 1
    # and a name taken over a street address is wrong, but still scrubs personal data
    held_out_names = held_out.tallies["NAME"].as_dict()
    assert (held_out_names["recall"], held_out_names["precision"]) == (0.0, 0.0)
    assert held_out_names["scrub_precision"] == 1.0
    assert ("NAME", "zq") in held_out.misses


def test_plain_text_share_counts_every_scrubbed_character() -> None:
    # Given two documents without personal data but one that names a person
    docs = iter([("a", "The parser reads the file."), ("b", "Thanks to Maria Garcia.")])
    # When the share of scrubbed characters is measured
    result = pii_quality.score_plain(LocalPiiDetector(), docs)
    # Then the name's 12 characters count against all 49
    assert (result["files"], result["chars"], result["scrubbed_chars"]) == (2, 49, 12)
    assert result["top_false_positives"] == [{"type": "NAME", "text": "Maria Garcia", "count": 1}]


def _conll(*docs: list[tuple[str, str]]) -> str:
    return "\n\n".join("\n".join(f"{token}\t{tag}" for token, tag in doc) for doc in docs) + "\n"


def test_wnut_files_split_into_dev_and_held_out_and_count_names_by_what_they_land_on(
    tmp_path: Path,
) -> None:
    # Given WNUT-format files, written here: a dev document naming a person over two tokens
    # and a company that reads as one, and a held-out document whose person is a lowercase
    # "mum", which the detector does not take for a name
    (tmp_path / "wnut17train.conll").write_text(
        _conll(
            [("Thanks", "O"), ("Priya", "B-person"), ("Sharma", "I-person"), ("!", "O")],
            [("Call", "O"), ("Grace", "B-corporation"), ("Hopper", "I-corporation"), ("now", "O")],
        ),
        encoding="utf-8",
    )
    (tmp_path / "emerging.dev.conll").write_text("", encoding="utf-8")
    (tmp_path / "emerging.test.annotated").write_text(
        _conll([("my", "O"), ("mum", "B-person"), ("called", "O"), ("today", "O")]),
        encoding="utf-8",
    )
    # When the benchmark reads and scores them
    docs = list(pii_quality.wnut_docs(tmp_path / "wnut17train.conll"))
    splits = pii_quality.score_wnut(LocalPiiDetector(), tmp_path)
    # Then each document is its tokens joined by spaces, with the B-/I- tags as one span
    assert docs[0].text == "Thanks Priya Sharma !"
    assert docs[0].spans == [("person", (7, 19))]
    # and the person is found in dev, the held-out one missed
    dev, held_out = (pii_quality._wnut_report(splits[s]) for s in ("dev", "held_out"))
    assert (dev["documents"], held_out["documents"]) == (2, 1)
    assert (dev["NAME"]["gold"], dev["NAME"]["found"]) == (1, 1)
    assert (held_out["NAME"]["gold"], held_out["NAME"]["found"]) == (1, 0)
    # and the name found on the company is a false positive counted as landing on it
    assert (dev["NAME"]["predicted"], dev["NAME"]["correct"]) == (2, 1)
    assert dev["false_positives_on"] == {"corporation": 1}
