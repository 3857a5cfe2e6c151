"""The battlemap picture: the board now, and what the last activation did.

Top to bottom: the header band (turn, mission, each squad's MP, TO, units up and units Taken
Out, whose activation is next), the caption (one line: what the last activation did), the map,
and the key (every kind of mark on this picture, drawn small with a word or two).

The map's layers, back to front: the terrain (levels, difficult and impassable squares, walls,
doors, ladders, stairs, grid and coordinates), drawn once per door state and reused; objectives
and items; the last activation's paths and lines of attack; the unit tokens, each drawn once per
look and pasted. Everything is drawn in the fixed palette of `palette`, with the marks of
`symbols` (which the key draws too).
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from skirmbot.render import symbols
from skirmbot.render.caption import attack_outcomes, captions, fit, last_activation, squad_lines
from skirmbot.render.legend import LegendEntry, draw_legend, match_entries, terrain_entries
from skirmbot.render.palette import (
    colour,
    draw_text,
    drawable,
    font,
    has_glyph,
    new_image,
    side_colour,
)
from skirmbot.render.symbols import SQUARE, TOKEN_RADIUS, Box, Point, draw_token
from skirmbot.rules.board import Board
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.state import ACTIVATED, DOWNED, ENDED, MatchState, UnitState
from skirmbot.rules.skirm.turns import objective_controller
from skirmbot.rules.squares import Square

MARGIN = 26  # the coordinate strips on all four sides
BAND = 94  # the dark header band: the turn and mission, then one line per squad
CAPTION = 36  # the caption line under the band
HEADER = BAND + CAPTION
TEXT_SIZE = 18
LEGENDS_KEPT = 16  # keys kept drawn per match: what the last activation did varies
EDGE_MARK_GAP = 3  # pixels kept clear between a level label and a stair or ladder mark


@dataclass(frozen=True, slots=True)
class Layout:
    width: int  # squares
    height: int
    legend: int = 0  # the key's height in pixels, under the map

    @property
    def map_size(self) -> tuple[int, int]:
        """The header and the map with its coordinates, without the key."""
        return 2 * MARGIN + self.width * SQUARE, HEADER + 2 * MARGIN + self.height * SQUARE

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.map_size
        return width, height + self.legend

    def box(self, square: Square) -> Box:
        x0, y0 = MARGIN + square.x * SQUARE, HEADER + MARGIN + square.y * SQUARE
        return x0, y0, x0 + SQUARE - 1, y0 + SQUARE - 1

    def centre(self, square: Square) -> Point:
        x0, y0, _, _ = self.box(square)
        return x0 + SQUARE // 2, y0 + SQUARE // 2

    def edge_line(self, a: Square, b: Square) -> tuple[Point, Point]:
        """The grid line between orthogonal neighbours a and b."""
        low, high = (a, b) if a < b else (b, a)
        x0, y0, x1, y1 = self.box(high)
        if low.y == high.y:  # side by side: the vertical line on high's left
            return (x0, y0), (x0, y1 + 1)
        return (x0, y0), (x1 + 1, y0)  # one above the other: the horizontal line on high's top


class MapRenderer:
    """Draws one match's pictures; keeps its terrain, token and key images between pictures."""

    def __init__(self) -> None:
        self._terrain: dict[tuple[object, ...], tuple[Image.Image, tuple[LegendEntry, ...]]] = {}
        self._tokens: dict[tuple[object, ...], tuple[Image.Image, Image.Image]] = {}
        self._legends: dict[tuple[object, ...], Image.Image] = {}

    def render(self, state: MatchState, events: Sequence[Event] = ()) -> Image.Image:
        plain = Layout(state.board.width, state.board.height)
        terrain, terrain_kinds = self._terrain_image(state, plain)
        entries = (*terrain_kinds, *match_entries(state, events))  # = legend_entries(state, events)
        legend = self._legend(entries, plain.map_size[0]) if entries else None
        layout = Layout(plain.width, plain.height, 0 if legend is None else legend.height)
        image = new_image(*layout.size)
        image.paste(terrain, (0, 0))
        if legend is not None:
            image.paste(legend, (0, plain.map_size[1]))
        draw = ImageDraw.Draw(image)
        _draw_objectives(draw, state, layout)
        _draw_items(draw, state, layout)
        _draw_last_activation(draw, state, layout, events)
        labels = unit_labels(state)
        for unit in state.units.values():
            if unit.on_map and unit.square is not None:
                token, mask = self._token(unit, labels[unit.id])
                x0, y0, _, _ = layout.box(unit.square)
                image.paste(token, (x0, y0), mask)
        _draw_header(draw, state, layout, events)
        return image

    def png(self, state: MatchState, events: Sequence[Event] = ()) -> bytes:
        buffer = io.BytesIO()
        # compress_level 1: the palette image is small already; never optimize=True (slow).
        self.render(state, events).save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()

    def _terrain_image(
        self, state: MatchState, layout: Layout
    ) -> tuple[Image.Image, tuple[LegendEntry, ...]]:
        """The terrain picture and the key's entries for it."""
        source = state.battle_map.source
        key = (state.battle_map.name, tuple(source.get("rows", [])), tuple(source.get("edges", [])),
               tuple(sorted(state.board.door_states().items())))  # fmt: skip
        if key not in self._terrain:
            board = state.board
            self._terrain[key] = draw_terrain(board, layout), tuple(terrain_entries(board))
        return self._terrain[key]

    def _legend(self, entries: tuple[LegendEntry, ...], width: int) -> Image.Image:
        key = (entries, width)
        if key not in self._legends:
            if len(self._legends) >= LEGENDS_KEPT:  # the oldest first: keys come and go
                del self._legends[next(iter(self._legends))]
            self._legends[key] = draw_legend(entries, width)
        return self._legends[key]

    def _token(self, unit: UnitState, label: str) -> tuple[Image.Image, Image.Image]:
        activated = unit.status == ACTIVATED
        look = (
            unit.side,
            label,
            unit.hit,
            unit.card.hit,
            activated,
            unit.card.is_leader,
            unit.carrying is not None,
            unit.status == DOWNED,
        )
        if look not in self._tokens:
            self._tokens[look] = draw_token(*look)
        return self._tokens[look]


