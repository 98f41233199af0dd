"""Browsers signed in as keyed players, as the store keeps them (both databases): a code used once, spent by wrong
tries, run out; a sign-in found by its cookie's hash only, seen, revoked by its own key only; and codes tried in all
held to a limit however many addresses try them."""

from __future__ import annotations

import pytest

from soluna_tui.server.gate import TokenBucket
from soluna_tui.server.storage.secrets import secret_matches
from soluna_tui.server.storage.sign_ins import (
    ALL_TRIES,
    CODE_LIFE,
    SIGN_IN_LIFE,
    WRONG_PER_CODE,
    clean_code,
    code_id,
    new_code,
    shown_code,
    token_hash,
)
from soluna_tui.server.web import sign_in
from soluna_tui.server.web.sign_in import SignedIn, SignInDesk, agent_words

ANN, BOB = "SHA256:ann", "SHA256:bob"


def test_a_code_is_ten_letters_shown_in_two_groups_and_read_however_typed() -> None:
    code = new_code()
    assert len(code) == 10 and code.isalpha() and not set(code) & set("IO")
    shown = shown_code(code)
    assert shown == f"{code[:4]}-{code[4:]}" and clean_code(f" {shown.lower()} ") == code
    assert code_id(code) == code[:4] and code_id("ABCD-EFG") is None


async def test_a_code_signs_in_once_kept_hashed_and_the_keys_last_code_is_the_only_one(store) -> None:
    old, code = new_code(), new_code()
    assert await store.browsers.add_code(old, ANN, "ann")
    assert await store.browsers.add_code(code, ANN, "ann")  # the key's last one no longer works
    async with store.transaction(write=False) as tx:
        rows = await tx.fetch("SELECT code_id, code_hash FROM browser_codes")
    assert len(rows) == 1 and code not in repr(rows) and secret_matches(code, rows[0][1])
    assert (await store.browsers.holder(code.lower())).fingerprint == ANN
    assert await store.browsers.redeem(old, token_hash("t0"), "10.0.0.1", "Firefox") is None
    signed_in = await store.browsers.redeem(code, token_hash("t1"), "10.0.0.1", "Firefox on Linux")
    assert (signed_in.fingerprint, signed_in.name, signed_in.address) == (ANN, "ann", "10.0.0.1")
    assert await store.browsers.redeem(code, token_hash("t2"), "10.0.0.2", "Chrome") is None  # once
    assert await store.browsers.signed_in(token_hash("t1")) == signed_in
    assert await store.browsers.signed_in(token_hash("t2")) is None and await store.browsers.signed_in("t1") is None


async def test_wrong_tries_spend_a_code_and_a_code_runs_out(store) -> None:
    code, other = new_code(), new_code()
    await store.browsers.add_code(code, ANN, "ann")
    await store.browsers.add_code(other, BOB, "bob")
    wrong = code[:4] + ("A" * 6 if code[4:] != "A" * 6 else "B" * 6)
    for _ in range(WRONG_PER_CODE):
        assert await store.browsers.redeem(wrong, token_hash("w"), "10.0.0.9", "x") is None
    assert await store.browsers.holder(code) is None
    assert await store.browsers.redeem(code, token_hash("t"), "10.0.0.1", "x") is None  # spent
    clock = store.clock
    store.clock = lambda: clock() + CODE_LIFE + 1
    assert await store.browsers.redeem(other, token_hash("t"), "10.0.0.1", "x") is None  # run out


async def test_a_sign_in_is_seen_lives_on_and_is_revoked_by_its_own_key_only(store) -> None:
    store.clock = lambda: 1000.0
    code = new_code()
    await store.browsers.add_code(code, ANN, "ann")
    signed_in = await store.browsers.redeem(code, token_hash("t"), "10.0.0.1", "Firefox")
    store.clock = lambda: 5000.0
    assert await store.browsers.seen([signed_in.id, 999], "10.0.0.5") == {signed_in.id}
    (listed,) = await store.browsers.of_key(ANN)
    assert (listed.last_seen, listed.expires_at, listed.address) == (5000.0, 5000.0 + SIGN_IN_LIFE, "10.0.0.5")
    assert not await store.browsers.revoke(signed_in.id, BOB)  # not bob's to sign out
    with store.subscribe() as changes:
        assert await store.browsers.revoke(signed_in.id, ANN)
        assert (await anext(changes)).code == "*browsers"  # every server is told
    assert await store.browsers.signed_in(token_hash("t")) is None and await store.browsers.of_key(ANN) == []
    store.clock = lambda: 5000.0 + SIGN_IN_LIFE + 1
    assert await store.browsers.seen([signed_in.id]) == set()


async def test_codes_tried_from_many_addresses_are_held_to_a_limit_in_all(store, monkeypatch) -> None:
    monkeypatch.setattr(sign_in, "WRONG_DELAY", 0.0)
    desk = SignInDesk(store, secure=False)
    desk._server = TokenBucket(1000, 1000)  # this server's own limit aside: the store's, which every server counts
    answers = [await desk.redeem("ABCD-EFGHJK", f"10.1.{number // 250}.{number % 250}", "")
               for number in range(ALL_TRIES.free + 1)]
    assert all("not right" in answer for answer in answers[:-1] if isinstance(answer, str))
    assert answers[-1] == "Too many codes tried by everyone just now: try again in 1 second."
    code = new_code()
    await store.browsers.add_code(code, ANN, "ann")
    assert not isinstance(await desk.redeem(code, "10.2.0.1", ""), SignedIn)  # a right code waits its turn too


@pytest.mark.parametrize(("agent", "words"), [
    ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 "
     "Edg/130.0", "Edge on Windows"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1",
     "Safari on iPhone"),
    ("curl/8.5.0", "curl/8.5.0"), ("\x1b[31m", "[31m"), ("", "a browser")])
def test_a_browser_is_named_in_a_few_words(agent: str, words: str) -> None:
    assert agent_words(agent) == words
