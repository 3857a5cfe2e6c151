"""League standings (issue 13): counts, tiebreak order and shared ranks on hand-made results."""

from __future__ import annotations

import pytest

from skirmbot.leagues import (
    TIEBREAKS,
    Game,
    LeagueError,
    Scoring,
    Standing,
    check_tiebreaks,
    standings,
    standings_after,
)


def order(table: list[Standing]) -> list[tuple[int, int]]:
    """(player, rank) best first."""
    return [(line.player, line.rank) for line in table]


def line(table: list[Standing], player: int) -> Standing:
    return next(s for s in table if s.player == player)


# Round 1: 1 beats 2 (10-4), 3 draws 4 (5-5), 5 has a bye.
# Round 2: 1 draws 3 (6-6), 2 and 5 both lose (2-3), 4 has a bye.
SEASON = [
    Game(1, 1, 2, 1, (10, 4)),
    Game(1, 3, 4, None, (5, 5)),
    Game(1, 5, None, 5),
    Game(2, 1, 3, None, (6, 6)),
    Game(2, 2, 5, None, (2, 3), double_loss=True),
    Game(2, 4, None, None),
]


def test_counts_points_mission_points_and_strength_of_schedule() -> None:
    table = standings([1, 2, 3, 4, 5], SEASON)
    # 1 and 4 have 4 points; 1's MP difference (+6) beats 4's (0).
    assert order(table) == [(1, 1), (4, 2), (5, 3), (3, 4), (2, 5)]
    one, two, three, four, five = (line(table, p) for p in (1, 2, 3, 4, 5))
    assert (one.wins, one.draws, one.losses, one.byes, one.played, one.points) == (1, 1, 0, 0, 2, 4)
    assert (two.wins, two.draws, two.losses, two.points) == (0, 0, 2, 0)  # the double loss a loss
    assert (three.draws, three.points) == (2, 2)
    assert (four.draws, four.byes, four.played, four.points) == (1, 1, 1, 4)  # a bye scores a win
    assert (five.losses, five.byes, five.points) == (1, 1, 3)
    assert (one.mp_for, one.mp_against, one.mp_difference) == (16, 10, 6)
    assert (two.mp_for, two.mp_against, two.mp_difference) == (6, 13, -7)
    assert five.mp_difference == 1
    # Strength of schedule: the opponents' points, byes count nothing.
    assert [line(table, p).strength_of_schedule for p in (1, 2, 3, 4, 5)] == [2, 7, 8, 2, 0]
    assert all(s.rating == 0.0 for s in table)


def test_scoring_is_the_leagues() -> None:
    table = standings([1, 2, 3, 4, 5], SEASON, Scoring(win=2, draw=1, loss=-1))
    assert [line(table, p).points for p in (1, 2, 3, 4, 5)] == [3, -2, 2, 3, 1]


def test_standings_after_a_round_counts_only_its_games() -> None:
    table = standings_after(1, [1, 2, 3, 4, 5], SEASON)
    assert order(table) == [(1, 1), (5, 2), (3, 3), (4, 3), (2, 5)]
    assert line(table, 4).byes == 0


def test_a_dropped_or_late_player_still_appears_and_unlisted_opponents_count() -> None:
    # Player 2 dropped after round 1 but is listed; 9 entered late and has not played;
    # player 3 left the league entirely: not listed, yet their points count for 4's SoS.
    games = [Game(1, 1, 2, 1), Game(1, 3, 4, 3), Game(2, 1, 4, 4), Game(2, 3, 5, 3)]
    table = standings([1, 2, 4, 5, 9], games)
    assert {s.player for s in table} == {1, 2, 4, 5, 9}
    assert line(table, 2).played == 1
    assert line(table, 9) == Standing(9, line(table, 9).rank, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.0)
    assert line(table, 4).strength_of_schedule == 6 + 3  # player 3 (6) and player 1 (3)