# --- unit labels ---------------------------------------------------------------------------
def unit_labels(state: MatchState) -> dict[str, str]:
    """Short labels, unique in the match: the first letters of the name, as few as tell the
    units apart (at least 3); units sharing a name get their squad number (`Re1`, `Re2`).
    Letters the font has no glyph for (an emoji) are left out: a stand-in would not fit."""
    names = {uid: label_letters(u.card.name) for uid, u in state.units.items()}
    counts: dict[str, int] = {}
    for unit in state.units.values():
        counts[unit.card.name] = counts.get(unit.card.name, 0) + 1
    labels: dict[str, str] = {}
    for uid, unit in state.units.items():
        if counts[unit.card.name] > 1:
            labels[uid] = f"{names[uid][:2]}{unit.side + 1}"
            continue
        length = 3
        while length < len(names[uid]) and any(
            other != uid and names[other][:length].casefold() == names[uid][:length].casefold()
            for other in names
        ):
            length += 1
        labels[uid] = names[uid][:length]
    return labels


def label_letters(name: str) -> str:
    """The name's letters a token label is cut from: no spaces, nor characters the font draws
    by a stand-in (an emoji), unless the name has nothing else ("🐺" then gives "wolfface")."""
    composed = unicodedata.normalize("NFC", name)
    drawn = "".join(char for char in composed if not char.isspace() and has_glyph(char))
    return drawn or "".join(char for char in drawable(name) if char.isalnum())


