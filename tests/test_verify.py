"""Dice anyone can verify (issue 21, rulings: Fair play, "Verifiable dice").

A new match commits to a secret seed (SHA-256 posted at the start), each player adds a salt,
the dice come from the seed and both salts, and the record of the match, once it is over,
reveals the seed, lists every die and the result. `skirmbot verify` checks it and names what
was changed: a die, the seed, a salt, the result.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD, end_activations

from skirmbot.cli import main
from skirmbot.rules.dice import (
    SALT_CHARACTERS,
    SALT_LENGTH,
    KeyedDice,
    SaltedDice,
    check_salt,
    commitment_of,
    new_dice,
    new_salt,
    seal_of,
)
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import (
    RECORD_VERSION,
    MatchRecord,
    commit_dice,
    dice_of,
    faces_rolled,
    replay,
)
from skirmbot.rules.verify import verify
from skirmbot.service import MatchService, ServiceError
from skirmbot.service.pages import Pages
from skirmbot.store import Store

KEY = "ab" * 32
SALTS = ["alice-salt", "bob.salt_2"]


# --- the dice ------------------------------------------------------------------------------
def test_salted_dice_come_from_the_seed_and_both_salts() -> None:
    """Fair play, verifiable dice: the same seed and salts give the same faces; another salt,
    or the seed alone, other faces (neither the bot nor a player chooses them alone)."""

    def faces(dice: Any) -> list[int]:
        return [dice.roll() for _ in range(40)]

    same = faces(SaltedDice(KEY, SALTS))
    assert same == faces(SaltedDice(KEY, SALTS))
    assert same != faces(SaltedDice(KEY, [SALTS[0], "bob.salt_3"]))
    assert same != faces(SaltedDice(KEY, [SALTS[1], SALTS[0]])), "the salts' order counts"
    assert same != faces(KeyedDice(KEY)), "the seed alone does not give the dice"
    assert SaltedDice(KEY, SALTS).to_json() == {"key": KEY}, "the salts live beside the dice"


def test_no_die_is_rolled_before_both_salts_are_fixed() -> None:
    """Fair play, verifiable dice: a die asked for while the second salt is missing is refused."""
    with pytest.raises(RulesError, match="both players' salts"):
        SaltedDice(KEY, [SALTS[0], None]).roll()


def test_the_commitment_is_sha256_of_the_seeds_bytes() -> None:
    assert commitment_of(KEY) == hashlib.sha256(bytes.fromhex(KEY)).hexdigest()
    assert seal_of(commitment_of(KEY), 0, "x") != seal_of(commitment_of(KEY), 1, "x")


@pytest.mark.parametrize("salt", ["dragon-42", "a", "A.b_c-9", "x" * 32, "  padded  "])
def test_a_salt_is_short_plain_text(salt: str) -> None:
    assert check_salt(salt) == salt.strip()


@pytest.mark.parametrize("salt", ["", "   ", "x" * 33, "two words", "naïve", "a\nb", "<@1>"])
def test_a_salt_with_other_characters_or_too_long_is_refused(salt: str) -> None:
    with pytest.raises(RulesError, match="A salt is 1 to 32 characters"):
        check_salt(salt)


def test_the_bot_makes_a_fresh_salt_that_passes_its_own_check() -> None:
    made = {new_salt() for _ in range(20)}
    assert len(made) == 20 and all(check_salt(salt) == salt for salt in made)


# --- a whole match through the service --------------------------------------------------------
async def deployed(
    service: MatchService,
    salts: Sequence[str | None] = (None, None),
    squads: Sequence[str] = ("iron-wardens", "ash-runners"),
    **options: Any,
) -> None:
    """Alice v Bob in CHANNEL, made with `options` (create's: rules, controls), each with their
    salt (None: the bot makes one) and squad, both deployed by the bot."""
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, salt=salts[0], **options)
    await service.join(CHANNEL, BOB, salt=salts[1])
    await service.choose_squad(CHANNEL, ALICE, squads[0])
    await service.choose_squad(CHANNEL, BOB, squads[1])
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)


async def played(store: Store) -> tuple[MatchService, dict[str, Any]]:
    """Alice (salt given) v Bob (salt given), keyed dice as the bot runs, every activation
    ended where it stands until the match is over; its exported record."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await deployed(service, SALTS)
    ended = await end_activations(service)
    assert ended is not None and ended.match_over
    _, data = await service.export(CHANNEL, BOB)
    return service, json.loads(data)


def write(tmp_path: Path, record: dict[str, Any], name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def run_verify(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str, str]:
    code = main(["verify", str(path), *more])
    out, err = capsys.readouterr()
    return code, out, err


async def test_a_finished_matchs_record_verifies(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exported record reveals the seed, lists every die and the result; verify checks
    each and exits 0, saying what it checked."""
    _, record = await played(store)
    assert record["version"] == RECORD_VERSION and set(record["dice"]) == {"key"}
    assert record["commitment"] == commitment_of(record["dice"]["key"])
    assert record["salts"] == SALTS
    parsed = MatchRecord.from_json(record)
    assert record["rolls"] == faces_rolled(parsed) and len(record["rolls"]) > 20
    assert record["result"] == replay(parsed).state.result.to_json()  # type: ignore[union-attr]

    code, out, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, ""), err
    assert record["commitment"] in out and "alice-salt" in out and "bob.salt_2" in out
    assert f"All {len(record['rolls'])} rolls" in out and "ends as recorded" in out
    code, out, _ = run_verify(
        write(tmp_path, record), capsys, "--commitment", record["commitment"].upper()
    )
    assert code == 0 and "the one you give" in out


async def test_a_changed_die_seed_salt_or_result_is_named(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: changing one die, the seed or a salt in an exported record makes verify fail
    (exit 1) with a message that says what changed."""
    _, record = await played(store)

    die = copy.deepcopy(record)
    position = 17
    was = die["rolls"][position]
    die["rolls"][position] = was % 6 + 1
    code, _, err = run_verify(write(tmp_path, die), capsys)
    assert code == 1
    assert (
        f"Roll {position + 1} is recorded as {was % 6 + 1}, but the seed and salts give {was}"
        in err
    )
    assert err.count("Roll ") == 1, "only the changed die is named"

    seed = copy.deepcopy(record)
    seed["dice"]["key"] = "cd" * 32
    code, _, err = run_verify(write(tmp_path, seed), capsys)
    assert code == 1
    assert "The revealed seed does not hash to the commitment posted at the start" in err
    assert "The salt of" not in err and "Roll " not in err, "only the seed is named"

    salt = copy.deepcopy(record)
    salt["salts"][1] = "bob.salt_3"
    code, _, err = run_verify(write(tmp_path, salt), capsys)
    assert code == 1
    assert "The salt of Bob (recorded as 'bob.salt_3') does not match its seal" in err
    assert "Alice" not in err and "seed does not hash" not in err and "Roll " not in err

    result = copy.deepcopy(record)
    result["result"]["winner"] = 1 - (result["result"]["winner"] or 0)
    code, _, err = run_verify(write(tmp_path, result), capsys)
    assert code == 1 and "The recorded result (" in err and "is not the replay's" in err

    dropped = copy.deepcopy(record)
    del dropped["result"]
    code, _, err = run_verify(write(tmp_path, dropped), capsys)
    assert code == 1 and "(no result: the match was called off) is not the replay's" in err

    posted = copy.deepcopy(record)
    code, _, err = run_verify(write(tmp_path, posted), capsys, "--commitment", "00" * 32)
    assert code == 1 and "is not the one you give" in err

    fewer = copy.deepcopy(record)
    fewer["rolls"].pop()
    code, _, err = run_verify(write(tmp_path, fewer), capsys)
    assert code == 1 and f"lists {len(fewer['rolls'])} rolls, but its commands roll" in err


async def test_records_verify_cannot_check_say_why(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record from before verifiable dice or with a fixed seed, or one exported before the
    end, does not verify (1) and says why; a file that is not a record is a usage error (2)."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await deployed(service)
    _, so_far = await service.export(CHANNEL, ALICE)
    code, _, err = run_verify(write(tmp_path, json.loads(so_far)), capsys)
    assert code == 1 and "match still in play" in err

    main(["demo", "--seed", "3", "--out", str(tmp_path / "demo")])
    capsys.readouterr()
    code, _, err = run_verify(tmp_path / "demo" / "match.json", capsys)
    assert code == 1 and "no commitment" in err

    (tmp_path / "broken.json").write_text("{ not json", encoding="utf-8")
    code, _, err = run_verify(tmp_path / "broken.json", capsys)
    assert code == 2 and "not valid JSON" in err
    code, _, err = run_verify(tmp_path / "missing.json", capsys)
    assert code == 2 and "no such file" in err


# --- what the players see ---------------------------------------------------------------------
async def test_the_commitment_is_posted_at_the_start_the_salts_at_join_the_seed_at_the_end(
    store: Store,
) -> None:
    """Fair play, verifiable dice: the opening message carries the commitment and the
    creator's salt; joining shows the second salt; the seed stays out of everything said and
    exported until the end, and the end says how to verify."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    opened = await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, salt="dragon-42")
    row = await store.active_match(CHANNEL)
    assert row is not None
    key = row.record["dice"]["key"]
    assert f"SHA-256 {commitment_of(key)}" in opened.text and "dragon-42" in opened.text
    assert key not in opened.text
    assert row.record["salts"] == ["dragon-42", None]

    joined = await service.join(CHANNEL, BOB)
    row = await store.active_match(CHANNEL)
    assert row is not None
    bob_salt = row.record["salts"][1]
    assert check_salt(bob_salt) == bob_salt, "the bot made Bob a salt"
    assert f"Bob's salt is {bob_salt}" in joined.text and "dragon-42" in joined.text

    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    _, so_far = await service.export(CHANNEL, ALICE)
    partial = json.loads(so_far)
    assert key not in so_far.decode() and "script" in partial["dice"]
    assert partial["commitment"] == commitment_of(key) and partial["salts"][0] == "dragon-42"
    assert "rolls" not in partial and "result" not in partial

    ended = await service.concede(CHANNEL, BOB)
    said = " ".join(message.text for message in ended.all())
    assert "skirmbot verify" in said and commitment_of(key) in said
    _, whole = await service.export(CHANNEL, EVE)
    assert json.loads(whole)["dice"] == {"key": key}


async def test_a_bad_salt_is_refused_and_changes_nothing(store: Store) -> None:
    service = MatchService(store)
    with pytest.raises(ServiceError, match="A salt is 1 to 32 characters"):
        await service.create(GUILD, CHANNEL, ALICE, salt="not a salt!")
    assert await store.active_match(CHANNEL) is None
    await service.create(GUILD, CHANNEL, ALICE)
    with pytest.raises(ServiceError, match="A salt is 1 to 32 characters"):
        await service.join(CHANNEL, BOB, salt="x" * 40)
    row = await store.active_match(CHANNEL)
    assert row is not None and row.players[1] is None and row.record["salts"][1] is None


async def test_the_automatic_player_gets_a_salt_from_the_bot(store: Store) -> None:
    service = MatchService(store)
    opened = await service.create(GUILD, CHANNEL, ALICE, practice=True)
    row = await store.active_match(CHANNEL)
    assert row is not None and None not in row.record["salts"]
    assert f"Automatic player's salt is {row.record['salts'][1]}" in opened.text


async def test_the_match_page_gives_the_verifiable_record_only_at_the_end(store: Store) -> None:
    """The web page's record: no seed while the match is played; the whole record, with
    its rolls and result, once it is over."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    pages = Pages(store, service)
    await pages.set_published(GUILD, True)
    await deployed(service)
    row = await store.active_match(CHANNEL)
    assert row is not None
    key = row.record["dice"]["key"]
    during = await pages.record_json(GUILD, row.id)
    assert during is not None and key not in during[1].decode()
    await service.concede(CHANNEL, ALICE)
    after = await pages.record_json(GUILD, row.id)
    assert after is not None
    record = MatchRecord.loads(after[1].decode())
    assert record.dice == {"key": key} and verify(record).ok, verify(record).problems


# --- old records ------------------------------------------------------------------------------
def test_old_records_and_seeded_matches_keep_their_dice_and_version() -> None:
    """Records without a commitment roll from their dice alone, as before, and are written
    as today's version (4: issue 28); a record with one is at least version 3."""
    content: dict[str, Any] = {}
    keyed = MatchRecord(content=content, dice={"key": KEY})
    assert keyed.to_json()["version"] == RECORD_VERSION == 4 and "commitment" not in keyed.to_json()
    assert [dice_of(keyed).roll() for _ in range(9)] == [KeyedDice(KEY).roll() for _ in range(9)]
    assert MatchRecord.from_json(keyed.to_json()).salts is None
    salted = MatchRecord(
        content=content, dice=new_dice(), commitment="00", salts=["a", "b"], seals=["x", "y"]
    )
    assert salted.to_json()["version"] == RECORD_VERSION
    assert replace(salted, version=2).to_json()["version"] == 3  # an old match given salts
    assert MatchRecord.from_json(salted.to_json()).salts == ["a", "b"]
    with pytest.raises(RulesError, match="verifiable dice need"):
        MatchRecord.from_json({**salted.to_json(), "salts": "ab"})


# --- the console ------------------------------------------------------------------------------
async def test_the_console_shows_the_commitment_then_the_seed_and_its_record_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skirmbot console` without --seed plays with verifiable dice: the commitment when the
    match is made, the seed when it is over, and the record it writes verifies."""
    from skirmbot.console import run_console

    lines = iter(["auto", "auto", "end Halden", "concede"])
    said: list[str] = []

    def ask(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    assert await run_console(False, tmp_path, ask=ask, say=said.append) == 0
    text = "\n".join(said)
    path = tmp_path / "skirm-match-1.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    key, commitment = record["dice"]["key"], record["commitment"]
    assert text.index(f"SHA-256 {commitment}") < text.index("Player 2's salt is")
    assert text.index(f"secret until now: {key}") > text.index("The match is over")
    assert text.count(key) == 1, "the seed shows only at the end"
    assert f"skirmbot verify {path}" in text
    code, out, err = run_verify(path, capsys)
    assert (code, err) == (0, "") and "verifies" in out


async def test_an_aborted_match_verifies_with_no_result(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match a moderator aborted mid-play has no result; its record still verifies: its
    seed, salts and every die rolled until then."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await deployed(service)
    await end_activations(service, until_turn=2)
    aborted = await service.abort(CHANNEL, MOD)
    _, data = await service.export(CHANNEL, EVE)
    record = json.loads(data)
    assert record["rolls"] and "result" not in record
    assert "skirmbot verify" in aborted.text and record["commitment"] in aborted.text
    code, out, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, "")
    assert "ends as recorded: no result: the match was called off" in out


async def test_a_skirm_lite_match_verifies_too(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The dice are the kernel's: a Skirm Lite match commits, salts and verifies the same way."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await deployed(service, ["lite-1", "lite-2"], ["ash-stalkers", "vigil-wardens"], rules="lite")
    await service.concede(CHANNEL, ALICE)
    _, data = await service.export(CHANNEL, EVE)
    record = json.loads(data)
    assert record["ruleset"] == "lite" and record["salts"] == ["lite-1", "lite-2"]
    code, out, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, "") and "Bob wins" in out
    record["rolls"][0] = record["rolls"][0] % 2 + 1
    code, _, err = run_verify(write(tmp_path, record), capsys)
    assert code == 1 and "Roll 1 is recorded as" in err


# --- review: each field a record can be edited in is named ------------------------------------
def problems(record: dict[str, Any]) -> list[str]:
    return verify(MatchRecord.from_json(record)).problems


async def test_each_edited_field_is_named(store: Store) -> None:
    """Rulings, Verifiable dice ("What verify says"): an edited commitment is named as the
    commitment (not as two changed salts), a changed name or seal as the salt or name, an extra
    roll or a changed command by the rolls the commands give, and nothing else is blamed."""
    _, record = await played(store)

    commitment = copy.deepcopy(record)
    commitment["commitment"] = "00" * 32
    found = problems(commitment)
    assert len(found) == 2, found
    assert "The record's commitment 0000" in found[0] and "the commitment was changed" in found[0]
    assert not any("The salt of" in line for line in found)

    seed = copy.deepcopy(record)
    seed["dice"]["key"] = "cd" * 32
    assert "the seed was changed" in problems(seed)[0]

    name = copy.deepcopy(record)
    name["players"][0] = "Mallory"
    [line, _] = problems(name)
    assert line.startswith("The salt of Mallory (recorded as 'alice-salt') does not match")
    assert "the player's name" in line

    seal = copy.deepcopy(record)
    seal["seals"][1] = "00" * 32
    [line, _] = problems(seal)
    assert line.startswith("The salt of Bob") and "(or the seal)" in line

    extra = copy.deepcopy(record)
    extra["rolls"].append(3)
    [line] = problems(extra)
    assert f"lists {len(extra['rolls'])} rolls, but its commands roll {len(record['rolls'])}" in line

    command = copy.deepcopy(record)
    command["commands"] = command["commands"][:-3]  # the last activations taken out
    found = problems(command)
    assert found and not any(line.startswith("Roll ") for line in found), found
    assert any("its commands roll" in line or "is not the replay's" in line for line in found)

    bad = copy.deepcopy(record)
    first = next(i for i, c in enumerate(bad["commands"]) if c["type"] == "end")
    bad["commands"][first]["unit"] = "Nobody"
    [line, *_] = problems(bad)
    assert line.startswith(f"With the dice the seed and salts give, command {first + 1} (end)")

    garbled = copy.deepcopy(record)
    garbled["commands"][first] = "end"
    [line, *_] = problems(garbled)
    assert line.startswith(f"With the dice the seed and salts give, command {first + 1} (not an")

    upper = copy.deepcopy(record)
    upper["commitment"] = upper["commitment"].upper()  # the same commitment, as typed elsewhere
    assert problems(upper) == []


async def test_a_record_sealed_without_the_names_still_verifies(store: Store) -> None:
    """The first version-3 records sealed their salts without the player's name: they verify."""
    _, record = await played(store)
    record["seals"] = [
        seal_of(record["commitment"], side, salt) for side, salt in enumerate(record["salts"])
    ]
    assert problems(record) == []


async def test_a_match_called_off_in_set_up_says_no_die_was_rolled(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match aborted before both squads were in rolled no die: verify says so plainly (1),
    not that the record was exported too early."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.abort(CHANNEL, MOD)
    _, data = await service.export(CHANNEL, EVE)
    code, out, err = run_verify(write(tmp_path, json.loads(data)), capsys)
    assert code == 1 and out == ""
    assert "called off in set-up" in err and "no die was rolled" in err
    assert "once it is over" not in err


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, '{"a":' * 5_000 + "1" + "}" * 5_000, "\ufeff{}", "[]", '"x"', "null"],
    ids=["deep-list", "deep-object", "bom-empty", "list", "string", "null"],
)
def test_verify_on_a_malformed_file_fails_in_one_line(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skirmbot verify` on JSON that is not a record (nested thousands deep too) exits 2 with
    one line, never a traceback."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_verify(path, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err


def test_verify_refuses_a_huge_file_without_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import skirmbot.cli

    monkeypatch.setattr(skirmbot.cli, "MAX_VERIFIED_BYTES", 1000)
    path = tmp_path / "huge.json"
    path.write_text("[" + "1," * 1000 + "1]", encoding="utf-8")
    code, out, err = run_verify(path, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "verify reads up to" in err


async def test_a_match_forfeited_by_its_clock_says_how_to_verify_and_verifies(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A forfeit by the timer ends the match like a concession: the end says how to verify
    and the record, seed revealed, verifies."""
    from skirmbot.service import timing
    from skirmbot.store import Deadline
    from skirmbot.timers.clock import HOUR, TimeControls
    from skirmbot.timers.scheduler import Scheduler

    now = [1_000_000.0]
    service = MatchService(store, clock=lambda: now[0])
    fired: list[Any] = []

    async def fire(match_id: int, deadline: Deadline) -> None:
        fired.append(await timing.on_deadline(service, match_id, deadline))

    scheduler = Scheduler(fire, clock=lambda: now[0])
    service.on_deadline = scheduler.arm
    await deployed(service, controls=TimeControls(activation_seconds=HOUR, excuses=0))
    now[0] += 2 * HOUR
    await scheduler.fire_due()
    said = " ".join(reply.text for done in fired if done for reply in done.all())
    assert "no excused misses left" in said and "skirmbot verify" in said
    _, data = await service.export(CHANNEL, EVE)
    record = json.loads(data)
    assert record["commands"][-1]["reason"] == timing.FORFEIT
    code, _, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, "")


async def test_an_agreed_draw_verifies(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await deployed(service)
    await end_activations(service, until_turn=2)
    await service.offer_draw(CHANNEL, ALICE)
    ended = await service.accept_draw(CHANNEL, BOB)
    assert ended.match_over and "skirmbot verify" in " ".join(r.text for r in ended.all())
    _, data = await service.export(CHANNEL, EVE)
    code, out, err = run_verify(write(tmp_path, json.loads(data)), capsys)
    assert (code, err) == (0, "") and "a draw" in out


async def test_a_league_game_with_salts_the_bot_made_verifies(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rulings, Verifiable dice: a league opens and joins its games itself, so the bot makes
    both salts; the game's record verifies all the same."""
    from skirmbot.service.leagues import LeagueService

    service = MatchService(store, clock=lambda: 1_800_000_000.0)
    leagues = LeagueService(store, service, clock=lambda: 1_800_000_000.0)
    organiser, players = MOD, [ALICE, BOB]
    await leagues.create(GUILD, CHANNEL, organiser, "Spring", "skirm", rounds=1, seed=3)
    for member, squad in zip(players, ("iron-wardens", "ash-runners"), strict=True):
        await leagues.sign_up(GUILD, "Spring", member, squad)
    channels = iter(range(7000, 7010))

    async def open_channel(title: str) -> int:
        return next(channels)

    await leagues.start_round(GUILD, "Spring", organiser, open_channel)
    row = await store.active_match(7000)
    assert row is not None and None not in row.record["salts"]
    seat = BOB if row.players[1] == BOB.id else ALICE
    await service.concede(7000, seat)
    _, data = await service.export(7000, EVE)
    code, out, err = run_verify(write(tmp_path, json.loads(data)), capsys)
    assert (code, err) == (0, ""), err


# --- the property -------------------------------------------------------------------------------
SALT_TEXT = st.text(alphabet=sorted(SALT_CHARACTERS), min_size=1, max_size=SALT_LENGTH)


def finished(key: str, salts: list[str], steps: int) -> dict[str, Any]:
    """A Skirm match with salted dice, `steps` automatic commands then a concession; its
    record as exported at the end (through `record_of`, which keeps the salts)."""
    from skirmbot.demo import default_content
    from skirmbot.rules.commands import Concede
    from skirmbot.rules.record import record_of, revealed, start_match
    from skirmbot.rules.ruleset import ruleset

    data = default_content()
    opening = MatchRecord(content=data, dice={"key": key}, players=["Ann", "Ben"])
    commit_dice(opening, salts)
    match, played_rules = start_match(opening), ruleset("skirm")
    for _ in range(steps):
        side = match.state.waiting_for()
        assert side is not None
        match.apply(played_rules.automatic_command(match.state, side))
    side = match.state.waiting_for()
    match.apply(Concede(0 if side is None else side))
    record = record_of(match, data, ["Ann", "Ben"])
    assert record.commitment == opening.commitment and record.salts == salts
    return revealed(record).to_json()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.binary(min_size=32, max_size=32).map(bytes.hex),
    salts=st.lists(SALT_TEXT, min_size=2, max_size=2),
    steps=st.integers(min_value=8, max_value=40),
    pick=st.data(),
)
def test_changing_any_one_roll_fails_verify_naming_that_roll(
    key: str, salts: list[str], steps: int, pick: st.DataObject
) -> None:
    """Property (issue 21): for any seed and salts the untouched record verifies, and one roll
    changed to any other face fails it, naming that roll and no other."""
    record = finished(key, salts, steps)
    assert problems(record) == []
    assume(record["rolls"])
    index = pick.draw(st.integers(min_value=0, max_value=len(record["rolls"]) - 1))
    was = record["rolls"][index]
    face = pick.draw(st.integers(min_value=1, max_value=6).filter(lambda f: f != was))
    record["rolls"][index] = face
    assert problems(record) == [
        f"Roll {index + 1} is recorded as {face}, but the seed and salts give {was}."
    ]
