"""Campaign use cases, without Discord: stored squads and the XP they earn match after match.

- A player saves a squad file under a name (`save_squad`); it is checked with the squad building
  rules, and its units' XP is the XP the bot has recorded for them: XP comes from medals only
  (rulings: Campaigns), so a typed-in `xp` is replaced by the stored one (0 for a new unit).
- `/match squad my:NAME` plays the player's stored squad NAME (`resolve`); the match remembers
  which stored squad each side plays (the match's setup, `stored_squads`).
- When a match ends, `award_ended` computes every unit's medals from the match log, adds the XP
  to the stored squads that played it (once per match and squad), and returns one message
  listing each unit's medals, its XP and the Spoils Of War it may take, for both squads. A
  shipped sample or an uploaded file that was not saved keeps no XP: its medals are shown all
  the same. A match conceded (or agreed drawn) before the end of its first turn gives no medals
  and no XP (rulings: Campaign medals).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skirmbot.rules.commands import AgreeDraw, Concede
from skirmbot.rules.errors import ContentError
from skirmbot.rules.medal import Medal
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import (
    CAMPAIGNS,
    DEFAULT_RULESET,
    Campaign,
    PlayedMatch,
    Ruleset,
    UnitSpoils,
    lacking,
    ruleset,
    rulesets,
)
from skirmbot.service.errors import ServiceError
from skirmbot.service.replies import MESSAGE_LIMIT, Reply, clip
from skirmbot.service.work import ENDED_STATUS, LiveMatches
from skirmbot.store import MatchRow, SquadRow, Store
from skirmbot.words import plural

STORED_PREFIX = "my:"  # `/match squad my:NAME`: the player's stored squad NAME
MAX_NAME = 50


def campaign_rules() -> Ruleset:
    """The ruleset stored squads are built with: the first with campaigns (Skirm)."""
    return next(rules for rules in rulesets().values() if CAMPAIGNS in rules.features)


def campaign() -> Campaign:
    """The campaign rules of stored squads (Skirm's: XP, medals, Spoils Of War)."""
    return campaign_rules().campaign()


def is_stored_name(squad: str | dict[str, Any]) -> bool:
    return isinstance(squad, str) and squad.strip().casefold().startswith(STORED_PREFIX)


def stored_name(name: str) -> str:
    """A stored squad's name without the `my:` prefix."""
    name = name.strip()
    return name[len(STORED_PREFIX) :].strip() if is_stored_name(name) else name


def keep_progress(stored: dict[str, Any] | None, data: Any) -> tuple[Any, list[str]]:
    """The squad file's data with each unit's XP as the bot recorded it (by unit name; 0 for a
    unit new to the squad), and a note for each unit whose file said otherwise. Data that is not
    a squad is given back as it is, for the building rules to say what is wrong with it."""
    units = data.get("units") if isinstance(data, dict) else None
    if not isinstance(units, list) or not all(isinstance(unit, dict) for unit in units):
        return data, []
    recorded = {
        str(unit.get("name", "")).strip().casefold(): unit.get("xp", 0)
        for unit in (stored or {}).get("units", [])
        if isinstance(unit, dict)
    }
    merged = dict(data, units=[dict(unit) for unit in units])
    notes: list[str] = []
    for unit in merged["units"]:
        name = str(unit.get("name", "")).strip()
        xp = recorded.get(name.casefold(), 0)
        if "xp" in unit and unit["xp"] != xp:
            notes.append(
                f"{name} keeps the {xp} XP its medals gave it (the file said {unit['xp']})."
            )
        unit["xp"] = xp
    return merged, notes


class CampaignService:
    def __init__(self, store: Store, live: LiveMatches | None = None) -> None:
        self.store = store
        # The matches' locks: give the MatchService's (its `campaigns` does), so that `award`
        # waits for a command that is ending the match.
        self.live = live or LiveMatches(store)

    # --- stored squads --------------------------------------------------------------------
    async def save_squad(self, owner: int, guild: int, name: str, data: dict[str, Any]) -> Reply:
        """Store a squad file as `owner`'s squad `name` (its own name if blank), replacing the
        stored squad of that name but keeping its units' XP; checked with the building rules
        (100 EP) after the recorded XP is put in, so XPx gear is checked against the real XP."""
        own_name = data.get("name", "") if isinstance(data, dict) else ""
        name = stored_name(name) or str(own_name).strip()
        _check_name(name)
        notes: list[str] = []

        rules = campaign_rules()
        limit = rules.campaign().points_limit

        def make(stored: dict[str, Any] | None) -> dict[str, Any]:
            merged: dict[str, Any]
            merged, found = keep_progress(stored, data)
            rules.check_squad(merged, limit)  # XPx gear and spoils against the real XP
            notes.extend(found)
            return merged

        try:
            row = await self.store.save_squad(owner, guild, name, make)
        except ContentError as error:
            raise ServiceError(f"That squad cannot be saved: {error}") from error
        squad = rules.check_squad(row.data, limit)
        text = (
            f"Saved **{squad.name}** as {STORED_PREFIX}{row.name} ({plural(squad.size, 'unit')}, "
            f"{squad.points} EP). Play it with /match squad {STORED_PREFIX}{row.name}: "
            "its units keep the XP they earn."
        )
        return Reply("\n".join([text, *notes]), private=True)

    async def list_squads(self, owner: int) -> Reply:
        rows = await self.store.squads_of(owner)
        if not rows:
            return Reply(
                "You have no stored squads yet. Save a squad file to keep its progress.",
                private=True,
            )
        lines = [f"• {STORED_PREFIX}{row.name}: {_progress(row.data)}" for row in rows]
        return Reply(clip("Your stored squads:\n" + "\n".join(lines)), private=True)

    async def squad_names(self, owner: int) -> list[str]:
        """`my:NAME` for each stored squad of `owner` (for autocomplete)."""
        return [f"{STORED_PREFIX}{row.name}" for row in await self.store.squads_of(owner)]

    async def load_squad(self, owner: int, name: str) -> SquadRow:
        """`owner`'s stored squad `name` (with or without `my:`)."""
        row = await self.store.squad(owner, stored_name(name))
        if row is not None:
            return row
        names = ", ".join(await self.squad_names(owner))
        raise ServiceError(
            f"You have no stored squad called '{stored_name(name)}'. "
            + (f"Yours: {names}." if names else "Save a squad file first to keep its progress.")
        )

    async def resolve(
        self, owner: int, squad: str | dict[str, Any], rules: Ruleset | None = None
    ) -> tuple[str | dict[str, Any], int | None]:
        """What `/match squad` plays: a stored squad's data and id for `my:NAME`; anything else
        as it was given, with no stored squad. A stored squad in a match of `rules` without
        campaigns is refused in words."""
        if not is_stored_name(squad):
            return squad, None
        assert isinstance(squad, str)
        if rules is not None and CAMPAIGNS not in rules.features:
            raise ServiceError(str(lacking(rules.title, CAMPAIGNS)))
        row = await self.load_squad(owner, squad)
        return row.data, row.id

    # --- the end of a match ---------------------------------------------------------------
    async def award(self, match_id: int) -> Reply:
        """The medals of a finished match, its XP added to the stored squads that played it
        (once: asking again only shows them)."""
        not_ended = f"Match #{match_id} has not ended: medals come at the end."
        async with self.live.work_on(match_id) as work:  # read as the last command left it
            if work.row.status != ENDED_STATUS:
                raise ServiceError(not_ended)
            text = await self.award_ended(work.row, await work.match())
        return Reply(text or not_ended)

    async def award_ended(
        self, row: MatchRow, match: PlayedMatch, limit: int = MESSAGE_LIMIT
    ) -> str | None:
        """The medals of both squads in one message of at most `limit` characters (each unit's
        medals, XP and Spoils Of War), after the XP is added to the squads that are stored.
        A match that never reached its first turn, or was conceded (or agreed drawn) before its
        first turn ended, gives none, and says so. None: the match has not ended."""
        played = ruleset(str(row.record.get("ruleset", DEFAULT_RULESET)))
        if played.outcome(match.state) is None:
            return None
        if CAMPAIGNS not in played.features:  # medals, XP and early ends mean nothing there
            return f"No medals: {played.title} keeps no campaign progress."
        view = played.view(match.state)
        if view.turn < 1:
            return "No medals: the match ended before its first turn."
        early = ended_early(match, view.turn)
        if early is not None:
            return (
                f"No medals and no XP: the match was {early} before the end of its first turn "
                "(rulings: Campaign medals)."
            )
        if played.medals(match, 0) is None:
            return f"No medals: {played.title} keeps no campaign progress."
        stored = row.setup.get("stored_squads") or [None] * len(view.sides)
        blocks: list[_Block] = []
        for side in range(len(view.sides)):
            earned = played.medals(match, side) or {}
            name = view.sides[side].name
            if stored[side] is None:
                title = f"**Medals: {name}** (not a stored squad: its XP is not kept)"
                blocks.append(_Block(title, earned, None))
            else:
                title, spoils = await self._add_xp(int(stored[side]), row.id, name, earned)
                blocks.append(_Block(title, earned, spoils))
        return _medals_text(blocks, limit)

    async def complete_awards(self) -> list[int]:
        """Give the stored squads the XP of every ended match they were not awarded for yet;
        the matches done. The XP award is atomic with the match's end in this sense: it is
        idempotent (one award per squad and match, `Store.award_squad`), so if the process
        stops between the save that ends a match and its award, running this (at start-up,
        and by leagues before they read results) completes it, and running it again does
        nothing."""
        done = []
        for row in await self.store.unawarded_matches():
            await self.award_ended(row, replay(MatchRecord.from_json(row.record)))
            done.append(row.id)
        return done

    async def _add_xp(
        self, squad_id: int, match_id: int, name: str, earned: dict[str, list[Medal]]
    ) -> tuple[str, Mapping[str, UnitSpoils] | None]:
        spoils: dict[str, UnitSpoils] = {}
        rules = campaign()

        def change(data: dict[str, Any]) -> dict[str, Any]:
            new, found = rules.add_xp(data, earned)
            spoils.update(found)
            return new

        medal_names = {unit: [m.name for m in medals] for unit, medals in earned.items()}
        saved = await self.store.award_squad(squad_id, match_id, medal_names, change)
        if saved is not None:
            return f"**Medals: {name}** ({STORED_PREFIX}{saved.name}, XP added)", spoils
        current = await self.store.squad_by_id(squad_id)
        if current is None:
            return f"**Medals: {name}** (its stored squad was deleted: no XP kept)", None
        _, now = rules.add_xp(current.data, {})
        return f"**Medals: {name}** ({STORED_PREFIX}{current.name}, XP already added)", now


# --- helpers -------------------------------------------------------------------------------
def _check_name(name: str) -> None:
    if not name or len(name) > MAX_NAME:
        raise ServiceError(f"A stored squad needs a name of 1 to {MAX_NAME} characters.")


def _progress(data: dict[str, Any]) -> str:
    """A stored squad in one line: its name and each unit's XP."""
    units = [u for u in data.get("units", []) if isinstance(u, dict)]
    xp = ", ".join(f"{u.get('name')} {u.get('xp', 0)} XP" for u in units)
    return f"{data.get('name')} ({xp})"


def ended_early(match: PlayedMatch, turn: int) -> str | None:
    """How an ended match ended before the end of its first turn (`turn`: the turn it ended
    in) by its players' choice: "conceded" (a forfeit to the turn timer too) or "agreed
    drawn"; None otherwise. Such a match gives no medals: every unit would be Untouchable and
    a Veteran for nothing."""
    if turn > 1 or not match.commands:
        return None
    last = match.commands[-1]
    if isinstance(last, Concede):
        return "conceded"
    if isinstance(last, AgreeDraw):
        return "agreed drawn"
    return None


@dataclass(frozen=True, slots=True)
class _Block:
    """One squad in the medals message: its title, its units' medals, their spoils (stored)."""

    title: str
    earned: dict[str, list[Medal]]
    spoils: Mapping[str, UnitSpoils] | None


# How much each unit's line says: each medal with its XP and reason; with its XP; the medals'
# names; how many medals. The last two put the units without a medal on one line.
REASONS, PLAIN, COMPACT, COUNT = "reasons", "plain", "compact", "count"


def _medals_text(blocks: Sequence[_Block], limit: int) -> str:
    """Both squads' medals, as much said as fits in `limit` characters (the first style that
    fits); the last style cut when even that is too long."""
    text = ""
    for style in (REASONS, PLAIN, COMPACT, COUNT):
        text = "\n".join(_block_text(block, style) for block in blocks)
        if len(text) <= limit:
            return text
    return _cut(text, limit)


def _block_text(block: _Block, style: str) -> str:
    lines = [block.title]
    without: list[str] = []
    for unit, medals in block.earned.items():
        spoils = block.spoils.get(unit) if block.spoils is not None else None
        if style in (COMPACT, COUNT) and not medals and (spoils is None or not spoils.available):
            without.append(unit)
            continue
        lines.append(_unit_line(unit, medals, spoils, style))
    if without:
        lines.append(f"• No medal: {', '.join(without)}")
    return "\n".join(lines)


def _cut(text: str, limit: int) -> str:
    """The first lines of `text` that fit in `limit` characters, and how many were left out."""
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in lines:
        note = f"… ({plural(len(lines) - len(kept), 'more line')})"
        if size + len(line) + 1 + len(note) > limit:
            return "\n".join([*kept, note])[:limit]
        kept.append(line)
        size += len(line) + 1
    return text


def _medal_list(medals: Sequence[Medal], style: str) -> str:
    gained = f"(+{sum(m.xp for m in medals)} XP)"
    if style == COUNT:
        return f"{plural(len(medals), 'medal')} {gained}"
    if style == COMPACT:
        return f"{', '.join(m.name for m in medals)} {gained}"
    reasons = style == REASONS
    return "; ".join(f"{m.name} +{m.xp} XP" + (f" ({m.reason})" if reasons else "") for m in medals)


def _unit_line(unit: str, medals: Sequence[Medal], spoils: UnitSpoils | None, style: str) -> str:
    line = f"• {unit}: {_medal_list(medals, style) if medals else 'no medal'}"
    if spoils is None:
        return line
    if spoils.neq:
        return line + " (NEQ: gains no XP)" if medals else line
    line += f" → {spoils.xp} XP"
    if spoils.available:
        spoil = "Spoil Of War" if spoils.available == 1 else "Spoils Of War"
        line += f"; may take {spoils.available} {spoil} (XPx up to {spoils.xp})"
    return line
