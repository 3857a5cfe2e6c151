"""Names as people type them (issue 28): a shipped map, mission or squad, and a ruleset, are
found by their file name or their display name, in any case and spacing, with hyphens,
underscores or spaces between the words; a name that matches nothing is answered with the
display names. What is kept (a record's content, a league's missions) is the shipped file's,
found by its file name."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import test_cogs
from test_cogs import World, said
from test_console import scripted

from skirmbot import content
from skirmbot.cli import main
from skirmbot.console import ConsoleError, run_console
from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.service.leagues import LeagueService
from skirmbot.service.ratings import RatingService
from skirmbot.store import Store
from skirmbot.words import typed_key

# The cog tests' fixtures: the bot on simcord, Alice, Bob, Eve and an admin in a channel.
bots, simcord_bot, world = test_cogs.bots, test_cogs.simcord_bot, test_cogs.world

GUILD, CHANNEL = 900, 500
ALICE, BOB = Member(1, "Alice"), Member(2, "Bob")
MISSIONS = "Bloody Crossroads, Breakthrough, Courier Run, Cut Off the Head, Hold the Line"


@pytest.fixture
def service(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 7)


# --- reading a name ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "typed",
    [
        "bloody-crossroads",  # the file name, as autocomplete's choice sends it
        "Bloody Crossroads",  # the display name, typed and sent without picking the choice
        "bloody crossroads",
        "Bloody-Crossroads",
        "BLOODY_CROSSROADS",
        "  bloody   crossroads ",
        "ｂｌｏｏｄｙ　ｃｒｏｓｓｒｏａｄｓ",  # full-width, as some keyboards type
        "Bloody\u200b Crossroads",  # a zero-width space pasted along
    ],
)
def test_a_mission_is_found_by_its_file_name_or_its_display_name_as_typed(typed: str) -> None:
    assert content.find("missions", typed) == "bloody-crossroads"
    assert content.raw("missions", typed) == content.raw("missions", "bloody-crossroads")


@pytest.mark.parametrize("typed", ["No Man's Land", "no mans land", "No Man\u2019s Land"])
def test_an_apostrophe_may_be_left_out_or_typed_curly(typed: str) -> None:
    assert content.find("missions", typed) == "no-mans-land"


def test_words_are_not_run_together_or_cut() -> None:
    """Only the separators between words are read loosely: the words themselves must match."""
    for typed in ("bloodycrossroads", "bloody cross", "crossroads", "bloody-crossroads-2"):
        with pytest.raises(ContentError, match="There is no mission called"):
            content.find("missions", typed)
    assert typed_key("Cut Off the Head") != typed_key("Cut Offthe Head")


def test_an_unknown_name_is_answered_with_the_display_names() -> None:
    with pytest.raises(ContentError) as refused:
        content.find("missions", "Bloody Crossing")
    assert str(refused.value).startswith(
        f"There is no mission called 'Bloody Crossing'. Choose one of: {MISSIONS}, "
    )
    assert "bloody-crossroads" not in str(refused.value)
    with pytest.raises(ContentError, match="Choose one of: Ash Stalkers, Vigil Wardens."):
        content.find("squads", "Iron Wardens", "lite")  # a Skirm squad is not a Lite one


@pytest.mark.parametrize("typed", ["lite", "Skirm Lite", "skirm lite", "Skirm-Lite", "SKIRM_LITE"])
def test_a_ruleset_is_found_by_its_key_or_its_title_as_typed(typed: str) -> None:
    assert ruleset(typed).name == "lite"


def test_an_unknown_ruleset_is_answered_with_the_titles() -> None:
    with pytest.raises(
        RulesError,
        match=r"^There is no ruleset called 'Skirm Heavy'\. Choose one of: Skirm, Skirm Lite, d20 Skirmish, Companies, Skirmishers\.$",
    ):
        ruleset("Skirm Heavy")


# --- the service ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mission", "battle_map"),
    [
        ("Bloody Crossroads", "Ruined Chapel"),
        ("bloody crossroads", "ruined chapel"),
        ("Bloody-Crossroads", "Ruined-Chapel"),
    ],
)
async def test_match_new_takes_the_mission_and_map_as_typed(
    service: MatchService, store: Store, mission: str, battle_map: str
) -> None:
    reply = await service.create(
        GUILD, CHANNEL, ALICE, opponent=BOB, mission=mission, battle_map=battle_map
    )
    assert reply.text.startswith("**New Skirm match** #1: Bloody Crossroads on Ruined Chapel.")
    row = await store.active_match(CHANNEL)
    assert row is not None  # the record keeps the shipped files, as read by their file names
    assert row.record["content"]["mission"] == content.raw("missions", "bloody-crossroads")
    assert row.record["content"]["map"] == content.raw("maps", "ruined-chapel")


async def test_a_squad_is_fielded_by_its_display_name(service: MatchService, store: Store) -> None:
    reply = await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    assert "/match squad (Ash Runners, Iron Wardens, or upload your own)" in reply.text
    await service.join(CHANNEL, BOB)
    assert "Iron Wardens" in (await service.choose_squad(CHANNEL, ALICE, "Iron Wardens")).text
    assert "Ash Runners" in (await service.choose_squad(CHANNEL, BOB, "ash_runners")).text
    row = await store.active_match(CHANNEL)
    assert row is not None
    assert row.record["content"]["squads"] == [
        content.raw("squads", "iron-wardens"),
        content.raw("squads", "ash-runners"),
    ]


async def test_an_unknown_mission_is_refused_with_the_display_names_and_nothing_made(
    service: MatchService, store: Store
) -> None:
    with pytest.raises(ServiceError, match=f"Choose one of: {MISSIONS}, "):
        await service.create(GUILD, CHANNEL, ALICE, mission="Bloody Crossing")
    assert await store.active_match(CHANNEL) is None


@pytest.mark.parametrize("typed", ["lite", "Skirm Lite", "skirm lite", "Skirm-Lite"])
async def test_match_new_takes_the_ruleset_as_typed(service: MatchService, typed: str) -> None:
    reply = await service.create(
        GUILD, CHANNEL, ALICE, rules=typed, mission="Take and Hold", battle_map="Foundry"
    )
    assert reply.text.startswith("**New Skirm Lite match** #1: Take and Hold on Foundry.")
    assert "(Ash Stalkers, Vigil Wardens, or upload your own)" in reply.text


async def test_a_league_takes_its_ruleset_missions_map_and_squads_as_typed(
    service: MatchService, store: Store
) -> None:
    leagues = LeagueService(store, service)
    await leagues.create(
        GUILD, CHANNEL, ALICE, "Cup", "skirm-lite", rounds=2,
        missions=["Take and Hold", "supply run"], maps=["Ruined Chapel"],
    )  # fmt: skip
    league = await store.league(GUILD, "Cup")
    assert league is not None and league.ruleset == "lite"
    assert league.config["missions"] == ["take-and-hold", "supply-run"]  # the file names
    assert league.config["maps"] == ["ruined-chapel"]
    signed = await leagues.sign_up(GUILD, "Cup", BOB, "Vigil Wardens")
    assert "Vigil Wardens" in signed.text
    with pytest.raises(ServiceError, match="'Iron Wardens' is a Skirm squad; .* Ash Stalkers"):
        await leagues.sign_up(GUILD, "Cup", ALICE, "Iron Wardens")


async def test_a_league_refuses_an_unknown_mission_with_the_display_names(
    service: MatchService, store: Store
) -> None:
    leagues = LeagueService(store, service)
    with pytest.raises(
        ServiceError,
        match="no mission called 'Capture'. Choose one of: Crossfire, Supply Run, Take and Hold.",
    ):
        await leagues.create(
            GUILD, CHANNEL, ALICE, "Cup", "Skirm Lite", rounds=2, missions=["Capture"]
        )
    assert await store.league(GUILD, "Cup") is None


async def test_the_leaderboard_takes_the_ruleset_as_typed(store: Store) -> None:
    reply = await RatingService(store).leaderboard(GUILD, "skirm-lite")
    assert reply.text.startswith("No rated Skirm Lite matches on this server yet")


# --- Discord ---------------------------------------------------------------------------------
async def test_match_new_takes_the_mission_typed_without_picking_the_choice(world: World) -> None:
    created = await world.alice.slash(
        world.channel, "match new", opponent=world.bob, mission="Bloody Crossroads",
        map="ruined-chapel",
    )  # fmt: skip
    assert "Bloody Crossroads on Ruined Chapel" in said(created).content
    await world.bob.slash(world.channel, "match join")
    fielded = await world.alice.slash(world.channel, "match squad", name="Iron Wardens")
    assert "fields **Iron Wardens**" in said(fielded).content


async def test_autocomplete_finds_a_name_typed_with_hyphens(world: World) -> None:
    offered = await world.alice.autocomplete(world.channel, "match new", "mission", "bloody-cr")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Bloody Crossroads", "bloody-crossroads")
    ]
    await world.alice.slash(world.channel, "match new", opponent=world.bob)
    offered = await world.alice.autocomplete(world.channel, "match squad", "name", "iron_w")
    assert [c["value"] for c in offered] == ["iron-wardens"]
    listed = await world.admin.autocomplete(
        world.channel, "league create", "missions", "Bloody Crossroads, cut-off"
    )
    assert [c["value"] for c in listed] == ["Bloody Crossroads, cut-off-the-head"]


# --- the console and the command line ------------------------------------------------------
async def test_the_console_takes_display_names(tmp_path: Path) -> None:
    ask, said = scripted([])  # Ctrl-D at the first prompt: the match is set up by then
    code = await run_console(
        False, tmp_path, mission="Bloody Crossroads", battle_map="ruined chapel",
        squads=("Iron Wardens", "ash runners"), ask=ask, say=said.append, seed=3,
    )  # fmt: skip
    text = "\n".join(said)
    assert code == 0
    assert "New Skirm match #1: Bloody Crossroads on Ruined Chapel." in text
    assert "fields Iron Wardens" in text and "fields Ash Runners" in text


async def test_the_console_takes_the_ruleset_as_typed(tmp_path: Path) -> None:
    ask, said = scripted([])
    assert await run_console(False, tmp_path, ask=ask, say=said.append, rules="Skirm Lite") == 0
    assert "New Skirm Lite match" in "\n".join(said)
    with pytest.raises(
        ConsoleError, match="Choose one of: Skirm, Skirm Lite, d20 Skirmish, Companies, Skirmishers."
    ):
        await run_console(False, tmp_path, ask=ask, say=said.append, rules="Skirm Heavy")


@pytest.mark.parametrize("typed", ["Skirm-Lite", "skirm lite", "lite"])
def test_the_command_line_takes_the_ruleset_as_typed(
    typed: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["console", "--ruleset", typed, "--out", str(tmp_path), "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "New Skirm Lite match" in captured.out and captured.err == ""


def test_the_command_line_answers_an_unknown_ruleset_with_the_titles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--ruleset", "chess", "--out", str(tmp_path)]) == 2
    assert (
        "There is no ruleset called 'chess'. Choose one of: Skirm, Skirm Lite, d20 Skirmish, Companies, Skirmishers."
        in (capsys.readouterr().err)
    )
