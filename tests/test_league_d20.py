"""Issue 29: a league of the d20 rules. Two players sign up with d20 warbands, the round pairs
them and opens their match, the match is played to its end by the automatic player's commands
for whichever seat `Ruleset.deciding` names, and the league's standings and ratings record it
in the d20 rules' own words (Victory Points, not Skirm's Mission Points)."""

from __future__ import annotations

import pytest
from test_league_service import GUILD, HOME, ORG, PLAYERS, Env

from skirmbot import content
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import Member, ServiceError
from skirmbot.store import Store

D20 = ruleset("d20")
LEAGUE = "Arena Cup"
MOVES_AT_MOST = 2_000  # a shipped scenario ends by its last round long before this


async def play_to_the_end(env: Env, channel_id: int, players: dict[int, Member]) -> None:
    """Deploy both warbands, then send the automatic player's command for every seat the
    ruleset says must decide, until the match is over (and no longer in play)."""
    for member in players.values():
        await env.matches.deploy(channel_id, member)
    for _ in range(MOVES_AT_MOST):
        if await env.store.active_match_id(channel_id) is None:
            return
        _, match = await env.matches.view(channel_id)
        assert match is not None
        deciding = D20.deciding(match.state)
        assert deciding, "a match being played has a seat that must decide"
        seat = deciding[0].side
        command = D20.automatic_command(match.state, seat)
        await env.matches.act(channel_id, players[seat], command)
    raise AssertionError("the match did not end")


async def test_a_two_player_d20_match_plays_in_a_league(store: Store) -> None:
    """Issue 29: a league of the d20 rules pairs its two players, opens their match, and the
    match's end (its placings and Victory Points) is the game's result in the standings and
    the ratings."""
    env = Env(store)
    await env.leagues.create(GUILD, HOME, ORG, LEAGUE, "d20", rounds=1, seed=3)
    squads = content.names("squads", "d20")[:2]
    for member, squad in zip(PLAYERS, squads, strict=False):
        await env.leagues.sign_up(GUILD, LEAGUE, member, squad)
    await env.start(LEAGUE)
    league_id = await env.league_id(LEAGUE)
    [game] = await store.league_games(league_id, 1)
    row = await store.match(game.match_id or 0)
    assert row is not None and row.ruleset == "d20" and row.players == [game.first, game.second]
    seats = {
        seat: next(p for p in PLAYERS if p.id == player) for seat, player in enumerate(row.players)
    }

    await play_to_the_end(env, game.channel_id or 0, seats)

    [game] = await store.league_games(league_id, 1)
    assert game.match_status == "ended" and game.match_scores is not None
    first, second = game.match_scores
    table = (await env.leagues.standings_of(GUILD, LEAGUE)).standings
    points = {s.player: (s.points, s.mp_difference) for s in table}
    if game.match_winner is None:
        assert points == {game.first: (1, first - second), game.second: (1, second - first)}
    else:
        won, lost = (
            (game.first, game.second)[game.match_winner],
            (game.second, game.first)[game.match_winner],
        )
        assert points[won][0] == 3 and points[lost][0] == 0
    assert points[game.first][1] == first - second
    standings = await env.leagues.standings_of(GUILD, LEAGUE)
    assert f"VP {first - second:+d}" in standings.text and "MP" not in standings.text
    ratings = await env.leagues.league_ratings(GUILD, LEAGUE)
    assert set(ratings) == {game.first, game.second}
    if game.match_winner is not None:
        assert ratings[won] > ratings[lost]


async def test_a_d20_league_names_its_score_in_the_d20_rules_words(store: Store) -> None:
    """Standings rank on the score difference; a d20 league calls its score Victory Points
    (VP, as the d20 status line does), where a Skirm league's are Mission Points."""
    env = Env(store)
    created = await env.leagues.create(GUILD, HOME, ORG, LEAGUE, "d20", rounds=1)
    assert "Victory Point difference" in created.text and "Mission Point" not in created.text
    skirm = await env.leagues.create(GUILD, HOME, ORG, "Spring", "skirm", rounds=1)
    assert "Mission Point difference" in skirm.text
    assert (await env.leagues.standings_of(GUILD, LEAGUE)).table.score == "VP"
    assert (await env.leagues.standings_of(GUILD, "Spring")).table.score == "MP"


async def test_a_campaign_league_of_the_d20_rules_is_refused(store: Store) -> None:
    """Campaign leagues field stored squads that gain XP: a ruleset without campaigns (the d20
    rules keep no campaign progress, our ruling) cannot have one, and no league is made."""
    env = Env(store)
    with pytest.raises(ServiceError) as error:
        await env.leagues.create(GUILD, HOME, ORG, LEAGUE, "d20", rounds=1, campaign=True)
    assert str(error.value) == "Campaigns are played with Skirm, not d20 Skirmish."
    assert await store.league(GUILD, LEAGUE) is None
