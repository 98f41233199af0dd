"""A player who comes back to a match finds its talk (issue 39: it was gone). Real asyncssh clients with
pseudo-terminals read by pyte, a real server on 127.0.0.1."""

from __future__ import annotations

from .helpers import SshTerminal, child_gone, running_server, session_named, wait_until
from .test_talk_e2e import flat, say
from .test_two_players import create_match, join_match, secret_shown


async def test_a_player_back_at_the_match_reads_its_talk_again(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann", local_addr=("127.0.0.2", 0))
        bob = await SshTerminal.open(server.port, username="bob", local_addr=("127.0.0.3", 0))
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await bob.wait_for_text("Waiting for ann.", f"code {code}, secret")
            await say(ann, "hello bob")
            await bob.wait_for(lambda _: "ann: hello bob" in flat(bob))
            await say(bob, "hi ann")
            await ann.wait_for(lambda _: "bob: hi ann" in flat(ann))
            secret = secret_shown(bob)
            child = session_named(server, "bob").child.process
            await bob.close()
            await ann.wait_for_text("bob has left: the seat")
            await wait_until(lambda: child_gone(child), what="bob's child being reaped")
            back = await SshTerminal.open(server.port, username="bob", local_addr=("127.0.0.3", 0))
            try:
                await back.wait_for_text("Return to your match")
                await back.press("enter")
                await back.wait_for_text("type the secret")
                await back.press(secret.lower(), "enter")
                await back.wait_for_text("Welcome back.", "Waiting for ann.")
                await back.wait_for(lambda _: "ann: hello bob" in flat(back) and "bob: hi ann" in flat(back))
            finally:
                await back.close()
        finally:
            await ann.close()
