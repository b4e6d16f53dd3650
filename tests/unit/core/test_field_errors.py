"""Validation errors say what to do: every refused field by its path, a typo with its field."""

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from agent_memory.core.api.bootstrap_request import (
    BootstrapRequestModel,
    parse_bootstrap_request,
)
from agent_memory.core.api.contracts import (
    ArtifactsModel,
    FactModel,
    RunFinishedEvent,
    parse_run_finished,
)
from agent_memory.core.api.field_errors import MAX_LISTED
from agent_memory.core.model.errors import InvalidInput

EVENT: dict[str, Any] = {
    "tenant_id": "acme",
    "agent_id": "reviewer",
    "run_id": "run-1",
    "task": "Review the MSA",
    "task_type": "contract_review",
    "domain": "contract_law",
    "outcome": "COMPLETED",
    "messages": [],
    "artifacts": {
        "task_summary": "reviewed",
        "outcome": "COMPLETED",
        "key_findings": [],
        "approach_used": "read it",
        "tools_used": [],
        "reusable_patterns": [],
        "facts": [{"content": "Net-30 payment terms", "confidence": 0.9}],
    },
    "finished_at": "2026-12-01T00:00:00Z",
}
REQUEST: dict[str, Any] = {
    "tenant_id": "acme",
    "agent_id": "reviewer",
    "task": "Review the MSA",
    "task_type": "contract_review",
    "domain": "contract_law",
    "scope": "agent",
}
# Each (document, path to an object in it, the model of that object).
LEVELS = [
    (EVENT, (), RunFinishedEvent),
    (EVENT, ("artifacts",), ArtifactsModel),
    (EVENT, ("artifacts", "facts", 0), FactModel),
    (REQUEST, (), BootstrapRequestModel),
]
LETTERS = "abcdefghijklmnopqrstuvwxyz_"


def _refused(document: dict[str, Any], parse: Any = parse_run_finished) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        parse(document)
    return refused.value


def _renamed(document: Any, path: tuple[Any, ...], old: str, new: str) -> Any:
    """A deep copy of ``document`` with key ``old`` of the object at ``path`` named ``new``
    (added, holding null, if the object has no ``old``).
    """
    if not path:
        if old not in document:
            return {**document, new: None}
        return {(new if k == old else k): v for k, v in document.items()}
    copy = list(document) if isinstance(document, list) else dict(document)
    copy[path[0]] = _renamed(document[path[0]], path[1:], old, new)
    return copy


@st.composite
def typos(draw: st.DrawFn) -> tuple[int, str, str]:
    """A level, one of its document's field names, and that name with one edit."""
    level = draw(st.integers(0, len(LEVELS) - 1))
    _, _, model = LEVELS[level]
    name = draw(st.sampled_from(sorted(model.model_fields)))
    i = draw(st.integers(0, len(name) - 1))
    letter = draw(st.sampled_from(LETTERS))
    edit = draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
    if edit == "delete":
        typo = name[:i] + name[i + 1 :]
    elif edit == "insert":
        typo = name[:i] + letter + name[i:]
    elif edit == "replace":
        typo = name[:i] + letter + name[i + 1 :]
    else:
        j = min(i + 1, len(name) - 1)
        typo = name[:i] + name[j] + name[i] + name[j + 1 :] if j > i else name
    return level, name, typo


@given(typos())
def test_a_misspelt_field_name_is_answered_with_the_field_it_meant(
    typo: tuple[int, str, str],
) -> None:
    # Given a valid event (or bootstrap request) with one field's name misspelt by one edit
    # (any field of the model: one the document holds is renamed, another is added)
    level, name, misspelt = typo
    document, path, model = LEVELS[level]
    assume(misspelt and misspelt not in model.model_fields)
    # When it is validated
    parse = parse_bootstrap_request if document is REQUEST else parse_run_finished
    refused = _refused(_renamed(document, path, name, misspelt), parse)
    # Then the one line names the typo, says it is unknown and which field it meant
    where = ".".join(f"[{p}]" if isinstance(p, int) else p for p in (*path, misspelt))
    where = where.replace(".[", "[")
    assert f"{where}: unknown field; did you mean {name}?" in str(refused)
    # and a required field it left missing is not reported again on its own
    assert f"{name}: Field required" not in str(refused)


def test_the_issue_s_example_reads_as_one_hint() -> None:
    # Given "tenant" for tenant_id
    event = _renamed(EVENT, (), "tenant_id", "tenant")
    # When it is validated
    refused = _refused(event)
    # Then the line says what to do, and names the typo as the field
    assert str(refused) == "tenant: unknown field; did you mean tenant_id?"
    assert refused.field == "tenant"


def test_an_unknown_field_like_no_other_gets_no_guess() -> None:
    # Given a field name close to none of the model's
    refused = _refused({**EVENT, "zzzzqqq": 1})
    # Then it is unknown, with no guess
    assert str(refused) == "zzzzqqq: unknown field"


def test_every_problem_is_listed_by_its_path() -> None:
    # Given an event with three bad fields at three levels
    event = {
        **EVENT,
        "tenant_id": "a b",
        "task": " ",
        "artifacts": {**EVENT["artifacts"], "facts": [{"content": "x", "confidence": 2}]},
    }
    # When it is validated
    refused = _refused(event)
    # Then each is named, in one line, the first as the error's field
    text = str(refused)
    assert refused.field == "tenant_id"
    assert "; task: must hold something besides whitespace" in text
    assert "; artifacts.facts[0].confidence: " in text
    assert "\n" not in text


def test_many_problems_are_bounded() -> None:
    # Given an event with far more bad fields than are listed
    event = {**EVENT, **{f"extra_{i}": i for i in range(MAX_LISTED + 15)}}
    # When it is validated
    text = str(_refused(event))
    # Then the first MAX_LISTED are named, and the rest counted
    assert text.count("unknown field") == MAX_LISTED
    assert text.endswith("; and 15 more")
