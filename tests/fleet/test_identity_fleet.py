"""Issue 39, across two servers on one PostgreSQL (in this process, so the test reads the match it plays): a rated
match on one server changes two ratings, and every list on the other shows them at once, the players' own terminal
there included (the news goes through the store's notifications, like presence). Before, a player on two terminals
kept the rating it arrived with in every list, its own included.
"""

from __future__ import annotations

import asyncssh

from ..server.helpers import keep_the_name, running_server, terminals
from ..server.test_names_e2e import online_line, rated_match
from ..server.test_online_e2e import open_online


async def test_a_rated_match_on_one_server_shows_the_new_ratings_on_the_other_in_every_list(
        tmp_path, postgres_database) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with (running_server(tmp_path / "a", database=postgres_database, hold_time=120) as first,
                running_server(tmp_path / "b", database=postgres_database, hold_time=120) as second,
                terminals(first.port) as here, terminals(second.port) as there):
        ann = await here.open("ann", keys[0], local_addr=("127.0.0.2", 0))
        bob = await here.open("bob", keys[1], local_addr=("127.0.0.3", 0))
        await keep_the_name(ann)
        await keep_the_name(bob)
        also_ann = await there.open("ann", keys[0], local_addr=("127.0.0.2", 0))  # ann's key on the other server
        cyd = await there.open("cyd", local_addr=("127.0.0.4", 0))  # a guest there
        for terminal in (also_ann, cyd):
            await open_online(terminal)
            await terminal.wait_for(lambda screen: online_line(screen, "ann", "new")
                                    and online_line(screen, "bob", "new"))
        ann_rating, bob_rating = await rated_match(first, ann, bob)
        for terminal in (also_ann, cyd):
            await terminal.wait_for(lambda screen: online_line(screen, "ann", str(ann_rating))
                                    and online_line(screen, "bob", str(bob_rating)))
