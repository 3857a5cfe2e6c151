"""A server's own maps (issue 33): `/map upload`, `/map list`, `/map show`, `/map remove`, `/map
role`, and how a match or a league finds the map it was asked for among the shipped ones and the
server's.

Our rulings (docs/rulings.md, A server's own maps):
- Moderators upload and remove maps, and the members of the role they name (`/map role`).
- A server keeps at most MAX_SERVER_MAPS maps; an upload past that is refused in words.
- An upload whose name reads as a shipped map's (`words.typed_key`: "foundry", "Ruined Chapel")
  is refused: a name always means one map, and the shipped one would hide it.
- An upload by a name the server already keeps is refused unless `replace` is asked.
- A match copies its map's data into its record when it is made, and a league copies its
  server maps into its configuration, so removing or replacing a map changes only the matches
  and leagues made afterwards; records stay whole and replay anywhere.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

from skirmbot import content
from skirmbot.mapfiles import CheckedMap, check_map, empty_map, read_map_file, usable_by
from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.mapkinds import kind_of
from skirmbot.rules.ruleset import DEFAULT_RULESET, ruleset, rulesets
from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.replies import Reply, person
from skirmbot.service.work import Member
from skirmbot.store import ServerMapRow, ServerMapsFull, ServerMapTaken, Store
from skirmbot.words import shown, typed_key

MAX_SERVER_MAPS = 50  # a server's own maps: room for a season's boards, and a short list
MAP_ROLE = "map_role"  # guild setting: the id of the role whose members may upload maps
PICTURE_NAME = "map.png"


class MapService:
    """A server's own maps on the store; everything here is per server (`guild_id`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- who may -----------------------------------------------------------------------------
    async def map_role(self, guild_id: int) -> str | None:
        """The id of the role the server's moderators named for uploading maps, if any."""
        return await self.store.get_setting(guild_id, MAP_ROLE)

    async def set_map_role(self, guild_id: int, member: Member, role_id: int | None) -> Reply:
        """Name the role whose members may upload and remove maps (None: moderators alone)."""
        if not member.moderator:
            raise NotAllowed("Only moderators name the role that may upload maps.")
        await self.store.set_setting(guild_id, MAP_ROLE, str(role_id) if role_id else None)
        if role_id is None:
            return Reply("Only moderators upload and remove maps now.", private=True)
        return Reply("The members with that role may now upload and remove maps.", private=True)

    async def _check_may_change(
        self, guild_id: int, member: Member, role_ids: Collection[int]
    ) -> None:
        if member.moderator:
            return
        role = await self.map_role(guild_id)
        if role is not None and any(str(held) == role for held in role_ids):
            return
        raise NotAllowed(
            "Only moderators upload and remove this server's maps, and the members of the role "
            "they name with /map role."
        )

    # --- upload, list, show, remove ---------------------------------------------------------
    async def upload(
        self,
        guild_id: int,
        member: Member,
        raw: bytes,
        filename: str,
        *,
        replace: bool = False,
        role_ids: Collection[int] = (),
    ) -> Reply:
        """Check the map file (`mapfiles`) and keep it for the server; refused in words with
        nothing kept for a file that does not pass, a shipped map's name, a name kept already
        (unless `replace`) or a server that keeps MAX_SERVER_MAPS."""
        await self._check_may_change(guild_id, member, role_ids)
        checked = await asyncio.to_thread(_checked_upload, raw, filename)
        try:
            await self.store.save_server_map(
                guild_id, checked.name, checked.data, member.id,
                replace=replace, limit=MAX_SERVER_MAPS,
            )  # fmt: skip
        except ServerMapTaken as error:
            raise ServiceError(
                f"This server already has a map called {checked.name}. Upload it with "
                "`replace: True` to replace it (matches already made on it keep theirs), or "
                "give the file another name."
            ) from error
        except ServerMapsFull as error:
            raise ServiceError(
                f"This server keeps {MAX_SERVER_MAPS} maps, as many as it may. Remove one with "
                "/map remove first."
            ) from error
        verb = "replaced" if replace else "added"
        return Reply(
            f"Map {verb}: {checked.summary()}\nSee it with `/map show name: {checked.name}`; "
            "choose it in /match new or /league create."
        )

    async def listing(self, guild_id: int) -> Reply:
        """The server's maps and the shipped ones, by name, with their sizes."""
        kept = await self.store.server_maps(guild_id)
        shipped = ", ".join(content.titles("maps").values())
        if not kept:
            text = f"This server has no maps of its own yet (/map upload). Shipped: {shipped}."
            return Reply(text, private=True)
        lines = [f"**This server's maps** ({len(kept)} of {MAX_SERVER_MAPS}):"]
        lines += [f"- {row.name}: {_size(row.data)}, by {person(row.uploader_id)}" for row in kept]
        lines.append(f"Shipped: {shipped}.")
        return Reply("\n".join(lines), private=True)

    async def show(
        self, guild_id: int, name: str, mission: str | None = None, rules: str | None = None
    ) -> Reply:
        """The picture of the empty map (a shipped one or the server's) with the mission's
        deployment zones and objectives; no mission: the first of the ruleset's that fits; no
        ruleset: the default one for a map of squares, the one of its kind otherwise."""
        data = await self.resolve(guild_id, name, rules)
        played = _ruleset_for(data, rules)
        try:
            picture, alt = await asyncio.to_thread(empty_map, data, played, mission)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        title = ruleset(played).title
        text = f"**{data.get('name', name)}** for {title}. {alt}"
        return Reply(
            text, picture=picture, picture_name=PICTURE_NAME, picture_alt=alt, private=True
        )

    async def remove(
        self, guild_id: int, member: Member, name: str, role_ids: Collection[int] = ()
    ) -> Reply:
        """Forget one of the server's maps; the matches and leagues made on it keep their copy."""
        await self._check_may_change(guild_id, member, role_ids)
        found = await self.store.server_map(guild_id, name)
        if found is None or not await self.store.delete_server_map(guild_id, found.name):
            raise ServiceError(
                f"This server has no map called '{shown(name)}'. {await self._own_names(guild_id)}"
            )
        return Reply(
            f"Map removed: {found.name}. Matches and leagues already made on it keep their copy "
            "and play on; new ones cannot choose it."
        )

    # --- finding a map -------------------------------------------------------------------------
    async def resolve(
        self, guild_id: int, name: str, rules: str | None = DEFAULT_RULESET
    ) -> dict[str, Any]:
        """The data of the map a person named: a shipped one of the ruleset (by file or display
        name, `content.find`), else one of the server's (by its name as typed); ServiceError
        listing both when there is neither. A server map of a kind the ruleset cannot play is
        refused by the ruleset's `load_map` when the match is made."""
        shipped_rules = rules if rules is not None else DEFAULT_RULESET
        for looked_in in [shipped_rules] if rules is not None else list(rulesets()):
            try:
                return content.raw("maps", content.find("maps", name, looked_in), looked_in)
            except ContentError:
                continue
        found = await self.store.server_map(guild_id, name)
        if found is not None:
            return found.data
        raise ServiceError(await self.no_such_map(guild_id, name, shipped_rules))

    async def no_such_map(self, guild_id: int, name: str, rules: str) -> str:
        """The refusal of a map name that is neither shipped nor the server's, listing both."""
        known = [*content.titles("maps", rules).values()]
        known += [
            row.name for row in await self.store.server_maps(guild_id) if usable_by(row.data, rules)
        ]
        return f"There is no map called '{shown(name)}'. Choose one of: {', '.join(known)}."

    async def server_map_data(self, guild_id: int, name: str) -> dict[str, Any] | None:
        """The server's own map called `name` (None: not one of the server's)."""
        found = await self.store.server_map(guild_id, name)
        return None if found is None else found.data

    async def choices(self, guild_id: int, rules: str | None = None) -> list[tuple[str, str]]:
        """The maps a match of `rules` may choose, as (value, label): the shipped ones, then
        the server's of the kind the ruleset plays on (every one's when `rules` is None)."""
        shipped_rules = rules if rules is not None else DEFAULT_RULESET
        options = list(content.titles("maps", shipped_rules).items())
        for row in await self.store.server_maps(guild_id):
            if rules is None or usable_by(row.data, rules):
                options.append((row.name, f"{row.name} (this server's)"))
        return options

    async def own_names(self, guild_id: int) -> list[str]:
        """The names of the server's own maps (what /map remove offers)."""
        return [row.name for row in await self.store.server_maps(guild_id)]

    async def _own_names(self, guild_id: int) -> str:
        kept = await self.own_names(guild_id)
        return f"Its maps: {', '.join(kept)}." if kept else "It has none (/map upload)."


