"""Every picture the bot posts carries alt text (issue 28): Discord's attachment description,
which screen readers read. The battlemap's is its caption line and the score; a stat card's and
a roster card's say what they show; all of them fit Discord's 1,024 characters. (The wire tests'
fake Discord checks that every picture posted in them has one: tests/test_wire.py's `fake`.)"""

from __future__ import annotations

import copy

from service_setup import ALICE, CHANNEL, GUILD, end_activations, started
from skirmbot.cogs.common import picture_files
from skirmbot.cogs.text import DESCRIPTION_LIMIT

from skirmbot import content
from skirmbot.demo import play_demo
from skirmbot.render.battlemap import alt_text
from skirmbot.render.caption import captions, squad_lines
from skirmbot.render.replay import activation_steps
from skirmbot.service import MatchService, Reply
from skirmbot.service.progress import SquadProgress
from skirmbot.store import Store


def test_the_battlemap_alt_text_is_its_caption_line_and_the_score() -> None:
    _, record = play_demo(1)
    for state, events in list(activation_steps(record))[1::6]:
        alt = alt_text(state, events)
        assert captions(events, state)[0] in alt
        for side in (0, 1):  # the score: MP, TO, units up and those Taken Out, by name
            assert squad_lines(state, side)[0] in alt
        assert f"Turn {state.turn} of {state.turns}" in alt


def test_each_posted_picture_carries_its_alt_text_cut_to_discords_limit() -> None:
    reply = Reply(
        "A long recap",
        picture=b"\x89PNG map",
        picture_alt="Battlemap: Halden moves C2 to C5.",
        animation=b"GIF89a frames",
        animation_alt="Animated recap: " + "Kor shoots Halden (miss). " * 60,
    )
    picture, animation = picture_files(reply)
    assert picture.description == "Battlemap: Halden moves C2 to C5."
    assert animation.description is not None
    assert len(animation.description) == DESCRIPTION_LIMIT
    assert animation.description.startswith("Animated recap: Kor shoots")
    assert animation.description.endswith("…")


async def test_the_battlemap_posted_after_an_activation_and_at_the_end_has_alt_text(
    store: Store,
) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    shown = await service.status(CHANNEL)
    assert shown.picture is not None and shown.picture_alt.startswith("Battlemap: ")
    end = await end_activations(service)
    assert end is not None
    final = end.all()[-1]
    assert final.picture is not None and "Score: Iron Wardens: " in final.picture_alt


async def test_a_stat_card_says_whose_card_it_is_and_what_it_reads(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    card = await service.card(CHANNEL, "Halden")
    assert card.picture is not None
    assert card.picture_alt.startswith("Stat card of Halden of Iron Wardens: ")
    assert "Oathkeeper" in card.picture_alt  # the weapons too


async def test_a_roster_card_says_what_it_shows(store: Store) -> None:
    await store.save_squad(
        ALICE.id, GUILD, "Wardens", lambda _: copy.deepcopy(content.raw("squads", "iron-wardens"))
    )
    roster = await SquadProgress(store).roster(ALICE.id, "Alice", "Wardens")
    assert roster.picture is not None
    assert roster.picture_alt.startswith("Roster card: Wardens")
    assert "Halden" in roster.picture_alt and "Corra" in roster.picture_alt
