"""The web pages' links in Discord messages (issue 18): the end of a match and a league's
standings carry their page's address, when the pages have a public address
(SKIRMBOT_WEB_URL) and the server published them; never a link that would answer 404."""

from __future__ import annotations

from service_setup import ALICE, BOB, CHANNEL, GUILD, started

from skirmbot.service import MatchService, Member
from skirmbot.service.leagues import LeagueService
from skirmbot.service.links import PageLinks
from skirmbot.service.pages import Pages
from skirmbot.store import Store

BASE = "https://skirm.example/pages/"


async def ended_text(service: MatchService) -> str:
    await started(service)
    reply = await service.concede(CHANNEL, BOB)
    return "\n".join(part.text for part in reply.all())


async def test_the_end_of_a_match_links_its_replay_page_once_published(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3)
    service.links = PageLinks(store, BASE)
    await Pages(store, service).set_published(GUILD, True)
    assert f"Replay: https://skirm.example/pages/g/{GUILD}/match/1" in await ended_text(service)


async def test_no_link_without_a_public_address_or_unpublished(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3)
    service.links = PageLinks(store, BASE)  # an address, but the server did not publish
    assert "Replay:" not in await ended_text(service)
    other = PageLinks(store, None)
    await Pages(store, service).set_published(GUILD, True)
    assert await other.match(GUILD, 1) is None  # published, but no address


async def test_league_standings_link_the_leagues_page(store: Store) -> None:
    matches = MatchService(store, seed_source=lambda: 3)
    matches.links = PageLinks(store, BASE)
    leagues = LeagueService(store, matches)
    organiser = Member(1, "Organiser")
    await leagues.create(GUILD, 600, organiser, "Spring League", "skirm", rounds=1)
    await leagues.sign_up(GUILD, "Spring League", ALICE, "iron-wardens")
    assert "https://" not in (await leagues.standings(GUILD, "spring league")).text
    await Pages(store, matches).set_published(GUILD, True)
    reply = await leagues.standings(GUILD, "spring league")
    assert reply.text.endswith(f"https://skirm.example/pages/g/{GUILD}/league/Spring%20League")
