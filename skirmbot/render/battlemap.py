"""The battlemap picture: the board now, and what the last activation did.

Top to bottom: the header band (turn, mission, each squad's MP, TO, units up and units Taken
Out, whose activation is next), the caption (one line: what the last activation did), the map,
and the key (every kind of mark on this picture, drawn small with a word or two).

A third and fourth seat add a header line each. Everything is read from the ruleset's
`MatchView`: nothing here knows which rulebook made the match.

The map's layers, back to front: the terrain (levels, difficult and impassable squares, walls,
doors, ladders, stairs, grid and coordinates), drawn once per map and door state in the process
and shared by every renderer (`terrains`); objectives and items; the last activation's paths
and lines of attack; the unit tokens, each drawn once per look and pasted. Everything is drawn in the fixed palette of `palette`, with the marks of
`symbols` (which the key draws too).
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence

from PIL import Image, ImageDraw

from skirmbot.render import hexmap, symbols
from skirmbot.render.caption import attack_outcomes, captions, fit, last_activation, squad_lines
from skirmbot.render.drawings import SharedDrawings, image_bytes
from skirmbot.render.hexmap import HexLayout
from skirmbot.render.layout import (
    BAND,
    CAPTION,
    HEADER,
    MARGIN,
    SIDE_LINE,
    TITLE,
    MapLayout,
    band_height,
)
from skirmbot.render.legend import LegendEntry, draw_legend, match_entries, terrain_entries
from skirmbot.render.palette import (
    colour,
    draw_text,
    drawable,
    font,
    has_glyph,
    new_image,
    palette_bytes,
    side_colour,
)
from skirmbot.render.pools import POOL_LINES
from skirmbot.render.squaremap import (
    SquareLayout,
    draw_terrain,
    ladder_line,
    level_label_box,
    stair_lines,
)
from skirmbot.render.symbols import SQUARE, TOKEN_RADIUS, Point, draw_token
from skirmbot.render.terrains import TERRAINS, Layer, source_key
from skirmbot.rules.board import Board
from skirmbot.rules.events import Event
from skirmbot.rules.maps import BARREL, CRATE, MARKER, TURRET
from skirmbot.rules.view import (
    ACTIVATED,
    DOTS,
    DOWNED,
    OVER,
    SQUARES,
    DotBoardView,
    MatchView,
    PieceView,
    SideView,
)

# Kept importable from here, where the pictures' tests have always found them.
__all__ = [
    "BAND", "CAPTION", "HEADER", "MARGIN", "SIDE_LINE", "SQUARE", "TITLE", "Layout", "MapRenderer",
    "alt_text", "band_height", "ladder_line", "layout_of", "level_label_box", "seats_by_side",
    "stair_lines", "unit_labels",
]  # fmt: skip

TEXT_SIZE = 18
# The process's tokens and keys, shared by every match's renderer (skirmbot.render.drawings):
# a token is a few KB, a key under a map tens of KB; a thousand matches draw the same few.
TOKENS: SharedDrawings[tuple[Image.Image, Image.Image]] = SharedDrawings(
    lambda token: image_bytes(token[0]) + image_bytes(token[1]), 8192, 32 * 1024 * 1024
)
LEGENDS: SharedDrawings[Image.Image] = SharedDrawings(image_bytes, 1024, 32 * 1024 * 1024)


# The layout of a board of squares, by its old name (the pictures' tests build it by hand).
Layout = SquareLayout


def layout_of(view: MatchView, legend: int = 0) -> MapLayout:
    """The layout of the view's board, by its grid: squares or dots."""
    if view.grid == DOTS:
        return HexLayout.of(view, legend)
    if view.grid != SQUARES:
        raise ValueError(f"The picture cannot lay out a board of {view.grid}.")
    return SquareLayout.of(view, legend)


