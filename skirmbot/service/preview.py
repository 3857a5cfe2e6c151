"""Previews (issue 21): `/match preview unit: [square:]` and the Preview button, without Discord.

A player of the match previews one of their own units during play: the ruleset works out the
unit's options on a copy of the live state (skirmbot.rules.preview), the picture is drawn from
another copy, and the reply is for the asker only. Nothing is saved and no lock is taken: a
preview reads the match as it is and changes nothing, so it never delays a player's action.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from skirmbot.render.preview import PreviewRenderer, odds_words
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import DASH, LEAP, MOVE, Chance, Preview, copy_for_preview
from skirmbot.rules.ruleset import PlayedMatch, Ruleset
from skirmbot.rules.view import DOWNED, MatchView, PieceView, Position
from skirmbot.service.choices import Option, Situation
from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.orderline import plain_word
from skirmbot.service.replies import MESSAGE_LIMIT, Reply
from skirmbot.service.work import DEPLOYING, PLAYING, not_playing
from skirmbot.store import MatchRow
from skirmbot.words import possessive, shown

RENDERERS_KEPT = 8  # matches whose terrain and tokens stay drawn for their next preview
_renderers: OrderedDict[int, PreviewRenderer] = OrderedDict()
PICTURE_NAME = "preview.png"
HEADINGS = {DASH: "Dash", MOVE: "Move", LEAP: "Leap"}


async def preview_reply(
    row: MatchRow,
    match: PlayedMatch,
    rules: Ruleset,
    side: int,
    unit: str | None,
    square: str | None,
) -> Reply:
    """The preview of `side`'s unit (the activating one when `unit` is empty), as if on
    `square` when given: a picture and the same numbers in words, for the asker only."""
    check_previewable(row)
    # One consistent copy, taken before anything else can change the live match; the
    # working out and drawing go to a thread (the event loop stays free) and read only it,
    # with a board of its own: the live match may open a door meanwhile.
    state: Any = copy_for_preview(match.state, own_board=True)
    name = _unit_name(rules, state, side, unit)
    try:
        typed = _square_word(square)
        # The ruleset reads the place in its own grid's terms: the service never knows which.
        where = rules.position(state, typed) if typed else None
        found, picture = await asyncio.to_thread(
            _drawn, _renderer(row.id), rules, state, name, where
        )
    except RulesError as error:
        raise ServiceError(str(error)) from error
    text = preview_text(found)
    return Reply(
        text,
        picture=picture,
        picture_name=PICTURE_NAME,
        picture_alt=f"Preview picture: {text}",
        private=True,
    )


def _square_word(square: str | None) -> str | None:
    """The square as typed, read as one-line orders read one: compatibility forms (full-width
    "Ｃ５") are the plain ones and invisible characters none; the first word only, so a square
    written as autocomplete shows it ("C5 (dash)") still reads."""
    words = plain_word(square).split() if square else []
    return words[0] if words else None


def _drawn(
    renderer: PreviewRenderer, rules: Ruleset, state: Any, name: str, where: Position | None
) -> tuple[Preview, bytes]:
    """The preview and its picture, worked out on the service's own copy (in a thread)."""
    found = rules.preview(state, name, where)
    return found, renderer.png(rules.view(state), found)


def check_previewable(row: MatchRow) -> None:
    """Previews are for a match in play: never during the secret deployment."""
    if row.status != PLAYING:
        raise ServiceError(_why_not(row.status))


def _why_not(status: str) -> str:
    if status == DEPLOYING:
        return (
            "There is nothing to preview yet: units are still being placed in secret. "
            "Preview a unit once the match has begun."
        )
    return not_playing(status)


def _unit_name(rules: Ruleset, state: Any, side: int, unit: str | None) -> str:
    """The unit to preview: the one named (it must be the asker's), else the asker's unit
    that is activating."""
    view = rules.view(state)
    if unit and unit.strip():
        found = _piece_named(view, unit, side)
        if found.side != side:
            raise NotAllowed(
                f"{found.id} is not in your squad: preview one of your own units "
                f"({_own_units(view, side)})."
            )
        return str(found.id)
    activating = view.piece(view.activating) if view.activating is not None else None
    if activating is not None and activating.side == side:
        return activating.id
    if activating is not None:  # the opponent's unit is activating (their Preview button)
        raise NotAllowed(
            f"{activating.id} is activating for your opponent, and a preview is for its own "
            f"player. Preview one of your units with unit: ({_own_units(view, side)})."
        )
    raise ServiceError(
        f"No unit of yours is activating: name the one to preview ({_own_units(view, side)})."
    )


def _piece_named(view: MatchView, unit: str, side: int) -> PieceView:
    """The piece called `unit` (case does not matter); an unknown name lists the asker's."""
    key = unit.strip().casefold()
    found = next((piece for piece in view.pieces if piece.id.casefold() == key), None)
    if found is None:
        names = ", ".join(piece.id for piece in view.pieces_of(side))
        raise ServiceError(
            f"There is no unit called '{shown(unit)}'. "
            f"{possessive(view.sides[side].name)} units: {names}."
        )
    return found