def test_mp_difference_then_strength_of_schedule_and_a_custom_order() -> None:
    # 1 beats 3 by 10-0; 2 beats 4 by 5-4; 4 then beats 5 by 1-0. 1, 2 and 4 have 3 points.
    games = [Game(1, 1, 3, 1, (10, 0)), Game(1, 2, 4, 2, (5, 4)), Game(2, 4, 5, 4, (1, 0))]
    players = [1, 2, 3, 4, 5]
    assert order(standings(players, games))[:3] == [(1, 1), (2, 2), (4, 3)]
    # Strength of schedule only: 2 and 4 met 3-point opponents, 1 a 0-point one; 2 and 4 tie
    # on every configured key and share the rank.
    by_sos = standings(players, games, tiebreaks=("points", "strength_of_schedule"))
    assert order(by_sos)[:3] == [(2, 1), (4, 1), (1, 3)]
    by_sos_then_mp = standings(
        players, games, tiebreaks=("points", "strength_of_schedule", "mp_difference")
    )
    assert order(by_sos_then_mp)[:3] == [(2, 1), (4, 2), (1, 3)]
    # "points" is first even when named later or not at all.
    assert order(standings(players, games, tiebreaks=("strength_of_schedule",))) == order(by_sos)


def test_wins_tiebreak_and_custom_order_points_then_wins() -> None:
    # 1: a win and a loss (MP 6-15); 2: three draws (MP 15-15). Both 3 points.
    games = [
        Game(1, 1, 3, 1, (6, 5)),
        Game(2, 1, 4, 4, (0, 10)),
        Game(1, 2, 5, None, (5, 5)),
        Game(2, 2, 6, None, (5, 5)),
        Game(3, 2, 7, None, (5, 5)),
    ]
    players = [1, 2, 3, 4, 5, 6, 7]
    default = [p for p, _ in order(standings(players, games))]
    assert default.index(2) < default.index(1)  # MP difference first
    custom = [p for p, _ in order(standings(players, games, tiebreaks=("points", "wins")))]
    assert custom.index(1) < custom.index(2)


def test_wins_tiebreak_counts_a_bye_as_a_win() -> None:
    games = [Game(1, 1, None, 1), Game(1, 2, 3, None), Game(2, 2, 4, None), Game(2, 2, 5, None)]
    table = standings([2, 1], games, Scoring(win=3, draw=1), tiebreaks=("points", "wins"))
    assert order(table) == [(1, 1), (2, 2)]


def test_rating_tiebreak() -> None:
    games = [Game(1, 1, 3, 1), Game(1, 2, 4, 2)]
    table = standings([1, 2, 3, 4], games, ratings={1: 1.5, 2: 4.0})
    assert order(table) == [(2, 1), (1, 2), (3, 3), (4, 3)]
    assert line(table, 2).rating == 4.0 and line(table, 3).rating == 0.0


def test_head_to_head_separates_two_tied_on_everything_else() -> None:
    # 1 beat 2; 1, 2, 3 and 4 end on 3 points with MP 0; SoS puts 4 (7) ahead of 1 and 2 (6)
    # and 3 (4); 1 and 2 tie on rating and wins, and 1 beat 2.
    games = [
        Game(1, 1, 2, 1),
        Game(1, 3, 5, 3),
        Game(1, 4, 6, 6),
        Game(2, 1, 4, 4),
        Game(2, 2, 3, 2),
        Game(2, 5, 6, None),
    ]
    players = [2, 1, 3, 4, 5, 6]  # listed order must not matter
    table = standings(players, games)
    assert order(table) == [(6, 1), (4, 2), (1, 3), (2, 4), (3, 5), (5, 6)]
    without = standings(
        players, games, tiebreaks=("points", "mp_difference", "strength_of_schedule")
    )
    assert order(without) == [(6, 1), (4, 2), (2, 3), (1, 3), (3, 5), (5, 6)]


