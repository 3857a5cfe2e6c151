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

from skirmbot.render.preview import PreviewRenderer
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import DASH, LEAP, MOVE, Preview, copy_for_preview
from skirmbot.rules.ruleset import PlayedMatch, Ruleset
from skirmbot.rules.skirm.state import MatchState
from skirmbot.rules.squares import Square
from skirmbot.service.choices import Option, Situation
from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.replies import MESSAGE_LIMIT, Reply
from skirmbot.service.work import DEPLOYING, PLAYING, not_playing
from skirmbot.store import MatchRow

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
    # working out and drawing go to a thread (the event loop stays free) and read only it.
    state: MatchState = copy_for_preview(match.state)
    name = _unit_name(state, side, unit)
    try:
        # The first word: a square typed as autocomplete shows it ("C5 (dash)") still reads.
        where = state.board.parse_square(square.split()[0]) if square and square.strip() else None
        found, picture = await asyncio.to_thread(
            _drawn, _renderer(row.id), rules, state, name, where
        )
    except RulesError as error:
        raise ServiceError(str(error)) from error
    return Reply(preview_text(found), picture=picture, picture_name=PICTURE_NAME, private=True)


def _drawn(
    renderer: PreviewRenderer, rules: Ruleset, state: MatchState, name: str, where: Square | None
) -> tuple[Preview, bytes]:
    """The preview and its picture, worked out on the service's own copy (in a thread)."""
    found = rules.preview(state, name, where)
    return found, renderer.png(state, found)


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


def _unit_name(state: MatchState, side: int, unit: str | None) -> str:
    """The unit to preview: the one named (it must be the asker's), else the asker's unit
    that is activating."""
    if unit and unit.strip():
        try:
            found = state.unit(unit)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        if found.side != side:
            raise NotAllowed(
                f"{found.name} is not in your squad: preview one of your own units "
                f"({_own_units(state, side)})."
            )
        return found.id
    activation = state.activation
    if activation is not None and state.units[activation.unit].side == side:
        return activation.unit
    if activation is not None:  # the opponent's unit is activating (their Preview button)
        raise NotAllowed(
            f"{activation.unit} is activating for your opponent, and a preview is for its own "
            f"player. Preview one of your units with unit: ({_own_units(state, side)})."
        )
    raise ServiceError(
        f"No unit of yours is activating: name the one to preview ({_own_units(state, side)})."
    )


def _own_units(state: MatchState, side: int) -> str:
    return ", ".join(u.name for u in state.on_map(side)) or "none on the map"


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
    characters the squares are counted rather than listed (the odds matter more)."""
    where = f"as if on {preview.square}" if preview.as_if else f"on {preview.square}"
    head = f"**Preview: {preview.unit}** {where} (only you see this; nothing is changed)."
    odds = ["Attacks (chance to hit · expected HIT lost, without TO):"]
    odds += [f"- {chance.words()}" for chance in preview.attacks] or ["- no enemy in reach"]
    if preview.as_if:
        odds.append(f"Could attack {preview.unit} on {preview.square}:")
        odds += [f"- {chance.attacker}'s {chance.words()}" for chance in preview.threats] or [
            "- no enemy"
        ]
    text = "\n".join([head, *_reach_lines(preview, listed=True), *odds])
    if len(text) <= limit:
        return text
    return "\n".join([head, *_reach_lines(preview, listed=False), *odds])


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


def _squares(squares: Iterable[Square]) -> str:
    return ", ".join(str(square) for square in squares)


# --- autocomplete --------------------------------------------------------------------------------
def preview_units(found: Situation) -> list[Option]:
    """The asker's units on the map, the activating one first: "Brann (3 HIT, on C6)"."""
    if found.side is None:
        return []
    units = found.state.on_map(found.side)
    activation = found.state.activation
    units.sort(key=lambda u: activation is None or u.id != activation.unit)
    return [(u.id, f"{u.name} ({u.hit} HIT, on {u.square})") for u in units]


def preview_squares(found: Situation, unit: str | None) -> list[Option]:
    """Squares to preview the unit on: those it can reach now, nearest action first: "C5
    (dash)". Any other free square may be typed."""
    chosen = found.unit(unit)
    if found.side is None or chosen is None or chosen.side != found.side:
        return []
    try:
        reach = found.rules.preview(found.state, chosen.id).reach
    except RulesError:
        return []
    order = {action: number for number, action in enumerate(HEADINGS)}
    ranked = sorted(reach, key=lambda r: (order[r.action], r.cost, r.square.y, r.square.x))
    return [(str(r.square), f"{r.square} ({r.action})") for r in ranked]
