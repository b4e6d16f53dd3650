"""Validation errors as lines a person can act on: every refused field named by its path, and a
misspelt field name answered with the one it most likely meant.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

# At most this many problems are listed one by one; the rest are counted.
MAX_LISTED = 20
# How alike a misspelt name must be to a field's to be offered (difflib's ratio).
_CUTOFF = 0.7

Loc = tuple[int | str, ...]


def field_path(loc: Loc) -> str:
    """A pydantic error location as a dotted path, e.g. ``artifacts.facts[2].confidence``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif not part.startswith(("function-", "shape:")) and "[" not in part:
            path += f".{part}" if path else part
    return path or "event"


def field_problems(
    error: ValidationError, model: type[BaseModel] | None = None, *, blank_pattern: str = ""
) -> list[tuple[str, str]]:
    """Every problem ``error`` holds as (field path, message), in pydantic's order.

    An unknown field whose name is close to one of the model's (a missing required one first)
    says which it likely meant, and that field's own "Field required" is then left out: one
    typo is one line. ``model`` (the model validated) lets fields that are not missing be
    offered too, at every nesting level.
    """
    details = error.errors(include_url=False)
    missing: dict[Loc, list[str]] = {}
    for detail in details:
        loc = tuple(detail["loc"])
        if detail["type"] == "missing" and loc and isinstance(loc[-1], str):
            missing.setdefault(loc[:-1], []).append(loc[-1])
    guesses: dict[Loc, str] = {}
    if model is not None:
        guesses.update(_ignored_guesses(details, model, missing))
    for detail in details:
        loc = tuple(detail["loc"])
        if detail["type"] == "extra_forbidden" and loc and isinstance(loc[-1], str):
            parent, name = loc[:-1], loc[-1]
            known = _fields_at(model, parent) if model is not None else set()
            guess = closest(name, missing.get(parent, ())) or closest(name, known)
            if guess is not None:
                guesses[loc] = guess
    explained: dict[tuple[Loc, int | str], Loc] = {
        (loc[:-1], guess): loc for loc, guess in guesses.items()
    }
    problems: list[tuple[str, str]] = []
    for detail in details:
        loc = tuple(detail["loc"])
        if detail["type"] == "missing" and (loc[:-1], loc[-1]) in explained:
            typo = explained[(loc[:-1], loc[-1])]
            if not _reported(details, typo):
                # A model that ignores unknown fields: the typo is reported in its place.
                problem = (field_path(typo), f"unknown field; did you mean {loc[-1]}?")
                if problem not in problems:
                    problems.append(problem)
            continue
        problem = (field_path(loc), _message(detail, guesses.get(loc), blank_pattern))
        if problem not in problems:
            problems.append(problem)
    return problems


def _ignored_guesses(
    details: list[Any], model: type[BaseModel], missing: dict[Loc, list[str]]
) -> dict[Loc, str]:
    """For a model that ignores unknown fields: each unknown key of an object that misses a
    required field it is close to, with that field.
    """
    guesses: dict[Loc, str] = {}
    for detail in details:
        loc = tuple(detail["loc"])
        given = detail.get("input")
        if detail["type"] != "missing" or not isinstance(given, dict) or not loc:
            continue
        parent = loc[:-1]
        unknown = [k for k in given if isinstance(k, str) and k not in _fields_at(model, parent)]
        for key in unknown:
            if (*parent, key) not in guesses and closest(key, missing.get(parent, ())) == loc[-1]:
                guesses[(*parent, key)] = str(loc[-1])
    return guesses


def _reported(details: list[Any], loc: Loc) -> bool:
    return any(tuple(d["loc"]) == loc for d in details)


def listed(problems: list[tuple[str, str]]) -> str:
    """The problems after the first, as the rest of its one line (bounded)."""
    shown = [f"; {path}: {message}" for path, message in problems[1:MAX_LISTED]]
    more = len(problems) - MAX_LISTED
    return "".join(shown) + (f"; and {more} more" if more > 0 else "")


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``name`` most likely misspells, or None if none is close."""
    pool = [c for c in candidates if c != name]
    found = difflib.get_close_matches(name, pool, n=1, cutoff=_CUTOFF)
    if not found:
        # A different case only (``Tenant_ID``): difflib weighs each letter as a typo.
        found = [c for c in pool if c.lower() == name.lower()][:1]
    return found[0] if found else None


def _message(detail: Any, guess: str | None, blank_pattern: str) -> str:
    if detail["type"] == "extra_forbidden":
        return "unknown field" + (f"; did you mean {guess}?" if guess else "")
    if detail["type"] == "missing":
        return "Field required"
    if (
        detail["type"] == "string_pattern_mismatch"
        and blank_pattern
        and detail.get("ctx", {}).get("pattern") == blank_pattern
    ):
        return "must hold something besides whitespace"
    return str(detail["msg"])


def _fields_at(model: type[BaseModel], loc: Loc) -> set[str]:
    """The field names (and aliases) of the models that may sit at ``loc`` under ``model``."""
    here: list[type[BaseModel]] = [model]
    for part in loc:
        if isinstance(part, int):
            continue
        named = [m for m in here if part in _fields_of(m)]
        if named:
            here = [n for m in named for n in _models_in(_annotation(m, part))]
        else:  # a union member's tag, or a validator's step: keep the member it names, if any
            here = [m for m in here if m.__name__ == part] or here
    return {name for m in here for name in _fields_of(m)}


def _fields_of(model: type[BaseModel]) -> dict[str, str]:
    """Each name a field of ``model`` is given by (its name, its alias), to the field's name."""
    names: dict[str, str] = {}
    for name, field in model.model_fields.items():
        names[name] = name
        for alias in (field.alias, field.validation_alias):
            if isinstance(alias, str):
                names[alias] = name
    return names


def _annotation(model: type[BaseModel], name: str) -> Any:
    return model.model_fields[_fields_of(model)[name]].annotation


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    """The models a field's value may be (through unions, lists, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    origin = get_origin(annotation)
    if origin is dict:
        return
    if origin in (Union, types.UnionType, Annotated, list, tuple, set, frozenset) or (
        origin is not None and get_args(annotation)
    ):
        args = get_args(annotation)
        for arg in args[:1] if origin is Annotated else args:
            yield from _models_in(arg)
