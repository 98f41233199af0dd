"""The ends of matches over real SSH: what a spectator is offered, a forfeit said as what happened (and told to
the player who left when they come back), a rematch both asked for, the lobby's watchers, a keyed player's name.

Real asyncssh clients with pseudo-terminals read by pyte, a real server on 127.0.0.1.
"""

from __future__ import annotations

import asyncssh

from .helpers import SshTerminal, keep_the_name, play_a_move, running_server, terminals, wait_until
from .test_lobby_e2e import JOIN_KEYS, create
from .test_two_players import create_match, join_match


async def online_two_star_settings(terminal: SshTerminal) -> None:
    """From the menu: online rules (the loser opens), two stars, four discs, back to the menu."""
    await terminal.wait_for_text("Welcome,")
    await terminal.press("tab", "tab", "right", "tab", "left", "left", "tab", *["left"] * 8, "escape", pause=0.05)


async def watch_the_first_listed(terminal: SshTerminal) -> None:
    await terminal.press("escape", *["up"] * 8, "down", "down", "down", "enter", "enter")  # Watch, the first one
    await terminal.wait_for_text("You are watching")


async def test_a_spectator_is_offered_only_what_a_spectator_can_do_and_the_second_to_ask_starts_the_rematch(
        tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob, eve = [await opened.open(name) for name in ("ann", "bob", "eve")]
        await online_two_star_settings(ann)
        code = await create(ann)
        await join_match(bob, code)
        await eve.wait_for_text("ann vs bob: round 1")
        await watch_the_first_listed(eve)
        # The spectator's footer offers no player's keys (picking, typing, hints, analysis); the players' do.
        footer = (await eve.wait_for_text("You are watching", "Quit")).splitlines()[-1]
        assert "Quit" in footer and not {"Pick/place", "Cancel", "Type", "Hint", "Analysis"} & set(footer.split())
        assert "Pick/place" in (await ann.wait_for_text("Pick/place")).splitlines()[-1]
        players = [ann, bob]
        while not (match := server.lobby.tables[code].match).is_over:
            await play_a_move(server, code, players)
            match = server.lobby.tables[code].match
            if match.round.is_over and not match.is_over:
                number = match.round_number
                text = await eve.wait_for_text(f"round {number}", "Waiting for the players to start round")
                assert f"Start round {number + 1}" not in text
                await ann.wait_for_text(f"Start round {number + 1}")
                await ann.press("enter")
                await wait_until(lambda number=number: server.lobby.tables[code].match.round_number > number,
                                 what="the next round")
                await eve.wait_for(lambda text: "Waiting for the players" not in text)
        winner = match.players[match.winner]
        text = await eve.wait_for_text(f"{winner} wins the match", "Look at the board")
        assert "Rematch" not in text  # only the players can have one
        for player in players:
            await player.wait_for_text(f"{winner} wins the match", "Rematch: same players")
        await ann.press("enter")  # Rematch
        await ann.wait_for_text("Rematch asked:")  # a notice: its words may wrap
        await bob.wait_for_text("ann asks for a rematch")
        await bob.press("enter")  # Rematch too: it begins at once
        await bob.wait_for_text("ann had asked already")
        await ann.wait_for_text("bob agreed")
        await wait_until(lambda: not server.lobby.tables[code].match.is_over, what="the rematch")
        for terminal in (ann, bob, eve):
            await terminal.wait_for(lambda text: "Round 1 " in text and "0/2" in text and "wins the match" not in text)


async def test_a_forfeit_says_what_happened_offers_no_rematch_and_the_player_who_left_is_told(tmp_path) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    async with running_server(tmp_path, hold_time=3) as server, terminals(server.port) as opened:
        ann, bob = await opened.open("ann", keys[0]), await opened.open("bob", keys[1])
        await keep_the_name(ann)
        await keep_the_name(bob)
        await ann.wait_for_text("Welcome,")
        await ann.press("tab", "tab", "tab", *["left"] * 3, "escape", pause=0.05)  # one star, twelve discs
        code = await create(ann)
        await bob.press(*JOIN_KEYS, pause=0.05)
        await bob.wait_for_text("Type the four-letter code")
        await bob.press(code.lower(), "enter")
        for _ in range(2):  # real play: leaving now forfeits (before both have moved, the match is aborted)
            await play_a_move(server, code, [ann, bob])
        await ann.wait_for_text("Your move")
        await bob.close()
        text = await ann.wait_for_text("bob left: ann wins by forfeit", "Look at the board")
        assert "Rematch" not in text and "the match 0-0" not in text
        back = await opened.open("bob", keys[1])
        await back.wait_for_text("While you were away, your match against ann ended: you did not come back",
                                 "within 3 seconds, so ann won by forfeit.")


async def test_the_lobby_stops_counting_a_watcher_who_left(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120, per_ip=4) as server, terminals(server.port) as opened:
        ann, bob, eve, cyd = [await opened.open(name) for name in ("ann", "bob", "eve", "cyd")]
        await join_match(bob, await create_match(ann))
        await eve.wait_for_text("ann vs bob: round 1")
        await watch_the_first_listed(eve)
        await cyd.wait_for_text("ann vs bob: round 1, stars 0-0, 1 watching")
        await eve.press("n")  # a spectator leaves without being asked
        await eve.wait_for_text("Welcome, eve.")
        await cyd.wait_for(lambda text: "ann vs bob: round 1, stars 0-0" in text and "watching" not in text)


async def test_a_keyed_player_is_told_they_are_rated_and_may_choose_their_name_later(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        kim = await opened.open("kim", asyncssh.generate_private_key("ssh-ed25519"))
        await kim.wait_for_text("You came with an SSH key")
        await kim.press("escape")  # Not now
        await kim.wait_for_text("You play rated, as kim:", "Choose your name")
        await kim.press(*["down"] * 6, "enter")
        await kim.wait_for_text("You came with an SSH key")
        await kim.press(*"kimberly", "enter")  # the name offered is replaced by what is typed
        await kim.wait_for_text("You are kimberly on every visit with this key.", "You play rated, as kimberly:")
