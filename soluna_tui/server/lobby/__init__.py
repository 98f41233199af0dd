"""Runs in the server process: the lobby, the server's authority on matches (codes, seats, moves,
spectators, held seats, clocks, forfeits) and on players (names, ratings, records).

Every terminal (a ``Guest``: a session's child, through its link) asks; the lobby checks the
request against the rules package and the store, and tells everyone at the match: a move as a
small ``moved`` update, anything else as the whole match. Every update carries the match's
``version`` (the store's), so a terminal that misses one sees the gap and asks for the whole state.

The store is the authority, so several servers share one lobby: each keeps in memory only its own
guests and a cache of the matches, writes every change with the version it read (a change that lost
the race is decided again on the new state) and learns of the others' changes from the store's
notifications. Codes and secrets never reach the log; secrets reach the store only hashed.

==================  ===================================================================================
Module              Its one job
==================  ===================================================================================
dispatch.py         ``Lobby``: guests arrive, ask and depart; each request, in order, to its part
decisions.py        the match policy: what each request or event does to a match, pure (``Referee``)
decision_values.py  what a decision reads and returns: the match as read, the moment, the change, a refusal
news.py             what a change tells each one at the match (``News``), as the store keeps it
writes.py           decide on the match as read, write at that version, retry when another server won
tables.py           the matches as this server last read them, and its guests told of each change
two_player.py       create, join, watch, leave, come back; moves, rounds, resignations, rematches and takebacks
takebacks.py        takebacks, pure: asked by the last mover, answered by the opponent, lapsed by a move, limited
guesses.py          secrets tried: limited per address, and per seat and match from each address and key
presence.py         the servers alive (their heartbeats, carrying who is online), departures not yet written
pending.py          moves the store could not take yet: kept, told, written once it can
upkeep.py           the sweep and timers: silent servers' seats held, clocks and held seats come due
listing.py          the matches in play a guest in the lobby sees
online.py           who is online, pure: each session's line, people merged, who watches, what changed
roster.py           who is online on every server, kept current: the lobby told changes, players who watches
talk.py             table talk's rules, pure: the owner's flags, who hears which room, the limits, lines between servers
chat.py             table talk, live: a line said, passed to every server through the store, heard and told to its room
mutes.py            whom each listener muted: by key, or a guest's address; kept with a key, or a while by address
names.py            the names players are shown by, and a keyed player's chosen name
choices.py          the lobby's settings a keyed player left, set again on their next visit
pairing.py          quick matches and challenges: their requests, and the store's news of them read again
pairs.py            who meets whom, pure: a quick match's partner, whether a challenge may be sent or accepted
meeting.py          what both share: who a guest is to pairing, the limits, a pair's create-then-join
seeks.py            quick matches: paired at once under the store's lock, or waiting until paired or cancelled
challenges.py       challenges: sent, told at once (or once back in the lobby), accepted, declined, withdrawn
records.py          the leaderboard, a player's record, a finished match to replay
cards.py            player cards, asked by the number the list gives, from the store; who sits at each seat
tells.py            tells: a private line to one person online, on any server, limited, muted and reported
results.py          a finished match told later: its ratings, and to a player who was away when it ended
computer.py         matches against the computer, kept in the store and held for players gone
visitors.py         who is at this server's lobby, and the guest asking (its answers carry its number)
sign_ins.py         browsers signed in as a keyed player: a code for the web door, the key's browsers, one signed out
tournament_desk.py  tournaments: the list, a page, join, withdraw; each tended: started, seated, results, missed
tournament_view.py  what the lobby tells of tournaments, pure: a line, a page, a pairing's words, a match's score
==================  ===================================================================================
"""

from __future__ import annotations

from .dispatch import Lobby
from .names import player_name
from .tables import CODE_PATTERN
from .visitors import Guest

__all__ = ["CODE_PATTERN", "Guest", "Lobby", "player_name"]
