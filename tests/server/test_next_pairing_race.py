"""A player seated at their next match (a tournament's pairing) as they leave the one just over: whichever order the
news comes in, the match named on the wire decides. Leaving the old match never takes them from the new one, on
their screen (the child's app in a pilot, the test playing the server) or at the server (a lobby, its guests
fake)."""

from __future__ import annotations

import socket

from soluna_tui.link.messages import REPLIES
from soluna_tui.link.protocol import Link
from soluna_tui.link.wire import from_wire
from soluna_tui.online.child_app import ChildApp
from soluna_tui.online.remote_table import RemoteTable
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.match_over import MatchOverScreen

from .test_child_app import FakeServer, match_message, settle
from .test_lobby import FakeGuest

OPTIONS = MatchOptions(stars_to_win=1, discs=4)


async def at_a_match_just_over(pilot, app: ChildApp, server: FakeServer) -> None:
    """ann (seat 0) at match OLDM, which bob has just resigned: its Match over dialog on her screen."""
    app.following = "OLDM"
    match = Match(OPTIONS, ("ann", "bob"), seed=5)
    server.send(match_message(match, 0, code="OLDM", version=1))
    await settle(pilot)
    match.forfeit(1)
    server.send({**match_message(match, 0, code="OLDM", version=2), "ended": "resigned"})
    await settle(pilot)
    assert isinstance(app.screen, MatchOverScreen)


def hear(app: ChildApp, wire: dict) -> None:
    """The server's message, handled as the app handles what it reads (at once: no refresh in between)."""
    message = from_wire(wire, REPLIES)
    app._handlers[type(message)](message)


def next_match(code: str = "NEWM") -> dict:
    return match_message(Match(OPTIONS, ("ann", "cyd"), seed=6), 0, code=code, version=2)


def shows_the_new_match(app: ChildApp) -> bool:
    game = app.screen
    return (isinstance(game, GameScreen) and isinstance(game.table, RemoteTable) and game.table.code == "NEWM"
            and app.following == "NEWM" and not game.match.is_over)


async def test_the_old_match_left_after_the_next_one_came_leaves_nothing() -> None:
    """ann leaves the match over (n) and, before her screen goes back to the lobby, the server's Paired and her next
    match come: she stays at the next match, and the server is told nothing is left."""
    ours, theirs = socket.socketpair()
    app = ChildApp(name="ann", link=theirs, computer_pause=0, reveal_pause=0)
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await at_a_match_just_over(pilot, app, server)
        app.action_new_match()  # the dialog's "New match", or n: back to the lobby once the screen refreshes
        hear(app, {"type": "paired", "code": "NEWM", "opponent": "cyd"})
        hear(app, next_match())
        await settle(pilot)
        assert shows_the_new_match(app)
        assert not any(isinstance(screen, MatchOverScreen) for screen in app.screen_stack)


async def test_the_old_match_left_between_paired_and_the_next_match_still_follows_the_next() -> None:
    """The same, the next match's state coming after her screen went back to the lobby: the old match (named) is
    left, and the next one, followed since Paired, comes on screen."""
    ours, theirs = socket.socketpair()
    app = ChildApp(name="ann", link=theirs, computer_pause=0, reveal_pause=0)
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await at_a_match_just_over(pilot, app, server)
        app.action_new_match()
        hear(app, {"type": "paired", "code": "NEWM", "opponent": "cyd"})
        left = await server.expect("leave")
        assert left["code"] == "OLDM"
        await settle(pilot)
        assert app.following == "NEWM"
        server.send(next_match())
        await settle(pilot)
        assert shows_the_new_match(app)


async def test_leaving_a_match_no_longer_sat_at_leaves_nothing_at_the_server(make_lobby) -> None:
    """A terminal's leave naming its old match, heard once the server seated it at the next: it stays seated there,
    shown the match it is at; its leave naming the match it is at leaves it."""
    lobby = await make_lobby()
    ann, cyd = FakeGuest("ann", "10.0.0.2"), FakeGuest("cyd", "10.0.0.4")
    for guest in (ann, cyd):
        await lobby.arrive(guest)
    await lobby.handle(ann, {"type": "create", "options": OPTIONS.to_dict(), "hints": False})
    old = ann.last("waiting")["code"]
    await lobby.handle(ann, {"type": "leave", "code": old})
    assert lobby.visitors[ann].code is None
    await lobby.handle(ann, {"type": "create", "options": OPTIONS.to_dict(), "hints": False})
    new = ann.last("waiting")["code"]
    await lobby.handle(cyd, {"type": "join", "code": new, "hints": False})
    assert lobby.tables[new].in_play
    told = len(ann.inbox)
    await lobby.handle(ann, {"type": "leave", "code": old})  # late: sent as the old match's screen went
    assert lobby.visitors[ann].code == new and ann in lobby.tables[new].seated.values()
    assert [message["code"] for message in ann.inbox[told:] if message["type"] == "match"] == [new]
    await lobby.handle(ann, {"type": "leave", "code": new})
    assert lobby.visitors[ann].code is None and ann not in lobby.tables[new].seated.values()

