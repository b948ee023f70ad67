"""The Trace as pydantic objects, built straight from the writer's dict.

`gradtrace.run` and `gradtrace.capture` hand the caller a `Trace`. Writing it as JSON and
validating that back cost 3.5x the job at 10,000 ops (pydantic checks ~14 us per
TensorData); the data is our own, shaped by `serialize.build_trace`, so each object is
made as `model_construct` makes one, without validation: its fields set as given,
defaults for the rest. The tests compare the result with the validated JSON of the same
program, field by field.

What differs from validating the JSON, on purpose:

- A float32 tensor's `values` are its numbers as `tensor.tolist()` gives them (0.1 is
  0.10000000149011612), as one-element tensors and stats already are; the JSON writes
  arrays in float32's shortest decimal form. Equal as float32, and ~50 ns a number
  cheaper than turning each array into that text and back.
- The contents of one tensor at one moment (a gradient that is one Function's output and
  a tensor's `.grad` event) are one TensorData object wherever the trace meets them, and
  equal Spans and LoopFrames (the nodes of one loop iteration) are one object: as the
  JSON writes such data once. Treat the Trace as read-only, or copy a part first.

Each class's plan is made once (which fields to rename or convert, their defaults); a
construction makes fresh closures over the plans, so its sharing lasts one trace.
"""

from __future__ import annotations

import functools
import gc
import types
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from gradtrace.trace.models import Event, LoopFrame, Span, TensorData, Trace
from gradtrace.trace.tensordata import Snapshot

Convert = Callable[[Any], Any]

# Setting a model's slots through their descriptors: object.__setattr__ looks each one up.
_SLOTS = BaseModel.__dict__
_set_dict = _SLOTS["__dict__"].__set__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__
_new = object.__new__


def construct_trace(data: dict[str, Any]) -> Trace:
    """`data` (build_trace's dict, its TensorData materialised) as a Trace."""
    with collector_paused():
        trace = _Construction().model(Trace)(data)
        _promote_young_objects()
    assert isinstance(trace, Trace)
    return trace


