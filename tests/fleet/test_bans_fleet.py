"""The ban list across two ``soluna serve`` processes on one PostgreSQL sharing one ban file: one ``soluna serve ban``
closes a player's match on the other server and keeps them out of both."""

from __future__ import annotations

import time

import asyncssh

from soluna_tui.cli import main
from soluna_tui.server.admin.bans import CLOSED_LINE, REFUSED_LINE

from ..server.helpers import SshTerminal, keep_the_name
from ..server.test_bans_e2e import FEW_SECONDS, let_in_again, refused_soon
from ..server.test_two_players import create_match, join_match
from .test_fleet import fleet, known


async def test_one_ban_closes_a_player_on_the_other_server_and_keeps_them_out_of_both(
        tmp_path, postgres_database) -> None:
    bans = tmp_path / "shared" / "bans.txt"
    dan_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database, "--ban-file", str(bans)) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        dan = await SshTerminal.open(second.port, username="dan", client_keys=[dan_key],
                                     local_addr=("127.0.0.2", 0), **known(key))
        try:
            await keep_the_name(dan)
            code = await create_match(ann)
            await join_match(dan, code)
            await ann.wait_for_text("Your move", "dan has joined")
            started = time.monotonic()
            assert main(["serve", "ban", "add", dan_key.get_fingerprint("sha256"), "--ban-file", str(bans)]) == 0
            await dan.wait_closed(FEW_SECONDS)
            print(f"\nclosed on the other server {time.monotonic() - started:.2f} s after the ban")
            assert CLOSED_LINE in dan.text
            for server in (first, second):  # the one whose session closed had read the file; the other, soon
                assert await refused_soon(server.port, "127.0.0.2", dan_key) == REFUSED_LINE
            assert main(["serve", "ban", "remove", dan_key.get_fingerprint("sha256"), "--ban-file", str(bans)]) == 0
            for server in (first, second):
                await let_in_again(server.port, "127.0.0.2", dan_key)
        finally:
            await ann.close()
            await dan.close()
