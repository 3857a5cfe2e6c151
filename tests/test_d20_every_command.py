"""Every player-facing call a cog makes, on a d20 match of three seats (issue 29): at set-up,
deployment, mid-round, with a defender prompted (standing orders `prompt=True`), after a
concession and at the end. Each answers in words (a Reply, a file, or a ServiceError with a
plain message), never a crash: the service once read Skirm's state through local variables the
layers test cannot see."""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import test_seats_play
from aiohttp.test_utils import TestClient, TestServer
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD
from test_seats_play import PLAYERS, SQUADS, play_one

from skirmbot import cli
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import MatchService, Member, ServiceError, actions, recap, timing
from skirmbot.service.matches import DEPLOYING, PLAYING
from skirmbot.service.orderline import line_choices
from skirmbot.service.pages import Pages
from skirmbot.service.preview import preview_squares, preview_units
from skirmbot.store import Deadline, Store
from skirmbot.timers.clock import ACTIVATION, controls_for
from skirmbot.web import make_app

D20 = ruleset("d20")
SEED = 29  # the dice key, with fixed salts: the same match every run


def bot_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: SEED, clock=lambda: 1_000.0)


async def seated(service: MatchService) -> None:
    """Three players seated with their salts given, squads chosen: deploying."""
    await service.create(GUILD, CHANNEL, ALICE, rules="d20", players=3, salt="a")
    await service.join(CHANNEL, BOB, salt="b")
    await service.join(CHANNEL, EVE, salt="e")
    for member, squad in zip(PLAYERS, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)


async def seated_and_deployed(service: MatchService) -> None:
    await seated(service)
    for member in PLAYERS:
        await service.deploy(CHANNEL, member)


UNIT_KINDS: tuple[tuple[Any, ...], ...] = (
    (actions.Activate,),
    (actions.Move,),
    (actions.Dash,),
    (actions.Shoot,),
    (actions.Melee,),
    (actions.Door,),
    (actions.PickUp,),
    (actions.Drop,),
    (actions.EndActivation,),
    ("leap",),
    ("skill",),
    ("mission",),
    ("crate",),
    ("turret",),
)


class Answers:
    """Runs each call; an answer in words is kept, anything else is a crash to report."""

    def __init__(self) -> None:
        self.crashes: list[str] = []
        self.words: dict[str, str] = {}

    async def ask(self, what: str, call: Callable[[], Awaitable[Any]]) -> Any:
        try:
            answer = await call()
        except ServiceError as refused:
            assert str(refused).strip(), f"{what}: refused without words"
            self.words[what] = str(refused)
            return None
        except Exception:  # a crash: collected, so one run lists them all
            self.crashes.append(f"{what}:\n{traceback.format_exc()}")
            return None
        self.words[what] = getattr(answer, "text", None) or str(answer)
        return answer

    def plain(self, what: str, call: Callable[[], Any]) -> Any:
        async def awaited() -> Any:
            return call()

        return self.ask(what, awaited)

    def check(self) -> None:
        assert not self.crashes, "\n".join(self.crashes)


