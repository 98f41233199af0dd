"""A whole two-player match over real SSH, with a spectator, every screen checked against the server.

Two players and a spectator (who played the computer first) on real asyncssh
clients with pseudo-terminals, read by pyte. The match goes to four stars
through every round change: the round reviews skipped in both orders (the
winner before or after the loser chose), both opener choices, a disconnect and
return without a key (the secret the tally showed) and one with a key. After
every move, every screen must show the server's towers and whose turn it is.
"""

from __future__ import annotations

import random
import re
import time

import asyncssh
import pytest

from soluna_tui.rules import Match

from .helpers import SshTerminal, keep_the_name, move_keys, running_server, towers_on_board, wait_until
from .test_two_players import secret_shown

DISCS = 6
#: The whole match must be over in this long (it takes some 60-90 s on a loaded 2-core machine).
MATCH_SECONDS = 240
def towers_shown(terminal: SshTerminal) -> list[str]:
    """The towers drawn on the board, as notation, sorted."""
    return sorted(towers_on_board(terminal.display))


def server_towers(match: Match) -> list[str]:
    return sorted(str(tower) for tower in match.position.towers)


class Table:
    """The three terminals at one match and the server's copy of it."""

    def __init__(self, server, code: str, players: list[SshTerminal], spectator: SshTerminal) -> None:
        self.server = server
        self.code = code
        self.players = players
        self.spectator = spectator

    @property
    def match(self) -> Match:
        return self.server.lobby.tables[self.code].match

    @property
    def terminals(self) -> list[SshTerminal]:
        return [*self.players, self.spectator]

    async def all_show_the_server(self) -> None:
        """Every screen: the server's towers, its round, and whose turn it is."""
        match = self.match
        towers, mover = server_towers(match), match.players[match.to_move]
        for seat, terminal in enumerate(self.terminals):
            turn = "Your move" if seat == match.to_move else f"Waiting for {mover}."

            def shows(text: str, terminal=terminal, turn=turn) -> bool:
                return (turn in text and f"Round {match.round_number} " in text and f"▶ {mover} " in text
                        and towers_shown(terminal) == towers)

            await terminal.wait_for(shows)

    async def play_a_move(self, rng: random.Random) -> None:
        match = self.match
        position, seat = match.position, match.to_move
        move = rng.choice(position.legal_moves)
        mover, target = move_keys(match, move)
        version = self.server.lobby.tables[self.code].version
        await self.players[seat].press(mover, "enter", target, "enter", pause=0.05)
        await wait_until(lambda: self.server.lobby.tables[self.code].version == version + 1,
                         what=f"the server taking {move}")

    async def change_rounds(self, loser_first: bool, opens: bool) -> None:
        """Every screen reviews the round; the reviews are skipped in the given order; the loser opens or not."""
        match = self.match
        number, loser = match.round_number, match.round.outcome.loser
        for terminal in self.terminals:
            await terminal.wait_for_text(f"Round {number} review")
        others = [self.players[1 - loser], self.spectator]
        if not loser_first:
            for terminal in others:
                await terminal.press("enter")
                await terminal.wait_for_text(f"Waiting for {match.players[loser]} to choose who opens")
        chooser = self.players[loser]
        await chooser.press("enter")
        await chooser.wait_for_text("You lost the round: do you open the next round, or move second?")
        await chooser.press(*(() if opens else ("down",)), "enter")
        await wait_until(lambda: self.match.round_number == number + 1, what=f"round {number + 1}")
        assert self.match.round.opener == (loser if opens else 1 - loser)
        if loser_first:
            for terminal in others:
                await terminal.press("enter")
        news = "chose to open round" if opens else "chose to move second"  # a toast: short enough not to wrap
        for terminal in others:
            await terminal.wait_for_text(news)
        await self.all_show_the_server()


async def into_lobby_settings(terminal: SshTerminal, hints_tabs: int, discs_tabs: int | None = None) -> None:
    """From the menu: fewer discs (when asked) and hints allowed, then back to the menu."""
    await terminal.wait_for_text("Welcome,")
    if discs_tabs is not None:
        await terminal.press(*["tab"] * discs_tabs, *["left"] * (12 - DISCS))
        await terminal.press(*["tab"] * (hints_tabs - discs_tabs), "right", "escape")
    else:
        await terminal.press(*["tab"] * hints_tabs, "right", "escape")


