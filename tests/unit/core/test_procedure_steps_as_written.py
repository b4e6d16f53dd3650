"""A procedure's steps are stored and served as the run wrote them: only a real list marker
(a marker followed by whitespace) is taken off; "1.5x the fees" never becomes "5x the fees".

Steps are generated around what looks like a marker and is not one ("1.5x", "24-hour",
"e-mail", "e.g.", "3.14", "A. Smith", "10:30", "-5%", "*important*", "v2."), and with
characters Unicode compatibility folding would change ("①", "ﬁ", "½", full-width digits).
"""

from __future__ import annotations

import itertools
import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.api.contracts import NOT_BLANK
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.privacy.scrubbing import pseudonyms_for, scrub_texts
from agent_memory.core.tiers import procedural
from agent_memory.core.tiers.procedural import normalize_step, procedure_id
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.extraction import parse_artifacts
from tests.support.fakes import fake_chat
from tests.support.memory import Memory, make_memory, run_event

# Characters whose compatibility form (NFKC) is another text.
FOLDING = "①②½¼ﬁﬂ１２３４５６７８９０．：）Ⅳⅻ™㎏ｶ\u00a0\u2009²ẛ"
# Openings that look like list markers and are the step's own words, whatever follows them.
WORDS = [
    "1.5x",
    "24-hour",
    "e-mail",
    "e.g.",
    "i.e.",
    "3.14",
    "A. Smith",
    "B. Jones",
    "10:30",
    "-5%",
    "*important*",
    "**bold**",
    "+5%",
    "v2.",
    "2024.",
    "p. 12",
    "c. 1990",
    "e. coli",
    "i. e.",
    "Step 1 of",
    "step 2 is",
    "1 -",
    "12",
    "0.5x",
    "1/2",
    "#1",
    "No. 3",
    "①",
    "１.",
    "１）",
    "ﬁle",
    "½",
    "Ⅳ.",
]
# Marker characters followed by no whitespace: "1.x", "-x", "•x".
GLUED = ["1.", "1)", "(1)", "a)", "-", "*", "+", "•", "—", "–"]
# What opens no marker at all: neither an ASCII letter or digit nor a bracket or a bullet.
_MARKER_OPENERS = frozenset(string.ascii_letters + string.digits + "(-*+\u2022\u2023\u25e6\u25aa")
_MARKER_OPENERS |= frozenset("\u25cf\u2013\u2014\u00b7\u2043")
REAL_MARKERS = [
    "1.",
    "2)",
    "10.",
    "1.2.",
    "(3)",
    "Step 3:",
    "step 4.",
    "Step 10 -",
    "STEP 5)",
    "a)",
    "(b)",
    "A)",
    "iv.",
    "ii)",
    "-",
    "*",
    "+",
    "•",
    "◦",
    "–",
]
WHITESPACE = [" ", "  ", "\t", " \n", "\u00a0", "\u3000"]

texts = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(FOLDING),
        st.sampled_from("0123456789.):-*•"),
    ),
    max_size=30,
)
letters = st.characters(categories=("Lu", "Ll", "Lo"))

# A step that opens with a look-alike, or with no marker shape at all.
lookalike_steps = st.one_of(
    st.builds(
        lambda word, rest: word + rest,
        st.sampled_from(WORDS),
        st.just("") | st.builds(lambda w, t: w + t, st.sampled_from(WHITESPACE), texts),
    ),
    st.builds(lambda glued, c, t: glued + c + t, st.sampled_from(GLUED), letters, texts),
    texts.filter(lambda s: s.strip()[:1] not in _MARKER_OPENERS),
)
# A word a marker is followed by (a lower-case letter with a full stop is a marker only
# before a capital).
capitalised = st.builds(
    lambda first, rest: first + rest, st.sampled_from(["Read", "Compare", "Ｒead", "Él"]), texts
)
bodies = capitalised | st.builds(
    lambda first, rest: first + rest, st.sampled_from(["1.5x", "24-hour", "e-mail"]), texts
)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(step=lookalike_steps)
@example(step="1.5x the annual fees")
@example(step="24-hour notice before termination")
@example(step="e-mail the summary to legal")
@example(step="e.g. the liability cap")
@example(step="3.14% interest applies")
@example(step="A. Smith signs the renewal")
@example(step="i.e. the fee schedule")
@example(step="10:30 call with the vendor")
@example(step="-5% margin is the floor")
@example(step="*important* read clause 7")
@example(step="v2. rollout of the template")
@example(step="ﬁle the ½-page memo  twice ①")
@example(step="１２ copies, ２ signed")
@example(step="p. 12 of the MSA")
@example(step="Step 1 of the playbook is to read")
def test_a_step_without_a_list_marker_is_stored_as_written(step: str) -> None:
    # Given a step that opens with no real list marker
    # When it is put in the form it is stored in
    stored = normalize_step(step)
    # Then it is the step itself, only its surrounding whitespace gone
    assert stored == step.strip()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    marker=st.sampled_from(REAL_MARKERS),
    space=st.sampled_from(WHITESPACE),
    indent=st.sampled_from(["", " ", "\t"]),
    data=st.data(),
)
def test_a_real_list_marker_is_taken_off_and_nothing_else(
    marker: str, space: str, indent: str, data: st.DataObject
) -> None:
    # Given a step opened by a list marker and whitespace
    body = data.draw(capitalised if marker in ("iv.",) else bodies)
    step = indent + marker + space + body
    # When it is put in the form it is stored in
    stored = normalize_step(step)
    # Then what follows the marker is kept exactly (only surrounding whitespace gone)
    assert stored == body.strip()