@contextmanager
def collector_paused() -> Iterator[None]:
    """Tens of thousands of new objects, none of them garbage: the cyclic GC would scan
    them again at each pass while they are made (reference counting frees the rest)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _promote_young_objects() -> None:
    """Move every object the cyclic GC tracks to its oldest generation, without a scan.

    The trace's objects are long-lived, and none is part of a cycle. Left young, the
    first two collections after `run()` returns would scan every one of them (at 10,000
    ops, 360 ms on top of a 900 ms run); the oldest generation is scanned only when it
    has grown by a quarter. freeze() then unfreeze() moves them there in constant time.
    A process that froze objects itself (a forking server) keeps them frozen: then
    nothing is moved.
    """
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


# ---------------------------------------------------------------------- the plans, made once

# How a field's value is made from its JSON form, as a small tree: made into closures by
# each construction. None: the value is that already.
Recipe = tuple[Any, ...] | None


@dataclass(frozen=True)
class _Plan:
    cls: type[BaseModel]
    keys: frozenset[str]  # as the JSON names them
    names: frozenset[str]  # as the model does
    renamed: bool  # some field's JSON name is not its name (`pass`, `schema`)
    converted: tuple[tuple[str, Recipe], ...]  # (name, recipe) of the fields to convert
    fields: tuple[tuple[str, str], ...]  # (key, name), in the model's order
    defaults: dict[str, Any]  # name -> FieldInfo of the optional fields


@functools.cache
def _plan(cls: type[BaseModel]) -> _Plan:
    fields = tuple((info.alias or name, name) for name, info in cls.model_fields.items())
    converted = []
    for name, info in cls.model_fields.items():
        recipe = _recipe(info.annotation)
        if recipe is not None:
            converted.append((name, recipe))
    return _Plan(
        cls=cls,
        keys=frozenset(key for key, _ in fields),
        names=frozenset(name for _, name in fields),
        renamed=any(key != name for key, name in fields),
        converted=tuple(converted),
        fields=fields,
        defaults={n: info for n, info in cls.model_fields.items() if not info.is_required()},
    )


_UNIONS = (typing.Union, types.UnionType)
# Small models of plain numbers that many nodes hold the same of: one object per value.
_VALUES: tuple[type[BaseModel], ...] = (Span, LoopFrame)


def _recipe(annotation: Any) -> Recipe:
    if annotation is Event:
        return ("event",)
    if annotation is TensorData:
        return ("tensor",)
    if annotation in _VALUES:
        return ("value", annotation)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        inner = args[0]
        if typing.get_origin(inner) in _UNIONS:
            return _kinds([a for a in typing.get_args(inner) if a is not type(None)])
        return _recipe(inner)
    if origin in _UNIONS:
        present = [a for a in args if a is not type(None)]
        if len(present) == 1:
            return _recipe(present[0])  # X | None: None passes through
        if all(isinstance(a, type) and issubclass(a, BaseModel) for a in present):
            return _kinds(present)
        return None
    if origin is list:
        item = _recipe(args[0])
        if item is None:
            return None
        nullable = type(None) in typing.get_args(args[0])
        return ("list", item, nullable)
    if origin is dict:
        item = _recipe(args[1])
        return None if item is None else ("dict", item)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return ("model", annotation)
    return None


def _kinds(models: list[type[BaseModel]]) -> Recipe:
    """A union told apart by its `kind` field (graph nodes)."""
    return ("kinds", tuple((m.model_fields["kind"].default, m) for m in models))


@functools.cache
def _event_models() -> dict[str, type[BaseModel]]:
    """Each timeline event's model, by its tag (models._event_kind's answer)."""
    outer = typing.get_args(Event)[0]  # the union inside Annotated[..., Discriminator]
    found: dict[str, type[BaseModel]] = {}
    for member in typing.get_args(outer):
        model, *metadata = typing.get_args(member)
        found[next(m.tag for m in metadata if hasattr(m, "tag"))] = model
    return found


# ---------------------------------------------------------------------- one construction


class _Construction:
    """The builders of one trace, and what it makes once and shares (TensorData, spans)."""

    def __init__(self) -> None:
        self._models: dict[type[BaseModel], Convert] = {}
        self._tensors: dict[int, Any] = {}  # id(Snapshot) -> TensorData

    def convert(self, recipe: Recipe) -> Convert | None:
        if recipe is None:
            return None
        kind = recipe[0]
        if kind == "model":
            return self.model(recipe[1])
        if kind == "tensor":
            return self._tensordata()
        if kind == "value":
            return self._by_value(self.model(recipe[1]))
        if kind == "event":
            return self._event()
        if kind == "kinds":
            by_kind = {tag: self.model(m) for tag, m in recipe[1]}
            return lambda data: by_kind[data["kind"]](data)
        if kind == "list":
            item = self._required(recipe[1])
            if recipe[2] and recipe[1] != ("tensor",):  # TensorData's converter takes None
                return lambda items: [None if x is None else item(x) for x in items]
            return lambda items: list(map(item, items))
        if kind == "dict":
            item = self._required(recipe[1])
            return lambda items: {k: None if v is None else item(v) for k, v in items.items()}
        raise AssertionError(recipe)

    def _required(self, recipe: Recipe) -> Convert:
        convert = self.convert(recipe)
        assert convert is not None
        return convert

    def model(self, cls: type[BaseModel]) -> Convert:
        found = self._models.get(cls)
        if found is None:
            found = self._models[cls] = self._model(_plan(cls))
        return found

    def _model(self, plan: _Plan) -> Convert:
        cls = plan.cls
        names = plan.names
        field_count = len(plan.fields)
        names_in_order = tuple(name for _, name in plan.fields)
        renamed = plan.renamed
        converted = tuple((name, self.convert(recipe)) for name, recipe in plan.converted)
        # Every field given: one set shared by the objects of this trace (pydantic only ever
        # adds a field's name to it, which this set already holds).
        every_field = set(names)

        def build(data: dict[str, Any]) -> BaseModel:
            # The writer's dict becomes the object's own: each is made for one place in
            # the trace (or, a snapshot's data, built once and shared).
            # The writer's dicts are ours, not a caller's: one with as many keys as the
            # model has fields has all of them, in the model's order (the order model_dump
            # writes, and a renamed field's value is found by its place); only the count
            # is checked here, the order by test_run_objects and test_capture_objects.
            given = None
            if len(data) != field_count:  # some left out: their defaults
                data, given = _complete(plan, data)
            values = dict(zip(names_in_order, data.values())) if renamed else data
            for name, convert in converted:
                value = values[name]
                if value is not None:
                    values[name] = convert(value)  # type: ignore[misc]
            obj = _new(cls)
            _set_dict(obj, values)
            _set_fields_set(obj, every_field if given is None else given)
            _set_extra(obj, None)
            _set_private(obj, None)
            return obj

        return build

    def _by_value(self, build: Convert) -> Convert:
        """`build`, once per distinct value (a dict of plain numbers) in this trace."""
        made: dict[tuple[Any, ...], Any] = {}
        # The writer shares one dict among the nodes of one place (a loop's frames, a
        # span): met again, it is found by its identity (the trace holds every dict
        # while it is built, so no id is reused meanwhile).
        by_identity: dict[int, Any] = {}

        def shared(data: dict[str, Any]) -> Any:
            found = by_identity.get(id(data))
            if found is not None:
                return found
            key = tuple(data.items())
            found = made.get(key)
            if found is None:
                found = made[key] = build(data)
            by_identity[id(data)] = found
            return found

        return shared

    def _tensordata(self) -> Convert:
        build = self.model(TensorData)
        made = self._tensors
        ndarray = np.ndarray

        def from_dict(data: dict[str, Any]) -> Any:
            values = data["values"]
            if type(values) is ndarray:
                data["values"] = values.tolist()
            return build(data)

        def tensordata(value: Any) -> Any:
            if type(value) is not Snapshot:
                return None if value is None else from_dict(value)
            key = id(value)
            found = made.get(key)
            if found is None:
                found = made[key] = from_dict(value.materialize())
            return found

        return tensordata

    def _event(self) -> Convert:
        models = {tag: self.model(m) for tag, m in _event_models().items()}
        tensor_event = models["backward-tensor"]
        function_event = models["backward-function"]

        def event(data: dict[str, Any]) -> Any:
            phase = data["phase"]
            if phase == "backward":
                if data["node_kind"] == "tensor":
                    return tensor_event(data)
                return function_event(data)
            return models[phase](data)

        return event


def _complete(plan: _Plan, data: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """A model's values from a dict that leaves some fields out (their defaults)."""
    unknown = data.keys() - plan.keys
    if unknown:
        raise ValueError(f"{plan.cls.__name__} has no field {sorted(unknown)}")
    values: dict[str, Any] = {}
    given: set[str] = set()
    for key, name in plan.fields:
        if key in data:
            values[key] = data[key]
            given.add(name)
        else:
            values[key] = plan.defaults[name].get_default(call_default_factory=True)
    return values, given
