"""The reply's one shape: what the core builds is what its type (the SDK's) declares."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints

import pytest

import agent_memory.sdk as sdk
import agent_memory.sdk.types as sdk_types
from agent_memory.core.api import bootstrap_reply
from agent_memory.core.api.bootstrap_reply import BOOTSTRAP_REPLY_KEYS, BootstrapReply
from agent_memory.core.workflows.bootstrap import bootstrap
from tests.support.memory import Memory, make_memory
from tests.unit.core.test_bootstrap import REQUEST, confirm_fact_and_approve

VIEWS = ("BootstrapReply", "EpisodeView", "EpisodeUnitView", "FactView", "ProcedureView")


def is_typed_dict(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def conformance_errors(value: object, tp: Any, path: str = "reply") -> list[str]:
    """Where ``value`` is not of type ``tp``: a TypedDict must have every key it declares
    (required or not: the core is the newest sender there is) and no other.
    """
    origin, args = get_origin(tp), get_args(tp)
    if tp is Any:
        return []
    if origin in (Union, types.UnionType):
        if value is None:
            return [] if type(None) in args else [f"{path}: None"]
        [arm, *more] = [arm for arm in args if arm is not type(None)]
        return conformance_errors(value, arm, path) if not more else [f"{path}: {tp} unchecked"]
    if origin in (Required, NotRequired):
        return conformance_errors(value, args[0], path)
    if origin is Literal:
        return [] if value in args else [f"{path}: {value!r} not in {args}"]
    if is_typed_dict(tp):
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        hints = get_type_hints(tp)
        errors = [f"{path}: no {key}" for key in sorted(hints.keys() - value.keys())]
        errors += [f"{path}: undeclared {key}" for key in sorted(value.keys() - hints.keys())]
        for key in sorted(hints.keys() & value.keys()):
            errors += conformance_errors(value[key], hints[key], f"{path}.{key}")
        return errors
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: not a list"]
        return [
            e
            for i, item in enumerate(value)
            for e in conformance_errors(item, args[0], f"{path}[{i}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        return [
            e for k, item in value.items() for e in conformance_errors(item, args[1], f"{path}.{k}")
        ]
    if tp is type(None):
        return [] if value is None else [f"{path}: not None"]
    if tp is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{path}: not a number"]
    if tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path}: not an integer"]
    return [] if isinstance(value, tp) else [f"{path}: not {tp.__name__}"]


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


def test_a_reply_serving_every_tier_has_exactly_the_declared_fields(memory: Memory) -> None:
    # Given memory with episodes, a confirmed fact and a validated procedure to serve
    confirm_fact_and_approve(memory)
    # When the core builds the reply, as the Lambda sends it (JSON)
    reply = json.loads(json.dumps(bootstrap(REQUEST, memory.ports)))
    assert reply["episodes"] and reply["episodes"][0]["units"] and reply["facts"]
    assert reply["procedure"] is not None and reply["procedure"]["receipt"]
    # Then every object in it has every field its type declares, of its type, and no other
    assert conformance_errors(reply, BootstrapReply) == []


def test_an_empty_reply_has_exactly_the_declared_fields(memory: Memory) -> None:
    # Given memory with nothing to serve
    # When the core builds the reply
    reply = json.loads(json.dumps(bootstrap(REQUEST, memory.ports)))
    # Then it is still of its type: the empty lists, no procedure, no token
    assert (reply["context"], reply["context_token"], reply["procedure"]) == ("", None, None)
    assert conformance_errors(reply, BootstrapReply) == []


def test_the_checker_finds_a_missing_an_undeclared_and_a_mistyped_field(memory: Memory) -> None:
    # Given a reply the core built, then spoilt three ways
    reply: dict[str, Any] = json.loads(json.dumps(bootstrap(REQUEST, memory.ports)))
    del reply["truncated"]
    reply["extra"] = 1
    reply["timings_ms"]["total"] = "slow"
    # Then each is named
    assert conformance_errors(reply, BootstrapReply) == [
        "reply: no truncated",
        "reply: undeclared extra",
        "reply.timings_ms.total: not a number",
    ]


def test_every_key_of_a_reply_is_required() -> None:
    # The SDK checks a function's reply for each of them: none is left to older deployments
    assert BootstrapReply.__optional_keys__ == frozenset()
    assert set(get_type_hints(BootstrapReply)) == BOOTSTRAP_REPLY_KEYS


@pytest.mark.parametrize("name", VIEWS)
def test_the_sdk_exports_the_cores_types_not_a_copy(name: str) -> None:
    # A restatement in the SDK would drift from what the core builds
    assert getattr(sdk_types, name) is getattr(bootstrap_reply, name)
    assert getattr(sdk, name, getattr(bootstrap_reply, name)) is getattr(bootstrap_reply, name)
    assert sdk_types.BOOTSTRAP_REPLY_KEYS is BOOTSTRAP_REPLY_KEYS
