"""Campaign use cases, without Discord: stored squads and the XP they earn match after match.

- A player saves a squad file under a name (`save_squad`); it is checked with the squad building
  rules, and its units' XP is the XP the bot has recorded for them: XP comes from medals only
  (rulings: Campaigns), so a typed-in `xp` is replaced by the stored one (0 for a new unit).
- `/match squad my:NAME` plays the player's stored squad NAME (`resolve`); the match remembers
  which stored squad each side plays (the match's setup, `stored_squads`).
- When a match ends, `award_ended` computes every unit's medals from the match log, adds the XP
  to the stored squads that played it (once per match and squad), and returns the messages
  listing each unit's medals, its XP and the Spoils Of War it may take. A shipped sample or an
  uploaded file that was not saved keeps no XP: its medals are shown all the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skirmbot.rules.engine import Match
from skirmbot.rules.errors import ContentError
from skirmbot.rules.medals import Medal, Spoils, apply_xp, squad_medals
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.squads import DEFAULT_EP_LIMIT, squad_from_json
from skirmbot.rules.state import ENDED
from skirmbot.service.errors import ServiceError
from skirmbot.service.replies import Reply, clip
from skirmbot.store import MatchRow, SquadRow, Store

STORED_PREFIX = "my:"  # `/match squad my:NAME`: the player's stored squad NAME
MAX_NAME = 50
MESSAGE_LIMIT = 1900  # a Discord message holds 2000 characters


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
    def __init__(self, store: Store) -> None:
        self.store = store

    # --- stored squads --------------------------------------------------------------------
    async def save_squad(self, owner: int, guild: int, name: str, data: dict[str, Any]) -> Reply:
        """Store a squad file as `owner`'s squad `name` (its own name if blank), replacing the
        stored squad of that name but keeping its units' XP; checked with the building rules
        (100 EP) after the recorded XP is put in, so XPx gear is checked against the real XP."""
        own_name = data.get("name", "") if isinstance(data, dict) else ""
        name = stored_name(name) or str(own_name).strip()
        _check_name(name)
        notes: list[str] = []

        def make(stored: dict[str, Any] | None) -> dict[str, Any]:
            merged: dict[str, Any]
            merged, found = keep_progress(stored, data)
            squad_from_json(merged, DEFAULT_EP_LIMIT)  # XPx gear and spoils against the real XP
            notes.extend(found)
            return merged

        try:
            row = await self.store.save_squad(owner, guild, name, make)
        except ContentError as error:
            raise ServiceError(f"That squad cannot be saved: {error}") from error
        squad = squad_from_json(row.data, DEFAULT_EP_LIMIT)
        text = (
            f"Saved **{squad.name}** as {STORED_PREFIX}{row.name} ({len(squad.units)} units, "
            f"{squad.total_ep} EP). Play it with /match squad {STORED_PREFIX}{row.name}: "
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
        self, owner: int, squad: str | dict[str, Any]
    ) -> tuple[str | dict[str, Any], int | None]:
        """What `/match squad` plays: a stored squad's data and id for `my:NAME`; anything else
        as it was given, with no stored squad."""
        if not is_stored_name(squad):
            return squad, None
        assert isinstance(squad, str)
        row = await self.load_squad(owner, squad)
        return row.data, row.id

    # --- the end of a match ---------------------------------------------------------------
    async def award(self, match_id: int) -> Reply:
        """The medals of a finished match, its XP added to the stored squads that played it
        (once: asking again only shows them)."""
        row = await self.store.match(match_id)
        if row is None:
            raise ServiceError(f"There is no match #{match_id}.")
        if row.status != "ended":
            raise ServiceError(f"Match #{match_id} has not ended: medals come at the end.")
        replies = await self.award_ended(row, replay(MatchRecord.from_json(row.record)))
        if not replies:
            return Reply(f"Match #{match_id} ended before its first turn: no medals.")
        first, *rest = replies
        first.followups += rest
        return first

    async def award_ended(self, row: MatchRow, match: Match) -> list[Reply]:
        """One message per squad with its units' medals, XP and spoils, after the XP is added
        to the squad if it is stored; nothing if the match has not ended or never began."""
        if match.state.phase != ENDED or match.state.turn < 1:
            return []
        stored = row.setup.get("stored_squads") or [None, None]
        replies: list[Reply] = []
        for side in (0, 1):
            earned = squad_medals(match, side)
            name = match.state.squads[side].name
            if stored[side] is None:
                text = _squad_text(
                    f"**Medals: {name}** (not a stored squad: its XP is not kept)", earned, None
                )
            else:
                title, spoils = await self._add_xp(int(stored[side]), row.id, name, earned)
                text = _squad_text(title, earned, spoils)
            replies.append(Reply(text))
        return replies

    async def _add_xp(
        self, squad_id: int, match_id: int, name: str, earned: dict[str, list[Medal]]
    ) -> tuple[str, dict[str, Spoils] | None]:
        spoils: dict[str, Spoils] = {}

        def change(data: dict[str, Any]) -> dict[str, Any]:
            new, found = apply_xp(data, earned)
            spoils.update(found)
            return new

        medal_names = {unit: [m.name for m in medals] for unit, medals in earned.items()}
        saved = await self.store.award_squad(squad_id, match_id, medal_names, change)
        if saved is not None:
            return f"**Medals: {name}** ({STORED_PREFIX}{saved.name}, XP added)", spoils
        current = await self.store.squad_by_id(squad_id)
        if current is None:
            return f"**Medals: {name}** (its stored squad was deleted: no XP kept)", None
        _, now = apply_xp(current.data, {})
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


def _medal_list(medals: Sequence[Medal], reasons: bool) -> str:
    return "; ".join(f"{m.name} +{m.xp} XP" + (f" ({m.reason})" if reasons else "") for m in medals)


def _unit_line(unit: str, medals: Sequence[Medal], spoils: Spoils | None, reasons: bool) -> str:
    line = f"• {unit}: {_medal_list(medals, reasons) if medals else 'no medal'}"
    if spoils is None:
        return line
    if spoils.neq:
        return line + " (NEQ: gains no XP)" if medals else line
    line += f" → {spoils.xp} XP"
    if spoils.available:
        line += (
            f"; may take {spoils.available} Spoil{'s' if spoils.available > 1 else ''} Of War "
            f"(XPx up to {spoils.xp})"
        )
    return line


def _squad_text(
    title: str, earned: dict[str, list[Medal]], spoils: dict[str, Spoils] | None
) -> str:
    """The squad's medals with their reasons; without them when that is too long for a message."""
    for reasons in (True, False):
        lines = [
            _unit_line(unit, medals, spoils.get(unit) if spoils is not None else None, reasons)
            for unit, medals in earned.items()
        ]
        text = "\n".join([title, *lines])
        if len(text) <= MESSAGE_LIMIT:
            break
    return clip(text, MESSAGE_LIMIT)
