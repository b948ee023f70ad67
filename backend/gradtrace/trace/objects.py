"""The Trace as pydantic objects, built straight from the writer's dict.

`gradtrace.run` hands the caller a `Trace`. Writing it as JSON and validating that back
cost 3.5x the job at 10,000 ops (pydantic checks ~14 us per TensorData); the data is our
own, shaped by `serialize.build_trace`, so each object is made as `model_construct` makes
one: no validation, the fields set as given, defaults for the rest. The tests compare the
result with the validated JSON of the same program, field by field.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any

import numpy as np
import orjson
from pydantic import BaseModel

from gradtrace.trace.models import Event, TensorData, Trace, _event_kind
from gradtrace.trace.tensordata import Snapshot

Convert = Callable[[Any], Any]


def construct_trace(data: dict[str, Any]) -> Trace:
    """`data` (build_trace's dict, its TensorData materialised) as a Trace."""
    trace = _builder(Trace)(data)
    assert isinstance(trace, Trace)
    return trace


def _tensordata(value: Any) -> TensorData | None:
    if value is None:
        return None
    data = value.materialize() if isinstance(value, Snapshot) else value
    values = data.get("values")
    if isinstance(values, np.ndarray):
        # As the JSON writes them: float32 in its shortest decimal form (0.1, not
        # 0.10000000149011612), which is what a reader of the trace's JSON gets.
        data = {**data, "values": orjson.loads(orjson.dumps(values, option=_NUMPY))}
    built = _builder(TensorData)(data)
    assert isinstance(built, TensorData)
    return built


_NUMPY = orjson.OPT_SERIALIZE_NUMPY


@functools.cache
def _builder(cls: type[BaseModel]) -> Convert:
    """A function making a `cls` from its dict (keys as the JSON names them)."""
    fields: list[tuple[str, str, Convert | None]] = []
    defaults: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        fields.append((info.alias or name, name, _converter(info.annotation)))
        if not info.is_required():
            defaults[name] = info
    keys = {key for key, _, _ in fields}
    names = {name for _, name, _ in fields}
    renamed = [(key, name) for key, name, _ in fields if key != name]
    converted = [(name, convert) for _, name, convert in fields if convert is not None]
    new = cls.__new__

    def build(data: dict[str, Any]) -> BaseModel:
        if data.keys() == keys:  # every field given, as build_trace writes most objects
            values = dict(data)
            for key, name in renamed:
                values[name] = values.pop(key)
            for name, convert in converted:
                value = values[name]
                if value is not None:
                    values[name] = convert(value)
            given = set(names)
        else:
            values = {}
            for key, name, maybe in fields:
                if key in data:
                    value = data[key]
                    values[name] = value if maybe is None or value is None else maybe(value)
                else:
                    values[name] = defaults[name].get_default(call_default_factory=True)
            given = {name for key, name, _ in fields if key in data}
        obj = new(cls)
        object.__setattr__(obj, "__dict__", values)
        object.__setattr__(obj, "__pydantic_fields_set__", given)
        object.__setattr__(obj, "__pydantic_extra__", None)
        object.__setattr__(obj, "__pydantic_private__", None)
        return obj

    return build


def _converter(annotation: Any) -> Convert | None:
    """How to make a field's value from its JSON form, or None when it is that already."""
    if annotation is TensorData:
        return _tensordata
    if annotation is Event:
        return _event
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _tagged(args[0]) if typing.get_origin(args[0]) in _UNIONS else _converter(args[0])
    if origin in _UNIONS:
        present = [a for a in args if a is not type(None)]
        if len(present) == 1:
            return _converter(present[0])  # X | None: None passes through
        if all(isinstance(a, type) and issubclass(a, BaseModel) for a in present):
            return _by_kind(present)
        return None
    if origin is list:
        item = _converter(args[0])
        return None if item is None else functools.partial(_each, item)
    if origin is dict:
        item = _converter(args[1])
        return None if item is None else functools.partial(_each_value, item)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _builder(annotation)
    return None


_UNIONS = (typing.Union, types.UnionType)


def _each(convert: Convert, items: list[Any]) -> list[Any]:
    return [None if x is None else convert(x) for x in items]


def _each_value(convert: Convert, items: dict[str, Any]) -> dict[str, Any]:
    return {k: None if v is None else convert(v) for k, v in items.items()}


def _tagged(union: Any) -> Convert:
    """A union told apart by its `kind` field (graph nodes)."""
    return _by_kind([a for a in typing.get_args(union) if a is not type(None)])


def _by_kind(models: list[type[BaseModel]]) -> Convert:
    by_kind: dict[Any, Convert] = {}
    for model in models:
        kind = model.model_fields["kind"].default
        by_kind[kind] = _builder(model)
    return lambda data: by_kind[data["kind"]](data)


def _event_builders() -> dict[str, Convert]:
    outer = typing.get_args(Event)[0]  # the union inside Annotated[..., Discriminator]
    builders: dict[str, Convert] = {}
    for member in typing.get_args(outer):
        model, *metadata = typing.get_args(member)
        tag = next(m.tag for m in metadata if hasattr(m, "tag"))
        builders[tag] = _builder(model)
    return builders


_EVENTS: dict[str, Convert] = {}


def _event(data: dict[str, Any]) -> Any:
    if not _EVENTS:
        _EVENTS.update(_event_builders())
    return _EVENTS[_event_kind(data)](data)
