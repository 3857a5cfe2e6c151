"""Links to a server's web pages (issue 18), for the messages that carry them: the end of a
match, a league's standings. Only when the pages have a public address (SKIRMBOT_WEB_URL) and
the server published them (`/web publish`): a link never leads to a 404."""

from __future__ import annotations

from urllib.parse import quote

from skirmbot.store import Store

PUBLISHED = "web_published"  # guild setting: "1" when the server's pages are public


class PageLinks:
    def __init__(self, store: Store, base: str | None = None) -> None:
        self.store = store
        self.base = base.rstrip("/") if base else None  # SKIRMBOT_WEB_URL

    async def _guild(self, guild: int) -> str | None:
        if self.base is None or await self.store.get_setting(guild, PUBLISHED) != "1":
            return None
        return f"{self.base}/g/{guild}"

    async def match(self, guild: int, match_id: int) -> str | None:
        """The match's replay page, or None (no public address, or not published)."""
        root = await self._guild(guild)
        return f"{root}/match/{match_id}" if root else None

    async def league(self, guild: int, name: str) -> str | None:
        """The league's page, or None (no public address, or not published)."""
        root = await self._guild(guild)
        return f"{root}/league/{quote(name, safe='')}" if root else None

    def calendar(self, token: str) -> str | None:
        """A private calendar feed's address, or None (no public address)."""
        return f"{self.base}/calendar/{token}.ics" if self.base else None