def _own_units(view: MatchView, side: int) -> str:
    return ", ".join(piece.id for piece in _previewable(view, side)) or "none on the map"


def _previewable(view: MatchView, side: int) -> list[PieceView]:
    """The side's units a preview is for: on the map and not Downed (Skirm Lite: a Downed
    Agent has nothing to preview)."""
    return [piece for piece in view.pieces_of(side) if piece.on_map and piece.status != DOWNED]


def _renderer(match_id: int) -> PreviewRenderer:
    renderer = _renderers.pop(match_id, None) or PreviewRenderer()
    _renderers[match_id] = renderer
    while len(_renderers) > RENDERERS_KEPT:
        _renderers.popitem(last=False)
    return renderer


# --- in words ----------------------------------------------------------------------------------
def preview_text(preview: Preview, limit: int = MESSAGE_LIMIT) -> str:
    """The picture's numbers in words (readable without the picture): the squares by action,
    each attack, and with `square:` each enemy's attack on the unit there. Past `limit`
    characters the squares are counted rather than listed (the odds matter more), then each
    attack is written short ("Rifle → Vex: 62% · 1.4 dmg"); a big squad's odds that still do
    not fit are cut, the attacks and the attacks on it alike, and counted (the picture has
    them all): never cut off at the end, where the attacks on the unit are."""
    where = f"as if on {preview.square}" if preview.as_if else f"on {preview.square}"
    head = f"**Preview: {preview.unit}** {where} (only you see this; nothing is changed)."
    for listed, short in ((True, False), (False, False), (False, True)):
        sections = _odds_sections(preview, short=short)
        text = "\n".join(
            [
                head,
                *_reach_lines(preview, listed=listed),
                *(line for part in sections for line in part),
            ]
        )
        if len(text) <= limit:
            return text
    top = "\n".join([head, *_reach_lines(preview, listed=False)])
    return "\n".join([top, *_cut(sections, limit - len(top) - 1)])


def _odds_sections(preview: Preview, *, short: bool) -> list[list[str]]:
    """The attacks, and with `square:` the attacks on the unit there: each a heading, then a
    line per weapon and enemy."""

    def line(chance: Chance, whose: str) -> str:
        if short:
            return f"- {whose}{chance.weapon} → {chance.target}: {chance.short()}"
        return f"- {whose}{chance.words()}"

    attacks = [f"{preview.terms.attacks_title} ({odds_words(preview)}):"]
    attacks += [line(chance, "") for chance in preview.attacks] or ["- no enemy in reach"]
    if not preview.as_if:
        return [attacks]
    title = preview.terms.threats_title.format(unit=preview.unit, square=preview.square)
    threats = [f"{title}:"]
    threats += [line(chance, f"{chance.attacker}'s ") for chance in preview.threats] or [
        "- no enemy"
    ]
    return [attacks, threats]


def _cut(sections: list[list[str]], room: int) -> list[str]:
    """The sections in `room` characters: each keeps its heading and as many of its lines as
    its share of the room holds, then "- … N more (see the picture)"."""
    share = room // len(sections)
    kept: list[str] = []
    for heading, *lines in sections:
        taken = [heading]
        used = len(heading) + 1
        for number, line in enumerate(lines):
            more = f"- … {len(lines) - number} more (see the picture)"
            last = number == len(lines) - 1
            if used + len(line) + 1 + (0 if last else len(more) + 1) > share:
                taken.append(more)
                break
            taken.append(line)
            used += len(line) + 1
        kept += taken
    return kept


def _reach_lines(preview: Preview, *, listed: bool) -> list[str]:
    if not preview.reach:
        return ["It can reach no square from there."]
    lines = []
    for action, heading in HEADINGS.items():
        reached = preview.reach_by(action)
        if reached:
            squares = f": {_squares(r.square for r in reached)}" if listed else " (see the picture)"
            lines.append(f"{heading} ({len(reached)}){squares}")
    return lines


def _squares(squares: Iterable[Position]) -> str:
    return ", ".join(str(square) for square in squares)


# --- autocomplete --------------------------------------------------------------------------------
def preview_units(found: Situation) -> list[Option]:
    """The asker's units on the map, the activating one first: "Brann (3 HIT, on C6)"."""
    if found.side is None:
        return []
    view = found.rules.view(found.state)
    units = _previewable(view, found.side)
    units.sort(key=lambda piece: piece.id != view.activating)
    return [(piece.id, f"{piece.id} ({piece.hit} HIT, on {piece.square})") for piece in units]


def preview_squares(found: Situation, unit: str | None) -> list[Option]:
    """Squares to preview the unit on: those it can reach now, nearest action first: "C5
    (dash)". Any other free square may be typed."""
    chosen = found.unit(unit)
    if found.side is None or chosen is None or found.side_of(chosen) != found.side:
        return []
    try:
        reach = found.rules.preview(found.state, chosen).reach
    except RulesError:
        return []
    order = {action: number for number, action in enumerate(HEADINGS)}
    # A stable sort: within an action and a cost, the ruleset's own order (reading order).
    ranked = sorted(reach, key=lambda r: (order[r.action], r.cost))
    return [(str(r.square), f"{r.square} ({r.action})") for r in ranked]
