"""The web pages (issue 18): every page renders from a real store holding a finished league and
a finished match; an unpublished server answers 404; a match in play hides what its channel
has not shown; pictures carry an ETag; bad requests get a short error page."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from skirmbot.leagues_simulation import play_match
from skirmbot.service import MatchService, Member
from skirmbot.service.leagues import LeagueService
from skirmbot.service.pages import Pages
from skirmbot.store import Store
from skirmbot.web import make_app
from tests.service_setup import ALICE, BOB, CHANNEL, GUILD, end_activations, end_one, started

OTHER_GUILD = 901
LEAGUE = "Spring League"
ORGANISER = Member(1, "Organiser")
CAROL, DAN = Member(55, "Carol <b>"), Member(66, "Dan")
LITE_SQUADS = ("ash-stalkers", "vigil-wardens")


@dataclass
class World:
    client: TestClient
    pages: Pages
    finished: int  # a league match played to the end
    playing: int  # a match in play (CHANNEL)
    deploying: int  # a match with one deployment hidden


@pytest.fixture
async def world() -> AsyncIterator[World]:
    store = await Store.open(":memory:")
    matches = MatchService(store, seed_source=lambda: 7)
    leagues = LeagueService(store, matches)
    await leagues.create(GUILD, 600, ORGANISER, LEAGUE, "skirm", format="swiss", rounds=1)
    members = {CAROL.id: CAROL, DAN.id: DAN}
    await leagues.sign_up(GUILD, LEAGUE, CAROL, "iron-wardens")
    await leagues.sign_up(GUILD, LEAGUE, DAN, "ash-runners")

    async def open_channel(title: str) -> int:
        return 700

    await leagues.start_round(GUILD, LEAGUE, ORGANISER, open_channel)
    await play_match(matches, 700, members)
    finished = await matches.last_match_id(700)
    assert finished is not None
    await started(matches)
    await end_activations(matches, until_turn=1)
    playing = await matches.last_match_id(CHANNEL)
    await matches.create(GUILD, 501, ALICE, opponent=BOB)
    await matches.join(501, BOB)
    await matches.choose_squad(501, ALICE, "iron-wardens")
    await matches.choose_squad(501, BOB, "ash-runners")
    await matches.deploy(501, ALICE)
    deploying = await matches.last_match_id(501)
    assert playing is not None and deploying is not None
    pages = Pages(store, matches)
    await pages.set_published(GUILD, True)
    client = TestClient(TestServer(make_app(store, pages)))
    await client.start_server()
    try:
        yield World(client, pages, finished, playing, deploying)
    finally:
        await client.close()
        await store.close()


def every_page(world: World) -> list[str]:
    g = f"/g/{GUILD}"
    return [
        g,
        f"{g}/league/Spring%20League",
        f"{g}/league/Spring%20League/player/{CAROL.id}",
        f"{g}/match/{world.finished}",
        f"{g}/match/{world.finished}/step/0.png",
        f"{g}/match/{world.finished}/record.json",
        f"{g}/match/{world.playing}",
        f"{g}/match/{world.playing}/step/0.png",
        f"{g}/match/{world.playing}/record.json",
    ]


async def test_every_page_renders(world: World) -> None:
    for path in ["/", *every_page(world)]:
        response = await world.client.get(path)
        assert response.status == 200, path
        await response.read()
    text = await (await world.client.get(f"/g/{GUILD}/league/Spring%20League")).text()
    assert "Carol &lt;b&gt;" in text and "<b>" not in text  # autoescaped
    assert f"/player/{DAN.id}" in text and f"/match/{world.finished}" in text
    assert 'name="viewport"' in text
    page = await (await world.client.get(f"/g/{GUILD}/match/{world.finished}")).text()
    for element in ('id="slider"', 'id="prev"', 'id="next"', 'id="step-image"', 'id="step-log"'):
        assert element in page
    assert page.count('class="step"') > 2  # the pictures as a list without JavaScript
    assert "record.json" in page
    record = json.loads(await (await world.client.get(every_page(world)[5])).read())
    assert "seed" in record["dice"]  # the whole record once the match is over
    step = await world.client.get(every_page(world)[4])
    assert step.content_type == "image/png" and (await step.read())[:4] == b"\x89PNG"


async def test_an_unpublished_server_answers_404_everywhere(world: World) -> None:
    await world.pages.set_published(GUILD, False)
    for path in every_page(world):
        response = await world.client.get(path)
        assert response.status == 404, path
        assert "Traceback" not in await response.text()
    other = await world.client.get(f"/g/{OTHER_GUILD}/match/{world.finished}")
    assert other.status == 404


async def test_a_match_of_another_server_is_not_found(world: World) -> None:
    await world.pages.set_published(OTHER_GUILD, True)
    response = await world.client.get(f"/g/{OTHER_GUILD}/match/{world.finished}")
    assert response.status == 404


async def test_a_match_in_play_hides_the_dice_key_and_hidden_deployments(world: World) -> None:
    g = f"/g/{GUILD}"
    record = json.loads(
        await (await world.client.get(f"{g}/match/{world.playing}/record.json")).read()
    )
    assert "seed" not in record["dice"] and "script" in record["dice"]
    page = await (await world.client.get(f"{g}/match/{world.playing}")).text()
    assert "seed" not in page
    deploying = await (await world.client.get(f"{g}/match/{world.deploying}")).text()
    assert "step-image" not in deploying and "No pictures yet" in deploying
    for path in (
        f"{g}/match/{world.deploying}/step/0.png",
        f"{g}/match/{world.deploying}/record.json",
    ):
        assert (await world.client.get(path)).status == 404, path


async def test_pictures_carry_an_etag_and_answer_304(world: World) -> None:
    path = f"/g/{GUILD}/match/{world.finished}/step/1.png"
    first = await world.client.get(path)
    tag = first.headers["ETag"]
    again = await world.client.get(path, headers={"If-None-Match": tag})
    assert again.status == 304 and await again.read() == b""
    other = await world.client.get(path, headers={"If-None-Match": '"nope"'})
    assert other.status == 200


@pytest.mark.parametrize(
    "path",
    [
        "/nowhere",
        "/g/abc",
        "/g/900/match/abc",
        "/g/900/match/999999",
        "/g/99999999999999999999999/match/1",
        "/g/900/match/1/step/99999.png",
        "/g/900/match/1/step/x.png",
        "/g/900/league/Nope",
        "/g/900/league/" + "x" * 300,
        "/g/900/league/Spring%20League/player/12345",
        "/g/900/league/Spring%20League/player/abc",
        "/" + "a" * 2000,
        "/g/900?" + "q=1&" * 500,
    ],
)
async def test_bad_requests_get_a_short_error_page(world: World, path: str) -> None:
    response = await world.client.get(path)
    assert response.status in (400, 404), path
    text = await response.text()
    assert "Traceback" not in text and "File " not in text


async def test_only_reading(world: World) -> None:
    response = await world.client.post(f"/g/{GUILD}")
    assert response.status in (404, 405)


@pytest.mark.parametrize("rules", ["skirm", "lite"])
async def test_a_conceded_match_heads_each_step_by_what_it_is(rules: str) -> None:
    """Ruling (Catch-up recaps: the web replay heads each step by what it is; issue 28): a
    match of two activations then a concession has no "Activation 3": its page
    heads the steps Deployment, Activation 1, Activation 2 and The end, numbered as /match log
    numbers the activations, in both rulesets."""
    store = await Store.open(":memory:")
    try:
        matches = MatchService(store, seed_source=lambda: 7)
        squads = ("iron-wardens", "ash-runners") if rules == "skirm" else LITE_SQUADS
        await matches.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules=rules)
        await matches.join(CHANNEL, BOB)
        await matches.choose_squad(CHANNEL, ALICE, squads[0])
        await matches.choose_squad(CHANNEL, BOB, squads[1])
        await matches.deploy(CHANNEL, ALICE)
        await matches.deploy(CHANNEL, BOB)
        for _ in range(2):
            await end_one(matches)
        await matches.concede(CHANNEL, ALICE)
        match_id = await matches.last_match_id(CHANNEL)
        assert match_id is not None
        pages = Pages(store, matches)
        await pages.set_published(GUILD, True)
        page = await pages.match(GUILD, match_id)
        assert page is not None and page.finished
        assert page.titles == ["Deployment", "Activation 1", "Activation 2", "The end"]
        log = (await matches.log(CHANNEL, 200)).text.splitlines()
        numbers = [line.split()[0].lstrip("#") for line in log if line.startswith("#")]
        assert [f"Activation {n}" for n in numbers] == page.titles[1:-1]
        assert "conceded" in page.logs[-1]
        client = TestClient(TestServer(make_app(store, pages)))
        await client.start_server()
        try:
            html = await (await client.get(f"/g/{GUILD}/match/{match_id}")).text()
        finally:
            await client.close()
        assert re.findall(r"<h2>(.*?)</h2>", html) == page.titles
        assert "Activation 3" not in html
    finally:
        await store.close()
