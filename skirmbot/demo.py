"""A whole match of automatic players, one per seat, on a ruleset's default content."""

from __future__ import annotations

from pathlib import Path

from skirmbot import content
from skirmbot.rules.commands import Command
from skirmbot.rules.record import MatchRecord, content_of, record_of, start_match
from skirmbot.rules.ruleset import DEFAULT_RULESET, PlayedMatch, Ruleset, ruleset
from skirmbot.words import seats_words

# A 4-turn match takes a few hundred commands; this bound only catches a player that loops.
MAX_COMMANDS = 10_000


class PlayersError(ValueError):
    """A number of players the ruleset is not played by; the message says who plays it."""


def check_players(rules: str, players: int) -> Ruleset:
    """The ruleset called `rules`, if a match of it may have `players` seats; else
    PlayersError in words ("Skirm is played by 2 players, not 3.")."""
    played = ruleset(rules)
    if players not in played.seats:
        raise PlayersError(f"{seats_words(played.title, played.seats)}, not {players}.")
    return played


def seated(rules: str, players: int | None) -> int:
    """`players`, or when None as many as the ruleset's demo seats (`Ruleset.demo_players`)."""
    return ruleset(rules).demo_players if players is None else players


def default_content(
    map_name: str | None = None,
    mission_name: str | None = None,
    squad_names: tuple[str, ...] | None = None,
    rules: str = DEFAULT_RULESET,
    players: int | None = None,
) -> dict[str, object]:
    """A map, and `rules`' mission and a squad per seat (its defaults where not named) for
    `players` (None: as many as its demo seats, `Ruleset.demo_players`); no map named: the
    mission's, else the ruleset's default (`content.default_map`)."""
    default_mission, default_squads = content.defaults(rules, seated(rules, players))
    mission_name = mission_name or default_mission
    squad_names = squad_names or default_squads
    mission = content.raw("missions", mission_name, rules)
    return content_of(
        content.raw("maps", map_name or content.default_map(rules, mission), rules),
        mission,
        [content.raw("squads", name, rules) for name in squad_names],
    )


def new_demo_match(
    seed: int,
    match_content: dict[str, object] | None = None,
    rules: str = DEFAULT_RULESET,
    players: int | None = None,
    battle_map: str | None = None,
) -> tuple[PlayedMatch, dict[str, object]]:
    """A new match of automatic players on `match_content` (None: the ruleset's defaults for
    `players`). `battle_map`: a shipped map's name, as a player types it, played instead of the
    content's map (None: the content's own); ContentError listing the maps when there is none."""
    players = seated(rules, players)
    check_players(rules, players)
    data = match_content or default_content(rules=rules, players=players)
    if battle_map is not None:
        data = {**data, "map": content.raw("maps", battle_map, rules)}
    data = ruleset(rules).match_content(data)
    record = MatchRecord(content=data, dice={"seed": seed}, ruleset=rules)
    return start_match(record), data


class AutomaticPlayers:
    """An automatic player in every seat: in set-up, each side of the stage places once, in
    seat order; then the first seat that must decide (`Ruleset.deciding`) sends its command."""

    def __init__(self, played: Ruleset) -> None:
        self.played = played
        self.placed: set[tuple[str, int]] = set()  # (stage, side) already placed

    def next_command(self, state: object) -> Command | None:
        """What the next seat sends now; None when nobody has to (the match is over)."""
        stage = self.played.set_up_stage(state)
        if stage is not None:
            side = next(s for s in stage.sides if (stage.name, s) not in self.placed)
            self.placed.add((stage.name, side))
            return self.played.automatic_placement(state, side)
        deciding = self.played.deciding(state)
        if not deciding:
            return None
        return self.played.automatic_command(state, deciding[0].side)


def play_out(match: PlayedMatch, rules: str = DEFAULT_RULESET) -> None:
    """Let the automatic players take every decision until the match ends."""
    players = AutomaticPlayers(ruleset(rules))
    for _ in range(MAX_COMMANDS):
        command = players.next_command(match.state)
        if command is None:
            return
        match.apply(command)
    raise RuntimeError(
        f"The automatic players did not finish the match within {MAX_COMMANDS} commands."
    )


def play_demo(
    seed: int,
    rules: str = DEFAULT_RULESET,
    players: int | None = None,
    battle_map: str | None = None,
) -> tuple[PlayedMatch, MatchRecord]:
    """A whole match of `rules` between automatic players, one per seat (None: as many as its
    demo seats), on `battle_map` (a shipped map's name; None: the ruleset's default), and its
    record."""
    players = seated(rules, players)
    match, data = new_demo_match(seed, rules=rules, players=players, battle_map=battle_map)
    play_out(match, rules)
    names = [f"Automatic player {seat + 1}" for seat in range(players)]
    return match, record_of(match, data, names, ruleset(rules).name)


def write_demo(record: MatchRecord, out: Path) -> int:
    """Write the record (`match.json`), the battlemap after every activation
    (`activation-000.png` as deployed, then one per activation) and the animation (`replay.gif`)
    into the folder `out`, which must exist; the number of the last activation."""
    from skirmbot.render.battlemap import MapRenderer
    from skirmbot.render.replay import activation_steps, animation

    (out / "match.json").write_text(record.dumps(), encoding="utf-8")
    renderer = MapRenderer()
    last = 0
    for last, (view, events) in enumerate(activation_steps(record)):
        (out / f"activation-{last:03d}.png").write_bytes(renderer.png(view, events))
    (out / "replay.gif").write_bytes(animation(record, renderer))
    return last
