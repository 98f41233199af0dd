"""Issue 29: a seat's secret could be swept from many addresses (10 guesses a minute per address and nothing else),
its player never told, each wrong guess costing the server about 33 ms of scrypt. Now guesses are limited per seat,
per match and per address in the store, the seated player and the log are told, and a wrong guess hashes nothing
slow. Lobbies on SQLite and PostgreSQL with fake guests, and a real server with SSH clients from four loopback
addresses.

Issue 39: a seat's limit counted every address together, so a stranger who knew a guest's name spent the seat's
three tries and the real player, back from a new address with the right secret, waited 20 s. Now the tries at a
seat, a match and a held game are counted per address (and key): a stranger locks out only themselves.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from dataclasses import replace

import pytest

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import SavedMatch
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.storage.secrets import OLD_SCHEME, SEAT_GUESSES, is_current

from .helpers import SshTerminal, running_server
from .test_lobby import FakeGuest, pair, wait_for
from .test_two_players import create_match, join_match, secret_shown

NOT_YOURS = "That is not the secret of your seat"
#: The fourth guess waits what is left of the 15 s after the third.
TOO_MANY = re.compile(r"Too many wrong secrets tried for that seat: try again in (1[0-5]|[1-9]) seconds?\.")
TOLD = "Someone tried a wrong secret for your seat"


def guess(code: str, secret: str) -> dict:
    return {"type": "join", "code": code, "hints": False, "secret": secret}


def told(guest: FakeGuest) -> list[str]:
    return [message["notice"] for message in guest.inbox if TOLD in (message.get("notice") or "")]


async def test_a_seat_guessed_from_four_addresses_stops_each_at_its_limit_and_its_player_is_told(
        make_lobby, backend, caplog) -> None:
    # Two servers sharing the store, one count (PostgreSQL; a SQLite file serves one server: its news is heard
    # in its own lobby only, so a second lobby on it may tell the seated player late or never).
    first = await make_lobby()
    second = await make_lobby() if backend == "postgresql" else first
    ann, bob = FakeGuest("ann"), FakeGuest("bob", address="10.0.0.2")
    code = await pair(first, ann, bob)
    answers = []
    with caplog.at_level(logging.INFO, logger="soluna.server"):
        for number in range(2 * (SEAT_GUESSES.free + 1)):  # four tries from each of two addresses
            lobby = (first, second)[number % 2]
            mallory = FakeGuest("bob", address=f"10.9.9.{number % 2 + 1}")  # bob's name: bob's seat's prompt
            await lobby.arrive(mallory)
            await lobby.handle(mallory, guess(code, "WRONGX"))
            answers.append(mallory.last("error")["text"])
    print(f"\nfour wrong secrets for bob's seat from each of two addresses on two servers: {answers}")
    assert [answer.startswith(NOT_YOURS) for answer in answers] == [True] * 2 * SEAT_GUESSES.free + [False] * 2
    assert all(TOO_MANY.fullmatch(answer) for answer in answers[-2:])
    await wait_for(lambda: len(told(bob)) == 2 * SEAT_GUESSES.free)
    assert told(bob)[-1] == f"{TOLD} (6 so far): keep yours to yourself." and told(ann) == []
    warnings = [record.getMessage() for record in caplog.records if "a wrong secret" in record.getMessage()]
    assert len(warnings) == 2 * SEAT_GUESSES.free
    assert all("seat 2 of match (ann vs bob" in line for line in warnings)
    assert all(code not in line and "WRONGX" not in line for line in warnings)  # never a code or a secret
    back = FakeGuest("bob", address="10.0.0.3")  # bob himself, from a new address: not locked out either
    await first.arrive(back)
    await first.handle(back, guess(code, bob.last("match")["secret"]))
    assert back.last("match")["notice"].startswith("Welcome back")


async def test_a_guesser_trying_both_seats_is_held_at_its_address_and_nowhere_else(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob", address="10.0.0.2")
    code = await pair(lobby, ann, bob)
    answers = []
    for _ in range(5):  # a name of neither seat: each guess is tried at both
        mallory = FakeGuest("mallory", address="10.9.9.1")
        await lobby.arrive(mallory)
        await lobby.handle(mallory, guess(code, "WRONGX"))
        answers.append(mallory.last("error")["text"])
    assert [answer.startswith(NOT_YOURS) for answer in answers] == [True] * 3 + [False] * 2
    await wait_for(lambda: len(told(ann)) == len(told(bob)) == 3)
    elsewhere = FakeGuest("mallory", address="10.9.9.2")  # another address's tries are its own
    await lobby.arrive(elsewhere)
    await lobby.handle(elsewhere, guess(code, "WRONGX"))
    assert elsewhere.last("error")["text"].startswith(NOT_YOURS)


async def test_a_wrong_guess_costs_no_scrypt_and_an_old_hash_is_read_once_then_made_again(
        make_lobby, monkeypatch) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob", address="10.0.0.2")
    code = await pair(lobby, ann, bob)
    secret = bob.last("match")["secret"]
    salt = bytes(16)
    old = hashlib.scrypt(secret.encode(), salt=salt, n=2**14, r=8, p=1, maxmem=64 * 1024 * 1024, dklen=32)
    old_hash = f"{OLD_SCHEME}${salt.hex()}${old.hex()}"
    stored = await lobby.store.matches.get(code)
    seats = (stored.seats[0], replace(stored.seats[1], secret_hash=old_hash))
    await lobby.store.matches.update(code, stored.version, stored.document, seats)  # as an older version kept it
    await lobby.cache.reload(code)
    await lobby.depart(bob)
    scrypt_calls = []
    real_scrypt = hashlib.scrypt

    def counted_scrypt(*args, **kwargs) -> bytes:
        scrypt_calls.append(1)
        return real_scrypt(*args, **kwargs)

    monkeypatch.setattr(hashlib, "scrypt", counted_scrypt)

    async def wrong_guesses(name: str, count: int, address: int) -> list[str]:
        answers = []
        for _ in range(count):
            mallory = FakeGuest(name, address=f"10.9.9.{address}")
            await lobby.arrive(mallory)
            await lobby.handle(mallory, guess(code, "WRONGX"))
            answers.append(mallory.last("error")["text"])
        return answers

    started = time.perf_counter()
    answers = await wrong_guesses("ann", SEAT_GUESSES.free + 2, 1)  # at ann's seat, kept by this version
    took = (time.perf_counter() - started) / len(answers)
    print(f"\n{len(answers)} wrong guesses at a seat: {1000 * took:.1f} ms each (the store's writes included), "
          f"{len(scrypt_calls)} scrypt hashes")
    assert scrypt_calls == [] and sum(TOO_MANY.fullmatch(answer) is not None for answer in answers) == 2
    answers = await wrong_guesses("bob", SEAT_GUESSES.free + 1, 20)  # at bob's seat, kept the old way
    assert len(scrypt_calls) == SEAT_GUESSES.free and TOO_MANY.fullmatch(answers[-1])  # refused before hashing
    back = FakeGuest("bob", address="10.0.0.2")  # bob, from where he sat down, with the secret kept the old way
    await lobby.arrive(back)
    await lobby.handle(back, guess(code, secret.lower()))
    assert back.last("match")["notice"].startswith("Welcome back") and len(scrypt_calls) == SEAT_GUESSES.free + 1
    kept = (await lobby.store.matches.get(code)).seats[1].secret_hash
    assert is_current(kept) and secret not in kept  # made again, the current way
    await lobby.depart(back)
    again = FakeGuest("bob", address="10.0.0.2")
    await lobby.arrive(again)
    await lobby.handle(again, guess(code, secret))
    assert again.last("match")["notice"].startswith("Welcome back") and len(scrypt_calls) == SEAT_GUESSES.free + 1


async def test_a_held_game_against_the_computer_is_limited_per_game_too(make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann")
    await lobby.arrive(ann)
    setup = MatchSetup(names=("ann", "Computer"), computer_level="greedy")
    saved = SavedMatch(setup, Match(MatchOptions(), setup.names))
    await lobby.handle(ann, {"type": "computer_saved", "save": saved.to_document()})
    assert ann.inbox[-1]["type"] != "error"
    await lobby.depart(ann)
    answers = []
    for _ in range(SEAT_GUESSES.free + 1):
        mallory = FakeGuest("ann", address="10.9.9.1")
        await lobby.arrive(mallory)
        await lobby.handle(mallory, {"type": "computer_resume", "secret": "WRONGX"})
        answers.append(mallory.last("error")["text"])
    assert answers[:-1] == ["That is not the secret of that match."] * SEAT_GUESSES.free
    assert answers[-1].startswith("Too many wrong secrets tried for that match: try again in")
    elsewhere = FakeGuest("ann", address="10.9.9.2")  # from another address: tried as if for the first time
    await lobby.arrive(elsewhere)
    await lobby.handle(elsewhere, {"type": "computer_resume", "secret": "WRONGX"})
    assert elsewhere.last("error")["text"] == "That is not the secret of that match."


# ---- over SSH, from four addresses ---------------------------------------------------------------------


@pytest.mark.slow
async def test_four_addresses_guessing_a_seat_over_ssh_are_each_refused_and_the_player_sees_it(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        guessers: list[SshTerminal] = []
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await bob.wait_for_text("Waiting for ann.", "secret ")
            secret = secret_shown(bob)
            lines = []
            for number in range(4):
                mallory = await SshTerminal.open(server.port, username="bob", local_addr=(f"127.0.0.{number + 2}", 0))
                guessers.append(mallory)
                await join_match(mallory, code)  # bob's name: the prompt for bob's seat
                await mallory.wait_for_text("type the secret")
                await mallory.press("zzzzzz" if secret != "ZZZZZZ" else "yyyyyy", "enter")
                text = await mallory.wait_for(lambda text: "not the secret" in text or "Too many" in text)
                lines.append("refused: too many" if "Too many" in text else "wrong")
            said = f"{TOLD} (4 so far): keep yours to yourself."
            await bob.wait_for(lambda text: said in " ".join(text.split()))  # the status lines, wrapped
            print(f"\nfour addresses, one guess each at bob's seat: {lines}; bob's screen says {said!r}")
            assert lines == ["wrong"] * 4  # each address's tries are its own
            assert "wrong secret" not in ann.text
        finally:
            for terminal in (ann, bob, *guessers):
                await terminal.close()