def test_head_to_head_needs_every_tied_player_to_have_met() -> None:
    # 1 beat 2, 3 beat 4, 2 beat 4: 1, 2 and 3 have 3 points, but 3 met neither 1 nor 2.
    games = [Game(1, 1, 2, 1), Game(1, 3, 4, 3), Game(2, 2, 4, 2)]
    h2h = ("points", "head_to_head")
    assert order(standings([1, 2, 3, 4], games, tiebreaks=h2h)) == [(1, 1), (2, 1), (3, 1), (4, 4)]
    # With 3 gone from the league, exactly 1 and 2 are tied, and they met.
    assert order(standings([2, 1, 4], games, tiebreaks=h2h)) == [(1, 1), (2, 2), (4, 3)]


def test_head_to_head_looks_again_among_those_still_tied() -> None:
    # A=1, B=2, C=3, D=4 all met: 1 beat 2, 3 beat 1, 1 beat 4, 2 beat 3, 2 beat 4, 3 drew 4:
    # among them 1 and 2 have 6, 3 has 4, 4 has 1. Games against 5 and 6 bring all four to 7.
    games = [
        Game(1, 1, 2, 1),
        Game(1, 3, 4, None),
        Game(2, 3, 1, 3),
        Game(2, 2, 4, 2),
        Game(3, 1, 4, 1),
        Game(3, 2, 3, 2),
        Game(4, 1, 5, None),
        Game(4, 2, 6, None),
        Game(4, 3, 5, 3),
        Game(5, 4, 5, 4),
        Game(6, 4, 6, 4),
    ]
    table = standings([4, 3, 2, 1, 5, 6], games, tiebreaks=("points", "head_to_head"))
    assert [s.points for s in table[:4]] == [7, 7, 7, 7]
    # 1 and 2 tie among the four; looked at again on their own, 1 beat 2.
    assert order(table) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 5)]


def test_ties_on_every_tiebreak_share_a_rank() -> None:
    # 5 beats 6 by 10-0; 1 beats 3 and 2 beats 4 alike; all equal but 5 and 6.
    games = [Game(1, 1, 3, 1), Game(1, 2, 4, 2), Game(1, 5, 6, 5, (10, 0))]
    table = standings([1, 2, 3, 4, 5, 6], games, ratings={1: 2.0, 2: 2.0})
    assert [s.rank for s in table] == [1, 2, 2, 4, 4, 6]
    assert order(table) == [(5, 1), (1, 2), (2, 2), (3, 4), (4, 4), (6, 6)]


def test_draws_and_double_losses() -> None:
    games = [Game(1, 1, 2, None), Game(2, 1, 2, None, double_loss=True)]
    table = standings([1, 2], games)
    assert order(table) == [(1, 1), (2, 1)]
    assert (table[0].draws, table[0].losses, table[0].points) == (1, 1, 1)


def test_check_tiebreaks() -> None:
    assert check_tiebreaks(TIEBREAKS) == TIEBREAKS
    assert check_tiebreaks(()) == ("points",)
    assert check_tiebreaks(("wins", "points", "rating")) == ("points", "wins", "rating")
    with pytest.raises(LeagueError, match="mp_difference, strength_of_schedule") as unknown:
        check_tiebreaks(("points", "goals"))
    assert '"goals" is not a tiebreak' in str(unknown.value)
    with pytest.raises(LeagueError, match="named twice"):
        check_tiebreaks(("wins", "rating", "wins"))
    with pytest.raises(LeagueError, match="known"):
        standings([1, 2], [], tiebreaks=("elo",))


def test_bad_input_in_plain_words() -> None:
    with pytest.raises(LeagueError, match="listed twice"):
        standings([1, 2, 1], [])
    with pytest.raises(LeagueError, match="did not play"):
        Game(1, 1, 2, 3)
    with pytest.raises(LeagueError, match="themselves"):
        Game(1, 1, 1, None)
    with pytest.raises(LeagueError, match="double loss"):
        Game(1, 1, 2, 1, double_loss=True)
    with pytest.raises(LeagueError, match="bye"):
        Game(1, 1, None, None, double_loss=True)
    with pytest.raises(LeagueError, match="win must score"):
        Scoring(win=0, draw=1)
    assert issubclass(LeagueError, ValueError)
