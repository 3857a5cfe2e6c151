"""Issue 29: a league of the d20 rules. Two players sign up with d20 warbands, the round pairs
them and opens their match, the match is played to its end by the automatic player's commands
for whichever seat `Ruleset.deciding` names, and the league's standings and ratings record it
in the d20 rules' own words (Victory Points, not Skirm's Mission Points)."""

from __future__ import annotations

from test_league_service import GUILD, HOME, ORG, PLAYERS, Env

from skirmbot import content
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import Member
from skirmbot.store import Store

D20 = ruleset("d20")
LEAGUE = "Arena Cup"
MOVES_AT_MOST = 2_000  # a shipped scenario ends by its last round long before this


async def play_to_the_end(env: Env, channel_id: int, players: dict[int, Member]) -> None:
    """Deploy both warbands, then send the automatic player's command for every seat the
    ruleset says must decide, until the match is over."""
    for member in players.values():
        await env.matches.deploy(channel_id, member)
    for _ in range(MOVES_AT_MOST):
        row, match = await env.matches.view(channel_id)
        if row.status != "playing" or match is None:
            return
        deciding = D20.deciding(match.state)
        assert deciding, "a match being played has a seat that must decide"
        seat = deciding[0].side
        command = D20.automatic_command(match.state, seat)
        await env.matches.act(channel_id, players[seat], command)
    raise AssertionError("the match did not end")


async def test_a_two_player_d20_match_plays_in_a_league(store: Store) -> None:
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

    row, match = await env.matches.view(game.channel_id or 0)
    assert row.status == "ended" and match is not None
    outcome = D20.outcome(match.state)
    assert outcome is not None
    [game] = await store.league_games(league_id, 1)
    assert game.match_status == "ended" and game.match_winner == outcome.winner
    table = (await env.leagues.standings_of(GUILD, LEAGUE)).standings
    points = {s.player: s.points for s in table}
    assert sorted(points.values()) in ([0, 3], [1, 1])  # a win and a loss, or a draw
    ratings = await env.leagues.league_ratings(GUILD, LEAGUE)
    assert set(ratings) == {game.first, game.second}


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
