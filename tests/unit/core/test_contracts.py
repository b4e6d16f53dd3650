import json
import math
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from agent_memory.core.api.contracts import json_schema, parse_run_finished, unwrap_event
from agent_memory.core.model.errors import InvalidInput

SCHEMA_FILE = Path(__file__).parents[3] / "src/agent_memory/schemas/run_finished.schema.json"


def event(**overrides: object) -> dict[str, object]:
    base: dict[str, object] = {
        "tenant_id": "acme",
        "agent_id": "contract-reviewer",
        "run_id": "run-1",
        "task": "Review the vendor contract.",
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not None}


def is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


MALFORMED = [
    (event(tenant_id=None), "tenant_id"),
    (event(tenant_id="a#b"), "tenant_id"),
    (event(agent_id="x/y"), "agent_id"),
    (event(run_id="has space"), "run_id"),
    (event(run_id=""), "run_id"),
    (event(domain="_leading"), "domain"),
    (event(task="   "), "task"),
    (event(task=7), "task"),
    (event(outcome="DONE"), "outcome"),
    (event(messages=[{"role": "bot", "content": "x"}]), "messages[0].role"),
    (event(messages="hello"), "messages"),
    (
        event(artifacts={"facts": [{"content": "x", "confidence": 1.5}]}),
        "artifacts.facts[0].confidence",
    ),
    (
        event(artifacts={"facts": [{"content": "x", "confidence": -0.1}]}),
        "artifacts.facts[0].confidence",
    ),
    (
        event(artifacts={"facts": [{"content": "x", "confidence": math.nan}]}),
        "artifacts.facts[0].confidence",
    ),
    (
        event(artifacts={"facts": [{"content": "x", "confidence": "0.9"}]}),
        "artifacts.facts[0].confidence",
    ),
    (event(artifacts={"procedure": {"title": "t", "steps": []}}), "artifacts.procedure.steps"),
    (event(artifacts={"key_findings": ["x"] * 51}), "artifacts.key_findings"),
    (
        event(procedure_feedback={"procedure_id": "p", "succeeded": "yes"}),
        "procedure_feedback.succeeded",
    ),
    (event(finished_at="yesterday"), "finished_at"),
    (event(domian="typo"), "domian"),
]


def test_published_schema_file_matches_the_model() -> None:
    assert json.loads(SCHEMA_FILE.read_text()) == json_schema()


def test_the_readme_command_writes_the_published_schema_file_as_it_is() -> None:
    # Given the command the README gives to regenerate the schema file
    root = SCHEMA_FILE.parents[3]
    done = subprocess.run(
        [sys.executable, "-m", "agent_memory.core.api.contracts"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    )
    # When it runs, Then it prints the file byte for byte
    assert "python -m agent_memory.core.api.contracts >" in (root / "README.md").read_text()
    assert done.stdout == SCHEMA_FILE.read_text()


def test_minimal_event_is_accepted() -> None:
    run = parse_run_finished(event())
    assert (run.tenant_id, run.agent_id, run.run_id) == ("acme", "contract-reviewer", "run-1")
    assert run.artifacts is None and run.messages == ()


def test_full_event_round_trips_into_domain_records() -> None:
    run = parse_run_finished(
        event(
            task_type="contract_review",
            domain="contracts",
            outcome="COMPLETED",
            messages=[
                {"role": "ai", "content": "calling", "tool_calls": ["c1"]},
                {"role": "tool", "content": "42", "name": "calc", "tool_call_id": "c1"},
            ],
            artifacts={
                "task_summary": "Reviewed",
                "facts": [{"content": "Clause 7.3 caps liability", "confidence": 0.9}],
                "procedure": {"title": "Review", "steps": ["Read", "Check 7.3"]},
            },
            procedure_feedback={"procedure_id": "proc-1", "succeeded": True},
            finished_at="2026-11-30T10:00:00Z",
        )
    )
    assert run.messages[1].tool_call_id == "c1" and run.messages[0].tool_calls == ("c1",)
    assert run.artifacts is not None and run.artifacts.outcome == "COMPLETED"
    assert run.artifacts.facts[0].confidence == 0.9
    assert run.artifacts.procedure is not None and run.artifacts.procedure.steps[1] == "Check 7.3"
    assert run.procedure_feedback is not None and run.procedure_feedback.succeeded
    assert run.finished_at == 1796032800.0


@pytest.mark.parametrize(("bad", "field"), MALFORMED)
def test_malformed_event_is_rejected_naming_the_field(bad: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        parse_run_finished(bad)
    assert raised.value.field == field
    assert str(raised.value).startswith(f"{field}: ")


def test_event_that_is_not_an_object_is_rejected() -> None:
    with pytest.raises(InvalidInput, match=r"^event: "):
        parse_run_finished(["not", "an", "object"])


def test_full_eventbridge_envelope_is_unwrapped() -> None:
    envelope = {"detail-type": "RunFinished", "source": "my.agent", "detail": event()}
    assert unwrap_event(envelope) == event()


def test_envelope_of_another_detail_type_is_rejected() -> None:
    with pytest.raises(InvalidInput, match="detail-type"):
        unwrap_event({"detail-type": "RunStarted", "detail": event()})


@pytest.mark.parametrize(
    "candidate",
    # JSON has no NaN, and JSON Schema leaves date-time formats optional: compare the rest.
    [event(), *(bad for bad, field in MALFORMED if field != "finished_at" and is_json(bad))],
)
def test_json_schema_and_model_agree(candidate: dict[str, object]) -> None:
    # Given the published schema and the model that validates events in this code base
    schema_ok = jsonschema.Draft202012Validator(json_schema()).is_valid(candidate)
    # When both judge the same event
    try:
        parse_run_finished(candidate)
        model_ok = True
    except InvalidInput:
        model_ok = False
    # Then they agree
    assert schema_ok == model_ok
