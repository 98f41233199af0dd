"""Player cards and tells over real SSH (issue 42): asyncssh clients on pseudo-terminals read by pyte, the server in
this process. A tell to someone who muted its teller never reaches their screen, and reaches it again once they hear
the teller again; a card opened from the leaderboard shows a keyed player's rating and record from the store."""

from __future__ import annotations

from soluna_tui.server.storage import SeatRecord

from ..storage.conftest import finished_match, match_in_play
from .helpers import running_server, terminals
from .test_talk_e2e import TALK, say, sees

#: The lobby's menu, from its first entry: down to the leaderboard, and open it.
TO_THE_LEADERBOARD = ("down", "down", "down", "down", "enter")


async def test_a_muted_teller_s_tell_never_shows_and_an_unmuted_one_does(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        ann, bob = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                    for number, name in enumerate(("ann", "bob"))]
        for terminal in (ann, bob):
            await terminal.wait_for_text("Welcome,")
        await say(bob, "hello all")
        for terminal in (ann, bob):
            await terminal.press(TALK)
        await sees(ann, "bob: hello all")
        ann.send("/mute bob\r")
        await sees(ann, "Muted bob")
        bob.send("/tell ann psst\r")
        await sees(bob, "to ann: psst")
        ann.send("/tell bob can you hear me\r")
        await sees(bob, "ann tells you: can you hear me")
        await sees(ann, "to bob: can you hear me")
        assert b"psst" not in ann.received  # dropped for her, without a word to him
        ann.send("/unmute bob\r")
        await sees(ann, "You hear bob again")
        bob.send("/tell ann yes\r")
        await sees(ann, "bob tells you: yes")


async def test_a_card_from_the_leaderboard_shows_a_keyed_player_s_rating_and_record(tmp_path) -> None:
    async with running_server(tmp_path, ranked_after=1, ranked_opponents=0) as server:
        store = server.store
        await store.players.see("SHA256:bob", "bob")
        seats = (SeatRecord("bob", "bob", "SHA256:bob", False), SeatRecord("cyd", "cyd", "SHA256:cyd", False))
        match = match_in_play()
        await store.matches.create("ABCD", match.options.to_dict(), seats, match.to_dict())
        await store.matches.finish("ABCD", 1, finished_match(winner=0).to_dict(), "won")
        rating = (await store.ratings.of("SHA256:bob")).shown
        async with terminals(server.port) as opened:
            ann = await opened.open("ann")
            await ann.wait_for_text("Welcome,")
            await ann.press(*TO_THE_LEADERBOARD)
            await ann.wait_for_text("bob")
            await ann.press("i")
            await sees(ann, f"bob: rating {rating}, rank 1.")
            await sees(ann, "1 rated match: 1 won, 0 lost.")
            await sees(ann, "vs cyd: won")
