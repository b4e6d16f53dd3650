"""Hypothesis strategies that read a JSON Schema: documents it describes, and near misses.

:func:`documents` walks the schema (``$ref``, ``anyOf``/``oneOf``, ``not``, ``const``, ``enum``,
``type``, ``pattern``, lengths, item and property counts, ``additionalProperties``) and draws a
document of it: short values mostly, values at each limit sometimes. :func:`near_misses` takes
such a document and changes one to three places in it, as a sender gets an event wrong: a value
of another type or of another part of the schema, a string or a list one past its limit, a key
dropped, an unknown key or a key of another object added, a tag (``type``) swapped for another.
Whether the result is valid is for the schema to say; the strategies only aim near the edges.

(hypothesis-jsonschema would draw the valid documents, but its releases fail on the Hypothesis
this project runs; this walker draws for the keywords the published schemas use, and fails
loudly on any other.)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from hypothesis import strategies as st

Schema = dict[str, Any]

# Keywords that only annotate.
_ANNOTATIONS = frozenset({"title", "description", "default", "$schema", "$id", "examples"})
_HANDLED = _ANNOTATIONS | {
    "$ref",
    "$defs",
    "anyOf",
    "oneOf",
    "not",
    "const",
    "enum",
    "type",
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "additionalProperties",
    "maxProperties",
}

# Characters regex engines and str.strip disagree on, and characters that look blank.
SPACES = "\t\n\x0b\x0c\r \x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2007\u200a"
SPACES += "\u2028\u2029\u202f\u205f\u3000\ufeff\u200b\u180e\u2060\u00ad\x00\x7f"

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.text(st.sampled_from(SPACES), max_size=3),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


class SchemaWalker:
    """Strategies for the documents of one schema (its ``$defs`` resolved against it)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._refs: dict[str, st.SearchStrategy[Any]] = {}
        self.strings = sorted(_strings_named(schema))
        self.keys = sorted(_property_names(schema))

    def resolve(self, node: Schema) -> Schema:
        """``node`` with its ``$ref`` followed."""
        while "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/$defs/"):
                raise ValueError(f"unsupported $ref {ref!r}")
            node = self.schema["$defs"][ref.removeprefix("#/$defs/")]
        return node

    def documents(self, node: Schema | None = None) -> st.SearchStrategy[Any]:
        """Documents ``node`` (the whole schema by default) describes."""
        return self._strategy(self.schema if node is None else node)

    def _strategy(self, node: Schema, small: bool = False) -> st.SearchStrategy[Any]:
        """What ``node`` describes; ``small``: nothing at a length or count limit (the items
        of a list drawn at its limit are small, so a document stays near the event bound).
        """
        unknown = set(node) - _HANDLED
        if unknown:
            raise ValueError(f"the walker does not draw for {sorted(unknown)}")
        if "$ref" in node:
            key = f"{node['$ref']} {small}"
            if key not in self._refs:
                # Deferred: definitions may refer to themselves.
                self._refs[key] = st.deferred(lambda: self._strategy(self.resolve(node), small))
            drawn = self._refs[key]
        elif "anyOf" in node or "oneOf" in node:
            branches = node.get("anyOf", node.get("oneOf"))
            drawn = st.one_of([self._strategy(b, small) for b in branches])
        elif "const" in node:
            drawn = st.just(node["const"])
        elif "enum" in node:
            drawn = st.sampled_from(node["enum"])
        else:
            types = node.get("type")
            if types is None:
                drawn = json_values
            elif isinstance(types, list):
                drawn = st.one_of([self._typed(node, t, small) for t in types])
            else:
                drawn = self._typed(node, types, small)
        if "not" in node:
            refused = jsonschema.Draft202012Validator(node["not"])
            drawn = drawn.filter(lambda value: not refused.is_valid(value))
        return drawn

    def _typed(self, node: Schema, kind: str, small: bool) -> st.SearchStrategy[Any]:
        draw: dict[str, Callable[[Schema, bool], st.SearchStrategy[Any]]] = {
            "null": lambda _, __: st.none(),
            "boolean": lambda _, __: st.booleans(),
            "integer": lambda n, _: _integers(n),
            "number": lambda n, _: _numbers(n),
            "string": _strings,
            "array": self._arrays,
            "object": self._objects,
        }
        return draw[kind](node, small)

    def _arrays(self, node: Schema, small: bool) -> st.SearchStrategy[list[Any]]:
        items = self._strategy(node.get("items", {}), small)
        low, high = node.get("minItems", 0), node.get("maxItems")
        short = st.lists(items, min_size=low, max_size=max(low, min(high or 3, 3)))
        if small or high is None or high <= 3:
            return short
        # At the limit: one small item repeated.
        at_limit = self._strategy(node.get("items", {}), True).map(lambda item: [item] * high)
        return st.one_of(short, short, short, short, short, at_limit)

    def _objects(self, node: Schema, small: bool) -> st.SearchStrategy[dict[str, Any]]:
        properties: dict[str, Schema] = node.get("properties", {})
        required = set(node.get("required", ()))
        extra = node.get("additionalProperties", True)
        most = node.get("maxProperties")
        fixed = st.fixed_dictionaries(
            {k: self._strategy(v, small) for k, v in properties.items() if k in required},
            optional={
                k: self._strategy(v, small) for k, v in properties.items() if k not in required
            },
        )
        if extra is False:
            return fixed
        values = json_values if extra is True else self._strategy(extra, True)
        # Unknown keys, and keys other objects of the schema know (a part with a "name").
        known = [k for k in self.keys if k not in properties]
        keys = (st.text(max_size=10) | st.sampled_from(known)).filter(lambda k: k not in properties)
        extras = st.dictionaries(keys, values, max_size=3)
        if most is not None and not small:
            # At the key limit now and then.
            extras = st.one_of(
                extras,
                st.builds(lambda v: {f"extra_{i}": v for i in range(most)}, values),
            )

        def join(fields: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
            document, added = fields
            for key, value in added.items():
                if most is not None and len(document) >= most:
                    break
                document.setdefault(key, value)
            return document

        return st.tuples(fixed, extras).map(join)

    # --- near misses ------------------------------------------------------------------------

    def near_misses(self) -> st.SearchStrategy[Any]:
        """Documents of the schema with one to three defects, or none."""

        @st.composite
        def mutated(draw: st.DrawFn) -> Any:
            document: Any = draw(self.documents())
            for _ in range(draw(st.integers(0, 3))):
                document = self._mutate(draw, document)
            return document

        return mutated()

    def _mutate(self, draw: st.DrawFn, document: Any) -> Any:
        path = draw(st.sampled_from(list(_paths(document))))
        if not path:
            return draw(json_values)
        parent, last = _at(document, path[:-1]), path[-1]
        target = parent[last]
        operation = draw(
            st.sampled_from(
                [
                    "replace",
                    "another_part",
                    "a_tag",
                    "delete",
                    "add_unknown",
                    "add_known",
                    "overflow",
                    "duplicate",
                ]
            )
        )
        if operation == "delete" and isinstance(parent, dict):
            del parent[last]
        elif operation == "add_unknown" and isinstance(target, dict):
            target[draw(st.text(max_size=12))] = draw(json_values)
        elif operation == "add_known" and isinstance(target, dict):
            key = draw(st.sampled_from(self.keys))
            target[key] = draw(self._value_for(key) | json_values)
        elif operation == "overflow":
            parent[last] = draw(_one_past(target))
        elif operation == "duplicate" and isinstance(target, list) and target:
            target.append(copy.deepcopy(target[-1]))
        elif operation == "a_tag" and isinstance(target, str):
            parent[last] = draw(st.sampled_from(self.strings))
        elif operation == "another_part":
            name = draw(st.sampled_from(sorted(self.schema.get("$defs", {}))))
            parent[last] = draw(self.documents({"$ref": f"#/$defs/{name}"}))
        else:
            parent[last] = draw(json_values | st.sampled_from(self.strings))
        return document

    def _value_for(self, key: str) -> st.SearchStrategy[Any]:
        """Values some object of the schema holds under ``key``."""
        schemas = [p[key] for p in _properties_of(self.schema) if key in p]
        return st.one_of([self._strategy(s) for s in schemas])


def _integers(node: Schema) -> st.SearchStrategy[int]:
    low, high = node.get("minimum"), node.get("maximum")
    return st.integers(None if low is None else int(low), None if high is None else int(high))


def _numbers(node: Schema) -> st.SearchStrategy[float | int]:
    low, high = node.get("minimum"), node.get("maximum")
    edges = [v for v in (low, high) if v is not None]
    return st.one_of(
        st.floats(low, high, allow_nan=False, allow_infinity=False),
        _integers(node),
        *([st.sampled_from(edges)] if edges else []),
    )


def _strings(node: Schema, small: bool) -> st.SearchStrategy[str]:
    low, high = node.get("minLength", 0), node.get("maxLength")
    pattern = node.get("pattern")
    if pattern is not None:
        drawn = st.from_regex(pattern, fullmatch=pattern.startswith("^"))
        if high is not None:
            drawn = drawn.filter(lambda s: low <= len(s) <= high)
        return drawn
    short = st.text(min_size=low, max_size=max(low, min(high or 20, 20)))
    blank = st.text(st.sampled_from(SPACES), min_size=low, max_size=max(low, min(high or 3, 3)))
    if small or high is None or high <= 20:
        return short | blank
    at_limit = st.sampled_from("aé📨").map(lambda c: c * high)
    return st.one_of(short, short, short, short, short, blank, at_limit)


def _one_past(value: Any) -> st.SearchStrategy[Any]:
    """``value`` grown past a limit it may be at: one more character or item, or many."""
    if isinstance(value, str):
        return st.sampled_from([value + "x", value * 2 + "x", value + "\n"])
    if isinstance(value, list) and value:
        return st.sampled_from([value + value[-1:], value * 2])
    if isinstance(value, dict):
        return st.just({**value, **{f"more_{i}": None for i in range(65)}})
    return st.just(value)


def _paths(document: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _paths(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from _paths(value, (*path, index))


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def _nodes(schema: Any) -> Iterator[Any]:
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _properties_of(schema: Schema) -> list[dict[str, Schema]]:
    return [n["properties"] for n in _nodes(schema) if isinstance(n.get("properties"), dict)]


def _property_names(schema: Schema) -> set[str]:
    return {key for properties in _properties_of(schema) for key in properties}


def _strings_named(schema: Schema) -> set[str]:
    """Every string the schema names as a value (consts and enums): tags to swap in."""
    found: set[str] = set()
    for node in _nodes(schema):
        if isinstance(node.get("const"), str):
            found.add(node["const"])
        if isinstance(node.get("enum"), list):
            found.update(v for v in node["enum"] if isinstance(v, str))
    return found


__all__ = ["SchemaWalker", "json_values"]