async def every_call(service: MatchService, store: Store, answers: Answers, moment: str) -> None:
    """Every call a cog makes for one of the players (and one who does not play)."""
    ask, plain = answers.ask, answers.plain
    stranger = Member(77, "Stranger")
    await ask(f"{moment} status", lambda: service.status(CHANNEL))
    await ask(f"{moment} log", lambda: service.log(CHANNEL))
    await ask(f"{moment} rules", lambda: service.rules_text(CHANNEL))
    await ask(f"{moment} units", lambda: service.units(CHANNEL))
    await ask(f"{moment} card unknown", lambda: service.card(CHANNEL, "Nobody"))
    for unit, _ in (await ask(f"{moment} units again", lambda: service.units(CHANNEL))) or []:
        await ask(f"{moment} card {unit}", lambda unit=unit: service.card(CHANNEL, unit))
    await ask(f"{moment} placing", lambda: service.placing(CHANNEL, ALICE))
    placing = await ask(f"{moment} placing", lambda: service.placing(CHANNEL, ALICE))
    if placing is not None:
        await plain(f"{moment} placement help", placing.placement_help)
        await plain(f"{moment} placements", placing.placements)
    for member in (*PLAYERS, stranger):
        who = f"{moment} {member.name}"
        await ask(f"{who} preview", lambda m=member: service.preview(CHANNEL, m))
        await ask(f"{who} secondary", lambda m=member: service.secondary(CHANNEL, m))
        await ask(f"{who} export", lambda m=member: service.export_record(CHANNEL, m))
        await ask(f"{who} recap", lambda m=member: recap.show(service, CHANNEL, m))
        found = await ask(f"{who} situation", lambda m=member: service.situation(CHANNEL, m))
        if found is not None:
            await situation_options(answers, found, who)
    await every_command(service, answers, moment)
    await ask(f"{moment} timer", lambda: timing.timer(service, CHANNEL))
    await ask(f"{moment} pages", lambda: web_pages(store, service))


async def situation_options(answers: Answers, found: Any, who: str) -> None:
    """Autocomplete of every slash command as the cogs ask it (a unit named in the `unit`
    option, else the one activating), /odds and the preview's options."""
    plain = answers.plain
    await plain(f"{who} preview units", lambda: preview_units(found))
    await plain(f"{who} line choices", lambda: line_choices(found, ""))
    for typed in ("Nobody mo", "Vask ", "Vask move ", "Vask attack ", "buy ", "defend "):
        await plain(f"{who} line choices {typed!r}", lambda t=typed: line_choices(found, t))
    await plain(f"{who} own actions", lambda: found.own_actions(actions.COMMON_KINDS))
    await plain(f"{who} by hand note", found.by_hand_note)
    for kinds in UNIT_KINDS:
        await plain(f"{who} units {kinds}", lambda kinds=kinds: found.units(*kinds))
    for kind in (actions.Reroll, actions.Modify):
        await plain(f"{who} dice {kind.type}", lambda kind=kind: found.dice(kind))
    on_map = (await plain(f"{who} units on map", found.units_on_map)) or []
    ready = (await plain(f"{who} ready", lambda: found.units(actions.Activate))) or []
    for typed in [None, *[option[0] for option in ready[:2]], *on_map[:2], "Nobody"]:
        await plain(f"{who} {typed} any targets", lambda t=typed: found.any_targets(t or ""))
        await plain(f"{who} {typed} odds", lambda t=typed: found.odds(t or "", None, 0, True))
        await plain(f"{who} {typed} odds at", lambda t=typed: found.odds(t or "", "Nobody", 0, 0))
        await plain(f"{who} {typed} preview squares", lambda t=typed: preview_squares(found, t))
        await plain(f"{who} {typed} own", lambda t=typed: found.own_actions(set(), t))
        unit = await plain(f"{who} {typed} unit", lambda t=typed: found.unit(t))
        if unit is not None:
            await unit_options(answers, found, f"{who} {unit}", unit)


async def unit_options(answers: Answers, found: Any, at: str, unit: str) -> None:
    plain = answers.plain
    for kind, action in ((actions.Move, "move"), (actions.Dash, "dash")):
        await plain(f"{at} squares {action}", lambda k=kind, a=action: found.squares(unit, k, a))
    for kind in (actions.Shoot, actions.Melee):
        for other in (None, "Nobody"):
            await plain(
                f"{at} targets {kind.type}", lambda k=kind, o=other: found.targets(unit, k, o)
            )
            await plain(
                f"{at} weapons {kind.type}", lambda k=kind, o=other: found.weapons(unit, k, o)
            )
    for name, options in (
        ("leaps", found.leaps),
        ("mission", found.mission_actions),
        ("skills", found.skills),
        ("doors", found.doors),
        ("crates", found.crate_options),
        ("turrets", found.turret_targets),
    ):
        await plain(f"{at} {name}", lambda options=options: options(unit))
    for skill in (None, "Heal"):
        await plain(f"{at} skill targets", lambda s=skill: found.skill_targets(unit, s))


