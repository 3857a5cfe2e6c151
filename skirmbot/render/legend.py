"""The key under the map: each kind of mark the picture shows, drawn small with the map's own
drawing code, with a word or two. Only what is on this picture is listed.

`legend_entries` decides what is listed (a pure function of the match's view and the events the map
draws); `legend_layout` places the entries in rows on the picture's width; `draw_legend` draws
them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from skirmbot.render import dotsymbols, symbols
from skirmbot.render.caption import attack_outcomes
from skirmbot.render.palette import colour, font, new_image, side_colour
from skirmbot.render.pools import POOL_LINES
from skirmbot.render.symbols import ITEM_SIZE, SQUARE, Box
from skirmbot.rules.board import Board
from skirmbot.rules.events import Event
from skirmbot.rules.maps import BARREL, CRATE, MARKER, TURRET
from skirmbot.rules.view import ACTIVATED, DOTS, DOWNED, DotBoardView, MatchView, PieceView

CELL = 44  # the side of a symbol's square in the key (a token's body is 46 across)
TEXT_SIZE = 18  # as the header: read on a phone, the picture is shown at half size or less
PAD = 12  # the key's margin on every side
GAP = 8  # between a symbol and its words
SPACING = 22  # between one entry and the next in a row (more than twice OVERFLOW)
ROW = CELL + 8


@dataclass(frozen=True, slots=True)
class LegendEntry:
    kind: str  # which symbol: "impassable", "level2", "wall_low", "crate", "miss", ...
    text: str
    side: int = 0  # the squad colour of a coloured symbol (a held objective, a move)


# --- what the picture shows ----------------------------------------------------------------
def legend_entries(view: MatchView, events: Sequence[Event] = ()) -> list[LegendEntry]:
    """The kinds of mark on the picture of `view` after `events`, in the key's order: ground,
    edges, objectives and items, units, and what the last activation did."""
    return [*terrain_entries(view.board), *match_entries(view, events)]


def terrain_entries(board: Board | DotBoardView) -> list[LegendEntry]:
    """The key's entries for the terrain (they change only when a door opens or closes)."""
    if isinstance(board, DotBoardView):
        return _dot_terrain(board)
    return [*_ground(board), *_edges(board)]


# The words of a board of dots' features (rulebook 002), in the key's order.
DOT_GROUND = {"impassable": "impassable", "stairs": "stairs", "ladder": "ladder"}
EDGE_WORDS = {"low": "low wall", "light": "hedge", "wall": "wall", "door": "door",
              "window": "window"}  # fmt: skip


def _dot_terrain(board: DotBoardView) -> list[LegendEntry]:
    """A board of dots' levels, ground and the features on its sides, as the key lists them."""
    levels = sorted({level for _, level in board.levels} - {0})
    entries = [LegendEntry(f"level{level}", f"level {level}") for level in levels]
    grounds = {kind for _, kind in board.ground}
    entries += [LegendEntry(f"dot_{k}", words) for k, words in DOT_GROUND.items() if k in grounds]
    kinds = {edge.kind for edge in board.edges}
    entries += [LegendEntry(f"edge_{k}", words) for k, words in EDGE_WORDS.items() if k in kinds]
    if any(edge.level > 0 for edge in board.edges):
        entries.append(LegendEntry("edge_upper", "upper floor"))
    return entries


def match_entries(view: MatchView, events: Sequence[Event] = ()) -> list[LegendEntry]:
    """The key's entries for the objectives, items, units and the last activation."""
    return [*_things(view), *_units(view), *_overlays(view, events)]


def _ground(board: Board) -> list[LegendEntry]:
    open_squares = [s for s in board.squares() if board.is_open(s)]
    entries = [LegendEntry(f"level{level}", f"level {level}")
               for level in sorted({board.level(s) for s in open_squares} - {0})]  # fmt: skip
    if any(s in board.difficult for s in open_squares):
        entries.append(LegendEntry("difficult", "difficult"))
    if any(not board.is_open(s) for s in board.squares()):
        entries.append(LegendEntry("impassable", "impassable"))
    if _has_ledge(board):
        entries.append(LegendEntry("ledge", "ledge"))
    return entries


def _has_ledge(board: Board) -> bool:
    for square in board.squares():
        for other in (square.offset(1, 0), square.offset(0, 1)):
            if not (board.is_open(square) and board.is_open(other)):
                continue
            if (
                board.level(square) != board.level(other)
                and not board.feature(square, other).wall
                and not board.has_door(square, other)
            ):
                return True
    return False


