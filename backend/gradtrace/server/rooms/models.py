"""What a room carries: the lecturer's view, polls, and the events pushed to streams."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from gradtrace.language.limits import Limits

_SOURCE_CHARS = Limits().source_chars
# A room code: 6 characters nobody confuses when read off a projector (no 0/O, 1/I/L).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
Code = Annotated[str, Field(pattern=f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")]


def _integral(value: object) -> object:
    """As JSON Schema counts integers: 3.0 is one (true is not, and strict refuses it)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(_integral)]


class Strict(BaseModel):
    # Strict: `"revealed": 0` is no boolean, `"step": "3"` no integer.
    model_config = ConfigDict(extra="forbid", strict=True)


class Zoom(Strict):
    k: float = Field(gt=0, le=1000)
    x: float = Field(ge=-1e7, le=1e7)
    y: float = Field(ge=-1e7, le=1e7)


class Poll(Strict):
    """A predict-mode question: the gradient of `node` at backward step `step`."""

    id: JsonInt = Field(ge=1, le=1_000_000, description="a new id for each question")
    node: str = Field(max_length=64)
    step: JsonInt = Field(ge=0, le=10_000_000)
    revealed: bool = Field(default=False, description="the answer is shown to the class")


class View(Strict):
    """What the lecturer shows: the followers' pages show the same."""

    source: str = Field(max_length=_SOURCE_CHARS, description="the program")
    device: str = Field(default="auto", max_length=16)
    seed: JsonInt = Field(default=0, ge=0, le=2**53 - 1)
    step: JsonInt = Field(default=0, ge=0, le=10_000_000, description="the player's step")
    selected: str | None = Field(default=None, max_length=64, description="the selected node")
    zoom: Zoom | None = None
    view: Literal["graph", "torchviz"] = "graph"
    poll: Poll | None = None


class RoomState(Strict):
    code: Code
    version: int = Field(description="counts the lecturer's updates; followers keep the newest")
    view: View


class RoomSnapshot(Strict):
    state: RoomState
    followers: int = Field(description="streams following the room now, on every replica")


class RoomCreated(Strict):
    code: Code
    token: str = Field(description="the lecturer's secret: `Authorization: Bearer <token>`")
    url: str = Field(description="the link students open (path and query)")
    idle_timeout_s: int = Field(description="the room ends after this long without its lecturer")


class AnswerIn(Strict):
    poll: JsonInt = Field(ge=1, le=1_000_000)
    value: float = Field(allow_inf_nan=False, ge=-1e12, le=1e12)


class Distribution(Strict):
    """The class's answers to a poll, for the lecturer (never sent to followers)."""

    poll: int
    count: int
    values: list[float] = Field(description="every answer, sorted (at most max_answers)")


class StateEvent(Strict):
    type: Literal["state"] = "state"
    state: RoomState


class FollowersEvent(Strict):
    type: Literal["followers"] = "followers"
    count: int


class AnswersEvent(Strict):
    type: Literal["answers"] = "answers"
    answers: Distribution


class ClosedEvent(Strict):
    type: Literal["closed"] = "closed"
    reason: Literal["ended", "idle"]


RoomEvent = Annotated[
    StateEvent | FollowersEvent | AnswersEvent | ClosedEvent, Field(discriminator="type")
]
