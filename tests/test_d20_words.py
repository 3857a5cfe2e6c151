"""Issue 29: every picture and text of a d20 match in its rulebook's words. The d20 rules roll
an opposed roll ("Both players roll their dice with the higher player winning"), have "no hit
points. Period.", down the loser ("considered down") and remove casualties in the Recovery
Phase; they play in rounds and score Victory Points. Captions, the key, recaps, previews, the
card, /match status and the league page say so, not Skirm's HIT, Taken Out, turns and MP."""

from __future__ import annotations

import re
from urllib.parse import quote

from aiohttp.test_utils import TestClient, TestServer
from d20_builders import d20, put, script
from service_setup import CHANNEL
from test_d20_matches import automatic_match
from test_d20_service import playing
from test_league_d20 import LEAGUE
from test_league_service import GUILD, HOME, ORG, Env

from skirmbot.render.caption import captions
from skirmbot.render.legend import legend_entries
from skirmbot.render.preview import odds_words
from skirmbot.render.replay import activation_steps, numbered_steps
from skirmbot.rules.d20.commands import Attack
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.record import record_of
from skirmbot.service.pages import Pages
from skirmbot.service.preview import preview_text
from skirmbot.service.recap import summary
from skirmbot.store import Store
from skirmbot.web import make_app

TROOPERS = ([("Ann", "Trooper")], [("Bo", "Trooper")])
SKIRM_WORDS = ("Taken Out", "Downed", "HIT", " MP", "damage", "Turn ", "turn ")


def shot(faces: tuple[int, int]) -> list[str]:
    """The captions of Ann shooting Bo with a Rifle, the attack's and the defence's d10 scripted."""
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, *faces)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    return captions(match.log, RULESET.view(match.state))


def test_a_won_opposed_roll_is_captioned_with_both_totals_and_the_defender_down() -> None:
    """Ranged Combat: "If attacker beats defender, the defending model is turned on it's side
    and is considered down"; no damage is dealt (no hit points)."""
    full, short, _ = shot((7, 3))
    assert full.endswith("Ann shoots Bo (wins 7 against 3, Bo down)")
    assert short.endswith("Ann shoots Bo (wins, Bo down)")
    assert not any(word in text for text in (full, short) for word in SKIRM_WORDS)


def test_a_tie_and_a_lost_roll_are_no_miss_or_save() -> None:
    """Our ruling, Ties: a tie is no win, and nothing is saved in the d20 rules."""
    assert shot((5, 5))[0].endswith("Ann shoots Bo (ties 5 against 5)")
    assert shot((2, 8))[0].endswith("Ann shoots Bo (loses 2 against 8)")


def test_the_key_names_down_and_the_opposed_roll_not_skirms_saves() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, 7, 3)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    texts = {e.kind: e.text for e in legend_entries(RULESET.view(match.state), match.log)}
    assert texts["downed"] == "down" and texts["hit"] == "won: down"
    assert "hit_left" not in texts and "hit_lost" not in texts


def test_the_recovery_phase_is_captioned_with_its_casualties_and_returns() -> None:
    """Recovery Phase: downed models "either return to play or be removed from the game as a
    casualty"; the picture after it says which, then the round that begins."""
    match, data = automatic_match(3, "attrition", "foundry", seed=7)
    record = record_of(match, data, ["Ann", "Bo", "Cy"], ruleset="d20")
    texts = [captions(events, view) for view, events in activation_steps(record)]
    recoveries = [wordings for wordings in texts if "Recovery Phase: " in wordings[0]]
    assert recoveries and all("Round " in wordings[0] for wordings in recoveries)
    assert any("Casualties: " in wordings[0] for wordings in recoveries)
    assert all(" removed, " in wordings[-1] for wordings in recoveries)


def test_every_step_of_a_d20_match_has_a_caption() -> None:
    """A model's activation may end in the command that starts the next one, a seat ends its
    turn and buys bonus dice with AP (Action Points, Bonus Dice): each picture still says what
    happened."""
    match, data = automatic_match(3, "attrition", "foundry", seed=7)
    record = record_of(match, data, ["Ann", "Bo", "Cy"], ruleset="d20")
    texts = [captions(events, view)[0] for view, events in activation_steps(record)]
    assert all(texts)
    assert any(text.endswith("'s activation ends") for text in texts)
    assert any(" bonus di" in text and text.endswith(" ends its turn") for text in texts)


def test_a_recap_counts_rounds_casualties_and_victory_points() -> None:
    match, data = automatic_match(3, "attrition", "foundry", seed=7)
    record = record_of(match, data, ["Ann", "Bo", "Cy"], ruleset="d20")
    steps = [step for step, _ in numbered_steps(record)]
    view = RULESET.view(match.state)
    text = summary(steps[1:], steps[0].mp, view, 0, set(), 2, score="VP")
    assert "(rounds 1 to " in text and "Casualties: " in text
    assert text.splitlines()[-1].startswith("Score: ") and text.endswith(" VP.")
    assert not any(word in text for word in ("Taken Out", " MP", "(turn", "HIT", "Downed"))
    assert "(down by " in text and "won" in text


def test_a_preview_speaks_of_the_chance_to_win_the_opposed_roll() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    preview = RULESET.preview(match.state, "Ann")
    text = preview_text(preview)
    assert "Attacks (chance to win the opposed roll, without and with bonus dice):" in text
    assert "HIT" not in text and " TO" not in text
    assert odds_words(preview, labels=True) == "chance to win the opposed roll, without bonus dice"


def test_a_casualtys_card_says_so_and_a_downed_models_card_says_down() -> None:
    match = d20(*TROOPERS)
    put(match, Ann="F5", Bo="F9")
    script(match, 7, 3)
    match.apply(Attack(0, "Ann", "Bo", "Rifle"))
    card = RULESET.card(match.state, "Bo")
    assert (card.status, card.status_kind) == ("Down", "downed")


async def test_a_d20_leagues_page_heads_its_score_difference_vp(store: Store) -> None:
    """The web page's standings column is the league's own score difference (VP ±, not MP ±)."""
    env = Env(store)
    await env.leagues.create(GUILD, HOME, ORG, LEAGUE, "d20", rounds=1)
    pages = Pages(store, env.matches)
    await pages.set_published(GUILD, True)
    client = TestClient(TestServer(make_app(store, pages)))
    await client.start_server()
    try:
        page = await (await client.get(f"/g/{GUILD}/league/{quote(LEAGUE)}")).text()
    finally:
        await client.close()
    assert "VP ±" in page and "MP ±" not in page


async def test_match_status_counts_the_rounds_of_a_d20_match(store: Store) -> None:
    service = await playing(store)
    status = await service.status(CHANNEL)
    # a seat that rolls a 1 for action points ends the round at once (Playing the Game)
    assert re.search(r", round [1-3] of 3\. ", status.text) and ", turn " not in status.text
    assert "VP" in status.text and " MP" not in status.text