def _edges(board: Board) -> list[LegendEntry]:
    kinds: set[str] = set()
    for (a, b), feature in board.edges():
        if feature.stairs:
            kinds.add("stairs")
        elif board.has_door(a, b):
            kinds.add("door_closed" if board.door_closed(a, b) else "door_open")
        elif feature.wall:
            kinds.add("wall_low" if feature.wall == 1 else "wall_high")
            if feature.wall >= 3:
                kinds.add("wall_tall")
        if feature.climbable:
            kinds.add("ladder")
    words = {"wall_low": "low wall", "wall_high": "high wall", "wall_tall": "wall height",
             "door_closed": "closed door", "door_open": "open door", "ladder": "ladder",
             "stairs": "stairs"}  # fmt: skip
    return [LegendEntry(kind, text) for kind, text in words.items() if kind in kinds]


def _things(view: MatchView) -> list[LegendEntry]:
    entries: list[LegendEntry] = []
    holders = [m.side for m in view.markers if m.kind == "objective" and m.square is not None]
    if any(holder is None for holder in holders):
        entries.append(LegendEntry("objective", "objective"))
    for seat in view.sides:
        if seat.side in holders:
            entries.append(LegendEntry("objective_held", "held objective", seat.side))
    armed = {m.side for m in view.markers if m.kind == "beacon" and m.side is not None}
    for side in sorted(armed):
        entries.append(LegendEntry("beacon", "beacon armed", side))
    on_map = [
        m for m in view.markers if m.square is not None and m.kind not in ("objective", "beacon")
    ]
    kinds = {item.kind for item in on_map}
    turrets = {item.variant for item in on_map if item.kind == TURRET}
    for kind, text in ((CRATE, "crate"), (BARREL, "barrel")):
        if kind in kinds:
            entries.append(LegendEntry(kind, text))
    if "machine_gun" in turrets:
        entries.append(LegendEntry("turret_mg", "MG turret"))
    if turrets - {"machine_gun"}:
        entries.append(LegendEntry("turret_rl", "rocket turret"))
    if MARKER in kinds:
        entries.append(LegendEntry(MARKER, "marker"))
    return entries


def _units(view: MatchView) -> list[LegendEntry]:
    if view.grid == DOTS:
        return _troopers(view)
    units = [piece for piece in view.pieces if piece.on_map and not piece.group]
    groups = [piece for piece in view.pieces if piece.on_map and piece.group]
    entries: list[LegendEntry] = []
    if any(unit.leader for unit in units):
        entries.append(LegendEntry("leader", "leader"))
    if any(unit.max_hit for unit in units):  # the d20 rules' models have no hit points
        entries.append(LegendEntry("hit_left", "HIT left"))
    if any((unit.hit or 0) < (unit.max_hit or 0) for unit in units):
        entries.append(LegendEntry("hit_lost", "HIT lost"))
    entries += _groups(groups)
    if any(unit.status == ACTIVATED for unit in (*units, *groups)):
        entries.append(LegendEntry("activated", "activated"))
    if any(unit.status == DOWNED for unit in units):
        entries.append(LegendEntry("downed", view.down_word))
    if any(unit.carrying for unit in units):
        entries.append(LegendEntry("carrying", "carries marker"))
    return entries


def _groups(groups: Sequence[PieceView]) -> list[LegendEntry]:
    """The group rules' marks: a Group's models tied together, its Captain, its R and marks."""
    if not groups:
        return []
    entries = [LegendEntry("group", "one Group")]
    if any(group.leader for group in groups):
        entries.append(LegendEntry("leader", "Captain"))
    if any(group.max_hit and group.max_hit <= symbols.PIPS_MAX for group in groups):
        entries.append(LegendEntry("hit_left", "R left"))
        if any((group.hit or 0) < (group.max_hit or 0) for group in groups):
            entries.append(LegendEntry("hit_lost", "R lost"))
    marks = {mark for group in groups for mark in group.marks}
    entries += [LegendEntry(f"mark_{mark}", word) for mark, word in MARKS.items() if mark in marks]
    return entries


