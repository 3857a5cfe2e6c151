"""Pictures of a whole match from its record: one frame per activation, and the animation."""

from __future__ import annotations

import io
from collections.abc import Iterator

from PIL import Image

from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.palette import new_image
from skirmbot.rules.commands import command_from_json
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.record import MatchRecord, start_match
from skirmbot.rules.ruleset import PlayedMatch
from skirmbot.rules.skirm.state import MatchState

FRAME_MS = 1200  # each activation stays up long enough to read the header
LAST_FRAME_MS = 4000


def activation_steps(record: MatchRecord) -> Iterator[tuple[MatchState, list[Event]]]:
    """The match after deployment (step 0) and after each activation (steps 1, 2, ...), with
    the events of that activation. The state is the live one: draw it before the next step."""
    for match, events in _steps(record):
        yield match.state, events


def _steps(record: MatchRecord) -> Iterator[tuple[PlayedMatch, list[Event]]]:
    match = start_match(record)
    pending: list[Event] = []
    for data in record.commands:
        events = match.apply(command_from_json(data))
        pending += events
        kinds = {event.kind for event in events}
        if kinds & {"activation_ended", "match_ended"} or (
            "turn_started" in kinds and match.state.turn == 1
        ):
            yield match, pending
            pending = []


def match_after(
    record: MatchRecord, activation: int | None = None
) -> tuple[PlayedMatch, list[Event]]:
    """The match after the given activation (0: as deployed; None: the end of the record),
    with that activation's events."""
    last: tuple[PlayedMatch, list[Event]] | None = None
    for number, step in enumerate(_steps(record)):
        if number == activation:
            return step
        last = step
    if activation is None and last is not None:
        return last
    count = -1 if last is None else number
    raise RulesError(
        f"The match has no activation {activation}: it has activations 0 (deployment) to {count}."
    )


def animation(record: MatchRecord, renderer: MapRenderer | None = None) -> bytes:
    """An animated GIF, one frame per activation; all frames share the fixed palette."""
    renderer = renderer or MapRenderer()
    frames = [renderer.render(state, events) for state, events in activation_steps(record)]
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
    return canvas
