"""The battlemap picture: the board now, and what the last activation did.

Layers, back to front: the terrain (levels, difficult and impassable squares, walls, doors,
ladders, stairs, grid and coordinates), drawn once per door state and reused; objectives and
items; the last activation's paths and lines of attack; the unit tokens, each drawn once per
look and pasted; the header band. Everything is drawn in the fixed palette of `palette`.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from skirmbot.render.palette import colour, font, new_image, side_colour
from skirmbot.rules.board import Board
from skirmbot.rules.events import Event
from skirmbot.rules.maps import BARREL, CRATE, MARKER, TURRET
from skirmbot.rules.squares import Square
from skirmbot.rules.state import ACTIVATED, ENDED, MatchState, UnitState
from skirmbot.rules.turns import objective_controller

SQUARE = 64  # pixels per square: tokens and labels stay readable on a phone
MARGIN = 26  # the coordinate strips on all four sides
HEADER = 80
TOKEN_RADIUS = 23
Box = tuple[int, int, int, int]
Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Layout:
    width: int  # squares
    height: int

    @property
    def size(self) -> tuple[int, int]:
        return 2 * MARGIN + self.width * SQUARE, HEADER + 2 * MARGIN + self.height * SQUARE

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
    """Draws one match's pictures; keeps its terrain and token images between pictures."""

    def __init__(self) -> None:
        self._terrain: dict[tuple[object, ...], Image.Image] = {}
        self._tokens: dict[tuple[object, ...], tuple[Image.Image, Image.Image]] = {}

    def render(self, state: MatchState, events: Sequence[Event] = ()) -> Image.Image:
        layout = Layout(state.board.width, state.board.height)
        image = self._terrain_image(state, layout).copy()
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
        _draw_header(draw, state, layout)
        return image

    def png(self, state: MatchState, events: Sequence[Event] = ()) -> bytes:
        buffer = io.BytesIO()
        # compress_level 1: the palette image is small already; never optimize=True (slow).
        self.render(state, events).save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()

    def _terrain_image(self, state: MatchState, layout: Layout) -> Image.Image:
        source = state.battle_map.source
        key = (state.battle_map.name, tuple(source.get("rows", [])), tuple(source.get("edges", [])),
               tuple(sorted(state.board.door_states().items())))  # fmt: skip
        if key not in self._terrain:
            self._terrain[key] = draw_terrain(state.board, layout)
        return self._terrain[key]

    def _token(self, unit: UnitState, label: str) -> tuple[Image.Image, Image.Image]:
        activated = unit.status == ACTIVATED
        key = (
            unit.side,
            label,
            unit.hit,
            unit.card.hit,
            activated,
            unit.card.is_leader,
            unit.carrying is not None,
        )
        if key not in self._tokens:
            self._tokens[key] = draw_token(
                unit.side,
                label,
                unit.hit,
                unit.card.hit,
                activated,
                unit.card.is_leader,
                unit.carrying is not None,
            )
        return self._tokens[key]


def render_map_png(state: MatchState, events: Sequence[Event] = ()) -> bytes:
    """One picture without a renderer kept between pictures (slower: nothing is reused)."""
    return MapRenderer().png(state, events)


# --- unit labels ---------------------------------------------------------------------------
def unit_labels(state: MatchState) -> dict[str, str]:
    """Short labels, unique in the match: the first letters of the name, as few as tell the
    units apart (at least 3); units sharing a name get their squad number (`Re1`, `Re2`)."""
    names = {uid: u.card.name.replace(" ", "") for uid, u in state.units.items()}
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


# --- terrain -------------------------------------------------------------------------------
def draw_terrain(board: Board, layout: Layout) -> Image.Image:
    image = new_image(*layout.size)
    draw = ImageDraw.Draw(image)
    for square in board.squares():
        _draw_square(image, board, layout, square)
    for square in board.squares():
        x0, y0, x1, y1 = layout.box(square)
        draw.rectangle((x0, y0, x1 + 1, y1 + 1), outline=colour("grid"))
    _draw_level_faces(draw, board, layout)
    for (a, b), feature in board.edges():
        if feature.stairs:
            _draw_stairs(draw, layout, a, b)
        elif board.has_door(a, b):
            _draw_door(draw, layout, a, b, is_open=not board.door_closed(a, b))
        elif feature.wall:
            _draw_wall(draw, layout, a, b, feature.wall)
        if feature.climbable:
            _draw_ladder(draw, layout, a, b)
    _draw_coordinates(draw, board, layout)
    return image