# --- terrain -------------------------------------------------------------------------------
def draw_terrain(board: Board, layout: Layout) -> Image.Image:
    """The header band's background, the squares, edges and coordinates (no key)."""
    image = new_image(*layout.map_size)
    draw = ImageDraw.Draw(image)
    for square in board.squares():
        _draw_square(image, board, layout, square)
    for square in board.squares():
        x0, y0, x1, y1 = layout.box(square)
        draw.rectangle((x0, y0, x1 + 1, y1 + 1), outline=colour("grid"))
    _draw_level_faces(draw, board, layout)
    for (a, b), feature in board.edges():
        if feature.stairs:
            symbols.steps(draw, stair_lines(board, layout, a, b))
        elif board.has_door(a, b):
            symbols.door(draw, *layout.edge_line(a, b), is_open=not board.door_closed(a, b))
        elif feature.wall:
            symbols.wall(draw, *layout.edge_line(a, b), feature.wall)
        if feature.climbable:
            symbols.ladder(draw, *ladder_line(board, layout, a, b))
    _draw_coordinates(draw, board, layout)
    return image


def _draw_square(image: Image.Image, board: Board, layout: Layout, square: Square) -> None:
    x0, y0, _, _ = layout.box(square)
    if square in board.impassable:
        image.paste(symbols.impassable_tile(), (x0, y0))
        return
    level = board.level(square)
    image.paste(symbols.ground_tile(level, square in board.difficult), (x0, y0))
    if level:
        symbols.level_label(ImageDraw.Draw(image), x0, y0, level)


def level_label_box(board: Board, layout: Layout, square: Square) -> Box | None:
    """Where the square's level label (`L1`, `L2`...) is drawn; None on level 0 or impassable."""
    if not board.is_open(square) or not board.level(square):
        return None
    x0, y0, _, _ = layout.box(square)
    return symbols.level_label_box(x0, y0, board.level(square))


def _clear_span(
    board: Board, layout: Layout, a: Square, b: Square, across: tuple[int, int], inset: int
) -> tuple[int, int]:
    """The stretch along the edge between a and b (pixel coordinates along it, `inset` in from
    each end) where a mark reaching `across` pixels either side of the edge (negative: left or
    up) touches neither square's level label."""
    (x0, y0), (x1, y1) = layout.edge_line(a, b)
    vertical = x0 == x1
    line = x0 if vertical else y0
    low, high = (y0, y1) if vertical else (x0, x1)
    low, high = low + inset, high - inset
    for square in (a, b):
        label = level_label_box(board, layout, square)
        if label is None:
            continue
        near, far = (label[0], label[2]) if vertical else (label[1], label[3])  # across the edge
        start, end = (label[1], label[3]) if vertical else (label[0], label[2])  # along it
        if far < line + across[0] - EDGE_MARK_GAP or near > line + across[1] + EDGE_MARK_GAP:
            continue
        if end < low - EDGE_MARK_GAP or start > high + EDGE_MARK_GAP:
            continue
        if start - low < high - end:  # the label sits near the start of the edge
            low = end + EDGE_MARK_GAP + 1
        else:
            high = start - EDGE_MARK_GAP - 1
    return low, high


def stair_lines(board: Board, layout: Layout, a: Square, b: Square) -> list[tuple[Point, Point]]:
    """Steps: lines parallel to the edge in the lower square, clear of the level labels."""
    lower, upper = (a, b) if board.level(a) <= board.level(b) else (b, a)
    (x0, y0), (x1, _) = layout.edge_line(a, b)
    vertical = x0 == x1
    # Into the lower square: left or up when it is the left or upper one, else right or down.
    sign = -1 if (lower.x < upper.x if vertical else lower.y < upper.y) else 1
    offsets = [sign * d for d in symbols.STEP_OFFSETS]
    half = symbols.STEP_WIDTH // 2 + 1
    low, high = _clear_span(board, layout, a, b, (min(offsets) - half, max(offsets) + half), 8)
    if vertical:
        return [((x0 + d, low), (x0 + d, high)) for d in offsets]
    return [((low, y0 + d), (high, y0 + d)) for d in offsets]


