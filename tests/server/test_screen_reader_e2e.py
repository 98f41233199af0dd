"""The game in lines over real SSH (``ssh -t -p PORT HOST screen-reader``): asyncssh clients that ask for the command
``screen-reader`` on a pseudo-terminal and read the raw lines, beside a full-screen player read by pyte, the server in
this process. A whole match between a line-mode player and a full-screen one, a line-mode spectator hearing every
move, talk told with its speaker; and every other command still refused in one line."""

from __future__ import annotations

import asyncio
import json
import re
import time

import asyncssh

from .helpers import TIMEOUT, SshTerminal, client_options, move_keys, running_server, terminals, wait_until
from .test_pairing_e2e import answer, in_match
from .test_talk_e2e import TALK, say, sees

#: A move announced in lines: ``ann: moon 3 onto moon 7, now a tower of two, moon on top (1M>1M).``
MOVE_LINE = re.compile(r"^(\w+): .* onto .*, now a tower of \w+, \w+ on top \((\S+)\)\.$", re.MULTILINE)
#: What a line-mode terminal may send besides plain text: nothing (the kernel's echo and line endings aside).
ESCAPE = re.compile(r"\x1b")


class LineTerminal:
    """An SSH session asking for ``screen-reader`` on a pseudo-terminal: what it sends, read as lines of text."""

    def __init__(self, connection: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess) -> None:
        self.connection = connection
        self.process = process
        self.received = bytearray()
        self.closed = False

    @classmethod
    async def open(cls, port: int, username: str, term: str = "xterm", env: dict[str, str] | None = None,
                   **options) -> LineTerminal:
        connection = await asyncssh.connect("127.0.0.1", port, **client_options(username, **options))
        process = await connection.create_process("screen-reader", term_type=term, term_size=(80, 24),
                                                  encoding=None, env=env or {})
        return cls(connection, process)

    @property
    def text(self) -> str:
        """Everything read so far, as lines (the terminal's ``\\r\\n`` made ``\\n``)."""
        return self.received.decode("utf-8", "replace").replace("\r\n", "\n")

    def heard(self) -> list[str]:
        """The moves announced so far, as ``(name, notation)``."""
        return MOVE_LINE.findall(self.text)

    async def wait_for(self, *texts: str, timeout: float = TIMEOUT, after: int = 0) -> str:
        """Read until every one of ``texts`` has come (past the first ``after`` characters)."""
        deadline = time.monotonic() + timeout
        while not all(text in self.text[after:] for text in texts):
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise AssertionError(f"never heard {texts}; heard:\n{self.text[-3000:]}")
            await self.read(min(left, 0.5))
        return self.text

    async def wait_until(self, condition, what: str, timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise AssertionError(f"never heard {what}; heard:\n{self.text[-3000:]}")
            await self.read(min(left, 0.5))

    async def read(self, timeout: float) -> None:
        try:
            data = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        except TimeoutError:
            return
        if not data:
            self.closed = True
        self.received += data

    def type(self, line: str) -> None:
        """A line typed and Enter (the terminal turns the carriage return into the end of a line)."""
        self.process.stdin.write(line.encode() + b"\r")

    async def wait_closed(self) -> str:
        while not self.closed:
            await self.read(TIMEOUT)
        await asyncio.wait_for(self.process.wait_closed(), TIMEOUT)
        return self.text

    async def close(self) -> None:
        self.connection.close()
        await asyncio.wait_for(self.connection.wait_closed(), TIMEOUT)


async def type_move(terminal: LineTerminal, match) -> str:
    """The first legal move, typed by the towers' places (``3>7``); its notation."""
    move = match.position.legal_moves[0]
    placed = match.round.table.resolve(move)
    terminal.type(f"{placed.mover_slot + 1}>{placed.target_slot + 1}")
    return str(placed.move)


async def test_a_line_mode_player_and_a_full_screen_one_play_a_whole_match_a_line_mode_spectator_hears_every_move(
        tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        ann = await LineTerminal.open(server.port, "ann", local_addr=("127.0.0.2", 0))
        cyd = await LineTerminal.open(server.port, "cyd", local_addr=("127.0.0.4", 0))
        bob: SshTerminal = await opened.open("bob", local_addr=("127.0.0.3", 0))
        try:
            await ann.wait_for("Welcome, ann: Soluna in lines", "2. quick", "Lobby> ")
            await bob.wait_for_text("Welcome,")
            # Talk in the lobby, both ways: each line told with its speaker.
            mark = len(cyd.text)
            await say(bob, "hello from the full screen")
            await ann.wait_for("bob says: hello from the full screen")
            await cyd.wait_for("bob says: hello from the full screen", after=mark)
            ann.type("say hello from the lines")
            await ann.wait_for("You said: hello from the lines")
            await bob.wait_for_text("1 new line of talk")
            await bob.press(TALK)
            await sees(bob, "ann: hello from the lines")
            await bob.press("escape")
            await bob.wait_for(lambda screen: "Close talk" not in screen)
            await cyd.wait_for("ann says: hello from the lines")
            # ann offers short terms and challenges bob, who accepts on his full screen.
            ann.type("stars 1")
            await ann.wait_for("You offer: box rules, 1 star, 12 discs")
            ann.type("discs 6")
            await ann.wait_for("You offer: box rules, 1 star, 6 discs, no clock, unrated.")
            ann.type("who")
            await ann.wait_for("3 people online:", "bob (guest), in the lobby.", "ann (you, guest), in the lobby.")
            ann.type("challenge bob")
            await ann.wait_for("Challenge sent: bob is told now.")
            await bob.wait_for_text("ann challenges you")  # the notice, before the list is opened
            await answer(bob, "a")
            await ann.wait_for("Paired with bob: the match begins.", "Playing match ", "opens.")
            await in_match(bob, "ann")
            [code] = [code for code, table in server.lobby.tables.items() if table.in_play]
            table = server.lobby.tables[code]
            cyd.type("matches")
            await cyd.wait_for("1 match in play:", "1: ")
            cyd.type("watch 1")
            await cyd.wait_for(f"Watching match {code}: say TEXT talks", "opens.")
            names = [seat.name for seat in table.seats]
            played: list[tuple[str, str]] = []
            while not table.match.is_over:
                match, version = table.match, table.version
                mover = names[match.to_move]
                if mover == "ann":
                    await ann.wait_until(lambda: len(ann.heard()) == len(played) and ann.text.endswith("Your move> "),
                                         "ann's turn")
                    notation = await type_move(ann, match)
                else:
                    mover_key, target_key = move_keys(match, match.position.legal_moves[0])
                    notation = str(match.round.table.resolve(match.position.legal_moves[0]).move)
                    await bob.wait_for_text("Your move")
                    await bob.press(mover_key, "enter", target_key, "enter", pause=0.05)
                played.append((mover, notation))
                await wait_until(lambda before=version: table.version == before + 1,
                                 what=f"the server taking {mover}'s move")
            for terminal in (ann, cyd):
                await terminal.wait_for("Match over.")
                assert terminal.heard() == played  # every move once, in order, whoever made it
            assert len(played) >= 3
            assert ESCAPE.search(ann.text) is None and ESCAPE.search(cyd.text) is None
            await bob.wait_for_text("ann")
            # Back to the lobby, and out: the session ends with the server's last line.
            ann.type("lobby")
            await ann.wait_for("Back in the lobby.")
            ann.type("quit")
            assert "Goodbye." in await ann.wait_closed()
        finally:
            await ann.close()
            await cyd.close()


async def test_only_the_screen_reader_command_is_taken_and_it_needs_a_terminal(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, **client_options("ann")) as connection:
            other = await connection.run("screen-reader --now", term_type="xterm")
            assert "no commands" in str(other.stdout) and "screen-reader' for the game in lines" in str(other.stdout)
            assert other.exit_status == 1
        async with asyncssh.connect("127.0.0.1", server.port, **client_options("ann")) as connection:
            no_terminal = await connection.run("screen-reader")
            assert "The game in lines needs a terminal" in str(no_terminal.stderr)
            assert no_terminal.exit_status == 1
        # A terminal that cannot draw will do; Ctrl+C is quit, Ctrl+D (the end of input) leaves too.
        for key in ("\x03", "\x04"):
            ann = await LineTerminal.open(server.port, "ann", term="dumb")
            try:
                await ann.wait_for("Welcome, ann", "Lobby> ")
                ann.process.stdin.write(key.encode())
                assert "Goodbye." in await ann.wait_closed()
            finally:
                await ann.close()


async def play_on_until_over(terminal: LineTerminal, moves: int = 30) -> None:
    """Type the first legal move ``moves`` lists, each turn, until the match is over (at most ``moves`` moves)."""
    for _ in range(moves):
        await terminal.wait_until(lambda: terminal.text.endswith("Your move> ") or "Match over." in terminal.text,
                                  "the player's turn")
        if "Match over." in terminal.text:
            return
        mark = len(terminal.text)
        terminal.type("moves")
        await terminal.wait_for("by the tower that moves.", after=mark)
        await terminal.wait_until(lambda: terminal.text.endswith("> "), "the moves told")
        mover, target = LEGAL.findall(terminal.text[mark:])[0]
        if not target.isdigit():  # onto any other tower
            target = "2" if mover == "1" else "1"
        terminal.type(f"{mover}>{target}")
        await terminal.wait_for("ann: ", after=mark + 1)
    raise AssertionError(f"the match never ended:\n{terminal.text[-3000:]}")


#: The first place a tower may go, as ``moves`` tells it: ``Tower 3, one moon: onto 7 and 9.`` (or ``onto any other
#: tower``).
LEGAL = re.compile(r"^Tower (\d+), [^:]*: onto (\d+|any other tower)", re.MULTILINE)


async def test_a_line_mode_player_plays_the_computer_leaves_it_kept_and_resumes_it_to_the_end(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        ann = await LineTerminal.open(server.port, "ann")
        try:
            await ann.wait_for("Welcome, ann", "Lobby> ")
            ann.type("stars 1")
            ann.type("discs 5")
            await ann.wait_for("1 star, 5 discs")
            ann.type("computer 1")
            await ann.wait_for("Soluna. ann against Computer at level 1 (random): box rules, 5 discs, 1 star to win",
                               "Type lobby to go back to the lobby: the server keeps this match for you.")
            await ann.wait_until(lambda: ann.text.endswith("Your move> ") or ann.text.count("Computer: ") == 1,
                                 "a turn")
            mark = len(ann.text)
            ann.type("lobby")
            await ann.wait_for("Back in the lobby.", "Lobby> ", after=mark)
            await ann.wait_for("Your match against the computer at level 1 (random) is kept: round 1",
                               "Type resume to go on with it.", after=mark)
            ann.type("resume")
            await ann.wait_for("Soluna. ann against Computer at level 1", after=mark)
            await play_on_until_over(ann)
            await ann.wait_for("Match over. ", "Type review, rematch")
            assert ESCAPE.search(ann.text) is None
        finally:
            await ann.close()


async def test_two_line_mode_players_are_paired_by_a_quick_match_talk_at_the_table_and_one_resigns(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        ann = await LineTerminal.open(server.port, "ann", local_addr=("127.0.0.2", 0))
        bob = await LineTerminal.open(server.port, "bob", local_addr=("127.0.0.3", 0))
        try:
            for terminal in (ann, bob):
                await terminal.wait_for("Lobby> ")
            ann.type("quick")
            await ann.wait_for("Looking for an opponent on these terms: box rules, 4 stars, 12 discs, no clock, "
                               "unrated. Type cancel to stop looking.", "Looking for an opponent> ")
            bob.type("2")  # the menu's number
            await bob.wait_for("An opponent is found: match ", "Playing match ", "Round 1.")
            await ann.wait_for("Paired with bob: the match begins.", "Playing match ", "Round 1.")
            ann.type("say good luck")
            await bob.wait_for("ann says: good luck")
            await ann.wait_for("You said: good luck")
            [table] = [table for table in server.lobby.tables.values() if table.in_play]
            by_name = {"ann": ann, "bob": bob}
            for _ in range(2):  # a move each: resigning is then a real resignation
                match, version = table.match, table.version
                mover = by_name[[seat.name for seat in table.seats][match.to_move]]
                await mover.wait_until(lambda mover=mover: mover.text.endswith("Your move> "), "a turn")
                await type_move(mover, match)
                await wait_until(lambda before=version: table.version == before + 1, what="the move taken")
            ann.type("resign")
            await ann.wait_for("Type yes to resign, or no to keep playing.", "Resign? Type yes or no> ")
            ann.type("yes")
            await ann.wait_for("You resign: the match ends as the server says.")
            for terminal in (ann, bob):
                await terminal.wait_for("Match over. ann resigned: bob wins the match.", "Type rematch, or quit.")
            assert not any(table.in_play for table in server.lobby.tables.values())
            # A rematch, asked by both: told as a match of its own.
            marks = len(ann.text), len(bob.text)
            ann.type("rematch")
            await ann.wait_for("Rematch asked: it starts when bob asks too.", after=marks[0])
            await bob.wait_for("ann asks for a rematch: type rematch to play again.", after=marks[1])
            bob.type("rematch")
            for terminal, mark in zip((ann, bob), marks, strict=True):
                await terminal.wait_for("the rematch begins", "Soluna. ", "Round 1. ", after=mark)
            await wait_until(lambda: table.in_play and table.match.round.ply == 0, what="the rematch in play")
        finally:
            await ann.close()
            await bob.close()


async def test_an_idle_line_mode_session_is_warned_a_line_typed_counts_and_it_closes_with_the_last_line(
        tmp_path) -> None:
    async with running_server(tmp_path, idle_timeout=8, idle_warning=4) as server:
        ann = await LineTerminal.open(server.port, "ann")
        try:
            await ann.wait_for("Nothing typed for 4 seconds: this session closes in 4 seconds unless you type a line")
            ann.type("who")
            mark = len(ann.text)
            await ann.wait_for("Nothing typed for 4 seconds", after=mark)  # a new idle spell: the line counted
            text = await ann.wait_closed()
            assert text.rstrip().endswith("Closed after 8 seconds without a key press.")
            assert ESCAPE.search(text) is None
        finally:
            await ann.close()


async def test_a_player_with_a_key_keeps_the_game_in_lines_for_plain_ssh_and_forgets_it(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path) as server, terminals(server.port) as opened:

        async def kept() -> bool | None:
            """The setting as the store keeps it with ann's key (``None``: no settings kept)."""
            text = await server.lobby.store.players.lobby_choices(key.get_fingerprint("sha256"))
            return None if text is None else json.loads(text)["choices"].get("screen_reader", False)

        ann = await LineTerminal.open(server.port, "ann", client_keys=[key])
        try:
            await ann.wait_for("Welcome, ann: Soluna in lines, with your key.", "You came with an SSH key: type name "
                               "and the name to be known by on every visit with it (name ann keeps this one).",
                               "Lobby> ")
            ann.type("name annie")
            await ann.wait_for("You are annie on every visit with this key.")
            ann.type("remember")
            await ann.wait_for("Kept with your key: Soluna opens in lines on every visit, even with plain ssh")
            await wait_until(kept, what="the setting kept with the key")
        finally:
            await ann.close()
        # Plain ssh, no command: the lines again, as kept.
        again = await opened.open("ann", key)
        heard = lambda: again.received.decode(errors="replace")  # noqa: E731 - the raw lines, not a screen
        await again.wait_for(lambda _: "Soluna in lines (kept with your key" in heard() and "Lobby> " in heard())
        assert ESCAPE.search(heard()) is None  # never the alternate screen, nor any drawing
        again.send("forget\r")
        await again.wait_for(lambda _: "plain ssh -p PORT HOST opens the full screen again" in heard())
        await wait_until(lambda: _false(kept), what="the setting forgotten")
        await again.close()
        full = await opened.open("ann", key)
        await full.wait_for(lambda screen: "Welcome, annie." in screen)


async def _false(condition) -> bool:
    return await condition() is False


async def test_at_lang_c_the_lines_are_ascii_whatever_is_said(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        ann = await LineTerminal.open(server.port, "ann", env={"LANG": "C"})
        bob = await LineTerminal.open(server.port, "bob")
        try:
            await ann.wait_for("Lobby> ")
            await bob.wait_for("Lobby> ")
            bob.type("say café ☃")
            await bob.wait_for("You said: café ☃")
            await ann.wait_for("bob says: caf? ?")
            for _ in range(20):  # the list comes a moment after a change
                mark = len(ann.text)
                ann.type("who")
                await ann.wait_until(lambda mark=mark: ann.text.endswith("Lobby> ") and len(ann.text) > mark + 10,
                                     "an answer")
                if "2 people online:" in ann.text[mark:]:
                    break
                await asyncio.sleep(0.25)
            assert "bob (guest), in the lobby." in ann.text
            assert ann.received.isascii() and ESCAPE.search(ann.text) is None
        finally:
            await ann.close()
            await bob.close()


async def test_the_record_and_leaderboard_are_told_and_a_match_created_in_lines_is_joined_by_its_code(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        ann = await LineTerminal.open(server.port, "ann", local_addr=("127.0.0.2", 0))
        bob = await LineTerminal.open(server.port, "bob", local_addr=("127.0.0.3", 0))
        try:
            await ann.wait_for("Lobby> ")
            ann.type("record")
            await ann.wait_for("ann: a guest, unrated (connect with an SSH key to keep a rating).",
                               "0 matches played: 0 won, 0 lost.")
            ann.type("leaderboard")
            await ann.wait_for("Nobody is ranked yet: players are listed after",
                               "You play as a guest: connect with an SSH key to be rated and ranked.")
            ann.type("create")
            await ann.wait_for("Tell your opponent its code: they type join")
            code = re.search(r"Match ([A-Z]{4}) created", ann.text).group(1)
            assert ann.text.endswith(f"Waiting for your opponent in {code}> ")
            ann.type("cancel")
            await ann.wait_for("Match cancelled.")
            await wait_until(lambda: code not in server.lobby.tables, what="the match cancelled")
            mark = len(ann.text)
            ann.type("create")
            await ann.wait_for("Tell your opponent its code", after=mark)
            code = re.search(r"Match ([A-Z]{4}) created", ann.text[mark:]).group(1)
            await bob.wait_for("Lobby> ")
            bob.type(f"join {code.lower()}")
            for terminal in (ann, bob):
                await terminal.wait_for(f"Playing match {code}:", "opens.")
            assert server.lobby.tables[code].in_play
        finally:
            await ann.close()
            await bob.close()


async def test_the_lines_run_in_a_child_started_afresh_too(tmp_path) -> None:
    async with running_server(tmp_path, spawn="exec") as server:
        ann = await LineTerminal.open(server.port, "ann")
        try:
            await ann.wait_for("Welcome, ann: Soluna in lines, as a guest.", "Lobby> ", timeout=TIMEOUT * 2)
            ann.type("quit")
            assert "Goodbye." in await ann.wait_closed()
        finally:
            await ann.close()