class MapRenderer:
    """Draws one match's pictures: its terrain, tokens and keys come from the process's shared
    drawings (a board built by hand, with no map source, keeps its terrain here)."""

    def __init__(self) -> None:
        self._terrain: dict[tuple[object, ...], tuple[Image.Image, tuple[LegendEntry, ...]]] = {}
        self._source: tuple[dict[str, object], str] | None = None

    def render(self, view: MatchView, events: Sequence[Event] = ()) -> Image.Image:
        plain = layout_of(view)
        terrain, terrain_kinds = self._terrain_image(view, plain)
        entries = (*terrain_kinds, *match_entries(view, events))  # = legend_entries(view, events)
        legend = self._legend(entries, plain.map_size[0]) if entries else None
        layout = layout_of(view, 0 if legend is None else legend.height)
        image = new_image(*layout.size)
        image.paste(terrain, (0, 0))
        if legend is not None:
            image.paste(legend, (0, plain.map_size[1]))
        if isinstance(layout, HexLayout):  # under everything but the terrain
            hexmap.draw_arcs(image, layout, view.arcs)
        draw = ImageDraw.Draw(image)
        _draw_objectives(draw, view, layout)
        _draw_items(draw, view, layout)
        _draw_last_activation(draw, view, layout, events)
        labels = unit_labels(view)
        groups = [piece for piece in view.pieces if piece.on_map and piece.group]
        for group in groups:  # under every token: a tie may pass another Group's model
            symbols.ties(draw, model_centres(layout, group), group.side)
        for piece in view.pieces:
            if piece.on_map and piece.group:
                self._paste_group(image, draw, layout, piece, labels[piece.id])
            elif piece.on_map and isinstance(layout, HexLayout):
                self._paste_trooper(image, draw, layout, piece, labels[piece.id])
            elif piece.on_map:
                self._paste_token(image, layout, piece, labels[piece.id])
        if isinstance(layout, HexLayout):
            hexmap.draw_explosives(draw, layout, view.markers)
        _draw_header(draw, view, layout, events)
        if view.teams or len(view.sides) > 2:  # the seat colours past the second, or shades
            image.putpalette(palette_bytes(len(view.sides), view.teams))
        return image

    def png(self, view: MatchView, events: Sequence[Event] = ()) -> bytes:
        buffer = io.BytesIO()
        # compress_level 1: the palette image is small already; never optimize=True (slow).
        self.render(view, events).save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()

    def _terrain_image(
        self, view: MatchView, layout: MapLayout
    ) -> tuple[Image.Image, tuple[LegendEntry, ...]]:
        """The terrain picture and the key's entries for it: the process's shared layer, keyed by
        what it is drawn from (a board of dots is its own description; a board of squares, its
        map's source and door states). A board of squares built by hand (no source) keys it by
        the board, in this renderer only: another board may take its id later."""
        board = view.board
        doors = tuple(sorted(board.door_states().items())) if isinstance(board, Board) else ()
        source = view.battle_map.source if view.battle_map is not None else {}
        if isinstance(board, DotBoardView):
            drawn_from: object = board
        elif source:
            drawn_from = self._source_key(source)
        else:
            key = (view.map_name, doors, layout.band, id(view.board))
            if key not in self._terrain:
                self._terrain[key] = _terrain_layer(view, layout)
            return self._terrain[key]
        shared = (view.grid, view.map_name, drawn_from, doors, type(layout).__name__,
                  layout.band, layout.map_size)  # fmt: skip
        return TERRAINS.get(shared, lambda: _terrain_layer(view, layout))

    def _source_key(self, source: dict[str, object]) -> str:
        """The source's digest, worked out once for the map this renderer draws (the source is
        held, so the identity check cannot match another map's)."""
        if self._source is None or self._source[0] is not source:
            self._source = (source, source_key(source))
        return self._source[1]

    def _legend(self, entries: tuple[LegendEntry, ...], width: int) -> Image.Image:
        return LEGENDS.get((entries, width), lambda: draw_legend(entries, width))

    def _paste_token(
        self, image: Image.Image, layout: MapLayout, piece: PieceView, label: str
    ) -> None:
        """The piece's token on its square; a piece covering several squares (a Big Model) gets
        one token stretched over the squares it covers."""
        token, mask = self._token(piece, label)
        boxes = [layout.box(square) for square in piece.squares]
        x0, y0 = min(box[0] for box in boxes), min(box[1] for box in boxes)
        x1, y1 = max(box[2] for box in boxes), max(box[3] for box in boxes)
        size = (x1 - x0 + 1, y1 - y0 + 1)
        if size != token.size:
            token, mask = token.resize(size, Image.Resampling.NEAREST), mask.resize(size)
        image.paste(token, (x0, y0), mask)

    def _paste_trooper(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, layout: HexLayout, piece: PieceView,
        label: str,
    ) -> None:  # fmt: skip
        """A trooper on a dot: its token without the square's pips, then its own marks (small
        HP and armour pips that fit the hexagon, its level, prone)."""
        token, mask = self._token(piece, label, pips=False)
        x0, y0, _, _ = layout.box(piece.squares[0])
        image.paste(token, (x0, y0), mask)
        hexmap.trooper_marks(draw, layout, piece)

    def _paste_group(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, layout: MapLayout, piece: PieceView,
        label: str,
    ) -> None:  # fmt: skip
        """A Group: its first model's token carries the label, the Captain's star, R left and
        the marks; every other model is a small disc on its own square."""
        activated = piece.status == ACTIVATED
        for square in piece.squares[1:]:
            symbols.model(draw, layout.centre(square), piece.side, activated)
        first = piece.squares[0]
        token, mask = self._token(piece, label, pips=False)
        x0, y0, x1, _ = layout.box(first)
        image.paste(token, (x0, y0), mask)
        if piece.max_hit:
            centre = (x0 + SQUARE // 2, y0 + symbols.PIP_Y)
            symbols.resilience(draw, centre, piece.side, piece.hit or 0, piece.max_hit)
        symbols.mark_chips(draw, (x1, y0 + 1), piece.marks)

    def _token(
        self, piece: PieceView, label: str, pips: bool = True
    ) -> tuple[Image.Image, Image.Image]:
        look = (
            piece.side,
            label,
            (piece.hit or 0) if pips else 0,
            (piece.max_hit or 0) if pips else 0,
            piece.status == ACTIVATED,
            piece.leader,
            bool(piece.carrying),
            piece.status == DOWNED,
            piece.facing,
        )
        return TOKENS.get(look, lambda: draw_token(*look))


def model_centres(layout: MapLayout, piece: PieceView) -> list[Point]:
    """Where a Group's models are drawn: the first model's token sits a little high in its
    square (its R under it), the others in the middle of theirs."""
    centres = [layout.centre(square) for square in piece.squares]
    if centres:
        centres[0] = (centres[0][0], centres[0][1] - 4)
    return centres


# --- unit labels ---------------------------------------------------------------------------
def unit_labels(view: MatchView) -> dict[str, str]:
    """Short labels, unique in the match: the first letters of the name, as few as tell the
    units apart (at least 3); units sharing a name get their squad number (`Re1`, `Re2`).
    Letters the font has no glyph for (an emoji) are left out: a stand-in would not fit."""
    names = {p.id: label_letters(p.name or p.id) for p in view.pieces}
    counts: dict[str, int] = {}
    for piece in view.pieces:
        counts[piece.name or piece.id] = counts.get(piece.name or piece.id, 0) + 1
    labels: dict[str, str] = {}
    for piece in view.pieces:
        uid = piece.id
        if counts[piece.name or piece.id] > 1:
            labels[uid] = f"{names[uid][:2]}{piece.side + 1}"
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


# --- objectives and items ------------------------------------------------------------------
OBJECTIVE_KINDS = ("objective", "beacon")
ITEM_KINDS = (
    CRATE,
    BARREL,
    TURRET,
    MARKER,
)  # what `symbols.item` draws  # drawn before the items, each beacon on its objective


def _draw_objectives(draw: ImageDraw.ImageDraw, view: MatchView, layout: MapLayout) -> None:
    for marker in view.markers:
        if marker.square is None or marker.kind not in OBJECTIVE_KINDS:
            continue
        box = layout.box(marker.square)
        if marker.kind == "objective":
            ring = colour("objective") if marker.side is None else side_colour(marker.side)
            symbols.objective(draw, box, ring, marker.number)
        elif marker.side is not None:  # Signal Fires: a flag in the colour of who armed it
            symbols.beacon(draw, (box[0] + 4, box[1] + 2), side_colour(marker.side))


def _draw_items(draw: ImageDraw.ImageDraw, view: MatchView, layout: MapLayout) -> None:
    for marker in view.markers:
        if marker.square is None or marker.kind in (*OBJECTIVE_KINDS, *hexmap.EXPLOSIVES):
            continue  # a thrown explosive is drawn over the tokens (hexmap)
        kind = marker.kind
        if view.grid == DOTS and kind not in ITEM_KINDS:  # a dropped weapon: a marker
            kind = MARKER
        x0, _, _, y1 = layout.box(marker.square)
        symbols.item(draw, (x0 + 2, y1 - 21), kind, marker.variant or None)


# --- the last activation -------------------------------------------------------------------
def _draw_last_activation(
    draw: ImageDraw.ImageDraw, view: MatchView, layout: MapLayout, events: Sequence[Event]
) -> None:
    outcomes = attack_outcomes(events)
    for number, event in enumerate(events):
        data = event.data
        mover = view.piece(data["unit"]) if event.kind == "moved" else None
        if mover is not None and data.get("paths"):  # a Group: every model's path
            fill = side_colour(mover.side, "dark")
            for model, steps in enumerate(data["paths"]):
                points = [layout.centre(layout.parse(s)) for s in steps]
                back = TOKEN_RADIUS + 2 if model == 0 else symbols.MODEL_RADIUS + 2
                symbols.path(draw, points, fill, back=back)
        elif mover is not None:
            fill = side_colour(mover.side, "dark")
            points = [layout.centre(layout.parse(s)) for s in data["path"]]
            symbols.path(draw, points, fill, back=TOKEN_RADIUS + 2)
        elif event.kind == "pool" and data.get("purpose") in POOL_LINES:
            line = pool_line(view, layout, data)
            if line is not None:
                outcome = "hit" if data.get("r_lost") else "miss"
                symbols.attack(draw, *line, outcome, symbols.MODEL_RADIUS)
        elif event.kind == "attack":
            start, end = layout.parse(data["from"]), layout.parse(data["to"])
            outcome = outcomes.get(number, "miss")
            symbols.attack(draw, layout.centre(start), layout.centre(end), outcome, TOKEN_RADIUS)
        elif event.kind == "thrown":  # from where the thrower stands: it may not move after
            thrower = view.piece(str(data.get("unit")))
            if thrower is not None and thrower.square is not None:
                start, end = (
                    layout.centre(thrower.square),
                    layout.centre(layout.parse(data["target"])),
                )
                symbols.dashed(draw, start, end, colour("gold"), width=3)
                symbols.arrow_head(draw, start, end, colour("gold"), back=8)
        elif event.kind == "scatter":  # where a thrown explosive went astray
            start, end = (
                layout.centre(layout.parse(data["from"])),
                layout.centre(layout.parse(data["to"])),
            )
            symbols.dashed(draw, start, end, colour("hit"), width=3)
            symbols.arrow_head(draw, start, end, colour("hit"), back=8)
        elif event.kind in ("explosion", "blast"):
            symbols.blast(draw, layout.centre(layout.parse(data["square"])), SQUARE * 0.9)
        elif event.kind == "door":
            a, b = (layout.parse(s) for s in data["edge"].split("|"))
            (x0, y0), (x1, y1) = layout.edge_line(a, b)
            symbols.highlight(
                draw, (min(x0, x1) - 8, min(y0, y1) - 8, max(x0, x1) + 8, max(y0, y1) + 8)
            )
        elif event.kind == "crate_opened":
            x0, y0, x1, y1 = layout.box(layout.parse(data["square"]))
            symbols.highlight(draw, (x0, y0, x1 + 1, y1 + 1))  # on the grid: clear of the label
        elif event.kind == "taken_out" and data.get("square"):
            symbols.taken_out_cross(draw, layout.box(layout.parse(data["square"])), 12)


def pool_line(
    view: MatchView, layout: MapLayout, data: dict[str, object]
) -> tuple[Point, Point] | None:
    """A Group's shooting or attack as a line between the nearest models of the two Groups
    (rulebook General: distance is "measured between the closest models in each Group")."""
    roller, target = view.piece(str(data.get("unit"))), view.piece(str(data.get("target")))
    if roller is None or target is None or not roller.squares or not target.squares:
        return None
    a, b = min(
        ((a, b) for a in roller.squares for b in target.squares),
        key=lambda pair: _squared(layout.centre(pair[0]), layout.centre(pair[1])),
    )
    return layout.centre(a), layout.centre(b)


def _terrain_layer(view: MatchView, layout: MapLayout) -> Layer:
    """The terrain layer and the key's entries for it, as the shared cache keeps them."""
    return _draw_terrain(view, layout), tuple(terrain_entries(view.board))


def _draw_terrain(view: MatchView, layout: MapLayout) -> Image.Image:
    """The terrain layer of the view's board, by its grid."""
    board = view.board
    if isinstance(board, Board) and isinstance(layout, SquareLayout):
        return draw_terrain(board, layout)
    if isinstance(board, DotBoardView) and isinstance(layout, HexLayout):
        return hexmap.draw_terrain(board, layout)
    raise ValueError(f"A board of {view.grid} does not match its view's board.")


def _squared(a: Point, b: Point) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


# --- the header band and the caption -------------------------------------------------------
def _draw_header(
    draw: ImageDraw.ImageDraw, view: MatchView, layout: MapLayout, events: Sequence[Event]
) -> None:
    width, _ = layout.size
    face = font(TEXT_SIZE)
    draw.rectangle((0, 0, width, layout.band - 1), fill=colour("header"))
    nxt = _whose_turn(view)
    draw_text(draw, (width - 12, 8), nxt, colour("gold"), TEXT_SIZE, "ra")
    title = _titles(view)
    room = width - 24 - face.getlength(nxt) - 16
    draw_text(draw, (12, 8), fit(title, room, face), colour("header_text"), TEXT_SIZE)
    for number, side in enumerate(seats_by_side(view)):
        y = TITLE + number * SIDE_LINE
        # A seat that is out (conceded, eliminated) is greyed: the others play on.
        swatch = colour("neutral") if side.out else side_colour(side.side)
        draw.rectangle((12, y + 2, 30, y + 20), fill=swatch, outline=colour("white"))
        line = fit(squad_lines(view, side.side), width - 38 - 12, face)
        ink = colour("grid") if side.out else colour("header_text")
        draw_text(draw, (38, y), line, ink, TEXT_SIZE)
    if view.teams:
        _draw_teams(draw, view)
    _draw_caption(draw, view, layout, events)


def seats_by_side(view: MatchView) -> list[SideView]:
    """The header's seat lines: side by side in team play (side 0's seats, then side 1's), else
    in seat order."""
    order = [seat for team in view.teams for seat in team]
    if not order:
        return list(view.sides)
    rank = {seat: number for number, seat in enumerate(order)}
    return sorted(view.sides, key=lambda side: rank.get(side.side, len(order) + side.side))


def _draw_teams(draw: ImageDraw.ImageDraw, view: MatchView) -> None:
    """A bar down the left of each side's seat lines, in the side's colour: who plays with whom."""
    line = 0
    for team in view.teams:
        seats = [seat for seat in team if any(side.side == seat for side in view.sides)]
        if seats:
            top, bottom = TITLE + line * SIDE_LINE, TITLE + (line + len(seats)) * SIDE_LINE - 6
            draw.rectangle((3, top + 2, 7, bottom), fill=side_colour(team[0]))
            line += len(seats)


def _draw_caption(
    draw: ImageDraw.ImageDraw, view: MatchView, layout: MapLayout, events: Sequence[Event]
) -> None:
    """One line under the band: what the last activation did, after a dot in its squad's colour."""
    width, _ = layout.size
    face = font(TEXT_SIZE)
    top, middle = layout.band, layout.band + CAPTION // 2
    draw.rectangle((0, top, width, top + CAPTION - 1), fill=colour("caption"))
    draw.line((0, top + CAPTION - 1, width, top + CAPTION - 1), fill=colour("grid"))
    actor, _ = last_activation(events)
    piece = view.piece(actor) if actor is not None else None
    x = 12
    if piece is not None:
        draw.ellipse((x, middle - 8, x + 16, middle + 8), fill=side_colour(piece.side),
                     outline=colour("ink"))  # fmt: skip
        x += 26
    text = fit(captions(events, view), width - x - 12, face)
    draw_text(draw, (x, middle), text, colour("ink"), TEXT_SIZE, "lm")


def alt_text(view: MatchView, events: Sequence[Event] = ()) -> str:
    """The picture in words, for those who cannot see it: its caption line, then the score
    (each squad's header line, in full) and the turn, mission and whose activation is next."""
    caption = captions(events, view)[0].rstrip(".")
    squads = "; ".join(squad_lines(view, side.side)[0] for side in seats_by_side(view))
    return f"Battlemap: {caption}. Score: {squads}. {_titles(view)[1]} · {_whose_turn(view)}."


def _titles(view: MatchView) -> list[str]:
    """The header's title, from the longest wording to the shortest."""
    of = f" of {view.turns}" if view.turns is not None else ""
    turn = f"{view.turn_word} {view.turn}{of}" if view.turn else "Deployment"
    return [
        f"{turn}  ·  {view.title}  ·  {_headline(view)}",
        f"{turn} · {view.title}",
    ]


def _headline(view: MatchView) -> str:
    """This turn's event when there is one (it changes what may be done), else the map."""
    return view.notes[0] if view.notes else view.map_name


def _whose_turn(view: MatchView) -> str:
    if view.phase == OVER and view.outcome:
        return view.outcome
    if view.to_act is None:
        return "Deploying"
    acting = view.seats_acting()
    if len(acting) > 1:  # team play: every seat of the side whose turn it is
        names = ", ".join(_seat(view, seat).name for seat in acting)
        ready = sum(len(view.ready(seat)) for seat in acting)
        return f"Next: {names} ({ready} ready)"
    ready = len(view.ready(view.to_act))
    return f"Next: {_seat(view, view.to_act).name} ({ready} ready)"


def _seat(view: MatchView, side: int) -> SideView:
    return next(seat for seat in view.sides if seat.side == side)
