"""Every storage test runs against both backends (the ``database`` fixture, in ``tests/conftest.py``):
SQLite in a temporary folder, and a real PostgreSQL."""

from __future__ import annotations

import random

import pytest

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.storage import SeatRecord, Storage, open_storage

from ..clean_up import within


@pytest.fixture
async def open_store(database: str):
    """Open a store on the test's database; several calls are several servers sharing it."""
    opened: list[Storage] = []

    async def opener() -> Storage:
        store = await open_storage(database)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await within(store.close(), "closing a store")


@pytest.fixture
async def store(open_store) -> Storage:
    return await open_store()


def seats(first: str | None = "SHA256:ann", second: str | None = "SHA256:bob",
          names: tuple[str, str] = ("ann", "bob")) -> tuple[SeatRecord, SeatRecord]:
    """Two seats, keyed by ``first`` and ``second`` (``None``: a guest without a key)."""
    return (SeatRecord(names[0], names[0], first, True, "hash-0"),
            SeatRecord(names[1], names[1], second, False, None))


def finished_match(winner: int = 0, seed: int = 1, discs: int = 6, stars: int = 1) -> Match:
    """A match played to its end with random legal moves, until ``winner`` has the stars."""
    options = MatchOptions.preset("online", stars_to_win=stars, discs=discs)
    rng = random.Random(seed)
    while True:
        match = Match(options, ("ann", "bob"), seed=rng.randrange(10**6))
        while not match.is_over:
            if match.between_rounds:
                match.start_next_round(match.next_opener())
            moves = match.position.legal_moves
            match.play(rng.choice(moves))
        if match.winner == winner:
            return match


def match_in_play(seed: int = 1) -> Match:
    match = Match(MatchOptions.preset("online", stars_to_win=2, discs=6), ("ann", "bob"), seed=seed)
    match.play(match.position.legal_moves[0])
    return match