def _draw_square(image: Image.Image, board: Board, layout: Layout, square: Square) -> None:
    x0, y0, _, _ = layout.box(square)
    if square in board.impassable:
        image.paste(_impassable_tile(), (x0, y0))
        return
    level = board.level(square)
    image.paste(_ground_tile(min(level, 4), square in board.difficult), (x0, y0))
    if level:
        ImageDraw.Draw(image).text(
            (x0 + 3, y0 + 1), f"L{level}", fill=colour("label"), font=font(13)
        )


@cache
def _impassable_tile() -> Image.Image:
    """Solid rock or a pillar: dark, cross-hatched."""
    tile = new_image(SQUARE, SQUARE, "impassable")
    draw = ImageDraw.Draw(tile)
    for offset in range(-SQUARE, SQUARE, 12):
        draw.line((offset, 0, offset + SQUARE, SQUARE), fill=colour("impassable_mark"), width=2)
    return tile


@cache
def _ground_tile(level: int, difficult: bool) -> Image.Image:
    """Ground of a level; difficult ground is strewn with tufts all over the square."""
    tile = new_image(SQUARE, SQUARE, f"level{level}")
    if difficult:
        draw = ImageDraw.Draw(tile)
        for row, y in enumerate(range(10, SQUARE, 14)):
            for x in range(6 + (row % 2) * 7, SQUARE - 6, 14):
                draw.line((x - 3, y + 3, x, y - 3, x + 3, y + 3), fill=colour("difficult"), width=2)
    return tile


def _draw_level_faces(draw: ImageDraw.ImageDraw, board: Board, layout: Layout) -> None:
    """A drop between levels without a wall: a dark line on the edge, thicker for higher drops."""
    for square in board.squares():
        for other in (square.offset(1, 0), square.offset(0, 1)):
            if not (board.is_open(square) and board.is_open(other)):
                continue
            drop = abs(board.level(square) - board.level(other))
            if drop and not board.feature(square, other).wall and not board.has_door(square, other):
                start, end = layout.edge_line(square, other)
                draw.line((*start, *end), fill=colour("label"), width=1 + 2 * min(drop, 2))


def _draw_wall(
    draw: ImageDraw.ImageDraw, layout: Layout, a: Square, b: Square, height: int
) -> None:
    (x0, y0), (x1, y1) = layout.edge_line(a, b)
    high = height >= 2
    width = 9 if high else 5
    draw.line((x0, y0, x1, y1), fill=colour("wall_high" if high else "wall_low"), width=width)
    if height >= 3:  # 1 and 2 read from the thickness; taller walls say how tall
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        draw.rectangle((cx - 7, cy - 8, cx + 7, cy + 8), fill=colour("wall_high"))
        draw.text((cx, cy), str(height), fill=colour("white"), font=font(13), anchor="mm")


def _draw_door(
    draw: ImageDraw.ImageDraw, layout: Layout, a: Square, b: Square, is_open: bool
) -> None:
    (x0, y0), (x1, y1) = layout.edge_line(a, b)
    inset = SQUARE // 6
    vertical = x0 == x1
    if vertical:
        box = (x0 - 5, y0 + inset, x0 + 5, y1 - inset)
    else:
        box = (x0 + inset, y0 - 5, x1 - inset, y0 + 5)
    # Wall stubs either side of the door, so a door reads as a gap in a wall.
    if vertical:
        draw.line((x0, y0, x0, y0 + inset), fill=colour("wall_high"), width=9)
        draw.line((x0, y1 - inset, x0, y1), fill=colour("wall_high"), width=9)
    else:
        draw.line((x0, y0, x0 + inset, y0), fill=colour("wall_high"), width=9)
        draw.line((x1 - inset, y0, x1, y0), fill=colour("wall_high"), width=9)
    if is_open:
        draw.rectangle(box, fill=colour("door_open"), outline=colour("door"), width=2)
    else:
        draw.rectangle(box, fill=colour("door"), outline=colour("ink"), width=2)