@pytest.mark.parametrize(
    ("step", "stored"),
    [
        ("1. Read clause 7.3", "Read clause 7.3"),
        ("2) 1.5x the annual fees", "1.5x the annual fees"),
        ("Step 3: e-mail the summary", "e-mail the summary"),
        ("- 24-hour notice", "24-hour notice"),
        ("• Compare  the   cap", "Compare  the   cap"),
        ("a) Check\nthe schedule", "Check\nthe schedule"),
    ],
)
def test_what_follows_a_marker_keeps_its_spacing_and_lines(step: str, stored: str) -> None:
    # Given a marked step whose text has its own spacing
    # When it is stored, Then only the marker went
    assert normalize_step(step) == stored


def test_steps_that_fold_alike_are_one_procedure() -> None:
    # Given two proposals whose steps differ only in compatibility forms, case, spacing and
    # markers
    a = procedure_id("t", "review", ("1. ﬁle the ½ memo", "2) Sign"))
    b = procedure_id("t", "review", ("- file  the 1⁄2 memo", "Step 2: sign"))
    # Then they name one procedure
    assert a == b


def test_steps_that_differ_in_a_number_are_two_procedures() -> None:
    # Given the same step with 1.5x and with 5x
    # Then the two are different procedures (the marker look-alike is not taken off)
    assert procedure_id("t", "r", ("1.5x the annual fees",)) != procedure_id(
        "t", "r", ("5x the annual fees",)
    )


_RUNS = itertools.count()


def _consolidated_steps(memory: Memory, steps: list[str]) -> tuple[str, ...]:
    # A task type of its own: steps that fold alike would otherwise join an earlier procedure
    number = next(_RUNS)
    event = run_event(f"steps-{number}", task_type=f"review-{number}")
    event["artifacts"]["procedure"] = {"title": "MSA review", "steps": steps}
    state = consolidate(event, memory.ports)
    assert state.procedure is not None and state.procedure.proposed is not None
    found = memory.ports.procedures.get(state.procedure.proposed, tenant_id="acme")
    assert found is not None
    return found.steps


def _scrubbed(memory: Memory, text: str) -> str:
    pseudonyms = pseudonyms_for(memory.ports.pseudonym_key, "acme")
    return scrub_texts([text], memory.ports.pii, pseudonyms).texts[0]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return make_memory(tmp_path_factory.mktemp("steps"), stores="memory")


@settings(
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# The contract refuses a blank step.
@given(step=lookalike_steps.filter(lambda s: re.search(NOT_BLANK, s) is not None))
@example(step="1.5x the annual fees")
@example(step="ﬁle the ½ memo ①")
@example(step="e-mail jane@example.com the summary")
def test_a_consolidated_run_stores_its_steps_as_written(memory: Memory, step: str) -> None:
    # Given a run proposing a step with no real marker (and a marked one beside it)
    # When it is consolidated
    stored = _consolidated_steps(memory, [step, "2. Sign"])
    # Then the stored steps are the scrubbed steps as written, the marker alone taken off
    assert stored == (_scrubbed(memory, step).strip(), "Sign")


def test_an_approved_procedure_is_served_with_its_steps_as_written(tmp_path: Path) -> None:
    # Given a run proposing steps whose openings look like markers, approved by a reviewer
    memory = make_memory(tmp_path, stores="memory")
    steps = ["1.5x the annual fees", "24-hour notice", "e-mail the summary", "2. ﬁle it ½"]
    event = run_event("served-steps")
    event["artifacts"]["procedure"] = {"title": "MSA review", "steps": steps}
    state = consolidate(event, memory.ports)
    assert state.procedure is not None and state.procedure.proposed is not None
    procedural.decide(memory.ports, state.procedure.proposed, approve=True, reviewer="lead")
    # When the next run of the task type starts
    reply = bootstrap(
        parse_bootstrap_request(
            {
                "tenant_id": "acme",
                "agent_id": "reviewer",
                "task": "Review the vendor MSA",
                "task_type": "contract_review",
            }
        ),
        memory.ports,
    )
    # Then the reply and its block show the steps as written
    served = reply["procedure"]
    assert served is not None and served["status"] == ProcedureStatus.VALIDATED.value
    expected = ["1.5x the annual fees", "24-hour notice", "e-mail the summary", "ﬁle it ½"]
    assert served["steps"] == expected
    context = reply["context"] or ""
    for number, text in enumerate(expected, 1):
        assert f"{number}. {text}" in context


def test_a_model_extracted_procedure_keeps_its_steps_as_written(tmp_path: Path) -> None:
    # Given a run without artifacts, distilled by a chat model whose procedure has such steps
    reply = json.dumps(
        {
            "task_summary": "Reviewed the MSA",
            "outcome": "COMPLETED",
            "procedure": {
                "title": "MSA review",
                "steps": ["1. 1.5x the annual fees", "24-hour notice", "e-mail the summary"],
            },
        }
    )
    assert parse_artifacts(reply).procedure is not None
    memory = make_memory(tmp_path, chat=fake_chat(reply), stores="memory")
    event = run_event("model-steps", messages=[{"role": "human", "content": "Review the MSA"}])
    del event["artifacts"]
    # When it is consolidated
    state = consolidate(event, memory.ports)
    # Then the stored procedure has the steps as the model wrote them, its marker alone gone
    assert state.extracted_by == "model"
    assert state.procedure is not None and state.procedure.proposed is not None
    found = memory.ports.procedures.get(state.procedure.proposed, tenant_id="acme")
    assert found is not None
    assert found.steps == ("1.5x the annual fees", "24-hour notice", "e-mail the summary")
