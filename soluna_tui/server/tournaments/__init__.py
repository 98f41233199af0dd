"""Runs in the server process: tournaments, Swiss and arena, run against the store by any server of a fleet.

What a tournament is and what the store keeps of it are value types (``records.py``); who meets whom and who
stands where are pure functions (``swiss.py``, ``arena.py``, ``standings.py``), tested without a store; the
engine (``engine.py``) reads a tournament from the store, decides, and writes under the store's lock
(``store.tournaments``), so any server may advance any tournament and a restart resumes where it stood. The rules
of both kinds are in docs/serving.md ("Tournaments"). This package imports nothing at its top: the store reads its
value types, and ``soluna`` does not pay for it (nor for ``networkx``, imported by the pairing alone) at start-up.

============  ================  ==================================================================================
Module        Runs in           Its one job
============  ================  ==================================================================================
records.py    server process    the value types: a tournament, its plan, entrants, pairings, outcomes, a snapshot
swiss.py      server process    a Swiss round's pairs, pure: score groups, no rematch, byes rotated, openings
arena.py      server process    an arena's pairs among the free players, pure, and its points with streaks
standings.py  server process    who stands where, pure: points, Buchholz, Sonneborn-Berger; an arena's points
engine.py     server process    ``TournamentEngine``: announce, join, withdraw, pause, advance, results
============  ================  ==================================================================================
"""
