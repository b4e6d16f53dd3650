"""A run that holds nothing beyond its task writes no episode, and none such is served."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.models import RunArtifacts
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.tiers import episodic
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate, summary
from tests.support.memory import Memory, make_memory, run_event
from tests.support.serving import TASK

BLANKS = st.text(alphabet=" \t\n\r\u00a0\u2003\u3000", max_size=4)
# A tool message names its tool, which an episode keeps (tools_used): that is content.
ROLES = st.sampled_from(["system", "human", "ai"])


@st.composite
def empty_runs(draw: st.DrawFn) -> dict[str, Any]:
    """A RunFinished detail of TASK whose every part besides the task is empty or blank."""
    event: dict[str, Any] = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": f"run-{draw(st.integers(0, 10**9))}",
        "task": TASK,
        "outcome": draw(st.sampled_from(["COMPLETED", "PARTIAL", "FAILED"])),
    }
    if draw(st.booleans()):
        event["messages"] = [
            {"role": role, "content": text}
            for role, text in draw(st.lists(st.tuples(ROLES, BLANKS), max_size=4))
        ]
    if draw(st.booleans()):
        artifacts: dict[str, Any] = {}
        for key in ("key_findings", "reusable_patterns", "tools_used"):
            if draw(st.booleans()):
                artifacts[key] = draw(st.lists(BLANKS, max_size=3))
        for key in ("task_summary", "approach_used"):
            if draw(st.booleans()):
                artifacts[key] = draw(BLANKS)
        if draw(st.booleans()):
            # The summary the extractor would write anyway: the task restated.
            artifacts["task_summary"] = draw(st.sampled_from([TASK, TASK.upper(), f" {TASK} "]))
        event["artifacts"] = artifacts
    if draw(st.booleans()):
        event["procedure_feedback"] = {"procedure_id": "proc-1", "succeeded": draw(st.booleans())}
    return event


def served_runs(memory: Memory) -> list[str]:
    reply = bootstrap(BootstrapRequest("acme", "reviewer", TASK), memory.ports)
    return [episode["run_id"] for episode in reply["episodes"]]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(event=empty_runs())
def test_a_run_with_nothing_beyond_its_task_writes_no_episode(
    tmp_path: Path, event: dict[str, Any]
) -> None:
    # Given a store that holds one run with a finding for the same task
    memory = make_memory(tmp_path / event["run_id"], stores="memory")
    consolidate(run_event("run-real", task=TASK), memory.ports)

    # When a run whose messages and artifacts are empty or blank is consolidated
    result = summary(consolidate(event, memory.ports))

    # Then it wrote no episode, and says so
    assert result["episode"] == "not kept"
    assert any(line.startswith("episode not kept: the run ") for line in result["not_kept"])
    stored = memory.ports.episodes.get("acme", "reviewer", event["run_id"], now=memory.clock())
    assert stored is None
    # And the same task is served the run with a finding only
    assert served_runs(memory) == ["run-real"]


def test_a_procedure_result_alone_writes_no_episode(tmp_path: Path) -> None:
    # Given a run that reports a procedure's result and nothing else
    memory = make_memory(tmp_path, stores="memory")
    event = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": "run-feedback",
        "task": TASK,
        "procedure_feedback": {"procedure_id": "proc-1", "succeeded": True},
    }

    # When it is consolidated
    result = summary(consolidate(event, memory.ports))

    # Then the summary says the run reports a result only, and nothing is served for the task
    assert result["episode"] == "not kept"
    assert (
        "episode not kept: the run reports a procedure's result only (no episode)"
        in (result["not_kept"])
    )
    assert served_runs(memory) == []


@given(finding=st.text(min_size=1, max_size=20).filter(lambda text: bool(text.strip())))
def test_one_word_beyond_the_task_is_content(finding: str) -> None:
    # Given a run's artifacts with nothing but the task restated and one finding with words
    artifacts = RunArtifacts(TASK, "COMPLETED", key_findings=(finding,))

    # When it is asked whether the episode says more than its task
    # Then it does, and without the finding it does not
    assert episodic.says_more_than_its_task(TASK, artifacts)
    assert not episodic.says_more_than_its_task(
        TASK, dataclasses.replace(artifacts, key_findings=())
    )


def test_an_empty_episode_an_older_version_wrote_is_not_served(tmp_path: Path) -> None:
    # Given a store holding a run with a finding, and an episode of the same task with
    # nothing else (as versions before this rule wrote for a procedure's result)
    memory = make_memory(tmp_path, stores="memory")
    consolidate(run_event("run-real", task=TASK), memory.ports)
    real = memory.ports.episodes.get("acme", "reviewer", "run-real", now=memory.clock())
    assert real is not None
    empty = dataclasses.replace(
        real,
        run_id="run-empty",
        task_summary=TASK,
        key_findings=(),
        reusable_patterns=(),
        approach_used="",
        tools_used=(),
        units=(),
    )
    memory.ports.episodes.add(empty)

    # When the same task starts
    served = served_runs(memory)

    # Then only the run with a finding is served
    assert served == ["run-real"]


def test_a_summary_of_its_own_is_content_even_one_the_task_begins_with() -> None:
    # Given a task, and a summary of the caller's that is its first words
    task = "Set up the MSA review for contract_law"
    own = RunArtifacts("Set up the MSA review", "COMPLETED")

    # When it is asked whether the episode says more than its task
    # Then it does; the task itself, or its first sentence, as summary does not
    assert episodic.says_more_than_its_task(task, own)
    for whole, written in ((task, task), (f"{task}. Then report.", f"{task}."), (task, " ")):
        restated = dataclasses.replace(own, task_summary=written)
        assert not episodic.says_more_than_its_task(whole, restated), (whole, written)