# One-line orders the rules refuse before anything is sent, by the seat they wait for.
REFUSED_LINES = (
    "Nobody move A1",
    "{unit} dash A1",
    "{unit} leap A1",
    "{unit} shoot Nobody",
    "{unit} melee Nobody",
    "{unit} skill Heal",
    "{unit} move Z99",
    "{unit} attack Nobody",
    "{unit} open door",
    "reroll 1",
    "accept",
    "defend 99",
    "buy 99",
    "   ",
)


def sent_commands(unit: str) -> list[actions.Command]:
    """Every command a cog's slash command or button sends, about `unit`."""
    own = actions.own_command
    return [
        actions.Activate(0, unit),
        actions.Move(0, unit, "A1"),
        own("move", unit=unit, square="A1", bonus=1),
        actions.Dash(0, unit, "A1"),
        own("leap", unit=unit, square="A1"),
        own("skill", unit=unit, skill="Heal", target=None),
        own("mission", unit=unit, action="Hack"),
        actions.Shoot(0, unit, "Nobody", None),
        actions.Melee(0, unit, "Nobody", None),
        actions.Door(0, unit, None),
        actions.PickUp(0, unit),
        actions.Drop(0, unit),
        own("crate", unit=unit, option="heal"),
        own("turret", unit=unit, target="Nobody"),
        own("delay"),
        actions.Accept(0),
        actions.Reroll(0, 1),
        actions.Modify(0, 1, 1),
        own("buy", dice=99),
        own("defend", dice=99),
    ]


async def every_command(service: MatchService, answers: Answers, moment: str) -> None:
    """Each command a cog sends, by every seat, that the rules refuse here: in words. The
    model named is the seat's own, so a command that is legal would be played; the deciding
    seat sends only those its rules have no such action for."""
    try:
        _, match = await service.view(CHANNEL)
    except ServiceError:  # over: every command is answered "no match here"
        match = None
    view = D20.view(match.state) if match is not None else None
    deciding = {d.side for d in D20.deciding(match.state)} if match is not None else set()
    refused_anyway = (actions.Dash, actions.Door, actions.PickUp, actions.Drop, actions.Accept)
    for seat, member in enumerate(PLAYERS):
        pieces = view.pieces_of(seat) if view is not None else ()
        unit = pieces[0].id if pieces else "Nobody"
        for command in sent_commands(unit):
            if seat in deciding and not isinstance(command, refused_anyway):
                continue
            what = f"{moment} {member.name} sends {actions.kind_of(command)}"
            await answers.ask(what, lambda c=command, m=member: service.act(CHANNEL, m, c))
        lines = REFUSED_LINES if seat in deciding else ("Nobody move A1", "end", "   ")
        for line in lines:
            line = line.format(unit=unit)
            what = f"{moment} {member.name} orders {line!r}"
            await answers.ask(what, lambda m=member, x=line: service.orders(CHANNEL, m, x))


