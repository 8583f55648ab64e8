"""The engine's types in the OpenAPI spec, made from `engine.types` rather than written twice.

Each TypedDict becomes a component schema of its own name; a union of TypedDicts that all
carry a one-value `Literal` under the same key (`type` for moves and events, `kind` for
pending decisions) becomes a `oneOf` with a `discriminator` on that key, so a generated
client has a class per move type. A marshmallow field that carries one of these names
(`Typed`) is drawn in the spec as a `$ref` to it; it loads as a JSON object, and the engine
checks the rest (`engine.moves.check_form`).
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict

import marshmallow as ma

import engine
from pbem.store.models import GAME_STATUSES

#: The unions the spec names (their members are named by their own class names).
NAMED_UNIONS: dict[str, Any] = {
    "Move": engine.Move,
    "Event": engine.Event,
    "Pending": engine.Pending,
}

#: The API's game view: the engine's view with the game's own fields beside it.
GAME_FIELDS: dict[str, Any] = {
    "id": {"type": "integer"},
    "title": {"type": "string"},
    "seq": {"type": "integer", "description": "The game's seq: send it back as expected_seq"},
    "status": {"type": "string", "enum": list(GAME_STATUSES)},
}

#: A time-bank game's banks, by colour (`SeatClock`: the games blueprint's schema).
CLOCK_FIELD: dict[str, Any] = {
    "type": "object",
    "additionalProperties": {"$ref": "#/components/schemas/SeatClock"},
    "description": "Only in a time-bank game (timing.clock): each seat's time bank, by colour",
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


class Components:
    """Schemas for annotations, each TypedDict (and each named union) registered once."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}

    def of(self, annotation: Any) -> dict[str, Any]:
        """The JSON schema (OpenAPI 3.0) of a type annotation."""
        for name, union in NAMED_UNIONS.items():
            if annotation == union:
                return self.named_union(name, union)
        if is_typeddict(annotation):
            return self.typeddict(annotation)
        origin, args = get_origin(annotation), get_args(annotation)
        if origin is Literal:
            kinds = {type(a) for a in args}
            return {"type": _SCALARS[kinds.pop()], "enum": list(args)} if len(kinds) == 1 else {}
        if origin in (types.UnionType, typing.Union):
            return self._union(args)
        if origin is list:
            return {"type": "array", "items": self.of(args[0])}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.of(args[1])}
        if annotation is int:
            return dict(_INTEGER)
        if annotation in _SCALARS:
            return {"type": _SCALARS[annotation]}
        return {}  # Any: JSON of any shape

    def _union(self, args: tuple[Any, ...]) -> dict[str, Any]:
        present = [a for a in args if a is not type(None)]
        schema = self.of(present[0]) if len(present) == 1 else self._tagged(present)
        if len(present) < len(args):  # `X | None`
            schema = (
                {**schema, "nullable": True}
                if "$ref" not in schema
                else {"allOf": [schema], "nullable": True}
            )
        return schema

    def _tagged(self, members: list[Any]) -> dict[str, Any]:
        schema: dict[str, Any] = {"oneOf": [self.of(m) for m in members]}
        tag = _tag(members)
        if tag is not None:
            schema["discriminator"] = {
                "propertyName": tag,
                "mapping": {
                    get_args(get_type_hints(m)[tag])[0]: _ref(m.__name__)["$ref"] for m in members
                },
            }
        return schema

    def named_union(self, name: str, union: Any) -> dict[str, Any]:
        if name not in self.schemas:
            self.schemas[name] = {}  # taken, in case it refers to itself
            self.schemas[name] = self._tagged(list(get_args(union)))
        return _ref(name)

    def typeddict(self, cls: Any) -> dict[str, Any]:
        name = cls.__name__
        if name not in self.schemas:
            self.schemas[name] = {}
            hints = get_type_hints(cls)
            schema: dict[str, Any] = {
                "type": "object",
                "properties": {key: self.of(hint) for key, hint in hints.items()},
            }
            required = sorted(cls.__required_keys__)
            if required:
                schema["required"] = required
            if cls.__doc__ and not cls.__doc__.startswith(f"{name}("):
                schema["description"] = " ".join(cls.__doc__.split())
            self.schemas[name] = schema
        return _ref(name)


_SCALARS: dict[Any, str] = {int: "integer", str: "string", bool: "boolean", float: "number"}
#: A number of the game's (a card, a count, a step): a 32-bit integer, which every client
#: language holds. Any larger one in a move is illegal, and one of over 30 digits is refused
#: as a body (pbem.api.safe_json), so the spec says what the server takes.
_INTEGER = {"type": "integer", "minimum": -(2**31), "maximum": 2**31 - 1}


def _tag(members: list[Any]) -> str | None:
    """The key under which every member holds a one-value Literal, if they share one."""
    if not all(is_typeddict(m) for m in members):
        return None
    for key in ("type", "kind"):
        values = []
        for member in members:
            hint = get_type_hints(member).get(key)
            if get_origin(hint) is not Literal or len(get_args(hint)) != 1:
                break
            values.append(get_args(hint)[0])
        else:
            if len(set(values)) == len(values):
                return key
    return None


@cache
def engine_components() -> dict[str, dict[str, Any]]:
    """Every schema the API names: moves, events, pending decisions, views, and the game view.
    Kept once per process: the types do not change (callers copy before they mutate)."""
    components = Components()
    for name, union in NAMED_UNIONS.items():
        components.named_union(name, union)
    # A move is closed: the engine refuses a field it does not know (engine.moves.check_form).
    for move in get_args(engine.Move):
        components.schemas[move.__name__]["additionalProperties"] = False
    components.of(engine.View)
    components.schemas["GameView"] = {
        "allOf": [
            _ref("View"),
            {
                "type": "object",
                "properties": {**GAME_FIELDS, "clock": CLOCK_FIELD},
                "required": sorted(GAME_FIELDS),
            },
        ],
        "description": "The engine's view for the caller, with the game's id, title, seq and "
        "status beside it.",
    }
    return components.schemas


class Typed(ma.fields.Raw):
    """A JSON object of one of the engine's types, named as in `engine_components`: loaded as
    the object it is (the engine checks its fields), drawn in the spec as a reference only."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def __init__(self, schema_name: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.schema_name = schema_name

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return value


def typed_ref(converter: Any, field: ma.fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a `Typed` field is a reference to its schema."""
    if isinstance(field, Typed):
        return {"$ref": _ref(field.schema_name)["$ref"]}
    return {}