def _troopers(view: MatchView) -> list[LegendEntry]:
    """The infantry rules' marks on a board of dots: a trooper's HP and armour pips, its level
    and prone marks, the firing arcs of each side, and the explosives waiting to go off."""
    units = [piece for piece in view.pieces if piece.on_map]
    entries: list[LegendEntry] = []
    if any(unit.leader for unit in units):
        entries.append(LegendEntry("leader", "leader"))
    if any(unit.max_hit for unit in units):
        entries.append(LegendEntry("hp_left", "HP left"))
    if any((unit.hit or 0) < (unit.max_hit or 0) for unit in units):
        entries.append(LegendEntry("hp_lost", "HP lost"))
    if any(unit.max_armour for unit in units):
        entries.append(LegendEntry("armour_left", "armour"))
    if any(unit.level for unit in units):
        entries.append(LegendEntry("on_level", "on a level"))
    if any(unit.prone for unit in units):
        entries.append(LegendEntry("prone", "prone"))
    if any(unit.status == ACTIVATED for unit in units):
        entries.append(LegendEntry("activated", "activated"))
    if any(unit.status == DOWNED for unit in units):
        entries.append(LegendEntry("downed", view.down_word))
    for side in sorted({arc.side for arc in view.arcs}):
        entries.append(LegendEntry("arc", "firing arc, shots left", side))
    kinds = {m.kind for m in view.markers if m.square is not None}
    words = {"grenade": "grenade (at turn end)", "satchel": "satchel charge (at turn end)"}
    entries += [LegendEntry(kind, text) for kind, text in words.items() if kind in kinds]
    return entries


MARKS = {"SHK": "Shaken", "BLD": "Bloodied"}  # a Group's marks, in the rulebook's words


def _overlays(view: MatchView, events: Sequence[Event]) -> list[LegendEntry]:
    """The marks of the last activation, as `battlemap` draws them from the same events."""
    found: dict[tuple[str, int], None] = {}  # (kind, squad colour), in order of first sight
    outcomes = attack_outcomes(events)
    for number, event in enumerate(events):
        kind = event.kind
        mover = view.piece(event.data["unit"]) if kind == "moved" else None
        if mover is not None:
            found[("move", mover.side)] = None
        elif kind == "attack":  # a line of attack: miss, hit or Taken Out
            found[(outcomes.get(number, "miss"), 0)] = None
        elif kind == "pool" and event.data.get("purpose") in POOL_LINES:  # a Group's
            found[("hit" if event.data.get("r_lost") else "miss", 0)] = None
        elif kind in ("explosion", "blast"):
            found[("blast", 0)] = None
        elif kind in ("thrown", "scatter"):  # the infantry rules' explosives
            found[(kind, 0)] = None
        elif kind == "door":
            found[("door_opened" if event.data.get("open") else "door_shut", 0)] = None
        elif kind == "crate_opened":
            found[("crate_opened", 0)] = None
        elif kind == "taken_out" and event.data.get("square"):  # the cross where it fell
            found[("taken_out", 0)] = None
    words = {"move": "move", "miss": "missed or saved", "hit": "hit",
             "taken_out": view.casualty_word, "thrown": "thrown", "scatter": "scattered",
             "blast": "blast", "door_opened": "door opened",
             "door_shut": "door closed", "crate_opened": "crate opened"}  # fmt: skip
    if not view.hits:  # an opposed roll (the d20 rules): no save, and a win downs the loser
        words |= {"miss": "roll not won", "hit": f"won: {view.down_word}"}
    order = list(words)
    return [LegendEntry(kind, words[kind], side)
            for kind, side in sorted(found, key=lambda key: (order.index(key[0]), key[1]))]  # fmt: skip


# --- where the entries go ------------------------------------------------------------------
def legend_layout(
    entries: Sequence[LegendEntry], width: int
) -> tuple[list[tuple[LegendEntry, Box]], int]:
    """Each entry with the box of its symbol (the words follow on its right), rows filled left
    to right within `width`; and the key's height (0 without entries)."""
    placed: list[tuple[LegendEntry, Box]] = []
    x, y = PAD, PAD
    face = font(TEXT_SIZE)
    for entry in entries:
        size = CELL + GAP + round(face.getlength(entry.text))
        if x > PAD and x + size > width - PAD:
            x, y = PAD, y + ROW
        placed.append((entry, (x, y, x + CELL - 1, y + CELL - 1)))
        x += size + SPACING
    height = y + ROW + PAD - 8 if placed else 0
    return placed, height


def draw_legend(entries: Sequence[LegendEntry], width: int) -> Image.Image:
    """The key as an image `width` wide, to paste under the map (there must be entries)."""
    placed, height = legend_layout(entries, width)
    image = new_image(width, height)
    for entry, (x0, y0, _, _) in placed:
        image.paste(_entry_tile(entry), (x0 - OVERFLOW, y0 - OVERFLOW))
    ImageDraw.Draw(image).line((0, 0, width, 0), fill=colour("grid"), width=2)
    return image


OVERFLOW = 8  # how far a symbol may reach out of its square (a leader's star on its token)