def ladder_line(board: Board, layout: Layout, a: Square, b: Square) -> tuple[Point, Point]:
    """Where a ladder's rails run along the edge, clear of the level labels."""
    reach = symbols.LADDER_HALF_WIDTH + 2
    low, high = _clear_span(board, layout, a, b, (-reach, reach), 14)
    (x0, y0), (x1, _) = layout.edge_line(a, b)
    return ((x0, low), (x0, high)) if x0 == x1 else ((low, y0), (high, y0))


def _draw_level_faces(draw: ImageDraw.ImageDraw, board: Board, layout: Layout) -> None:
    """A drop between levels without a wall: a dark line on the edge, thicker for higher drops."""
    for square in board.squares():
        for other in (square.offset(1, 0), square.offset(0, 1)):
            if not (board.is_open(square) and board.is_open(other)):
                continue
            drop = abs(board.level(square) - board.level(other))
            if drop and not board.feature(square, other).wall and not board.has_door(square, other):
                symbols.ledge(draw, *layout.edge_line(square, other), drop)


def _draw_coordinates(draw: ImageDraw.ImageDraw, board: Board, layout: Layout) -> None:
    width, height = layout.map_size
    top, bottom = HEADER + MARGIN // 2, height - MARGIN // 2
    for x in range(board.width):
        cx = MARGIN + x * SQUARE + SQUARE // 2
        letter = chr(ord("A") + x)
        for y in (top, bottom):
            draw.text((cx, y), letter, fill=colour("label"), font=font(17), anchor="mm")
    for y in range(board.height):
        cy = HEADER + MARGIN + y * SQUARE + SQUARE // 2
        for x in (MARGIN // 2, width - MARGIN // 2):
            draw.text((x, cy), str(y + 1), fill=colour("label"), font=font(17), anchor="mm")


# --- objectives and items ------------------------------------------------------------------
def _draw_objectives(draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout) -> None:
    for index, square in enumerate(state.objectives):
        holder = objective_controller(state, index)
        ring = colour("objective") if holder is None else side_colour(holder)
        box = layout.box(square)
        symbols.objective(draw, box, ring, index + 1)
        if index in state.beacons:  # Signal Fires: a flag in the colour of the squad that armed it
            symbols.beacon(draw, (box[0] + 4, box[1] + 2), side_colour(state.beacons[index]))


def _draw_items(draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout) -> None:
    for item in state.items.values():
        if item.square is not None:
            x0, _, _, y1 = layout.box(item.square)
            symbols.item(draw, (x0 + 2, y1 - 21), item.kind, item.turret_type)


# --- the last activation -------------------------------------------------------------------
def _draw_last_activation(
    draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout, events: Sequence[Event]
) -> None:
    outcomes = attack_outcomes(events)
    for number, event in enumerate(events):
        data = event.data
        if event.kind == "moved":
            fill = side_colour(state.units[data["unit"]].side, "dark")
            points = [layout.centre(Square.parse(s)) for s in data["path"]]
            symbols.path(draw, points, fill, back=TOKEN_RADIUS + 2)
        elif event.kind == "attack":
            start, end = Square.parse(data["from"]), Square.parse(data["to"])
            outcome = outcomes.get(number, "miss")
            symbols.attack(draw, layout.centre(start), layout.centre(end), outcome, TOKEN_RADIUS)
        elif event.kind in ("explosion", "blast"):
            symbols.blast(draw, layout.centre(Square.parse(data["square"])), SQUARE * 0.9)
        elif event.kind == "door":
            a, b = (Square.parse(s) for s in data["edge"].split("|"))
            (x0, y0), (x1, y1) = layout.edge_line(a, b)
            symbols.highlight(
                draw, (min(x0, x1) - 8, min(y0, y1) - 8, max(x0, x1) + 8, max(y0, y1) + 8)
            )
        elif event.kind == "crate_opened":
            x0, y0, x1, y1 = layout.box(Square.parse(data["square"]))
            symbols.highlight(draw, (x0, y0, x1 + 1, y1 + 1))  # on the grid: clear of the label
        elif event.kind == "taken_out" and data.get("square"):
            symbols.taken_out_cross(draw, layout.box(Square.parse(data["square"])), 12)


# --- the header band and the caption -------------------------------------------------------
def _draw_header(
    draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout, events: Sequence[Event]
) -> None:
    width, _ = layout.size
    face = font(TEXT_SIZE)
    draw.rectangle((0, 0, width, BAND - 1), fill=colour("header"))
    nxt = _whose_turn(state)
    draw_text(draw, (width - 12, 8), nxt, colour("gold"), TEXT_SIZE, "ra")
    title = _titles(state)
    room = width - 24 - face.getlength(nxt) - 16
    draw_text(draw, (12, 8), fit(title, room, face), colour("header_text"), TEXT_SIZE)
    for side in (0, 1):
        y = 36 + side * 28
        draw.rectangle((12, y + 2, 30, y + 20), fill=side_colour(side), outline=colour("white"))
        line = fit(squad_lines(state, side), width - 38 - 12, face)
        draw_text(draw, (38, y), line, colour("header_text"), TEXT_SIZE)
    _draw_caption(draw, state, layout, events)


def _draw_caption(
    draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout, events: Sequence[Event]
) -> None:
    """One line under the band: what the last activation did, after a dot in its squad's colour."""
    width, _ = layout.size
    face = font(TEXT_SIZE)
    top, middle = BAND, BAND + CAPTION // 2
    draw.rectangle((0, top, width, top + CAPTION - 1), fill=colour("caption"))
    draw.line((0, top + CAPTION - 1, width, top + CAPTION - 1), fill=colour("grid"))
    actor, _ = last_activation(events)
    x = 12
    if actor is not None and actor in state.units:
        draw.ellipse((x, middle - 8, x + 16, middle + 8), fill=side_colour(state.units[actor].side),
                     outline=colour("ink"))  # fmt: skip
        x += 26
    text = fit(captions(events, state), width - x - 12, face)
    draw_text(draw, (x, middle), text, colour("ink"), TEXT_SIZE, "lm")


def alt_text(state: MatchState, events: Sequence[Event] = ()) -> str:
    """The picture in words, for those who cannot see it: its caption line, then the score
    (each squad's header line, in full) and the turn, mission and whose activation is next."""
    caption = captions(events, state)[0].rstrip(".")
    squads = "; ".join(squad_lines(state, side)[0] for side in (0, 1))
    return f"Battlemap: {caption}. Score: {squads}. {_titles(state)[1]} · {_whose_turn(state)}."


def _titles(state: MatchState) -> list[str]:
    """The header's title, from the longest wording to the shortest."""
    turn = f"Turn {state.turn} of {state.mission.turns}" if state.turn else "Deployment"
    return [
        f"{turn}  ·  {state.mission.name}  ·  {_headline(state)}",
        f"{turn} · {state.mission.name}",
    ]


def _headline(state: MatchState) -> str:
    """This turn's environment event when there is one (it changes what may be done), else the map."""
    return f"Event: {state.event.name}" if state.event is not None else state.battle_map.name


def _whose_turn(state: MatchState) -> str:
    if state.phase == ENDED and state.result is not None:
        winner = state.result.winner
        return "Draw" if winner is None else f"{state.squads[winner].name} wins"
    if state.to_act is None:
        return "Deploying"
    ready = len(state.ready_units(state.to_act))
    return f"Next: {state.squads[state.to_act].name} ({ready} ready)"