def _checked_upload(raw: bytes, filename: str) -> CheckedMap:
    """The uploaded file checked (`mapfiles`), and its name not a shipped map's."""
    try:
        checked = check_map(read_map_file(raw, filename))
    except RulesError as error:
        raise ServiceError(str(error)) from error
    if is_shipped_name(checked.name):
        raise ServiceError(
            f"{checked.name} is the name of a shipped map; give yours another name (its "
            "'name' in the file), so that each name means one map."
        )
    return checked


def is_shipped_name(name: str) -> bool:
    """Whether `name` reads (as typed) as a shipped map's file or display name, of any ruleset
    (the shared maps and the infantry rules' own)."""
    key = typed_key(name)
    return any(
        key in (typed_key(file_name), typed_key(title))
        for rules in rulesets()
        for file_name, title in content.titles("maps", rules).items()
    )


def _ruleset_for(data: dict[str, Any], rules: str | None) -> str:
    """The ruleset a map is shown for: the one asked (refused in words when it plays another
    kind of map), else the default for a map of squares, else the first of its kind."""
    try:
        if rules is not None:
            played = ruleset(rules)
            return played.name
        kind = kind_of(data)
    except RulesError as error:
        raise ServiceError(str(error)) from error
    if ruleset(DEFAULT_RULESET).board == kind:
        return DEFAULT_RULESET
    return next(name for name, played in rulesets().items() if played.board == kind)


def _size(data: dict[str, Any]) -> str:
    """A kept map's size in words ("12 x 12 squares"), read from its file's data."""
    if "dots" in data:
        return f"{data.get('width', '?')} x {data.get('height', '?')} dots"
    rows = data.get("rows") or []
    width = len(str(rows[0]).split()) if rows else 0
    return f"{width} x {len(rows)} squares"


__all__ = ["MAX_SERVER_MAPS", "MapService", "ServerMapRow", "is_shipped_name"]
