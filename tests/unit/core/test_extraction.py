import pytest

from agent_memory.core.api.contracts import parse_run_finished
from agent_memory.core.model.models import Message, RunArtifacts
from agent_memory.core.workflows.extraction import (
    complete_artifacts,
    extract_deterministically,
    extract_run_artifacts,
    parse_artifacts,
)
from tests.support.fakes import fake_chat

GOOD_REPLY = """Here you go:
```json
{"task_summary": "Reviewed a vendor MSA", "outcome": "COMPLETED",
 "key_findings": ["Clause 7.3 caps liability at 1x fees"], "approach_used": "clause by clause",
 "tools_used": ["search"], "reusable_patterns": ["check 7.3 first"],
 "facts": [{"content": "Liability caps below 2x fees are a red flag", "confidence": 0.9}],
 "procedure": {"title": "MSA review", "steps": ["Read 7.3", "Compare caps"]}}
```"""


def test_model_json_becomes_artifacts() -> None:
    artifacts = extract_run_artifacts([Message("human", "review")], fake_chat(GOOD_REPLY))
    assert artifacts.outcome == "COMPLETED"
    assert artifacts.facts[0].content == "Liability caps below 2x fees are a red flag"
    assert artifacts.procedure is not None and artifacts.procedure.steps == (
        "Read 7.3",
        "Compare caps",
    )


@pytest.mark.parametrize(
    "reply",
    [
        "I could not do that.",
        "{not json at all}",
        '{"task_summary": 42}',
        "[1, 2, 3]",
        '{"key_findings": "should be a list"}',
        "",
    ],
)
def test_malformed_model_output_yields_unknown_and_empty_lists(reply: str) -> None:
    artifacts = extract_run_artifacts([Message("human", "x")], fake_chat(reply))
    assert artifacts == RunArtifacts(task_summary="", outcome="UNKNOWN")


def test_weak_items_are_dropped_without_losing_the_record() -> None:
    reply = """{"task_summary": "s", "outcome": "DONE", "key_findings": ["a", null, ""],
      "facts": [{"content": "ok", "confidence": 0.8}, {"content": "bad", "confidence": 7},
                {"content": "", "confidence": 0.9}, "junk"],
      "procedure": {"title": "t", "steps": []}}"""
    artifacts = parse_artifacts(reply)
    assert artifacts.task_summary == "s"
    assert artifacts.outcome == "UNKNOWN"
    assert artifacts.key_findings == ("a",)
    assert [f.content for f in artifacts.facts] == ["ok"]
    assert artifacts.procedure is None


def test_deterministic_extraction_uses_the_run_and_invents_nothing() -> None:
    run = parse_run_finished(
        {
            "tenant_id": "t",
            "agent_id": "a",
            "run_id": "r",
            "outcome": "COMPLETED",
            "task": "Review the Acme MSA. Focus on liability.",
            "messages": [
                {"role": "human", "content": "Review it"},
                {"role": "tool", "content": "...", "name": "clause_search"},
                {"role": "ai", "content": "Findings:\n- Cap is 1x fees\n- No indemnity carve-out"},
            ],
        }
    )
    artifacts = extract_deterministically(run)
    assert artifacts.task_summary == "Review the Acme MSA."
    assert artifacts.outcome == "COMPLETED"
    assert artifacts.key_findings == ("Cap is 1x fees", "No indemnity carve-out")
    assert artifacts.tools_used == ("clause_search",)
    assert artifacts.facts == () and artifacts.procedure is None


def test_event_outcome_wins_over_extracted_outcome() -> None:
    run = parse_run_finished(
        {"tenant_id": "t", "agent_id": "a", "run_id": "r", "task": "x", "outcome": "FAILED"}
    )
    completed = complete_artifacts(run, RunArtifacts(task_summary="", outcome="COMPLETED"))
    assert completed.outcome == "FAILED"
    assert completed.task_summary == "x"