def _draw_ladder(draw: ImageDraw.ImageDraw, layout: Layout, a: Square, b: Square) -> None:
    (x0, y0), (x1, y1) = layout.edge_line(a, b)
    if x0 == x1:  # rungs across a vertical edge
        top, bottom = y0 + 18, y1 - 18
        draw.line((x0 - 8, top, x0 - 8, bottom), fill=colour("ladder"), width=2)
        draw.line((x0 + 8, top, x0 + 8, bottom), fill=colour("ladder"), width=2)
        for y in range(top + 4, bottom, 7):
            draw.line((x0 - 8, y, x0 + 8, y), fill=colour("gold"), width=3)
    else:
        left, right = x0 + 18, x1 - 18
        draw.line((left, y0 - 8, right, y0 - 8), fill=colour("ladder"), width=2)
        draw.line((left, y0 + 8, right, y0 + 8), fill=colour("ladder"), width=2)
        for x in range(left + 4, right, 7):
            draw.line((x, y0 - 8, x, y0 + 8), fill=colour("gold"), width=3)


def _draw_stairs(draw: ImageDraw.ImageDraw, layout: Layout, a: Square, b: Square) -> None:
    """Steps: lines parallel to the edge, across it, in the lower square's half."""
    (x0, y0), (x1, y1) = layout.edge_line(a, b)
    for step in range(-12, 13, 6):
        if x0 == x1:
            draw.line((x0 + step, y0 + 8, x0 + step, y1 - 8), fill=colour("stairs"), width=2)
        else:
            draw.line((x0 + 8, y0 + step, x1 - 8, y0 + step), fill=colour("stairs"), width=2)


def _draw_coordinates(draw: ImageDraw.ImageDraw, board: Board, layout: Layout) -> None:
    width, height = layout.size
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
        x0, y0, x1, y1 = layout.box(square)
        draw.ellipse((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=ring, width=4)
        draw.ellipse(
            (x1 - 22, y0 + 1, x1 - 1, y0 + 22), fill=ring, outline=colour("white"), width=2
        )
        draw.text(
            (x1 - 11, y0 + 12), str(index + 1), fill=colour("white"), font=font(14), anchor="mm"
        )
        if index in state.beacons:  # Signal Fires: a flag in the colour of the squad that armed it
            _draw_beacon(draw, (x0 + 4, y0 + 2), side_colour(state.beacons[index]))


def _draw_beacon(draw: ImageDraw.ImageDraw, at: Point, fill: int) -> None:
    x, y = at
    draw.line((x + 2, y, x + 2, y + 20), fill=colour("ink"), width=2)
    draw.polygon([(x + 3, y), (x + 16, y + 5), (x + 3, y + 10)], fill=fill, outline=colour("ink"))


def _draw_items(draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout) -> None:
    for item in state.items.values():
        if item.square is None:
            continue
        x0, _, _, y1 = layout.box(item.square)
        box = (x0 + 2, y1 - 21, x0 + 21, y1 - 2)
        if item.kind == CRATE:
            draw.rectangle(box, fill=colour("crate"), outline=colour("ink"), width=2)
            draw.line((box[0], box[1], box[2], box[3]), fill=colour("ink"), width=2)
            draw.line((box[0], box[3], box[2], box[1]), fill=colour("ink"), width=2)
        elif item.kind == BARREL:
            draw.ellipse(box, fill=colour("barrel"), outline=colour("ink"), width=2)
            draw.text(
                (box[0] + 10, box[1] + 10), "B", fill=colour("ink"), font=font(12), anchor="mm"
            )
        elif item.kind == TURRET:
            draw.regular_polygon(
                (box[0] + 10, box[1] + 10, 11), 6, fill=colour("turret"), outline=colour("ink")
            )
            mark = "MG" if item.turret_type == "machine_gun" else "RL"
            draw.text(
                (box[0] + 10, box[1] + 10), mark, fill=colour("ink"), font=font(10), anchor="mm"
            )
        elif item.kind == MARKER:
            draw.regular_polygon(
                (box[0] + 10, box[1] + 10, 9), 4, fill=colour("gold"), outline=colour("ink")
            )


# --- the last activation -------------------------------------------------------------------
def _draw_last_activation(
    draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout, events: Sequence[Event]
) -> None:
    outcomes = _attack_outcomes(events)
    for number, event in enumerate(events):
        data = event.data
        if event.kind == "moved":
            side = state.units[data["unit"]].side
            _draw_path(
                draw, layout, [Square.parse(s) for s in data["path"]], side_colour(side, "dark")
            )
        elif event.kind == "attack":
            start, end = Square.parse(data["from"]), Square.parse(data["to"])
            _draw_attack(draw, layout, start, end, outcomes.get(number, "miss"))
        elif event.kind in ("explosion", "blast"):
            _draw_blast(draw, layout, Square.parse(data["square"]))
        elif event.kind == "door":
            a, b = (Square.parse(s) for s in data["edge"].split("|"))
            (x0, y0), (x1, y1) = layout.edge_line(a, b)
            draw.rectangle(
                (min(x0, x1) - 8, min(y0, y1) - 8, max(x0, x1) + 8, max(y0, y1) + 8),
                outline=colour("gold"),
                width=3,
            )
        elif event.kind == "crate_opened":
            x0, y0, x1, y1 = layout.box(Square.parse(data["square"]))
            draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=colour("gold"), width=3)
        elif event.kind == "taken_out" and data.get("square"):
            x0, y0, x1, y1 = layout.box(Square.parse(data["square"]))
            draw.line((x0 + 12, y0 + 12, x1 - 12, y1 - 12), fill=colour("taken_out"), width=6)
            draw.line((x0 + 12, y1 - 12, x1 - 12, y0 + 12), fill=colour("taken_out"), width=6)


