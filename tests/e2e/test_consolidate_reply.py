"""``agent-memory consolidate`` says what it did not keep, in process on a temporary store with
a registered test embedding model: "written" only for an episode that was written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.adapters.local import embeddings
from agent_memory.adapters.local.embeddings import LocalModel
from agent_memory.cli.main import main
from tests.support.embedder import HashingEmbedder
from tests.support.memory import HASHING_CALIBRATION, run_event

MODEL = "test-hashing-256"


@pytest.fixture(autouse=True)
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        embeddings.LOCAL_MODELS,
        MODEL,
        LocalModel(MODEL, lambda: HashingEmbedder(256, MODEL), HASHING_CALIBRATION),
    )


def consolidate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: dict[str, object], *flags: str
) -> tuple[int, str]:
    store = tmp_path / "store"
    assert main(["--store", str(store), "reembed", "--to", MODEL, "--switch"]) == 0
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event))
    capsys.readouterr()
    code = main(["--store", str(store), "consolidate", str(path), *flags])
    return code, capsys.readouterr().out


def test_a_run_past_retention_is_printed_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a run that finished in 2020, long past the 90 days an episode is kept
    event = run_event("old-run", finished_at="2020-01-01T00:00:00Z")
    # When it is consolidated
    code, out = consolidate(tmp_path, capsys, event)
    # Then the command says the episode is not kept and why, never "written"
    assert code == 0
    assert "episode not kept;" in out and "episode written" not in out
    assert "  episode not kept: the run finished 2020-01-01T00:00:00Z, more than 90 days" in out


def test_the_json_reply_lists_what_is_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a run whose message holds an image beside its text
    message = {
        "role": "user",
        "content": [
            {"type": "input_text", "text": "What does clause 7.3 cap?"},
            {"type": "input_image", "image_url": "https://example.com/p4.png"},
        ],
    }
    # When it is consolidated with --json
    code, out = consolidate(tmp_path, capsys, run_event("parts", messages=[message]), "--json")
    # Then the summary's not_kept names the image part
    reply = json.loads(out)
    assert code == 0 and reply["episode"] == "written"
    assert reply["not_kept"] == [
        "1 'input_image' content part not kept (message 0): only text, refusal, tool-use and "
        "tool-result parts are kept"
    ]