async def web_pages(store: Store, service: MatchService) -> str:
    pages = Pages(store, service)
    await pages.set_published(GUILD, True)
    row = await store.last_match(CHANNEL)
    assert row is not None
    shown = await pages.match(GUILD, row.id)
    assert shown is not None
    last = len(shown.titles) - 1
    for step in sorted({0, last // 2, last, last + 1}):
        await pages.step_tag(GUILD, row.id, step)
        await pages.step_png(GUILD, row.id, step)
    await pages.record_json(GUILD, row.id)
    return str(shown)


async def a_players_calls(service: MatchService, answers: Answers, moment: str) -> None:
    """What a player sends besides commands: undo, draw, standing orders, extend, pause."""
    ask = answers.ask
    seat = await deciding_seat(service)
    member = PLAYERS[seat] if seat is not None else ALICE
    other = PLAYERS[(PLAYERS.index(member) + 1) % len(PLAYERS)]
    await ask(f"{moment} extend", lambda: timing.extend(service, CHANNEL, member))
    await ask(f"{moment} pause", lambda: timing.pause(service, CHANNEL, member))
    await ask(f"{moment} pause other", lambda: timing.pause(service, CHANNEL, other))
    await ask(f"{moment} resume", lambda: timing.resume(service, CHANNEL, member))
    await ask(f"{moment} timer after", lambda: timing.timer(service, CHANNEL))
    await ask(f"{moment} deadline", lambda: timing.set_deadline(service, CHANNEL, MOD, 30))
    await ask(f"{moment} vacation", lambda: timing.vacation(service, GUILD, other, 2))
    await ask(f"{moment} clock rules", lambda: timing.set_clock_rules(service, GUILD, MOD, 5))
    await ask(f"{moment} reminder", lambda: remind_now(service))
    await ask(
        f"{moment} skirm standing orders", lambda: service.standing_orders(CHANNEL, member, 0)
    )
    await ask(
        f"{moment} lite standing orders", lambda: service.standing_orders(CHANNEL, member, 0, 2)
    )
    await ask(
        f"{moment} d20 standing orders",
        lambda: service.act(CHANNEL, member, actions.own_command("standing_orders", defend=1)),
    )
    await ask(f"{moment} undo", lambda: service.request_undo(CHANNEL, member))
    await ask(f"{moment} undo accepted", lambda: service.accept_undo(CHANNEL, other))
    await ask(f"{moment} draw", lambda: service.offer_draw(CHANNEL, member))
    await ask(f"{moment} draw accepted", lambda: service.accept_draw(CHANNEL, other))


async def buttons_and_act(service: MatchService, answers: Answers, moment: str) -> None:
    """The buttons under a reply (cogs/buttons.py) and /act's compact forms, pressed by a seat
    that is not asked (refused in words), then End by the seat whose turn it is."""
    ask = answers.ask
    seat = await deciding_seat(service)
    if seat is None:
        return
    member, other = PLAYERS[seat], PLAYERS[(seat + 1) % len(PLAYERS)]
    found = await service.situation(CHANNEL, member)
    for value, _ in found.own_actions(actions.COMMON_KINDS)[:5]:
        sent = actions.decode(value)
        await ask(f"{moment} act {value} by another", lambda c=sent: service.act(CHANNEL, other, c))
    for name, command in (("accept", actions.Accept(0)), ("reroll", actions.Reroll(0, 1))):
        await ask(f"{moment} {name} button", lambda c=command: service.act(CHANNEL, member, c))
    await ask(f"{moment} preview button", lambda: service.preview(CHANNEL, member))
    await ask(
        f"{moment} end button", lambda: service.act(CHANNEL, member, actions.EndActivation(0))
    )


async def deciding_seat(service: MatchService) -> int | None:
    try:
        _, match = await service.view(CHANNEL)
    except ServiceError:  # over: no match in play
        return None
    if match is None:
        return None
    deciding = D20.deciding(match.state)
    return deciding[0].side if deciding else None


async def remind_now(service: MatchService) -> Any:
    """The turn's (or a window's) next deadline comes due now, as the scheduler fires it."""
    row, _ = await service.view(CHANNEL)
    deadline = await service.store.deadline(row.id)
    if deadline is None:
        return "no deadline"
    return await timing.on_deadline(
        service, row.id, Deadline(deadline.due_at, "remind", deadline.key)
    )


def cli_runs(tmp_path: Path, name: str, data: bytes) -> list[int]:
    path = tmp_path / name
    path.write_bytes(data)
    out = tmp_path / "out"
    return [
        cli.main(["verify", str(path)]),
        cli.main(["replay", str(path)]),
        cli.main(["replay", str(path), "--json"]),
        cli.main(["render", str(path), "--out", str(out)]),
        cli.main(["render", str(path), "--after", "0", "--out", str(out)]),
        cli.main(["render", str(path), "--card", "Vask", "--out", str(out)]),
        cli.main(["render", str(path), "--card", "Nobody", "--out", str(out)]),
        cli.main(["render", str(path), "--after", "9999", "--out", str(out)]),
    ]


async def test_every_call_answers_in_words_at_set_up_and_deployment(store: Store) -> None:
    service = bot_on(store)
    answers = Answers()
    await service.create(GUILD, CHANNEL, ALICE, rules="d20", players=3, salt="a")
    await every_call(service, store, answers, "set-up")
    await a_players_calls(service, answers, "set-up")
    await service.join(CHANNEL, BOB, salt="b")
    await service.join(CHANNEL, EVE, salt="e")
    for member, squad in zip(PLAYERS, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)
    row, _ = await service.view(CHANNEL)
    assert row.status == DEPLOYING
    await every_call(service, store, answers, "deploying")
    await a_players_calls(service, answers, "deploying")
    await answers.ask(
        "squad of Skirm", lambda: service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    )
    for placements in ({"Nobody": "A1"}, {"Vask": "Z99"}, {"Vask": "A12"}):
        await answers.ask(
            f"deploy {placements}", lambda p=placements: service.deploy(CHANNEL, ALICE, p)
        )
    await answers.ask("abort by a player", lambda: service.abort(CHANNEL, ALICE))
    aborted = await answers.ask("abort", lambda: service.abort(CHANNEL, MOD))
    assert aborted is not None and "aborted by Mo" in aborted.text
    answers.check()


async def test_every_call_answers_in_words_mid_round_and_at_the_end(
    store: Store, tmp_path: Path
) -> None:
    service = bot_on(store)
    answers = Answers()
    await seated_and_deployed(service)
    for member in PLAYERS:
        await service.act(CHANNEL, member, actions.own_command("standing_orders", prompt=True))
    await every_call(service, store, answers, "playing")
    await a_players_calls(service, answers, "playing")
    await buttons_and_act(service, answers, "playing")
    prompted = False
    for _ in range(300):
        _, match = await service.view(CHANNEL)
        assert match is not None
        if any(not d.turn for d in D20.deciding(match.state)):
            prompted = True
            await every_call(service, store, answers, "prompted")
            await a_players_calls(service, answers, "prompted")
            await buttons_and_act(service, answers, "prompted")
            break
        assert await play_one(service)
    assert prompted, "a defender who asked to be prompted is asked"
    await ask_export_then_run(service, answers, tmp_path, "so-far", verified=1)
    await service.concede(CHANNEL, EVE)
    await every_call(service, store, answers, "conceded")
    while await play_one(service):
        pass
    await every_call(service, store, answers, "over")
    await a_players_calls(service, answers, "over")
    await ask_export_then_run(service, answers, tmp_path, "over", verified=1)
    answers.check()
    assert answers.words["playing rules"].startswith("**d20 Skirmish**")
    assert answers.words["playing skirm standing orders"] == (
        "d20 Skirmish has no saves to re-roll: its standing orders take defend and prompt "
        "(/match standing defend:)."
    )
    assert "defends with up to 1 bonus dice" in answers.words["playing d20 standing orders"]


async def ask_export_then_run(
    service: MatchService, answers: Answers, tmp_path: Path, moment: str, verified: int
) -> None:
    """The record exported, then `skirmbot verify`, `replay` (and `--json`), `render` (after
    an activation, a model's card): `verified`, what verify exits with (1: a record so far, or
    of a fixed seed, has nothing to check); a card of a model not in the match and an
    activation past the last are refused in words (exit 2)."""
    exported = await answers.ask(f"{moment} export", lambda: service.export_record(CHANNEL, ALICE))
    if exported is None:
        return
    ran = await answers.plain(
        f"{moment} cli", lambda: cli_runs(tmp_path, f"{moment}-{exported.name}", exported.data)
    )
    assert ran == [verified, 0, 0, 0, 0, 0, 2, 2]


async def test_missed_deadlines_of_a_turn_and_of_a_reaction_play_on(store: Store) -> None:
    """Timers: a turn's deadline passes (its activation ends where it stands), then a
    prompted defender's window closes undecided (`deciding`'s `on_timeout`: its standing
    order's dice); each is told in words and the match plays on."""
    service = bot_on(store)
    await seated_and_deployed(service)
    for member in PLAYERS:
        await service.act(CHANNEL, member, actions.own_command("standing_orders", prompt=True))
    row, _ = await service.view(CHANNEL)
    turn = await store.deadline(row.id)
    assert turn is not None
    missed = await fire(service, row.id, Deadline(turn.due_at, "miss", turn.key))
    assert missed is not None and "missed the deadline" in missed.text
    told: list[str] = []
    for _ in range(300):
        _, match = await service.view(CHANNEL)
        assert match is not None
        if any(not d.turn for d in D20.deciding(match.state)):
            for _ in range(2):  # the window's ping, then its end
                deadline = await store.deadline(row.id)
                assert deadline is not None
                reply = await fire(service, row.id, deadline)
                told.append(reply.text if reply is not None else "")
            break
        assert await play_one(service)
    assert "did not decide in time: the match goes on" in told[-1], told
    _, match = await service.view(CHANNEL)
    assert match is not None and all(d.turn for d in D20.deciding(match.state))
    assert "Clock of match" in (await timing.timer(service, CHANNEL)).text


async def fire(service: MatchService, match_id: int, deadline: Deadline) -> Any:
    """The deadline comes due: the bot's clock is past it when the scheduler fires it."""
    service.now = lambda: deadline.due_at + 1
    return await timing.on_deadline(service, match_id, deadline)


async def test_a_practice_match_with_the_automatic_player_taking_a_missed_turn(
    store: Store,
) -> None:
    """`/match new practice` in the d20 rules for three: the automatic player takes the other
    two seats; a clock whose forgiven miss is "the automatic player takes the activation"
    plays the missed turn for the absent player."""
    service = bot_on(store)
    controls = controls_for(ACTIVATION, 10, 2, "auto")
    created = await service.create(
        GUILD, CHANNEL, ALICE, practice=True, rules="d20", players=3, controls=controls
    )
    assert created.text
    await service.choose_squad(CHANNEL, ALICE, SQUADS[0])
    await service.deploy(CHANNEL, ALICE)
    row, match = await service.view(CHANNEL)
    assert row.status == PLAYING and match is not None
    deadline = await store.deadline(row.id)
    assert deadline is not None
    missed = await fire(service, row.id, Deadline(deadline.due_at, "miss", deadline.key))
    assert missed is not None and "the automatic player took the activation" in missed.text
    answers = Answers()
    await every_call(service, store, answers, "practice")
    answers.check()


async def test_the_web_pages_and_the_verified_record_of_a_d20_match(
    store: Store, tmp_path: Path
) -> None:
    """The bot's own dice (committed, a salt per player): the match's web pages during and
    after the match, and its record, exported at the end, verifies."""
    service = test_seats_play.bot_on(store)
    await test_seats_play.seated_and_deployed(service)
    await Pages(store, service).set_published(GUILD, True)
    row, _ = await service.view(CHANNEL)
    async with TestClient(TestServer(make_app(store, Pages(store, service)))) as client:
        for over in (False, True):
            for page in ("", "/step/0.png", "/step/1.png", "/step/50.png", "/record.json"):
                answer = await client.get(f"/g/{GUILD}/match/{row.id}{page}")
                assert answer.status in (200, 404), (page, answer.status)
                await answer.read()
            while not over and await play_one(service):
                pass
        shown = await client.get(f"/g/{GUILD}/match/{row.id}")
        assert shown.status == 200 and "Red Lancers" in await shown.text()
    answers = Answers()
    await ask_export_then_run(service, answers, tmp_path, "over", verified=0)
    answers.check()
