"""Pictures of a whole match from its record: one frame per activation, and the animation."""

from __future__ import annotations

import io
from collections.abc import Container, Iterator
from dataclasses import dataclass

from PIL import Image

from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.palette import new_image
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.record import MatchRecord, start_match
from skirmbot.rules.ruleset import PlayedMatch, Ruleset, ruleset
from skirmbot.rules.view import MatchView

FRAME_MS = 1200  # each activation stays up long enough to read the header
LAST_FRAME_MS = 4000


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a record as the replay numbers them: 0 is the match as deployed, then 1, 2,
    ... one per activation (the activation's events, and what happened between it and the
    next: the end of a turn, the next turn's start)."""

    number: int
    events: list[Event]
    side: int | None  # whose activation it was (None: step 0, or an end without one)
    turn: int  # the turn the activation began in
    done_before: int  # activations the match had done when it began (the turn clock's key)
    mp: tuple[int, ...]  # each squad's MP after it
    # the clock's key of its activation, as its ruleset keys the decision (`Decision.key`): a
    # missed deadline is kept under it ("": step 0, or none)
    key: str = ""

    @property
    def is_activation(self) -> bool:
        """The step is an activation (ended, or cut short by the end of the match): not the
        match as deployed, nor the end of a match that ended between activations (a
        concession, a draw, a forfeit), which is a step of its own that /match log leaves
        unnumbered."""
        kinds = {event.kind for event in self.events}
        if "match_ended" in kinds:
            return bool(kinds & {"activation_started", "activation_ended"})
        return self.number > 0

    @property
    def title(self) -> str:
        """What the step is, in words: "Deployment", "Activation N" (N as /match log numbers
        it) or "The end"."""
        if self.is_activation:
            return f"Activation {self.number}"
        return "The end" if any(e.kind == "match_ended" for e in self.events) else "Deployment"


def activation_steps(
    record: MatchRecord, *, trusted: bool = False
) -> Iterator[tuple[MatchView, list[Event]]]:
    """The match after deployment (step 0) and after each activation (steps 1, 2, ...), with
    the events of that activation. The view shows the live board: draw it before the next step.
    `trusted`: the record is our own store's (skirmbot.rules.record.replay)."""
    rules = ruleset(record.ruleset)
    for match, events, *_ in _steps(record, trusted):
        yield rules.view(match.state), events


def _steps(
    record: MatchRecord, trusted: bool = False
) -> Iterator[tuple[PlayedMatch, list[Event], tuple[int, int], dict[int, str]]]:
    """The match after each step, the step's events, the turn and activations done when its
    activation began, and then each deciding seat's key. `trusted`: each command is applied
    trusted (PlayedMatch.trusted: a record our store accepted command by command), the match
    handed out between commands is not."""
    rules = ruleset(record.ruleset)
    match = start_match(record)
    began = (0, 0)
    keys: dict[int, str] = {}
    pending: list[Event] = []
    for data in record.commands:
        before = rules.view(match.state)
        if before.activating is None:  # the last command with no activation in progress starts it
            began = (before.turn, before.activations)
            keys = {d.side: d.key for d in rules.deciding(match.state) if d.turn}
        match.trusted = trusted
        try:
            events = match.apply(rules.parse_command(data))
        finally:
            match.trusted = False
        pending += events
        kinds = {event.kind for event in events}
        if kinds & {"activation_ended", "match_ended"} or (
            "turn_started" in kinds and _turn(rules, match) == 1
        ):
            yield match, pending, began, keys
            pending = []


def _turn(rules: Ruleset, match: PlayedMatch) -> int:
    return rules.view(match.state).turn


def numbered_steps(
    record: MatchRecord, *, trusted: bool = False
) -> Iterator[tuple[Step, MatchView]]:
    """Each step of the record (see `Step`) with the match's view after it. The view shows the
    live board: draw it before the next step. `trusted` as for `activation_steps`."""
    rules = ruleset(record.ruleset)
    for number, (match, events, began, keys) in enumerate(_steps(record, trusted)):
        ended = [event for event in events if event.kind == "activation_ended"]
        side = ended[-1].data.get("side") if ended and number else None
        view = rules.view(match.state)
        mp = tuple(seat.score for seat in view.sides)
        key = keys.get(side, "") if isinstance(side, int) else ""
        yield Step(number, events, side, *began, mp, key), view


def match_after(
    record: MatchRecord, activation: int | None = None
) -> tuple[PlayedMatch, list[Event]]:
    """The match after the given activation (0: as deployed; None: the end of the record),
    with that activation's events."""
    last: tuple[PlayedMatch, list[Event]] | None = None
    for number, (match, events, *_) in enumerate(_steps(record)):
        if number == activation:
            return match, events
        last = match, events
    if activation is None and last is not None:
        return last
    count = -1 if last is None else number
    raise RulesError(
        f"The match has no activation {activation}: it has activations 0 (deployment) to {count}."
    )


def animation(
    record: MatchRecord,
    renderer: MapRenderer | None = None,
    only: Container[int] | None = None,
    *,
    trusted: bool = False,
) -> bytes:
    """An animated GIF, one frame per activation (`only`: the frames of those step numbers, 0
    being the match as deployed); all frames share the fixed palette. One renderer draws every
    frame, so the terrain is drawn once."""
    renderer = renderer or MapRenderer()
    frames = [
        renderer.render(view, step.events)
        for step, view in numbered_steps(record, trusted=trusted)
        if only is None or step.number in only
    ]
    if not frames:
        raise RulesError("There is no activation to show in that range.")
    # The key under the map lists what each picture shows, so heights differ: pad to the tallest.
    width, height = max(frame.size[0] for frame in frames), max(frame.size[1] for frame in frames)
    frames = [_padded(frame, width, height) for frame in frames]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    frames[0].save(
        buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0
    )
    return buffer.getvalue()


def _padded(frame: Image.Image, width: int, height: int) -> Image.Image:
    if frame.size == (width, height):
        return frame
    canvas = new_image(width, height)
    canvas.paste(frame, (0, 0))
    palette = frame.getpalette()
    if palette is not None:  # a frame's seat colours or team shades (pasting keeps indices only)
        canvas.putpalette(palette)
    return canvas