def _attack_outcomes(events: Sequence[Event]) -> dict[int, str]:
    """Each attack event's outcome: "taken_out", "hit" (HIT lost) or "miss"."""
    outcomes: dict[int, str] = {}
    current: int | None = None
    for number, event in enumerate(events):
        if event.kind == "attack":
            current = number
            outcomes[number] = "miss"
        elif current is not None and event.kind == "saves" and event.data.get("lost"):
            outcomes[current] = "hit" if outcomes[current] == "miss" else outcomes[current]
        elif current is not None and event.kind in ("taken_out", "explosion", "item_destroyed"):
            outcomes[current] = "taken_out" if event.kind == "taken_out" else "hit"
    return outcomes


def _draw_path(draw: ImageDraw.ImageDraw, layout: Layout, path: list[Square], fill: int) -> None:
    points = [layout.centre(square) for square in path]
    draw.line(points, fill=fill, width=5, joint="curve")
    for x, y in points[:-1]:
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=fill)
    if len(points) >= 2:
        _arrow_head(draw, points[-2], points[-1], fill, back=TOKEN_RADIUS + 2)


def _arrow_head(draw: ImageDraw.ImageDraw, start: Point, end: Point, fill: int, back: int) -> None:
    """A triangle pointing at `end`, its tip `back` pixels before it (outside the token)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    tip = (end[0] - ux * back, end[1] - uy * back)
    base = (tip[0] - ux * 14, tip[1] - uy * 14)
    left = (base[0] - uy * 9, base[1] + ux * 9)
    right = (base[0] + uy * 9, base[1] - ux * 9)
    draw.polygon([tuple(map(round, p)) for p in (tip, left, right)], fill=fill)


def _draw_attack(
    draw: ImageDraw.ImageDraw, layout: Layout, start: Square, end: Square, outcome: str
) -> None:
    a, b = layout.centre(start), layout.centre(end)
    if outcome == "miss":  # dashed: a miss reads without colour too
        _dashed(draw, a, b, colour("miss"), width=3)
        _arrow_head(draw, a, b, colour("miss"), back=TOKEN_RADIUS)
        return
    fill = colour("taken_out" if outcome == "taken_out" else "hit")
    draw.line((*a, *b), fill=fill, width=6 if outcome == "taken_out" else 4)
    _arrow_head(draw, a, b, fill, back=TOKEN_RADIUS)


def _dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: int, width: int) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    steps = int(length // 10)
    for i in range(0, steps, 2):
        p = (a[0] + dx * i / steps, a[1] + dy * i / steps)
        q = (a[0] + dx * min(i + 1, steps) / steps, a[1] + dy * min(i + 1, steps) / steps)
        draw.line((round(p[0]), round(p[1]), round(q[0]), round(q[1])), fill=fill, width=width)


def _draw_blast(draw: ImageDraw.ImageDraw, layout: Layout, square: Square) -> None:
    x, y = layout.centre(square)
    draw.regular_polygon((x, y, SQUARE * 0.9), 12, fill=None, outline=colour("hit"), width=4)
    draw.regular_polygon(
        (x, y, SQUARE * 0.45), 8, fill=colour("hit"), outline=colour("gold"), width=3
    )


# --- unit tokens ---------------------------------------------------------------------------
def draw_token(
    side: int, label: str, hit: int, max_hit: int, activated: bool, leader: bool, carrying: bool
) -> tuple[Image.Image, Image.Image]:
    """A unit's token on a square-sized tile, and the mask that pastes it."""
    token = new_image(SQUARE, SQUARE)
    mask = Image.new("1", (SQUARE, SQUARE), 0)
    draw, shape = ImageDraw.Draw(token), ImageDraw.Draw(mask)
    c = SQUARE // 2
    body = (c - TOKEN_RADIUS, c - TOKEN_RADIUS - 4, c + TOKEN_RADIUS, c + TOKEN_RADIUS - 4)
    fill = side_colour(side, "dim") if activated else side_colour(side)
    ring = colour("ink") if activated else colour("white")
    for target, value in ((draw, None), (shape, 1)):
        target.ellipse(
            body,
            fill=fill if value is None else value,
            outline=ring if value is None else value,
            width=3,
        )
    size = 16 if len(label) <= 3 else 13
    draw.text(
        (c, c - 4),
        label,
        fill=colour("ink") if activated else colour("white"),
        font=font(size),
        anchor="mm",
    )
    _draw_pips(draw, shape, side, hit, max_hit)
    if leader:  # a gold star on the token's shoulder
        star = _star(c - TOKEN_RADIUS + 3, c - TOKEN_RADIUS - 1, 10, 4)
        draw.polygon(star, fill=colour("gold"), outline=colour("ink"))
        shape.polygon(star, fill=1, outline=1)
    if carrying:
        diamond = (c + TOKEN_RADIUS - 2, c - TOKEN_RADIUS, 7)
        for target, value in ((draw, colour("gold")), (shape, 1)):
            target.regular_polygon(
                diamond, 4, fill=value, outline=colour("ink") if target is draw else 1
            )
    if activated:  # a tick: done for this turn, readable without the dimmed colour
        tick = [(c + 10, c + 9), (c + 14, c + 13), (c + 21, c + 4)]
        draw.line(tick, fill=colour("ink"), width=3)
        shape.line(tick, fill=1, width=3)
    return token, mask