@cache
def _entry_tile(entry: LegendEntry) -> Image.Image:
    """One entry, its symbol and its words, with room around for what reaches out of the
    symbol's square; drawn once (pictures of a match mostly list the same entries)."""
    face = font(TEXT_SIZE)
    words = CELL + GAP + math.ceil(face.getlength(entry.text)) + 2
    tile = new_image(words + 2 * OVERFLOW, CELL + 2 * OVERFLOW)
    draw = ImageDraw.Draw(tile)
    x0 = y0 = OVERFLOW
    _symbol(tile, draw, entry, (x0, y0, x0 + CELL - 1, y0 + CELL - 1))
    draw.text(
        (x0 + CELL + GAP, y0 + CELL // 2), entry.text, fill=colour("ink"), font=face, anchor="lm"
    )
    return tile


# --- the symbols ---------------------------------------------------------------------------
def _symbol(image: Image.Image, draw: ImageDraw.ImageDraw, entry: LegendEntry, box: Box) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1 + 1) // 2, (y0 + y1 + 1) // 2
    kind = entry.kind
    if kind == "impassable":
        image.paste(symbols.impassable_tile().crop((0, 0, CELL, CELL)), (x0, y0))
    elif kind.startswith("level"):
        level = int(kind.removeprefix("level"))
        image.paste(symbols.ground_tile(level, False).crop((0, 0, CELL, CELL)), (x0, y0))
        symbols.level_label(draw, x0, y0, level)
    elif kind == "difficult":
        image.paste(symbols.ground_tile(0, True).crop((0, 0, CELL, CELL)), (x0, y0))
    elif kind == "ledge":
        image.paste(symbols.ground_tile(1, False).crop((0, 0, CELL // 2, CELL)), (x0, y0))
        image.paste(symbols.ground_tile(0, False).crop((0, 0, CELL - CELL // 2, CELL)), (cx, y0))
        symbols.ledge(draw, (cx, y0), (cx, y1 + 1), 1)
    elif kind in ("wall_low", "wall_high", "wall_tall"):
        _plain(image, box)
        height = {"wall_low": 1, "wall_high": 2, "wall_tall": 3}[kind]
        symbols.wall(draw, (cx, y0), (cx, y1 + 1), height)
    elif kind in ("door_closed", "door_open", "door_opened", "door_shut"):
        _plain(image, box)
        symbols.door(draw, (cx, y0), (cx, y1 + 1), is_open=kind in ("door_open", "door_opened"))
        if kind in ("door_opened", "door_shut"):
            symbols.highlight(draw, (cx - 8, y0 + 2, cx + 8, y1 - 2))
    elif kind == "ladder":
        _plain(image, box)
        symbols.ladder(draw, (cx, y0 + 4), (cx, y1 - 4))
    elif kind == "stairs":
        _plain(image, box)
        image.paste(symbols.ground_tile(1, False).crop((0, 0, CELL - CELL // 2, CELL)), (cx, y0))
        symbols.steps(
            draw, [((cx - d, y0 + 4), (cx - d, y1 - 4)) for d in symbols.STEP_OFFSETS[:3]]
        )
    elif kind in ("objective", "objective_held"):
        ring = colour("objective") if kind == "objective" else side_colour(entry.side)
        symbols.objective(draw, box, ring, 1)
    elif kind == "beacon":
        symbols.beacon(draw, (x0 + 10, y0 + 8), side_colour(entry.side))
    elif kind in (CRATE, BARREL, MARKER, "turret_mg", "turret_rl", "crate_opened"):
        at = (cx - ITEM_SIZE // 2, cy - ITEM_SIZE // 2)
        if kind.startswith("turret"):
            symbols.item(
                draw, at, TURRET, "machine_gun" if kind == "turret_mg" else "rocket_launcher"
            )
        else:
            symbols.item(draw, at, CRATE if kind == "crate_opened" else kind)
        if kind == "crate_opened":
            symbols.highlight(draw, (x0, y0, x1, y1))
    elif kind in ("leader", "hit_left", "hit_lost", "activated", "carrying", "downed"):
        _token_detail(image, kind, box)
    elif kind == "group":  # three models tied, in the first seat's colour
        points = [(x0 + 8, y1 - 10), (cx, y0 + 12), (x1 - 8, y1 - 10)]
        symbols.ties(draw, points, entry.side)
        for point in points:
            symbols.model(draw, point, entry.side, activated=False, radius=8)
    elif kind.startswith("mark_"):
        symbols.mark_chips(draw, (x1 - 6, cy - 7), (kind.removeprefix("mark_"),))
    elif kind == "move":
        symbols.path(draw, [(x0 + 4, cy), (x1 - 2, cy)], side_colour(entry.side, "dark"), back=0)
    elif kind in ("miss", "hit"):
        symbols.attack(draw, (x0, cy), (x1, cy), kind, back=0)
    elif kind == "taken_out":  # the thick black line of the blow, and the cross where it fell
        symbols.attack(draw, (x0, cy), (cx, cy), "taken_out", back=0)
        symbols.taken_out_cross(draw, (cx - 8, y0, x1 + 8, y1), 8)
    elif kind == "blast":
        symbols.blast(draw, (cx, cy), CELL / 2)
    else:
        _dot_symbol(image, draw, entry, box)


def _dot_symbol(
    image: Image.Image, draw: ImageDraw.ImageDraw, entry: LegendEntry, box: Box
) -> None:
    """The marks of a board of dots (the infantry rules), drawn by the hex picture's code."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1 + 1) // 2, (y0 + y1 + 1) // 2
    kind = entry.kind
    hexagon = (cx, cy, CELL // 2)
    if kind.startswith("dot_"):
        fill = "impassable" if kind == "dot_impassable" else "level0"
        draw.regular_polygon(hexagon, 6, rotation=30, fill=colour(fill), outline=colour("grid"))
        if kind == "dot_impassable":
            dotsymbols.rock(draw, (cx, cy), CELL // 4)
        elif kind == "dot_stairs":
            dotsymbols.dot_stairs(draw, (cx, cy - 4))
        else:
            dotsymbols.dot_ladder(draw, (cx, cy))
    elif kind.startswith("edge_"):
        _plain(image, box)
        start, end = (cx + 8, y0 + 2), (cx - 8, y1 - 2)
        if kind == "edge_upper":  # a wall and, drawn in from it, the floor above's wall
            shift = 2 * dotsymbols.UPPER_SHIFT
            dotsymbols.edge_feature(draw, (start[0] - shift, start[1]), (end[0] - shift, end[1]),
                                    "wall")  # fmt: skip
            dotsymbols.edge_feature(draw, start, end, "wall")
        else:
            dotsymbols.edge_feature(draw, start, end, kind.removeprefix("edge_"))
    elif kind in ("hp_left", "hp_lost", "armour_left"):
        most = 5
        left = 2 if kind == "hp_lost" else most
        ink = colour("label") if kind == "armour_left" else side_colour(0, "dark")
        dotsymbols.pip_row(draw, (cx, cy), left, most, ink)
    elif kind == "on_level":
        dotsymbols.chip(draw, (cx - 10, cy - 7), "L1", "label", right=False)
    elif kind == "prone":
        dotsymbols.chip(draw, (cx + 6, cy - 7), "P", "ink", right=True)
    elif kind == "arc":
        vertex = (x0 + 2, y1 - 2)
        dotsymbols.arc_wedge(image, vertex, 30.0, 60, CELL - 4, entry.side)
        dotsymbols.arc_shots(ImageDraw.Draw(image), (x1 - 10, y0 + 12), 2, entry.side)
    elif kind in ("grenade", "satchel"):
        dotsymbols.explosive(draw, (cx, cy), kind)
    elif kind in ("thrown", "scatter"):
        ink = colour("gold" if kind == "thrown" else "hit")
        symbols.dashed(draw, (x0, cy), (x1, cy), ink, width=3)
        symbols.arrow_head(draw, (x0, cy), (x1, cy), ink, back=0)


def _plain(image: Image.Image, box: Box) -> None:
    image.paste(symbols.ground_tile(0, False).crop((0, 0, CELL, CELL)), box[:2])


def _token_detail(image: Image.Image, kind: str, box: Box) -> None:
    """HIT as the pips under a token; the other details on a token drawn by the map's code."""
    x0, y0, _, _ = box
    if kind in ("hit_left", "hit_lost"):
        draw = ImageDraw.Draw(image)
        symbols.pips(
            draw, None, 0, 3 if kind == "hit_left" else 1, 3, (x0 + CELL // 2, y0 + CELL // 2)
        )
        return
    token, mask = symbols.draw_token(
        0, "", 0, 0, kind == "activated", kind == "leader", kind == "carrying", kind == "downed"
    )
    # Real size, the token's body centred on the symbol's square (the star and the marker
    # diamond stand out of it a little, as they stand out of the token's square on the map).
    centre = SQUARE // 2, SQUARE // 2 - 4
    image.paste(token, (x0 + CELL // 2 - centre[0], y0 + CELL // 2 - centre[1]), mask)
