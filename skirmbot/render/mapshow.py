"""The picture of an empty map (`/map show`, `skirmbot map check`): the battlemap of a match
before deployment, each seat's deployment zone outlined in its colour, the mission's objectives
and the map's items as in play. The header names each zone by its seat, never by a squad: no
squad is chosen yet."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace

from PIL import ImageDraw

from skirmbot.render.battlemap import OBJECTIVE_KINDS, MapRenderer, layout_of
from skirmbot.render.palette import side_colour
from skirmbot.rules.view import MatchView, Position

ZONE_LINE = 3  # pixels: thick enough to see each zone's squares under the terrain's colours


def unnamed(view: MatchView) -> MatchView:
    """The view with each seat called by its number and no standing: the squads in the match
    the picture is drawn from are placeholders."""
    sides = tuple(
        replace(side, name=f"Seat {side.side + 1}", standing="deploys here") for side in view.sides
    )
    return replace(view, sides=sides, notes=())


def empty_map_png(view: MatchView, zones: Sequence[Sequence[Position]]) -> bytes:
    """The empty map of `view` (a match before deployment, its seats `unnamed`) with each
    seat's zone outlined."""
    image = MapRenderer().render(view)
    layout = layout_of(view)  # the key under the map moves no square
    draw = ImageDraw.Draw(image)
    for seat, zone in enumerate(zones):
        for place in zone:
            draw.polygon(layout.outline(place), outline=side_colour(seat), width=ZONE_LINE)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def empty_map_alt(view: MatchView, zones: Sequence[Sequence[Position]], size: str) -> str:
    """The empty map in words: its name and size, the mission, where each seat deploys (first
    and last place of its zone) and the objectives' places."""
    where = "; ".join(
        f"seat {seat + 1} deploys on {len(zone)} places, {zone[0]} to {zone[-1]}"
        for seat, zone in enumerate(zones)
        if zone
    )
    marks = [m for m in view.markers if m.kind in OBJECTIVE_KINDS and m.square is not None]
    objectives = ", ".join(str(mark.square) for mark in marks) or "none on the map"
    return (
        f"Empty map: {view.map_name}, {size}, for {view.title}. {where[:1].upper()}{where[1:]}. "
        f"Objectives: {objectives}."
    )