def _star(x: int, y: int, outer: int, inner: int) -> list[tuple[float, float]]:
    points = []
    for n in range(10):
        radius = outer if n % 2 == 0 else inner
        angle = math.pi / 2 + n * math.pi / 5
        points.append((x + radius * math.cos(angle), y - radius * math.sin(angle)))
    return points


def _draw_pips(
    draw: ImageDraw.ImageDraw, shape: ImageDraw.ImageDraw, side: int, hit: int, max_hit: int
) -> None:
    """Remaining HIT as filled pips under the token, lost HIT as hollow ones."""
    spacing = 10
    start = SQUARE // 2 - (max_hit - 1) * spacing // 2
    y = SQUARE - 8
    for n in range(max_hit):
        x = start + n * spacing
        box = (x - 4, y - 4, x + 4, y + 4)
        if n < hit:
            draw.ellipse(box, fill=side_colour(side, "dark"), outline=colour("white"))
        else:
            draw.ellipse(box, fill=colour("pip_empty"), outline=colour("ink"))
        shape.ellipse(box, fill=1)


# --- the header band -----------------------------------------------------------------------
def _draw_header(draw: ImageDraw.ImageDraw, state: MatchState, layout: Layout) -> None:
    width, _ = layout.size
    draw.rectangle((0, 0, width, HEADER - 1), fill=colour("header"))
    turn = f"Turn {state.turn} of {state.mission.turns}" if state.turn else "Deployment"
    draw.text(
        (12, 8),
        f"{turn}  ·  {state.mission.name}  ·  {_headline(state)}",
        fill=colour("header_text"),
        font=font(18),
    )
    draw.text((width - 12, 8), _whose_turn(state), fill=colour("gold"), font=font(18), anchor="ra")
    for side in (0, 1):
        squad = state.squads[side]
        x = 12 if side == 0 else width // 2 + 6
        draw.rectangle((x, 42, x + 18, 60), fill=side_colour(side), outline=colour("white"))
        standing = len(state.on_map(side))
        text = f"{squad.name}: {squad.mp} MP · {squad.orders} TO · {standing} up"
        draw.text((x + 26, 40), text, fill=colour("header_text"), font=font(18))


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
