"""Issue 29 in the store: a secret kept as a salted HMAC (an old scrypt hash still read), and the secrets tried,
counted per scope where every server of a fleet counts them. Both databases."""

from __future__ import annotations

import asyncio
import hashlib

from soluna_tui.server.storage.secrets import (
    OLD_SCHEME,
    SEAT_GUESSES,
    GuessLimit,
    hash_secret,
    is_current,
    secret_matches,
)

from ..server.helpers import Clock

SEAT, MATCH, ADDRESS = "seat:ABCD:1000.0:1", "match:ABCD:1000.0", "address:10.9.9.1"


# ---- secrets: the hash, and the limit's waits ---------------------------------------------------------


def test_a_secret_is_kept_as_a_salted_hmac_and_an_old_scrypt_hash_still_reads() -> None:
    kept = hash_secret("kqx-pmr")
    assert kept.startswith("hmac-sha256$") and is_current(kept) and "KQXPMR" not in kept
    assert kept != hash_secret("KQXPMR")  # a fresh salt each time
    assert secret_matches("K Q X P M R", kept) and not secret_matches("KQXPMS", kept)
    salt = bytes(range(16))
    old = hashlib.scrypt(b"KQXPMR", salt=salt, n=2**14, r=8, p=1, maxmem=64 * 1024 * 1024, dklen=32)
    old_hash = f"{OLD_SCHEME}${salt.hex()}${old.hex()}"
    assert secret_matches("kqxpmr", old_hash) and not is_current(old_hash)
    assert not secret_matches("KQXPMR", "md5$00$00") and not secret_matches("KQXPMR", None)


def test_a_limit_allows_a_few_tries_then_waits_twice_as_long_each_time() -> None:
    limit = GuessLimit(free=3, delay=15.0, longest=60.0, forget=3600.0)
    assert [limit.wait(tries, 1000.0, 1000.0) for tries in range(6)] == [0, 0, 0, 15.0, 30.0, 60.0]
    assert limit.wait(9, 1000.0, 1000.0) == 60.0  # never longer than the longest
    assert limit.wait(4, 1000.0, 1020.0) == 10.0  # waited 20 s of 30
    assert limit.wait(9, 1000.0, 4600.0) == 0 and limit.tries_now(9, 1000.0, 4600.0) == 0  # forgotten


# ---- secrets tried, in the store ------------------------------------------------------------------------


async def test_tries_are_counted_per_scope_on_every_server_and_a_right_one_counts_for_nothing(open_store) -> None:
    first, second = await open_store(), await open_store()  # two servers on one database
    clock = Clock()
    first.clock = second.clock = clock
    limits = {SEAT: SEAT_GUESSES, ADDRESS: GuessLimit(free=10, delay=1.0, longest=1.0, forget=60.0)}
    for store in (first, second, first):
        assert (await store.secret_tries.take(limits)).wait == 0
    refused = await second.secret_tries.take(limits)
    assert (refused.wait, refused.scope) == (15.0, SEAT)
    clock.now += 15
    allowed = await first.secret_tries.take(limits)
    assert allowed.wait == 0 and allowed.tries == {SEAT: 4, ADDRESS: 4}  # the refused try counted nothing
    assert (await second.secret_tries.take(limits)).wait == 30.0
    await second.secret_tries.give_back([SEAT])  # that one was right
    assert (await first.secret_tries.take({SEAT: SEAT_GUESSES})).wait == 15.0
    clock.now += SEAT_GUESSES.forget
    assert (await first.secret_tries.take({SEAT: SEAT_GUESSES})).tries == {SEAT: 1}  # quiet for an hour: forgotten


async def test_tries_made_at_once_on_two_servers_are_counted_one_by_one(open_store) -> None:
    first, second = await open_store(), await open_store()
    limits = {SEAT: SEAT_GUESSES, MATCH: SEAT_GUESSES}
    tried = await asyncio.gather(*(store.secret_tries.take(limits) for store in (first, second) * 6))
    assert sum(1 for each in tried if each.wait == 0) == SEAT_GUESSES.free
