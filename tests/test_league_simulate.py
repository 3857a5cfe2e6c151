"""Whole simulated seasons through the service layer: pairings, standings, ratings, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from skirmbot.cli import main
from skirmbot.leagues import Game, rate, standings
from skirmbot.leagues_simulation import Season, simulate


def checked(season: Season, players: int) -> None:
    """No rematch; one bye a player at most, to a lowest-ranked player without one."""
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    data = json.loads(season.export.json)
    games = [
        Game(
            g["round"], g["first"], g["second"],
            {"first": g["first"], "second": g["second"]}.get(g["result"],
                                                             g["first"] if g["result"] == "bye" else None),
            (g["first_mp"], g["second_mp"]), g["result"] == "double_loss",
        )  # fmt: skip
        for g in data["games"]
    ]
    for number, pairing in enumerate(season.pairings, start=1):
        seated = [p for pair in pairing for p in pair if p is not None]
        assert sorted(seated) == sorted(set(seated)) and len(seated) == players
        before = standings(sorted(seated), [g for g in games if g.round < number])
        points = {s.player: s.points for s in before}
        for first, second in pairing:
            if second is None:
                assert byes[first] == 0
                byes[first] += 1
                fresh = [p for p in seated if byes[p] == 0 or p == first]
                assert points[first] == min(points[p] for p in fresh)
            else:
                met[frozenset((first, second))] += 1
    assert max(met.values()) == 1
    table = data["standings"]
    expected = standings(sorted(p["user_id"] for p in data["players"]), games,
                         ratings={p: r.ordinal for p, r in rate(games).items()})  # fmt: skip
    assert [(s["user_id"], s["points"]) for s in table] == [(s.player, s.points) for s in expected]


async def test_a_12_player_5_round_swiss_season_quick() -> None:
    season = await simulate(12, 5, "swiss", seed=4, quick=True, say=lambda _: None)
    assert len(season.pairings) == 5
    checked(season, 12)


async def test_an_11_player_swiss_season_gives_byes_to_the_lowest_ranked() -> None:
    season = await simulate(11, 5, "swiss", seed=9, quick=True, say=lambda _: None)
    checked(season, 11)


async def test_a_12_player_5_round_swiss_season_played_by_automatic_players() -> None:
    """Issue 13: every match of the season played to its end by automatic players through
    the service layer (Skirm Lite, whose matches are the quicker to play)."""
    season = await simulate(12, 5, "swiss", seed=5, rules="lite", say=lambda _: None)
    assert season.matches_played == 30 and len(season.pairings) == 5
    data = json.loads(season.export.json)
    assert not any(g["decided_by_organiser"] for g in data["games"])  # from the matches
    checked(season, 12)


async def test_a_6_player_round_robin_played_by_automatic_players() -> None:
    season = await simulate(6, 0, "round_robin", seed=2, rules="lite", say=lambda _: None)
    assert season.matches_played == 15 and len(season.pairings) == 5
    met = Counter(frozenset(p) for r in season.pairings for p in r)
    assert len(met) == 15 and set(met.values()) == {1}  # everyone met everyone once
    data = json.loads(season.export.json)
    assert all(g["result"] in ("first", "second", "draw") for g in data["games"])
    assert not any(g["decided_by_organiser"] for g in data["games"])  # from the matches
    assert sum(s["wins"] + s["draws"] + s["losses"] for s in data["standings"]) == 30
    checked(season, 6)


def test_the_simulate_command_writes_its_files(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "season"
    code = main(["league", "simulate", "--players", "5", "--rounds", "3", "--seed", "2",
                 "--out", str(out), "--quick"])  # fmt: skip
    assert code == 0
    assert (out / "standings.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "league.csv").read_text().startswith("players,")
    assert json.loads((out / "league.json").read_text())["league"]["status"] == "finished"
    assert main(["league", "simulate", "--players", "1"]) == 2