@pytest.mark.slow
async def test_two_players_and_a_spectator_through_a_whole_match(tmp_path) -> None:
    started = time.monotonic()
    rng = random.Random(11)
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann", columns=90, lines=28, client_keys=[ann_key])
        bob = await SshTerminal.open(server.port, username="bob", columns=90, lines=28)
        eve = await SshTerminal.open(server.port, username="eve", columns=90, lines=28)
        await keep_the_name(ann)
        terminals = [ann, bob, eve]
        try:
            # eve arrives to an empty list, plays the computer a little, and comes back to the lobby.
            await eve.wait_for_text("Matches in play", "None right now.")
            await eve.press("enter")
            await eve.wait_for_text("Your move", "eve ")
            await eve.press("enter", "right", "enter")
            await eve.wait_for_text(" 2. Computer")
            await eve.press("n")
            await eve.wait_for_text("Resume computer match", "None right now.")

            # ann creates a match with six discs and hints allowed; bob joins with hints allowed.
            await into_lobby_settings(ann, hints_tabs=6, discs_tabs=4)
            await ann.press("down", "enter")
            text = await ann.wait_for_text("Your match code:")
            code = re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", text).group(1).replace(" ", "")
            await into_lobby_settings(bob, hints_tabs=6)
            await bob.press("down", "down", "enter")
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")

            # eve sees the match appear in her list and watches it from there.
            await eve.wait_for_text("ann vs bob: round 1, stars 0-0")
            await eve.press("down", "down", "down", "down", "enter", "enter")
            await eve.wait_for_text("You are watching")
            table = Table(server, code, [ann, bob], eve)
            assert table.match.options.discs == DISCS and server.lobby.tables[code].hints
            await table.all_show_the_server()

            rounds = 0
            while not table.match.is_over:
                assert time.monotonic() - started < MATCH_SECONDS, "the match took too long"
                await table.play_a_move(rng)
                match = table.match
                if match.is_over:
                    break
                if match.round.is_over:
                    rounds += 1
                    await table.change_rounds(loser_first=rounds % 2 == 0, opens=rounds % 3 != 1)
                    continue
                await table.all_show_the_server()
                if match.round_number == 2 and match.round.ply == 1 and table.players[1] is bob:
                    bob = await disconnect_and_return_with_the_secret(table, server.port)
                    terminals.append(bob)
                if match.round_number == 3 and match.round.ply == 1 and table.players[0] is ann:
                    ann = await disconnect_and_return_with_the_key(table, server.port, ann_key)
                    terminals.append(ann)

            assert rounds >= 3 and max(table.match.stars) == 4
            assert len(terminals) == 5, "both players should have left and come back"
            winner = table.match.players[table.match.winner]
            for terminal in table.terminals:
                await terminal.wait_for_text(f"Round {table.match.round_number} review")
                await terminal.press("enter")
                await terminal.wait_for_text(f"{winner} wins the match", f"{winner} won the match.")
        finally:
            for terminal in terminals:
                await terminal.close()


async def disconnect_and_return_with_the_secret(table: Table, port: int) -> SshTerminal:
    """bob loses his connection; ann and eve are told and see him away; he returns with his secret."""
    bob = table.players[1]
    secret = secret_shown(bob)
    assert f"code {table.code}" in bob.text
    await bob.close()
    for terminal in (table.players[0], table.spectator):
        await terminal.wait_for_text("bob has left: the seat is", "away: 1:")
    back = await SshTerminal.open(port, username="bob", columns=90, lines=28)
    await back.wait_for_text("Your seat: ann vs bob, round 2", "Return to your match")
    await back.press("enter")
    await back.wait_for_text("type the secret")
    await back.press(secret.lower(), "enter")
    await back.wait_for_text("Welcome back.")
    for terminal in (table.players[0], table.spectator):
        await terminal.wait_for_text("bob is back.")
        await terminal.wait_for(lambda text: "away:" not in text)
    table.players[1] = back
    await table.all_show_the_server()
    return back


async def disconnect_and_return_with_the_key(table: Table, port: int, key) -> SshTerminal:
    """ann loses her connection and comes back with the same key: straight back at her table, no secret asked, no
    code typed."""
    ann = table.players[0]
    await ann.close()
    for terminal in (table.players[1], table.spectator):
        await terminal.wait_for_text("ann has left: the seat is", "away: 1:")
    back = await SshTerminal.open(port, username="ann", columns=90, lines=28, client_keys=[key])
    await back.wait_for_text("Welcome back.")
    assert "type the secret" not in back.text
    table.players[0] = back
    await table.all_show_the_server()
    return back
