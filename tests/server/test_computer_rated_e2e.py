"""A keyed player's match against the computer over SSH is rated against the level's calibrated rating: the
player's rating moves once a round has been decided, the level's never; a match left before any round ended
moves nothing, even when a new rated match gives it up. A real server on 127.0.0.1, a real client with a key.
"""

from __future__ import annotations

import asyncssh
import pytest

from soluna_tui.rules.strengths import strength_of
from soluna_tui.server.rating_model import Rating, level_rating

from .helpers import SshTerminal, keep_the_name, move_keys, running_server, wait_until
from .test_lobby_e2e import RECORD_KEYS, TOP

pytestmark = pytest.mark.slow

#: From the menu: level 1 (two down from the first offered, 3), one star wins; then the menu's first entry.
RATED_LEVEL_1 = ("tab", "left", "left", "tab", "tab", "left", "left", "left", *TOP)
LEVEL = strength_of("1")


async def kept_by_the_server(server) -> None:
    """The session starts a match against the computer and then tells the server, which keeps it a moment after the
    player's screen shows it (found with 16 workers on 2 cores: read at once, the server had not heard yet)."""
    await wait_until(lambda: len(server.lobby.games.playing) == 1, what="the server keeping the match")


def kept_game(server):
    """The one match against the computer the server keeps for a player playing it now."""
    (game,) = server.lobby.games.playing.values()
    return game


async def play_my_move(server, ann: SshTerminal) -> None:
    """The player plays the first legal move by the towers' keys, once it is their turn (unless the match has ended
    meanwhile); until the server has it."""

    def my_turn() -> bool:
        match = kept_game(server).saved.match
        return match.to_move == 0 and not match.round.is_over

    await wait_until(lambda: not server.lobby.games.playing or my_turn(), what="the player's turn")
    if not server.lobby.games.playing:
        return
    match = kept_game(server).saved.match
    moves = match.round.ply
    mover, target = move_keys(match, match.position.legal_moves[0])
    await ann.wait_for_text("Your move")
    await ann.press(mover, "enter", target, "enter", pause=0.05)
    await wait_until(lambda: not server.lobby.games.playing or kept_game(server).saved.match.round.ply > moves,
                     what="the server keeping the move")


async def test_a_finished_match_moves_the_player_s_rating_and_not_the_level_s_an_undecided_one_nothing(
        tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path) as server:
        ann = await SshTerminal.open(server.port, username="ann", client_keys=[key])
        try:
            await keep_the_name(ann)
            await ann.press(*RATED_LEVEL_1, pause=0.05)
            await ann.wait_for_text("◂ 1 (random), rated 1297 ▸", "◂ 1 ▸")
            await ann.press("enter")  # Play the computer: hints off (the lobby's setting), 12 discs
            await ann.wait_for_notice("Rated against level 1 (random), rated 1297: no hints, no take-backs.")
            await ann.wait_for_text("level 1 (random), rated")
            await kept_by_the_server(server)
            fingerprint = kept_game(server).fingerprint
            while server.lobby.games.playing:  # one round, one star: the match
                await play_my_move(server, ann)
            text = await ann.wait_for_text("Computer (level 1): rating 1297 to 1297 (+0)")
            (filed,) = await server.store.finished.newest()
            mine, its = filed.rating_changes
            summary = await server.store.players.summary(fingerprint)
            print(f"\na rated match against level 1 over SSH, {filed.result}, winner {filed.winner}: ann "
                  f"{mine.before.shown} -> {mine.after.shown}, the level {its.before.shown} -> {its.after.shown}")
            assert mine.before == Rating() and mine.after != mine.before == Rating()
            assert summary.standing is not None and summary.standing.rating == mine.after
            assert its.before == its.after == level_rating(LEVEL)
            change = mine.after.shown - mine.before.shown
            assert f"ann: rating 1000 to {mine.after.shown} ({change:+d})" in text

            await ann.press("n")  # the lobby; the record says it
            await ann.wait_for_text("Welcome, ann.")
            await ann.press(*RECORD_KEYS, pause=0.05)
            result = "won" if filed.winner == 0 else "lost"
            summary = (f"ann: rating {mine.after.shown}, not ranked yet.",
                       f"Rated against the computer: {1 - filed.winner} won, {filed.winner} lost.")
            line = (f"vs Computer (level 1): {result} on the board, stars {1 - filed.winner}-{filed.winner}, rating "
                    f"{mine.after.shown} ({change:+d})")

            def shows_the_record(text: str) -> bool:
                """The summary and the recent match's line (wrapped or not), once the whole list has been drawn."""
                recent = " ".join(row.strip(" │") for row in text.splitlines() if "│  │" in row)
                return all(part in text for part in summary) and line in " ".join(recent.split())

            await ann.wait_for(shows_the_record)
            await ann.press("escape")  # a second rated match, left after one move (kept for ann)
            await ann.press(*TOP, "enter")
            await ann.wait_for_text("level 1 (random), rated")
            await kept_by_the_server(server)
            await play_my_move(server, ann)
            await ann.press("n")
            await ann.wait_for_text("Resume computer match")  # kept for ann
            assert len(await server.store.finished.newest()) == 1  # left: nothing filed
            await ann.press(*TOP, "down", "enter")  # a new rated match instead gives that one up, unrated
            await ann.wait_for_notice("Lost: your unfinished rated match (level 1), unrated.")
            given_up = (await server.store.finished.newest())[0]
            assert (given_up.result, given_up.winner, given_up.rated) == ("forfeit", 1, False)
            assert (await server.store.players.summary(fingerprint)).standing.rating == mine.after
        finally:
            await ann.close()
