"""The pump between a channel and a real pseudo-terminal: both ways, held back, resized, hung up."""

from __future__ import annotations

import asyncio
import os
import tty

import pytest

from soluna_tui.server.sessions.pty_pump import INPUT_BACKLOG, RESIZE_PAUSE, PtyPump, set_window_size

from .helpers import TIMEOUT, wait_until


class Channel:
    """The SSH channel's side: what reached the player, and whether the pump asked to stop reading input."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.paused = False
        self.pauses = 0

    def write(self, data: bytes) -> None:
        self.written += data

    def pause_reading(self) -> None:
        assert not self.paused
        self.paused, self.pauses = True, self.pauses + 1

    def resume_reading(self) -> None:
        assert self.paused
        self.paused = False


def open_pump() -> tuple[PtyPump, Channel, int, list[bool]]:
    """A started pump on a fresh PTY, its child's end raw (as the app sets it), and the hang-ups it reported."""
    master, terminal = os.openpty()
    tty.setraw(terminal)
    channel, hang_ups = Channel(), []
    pump = PtyPump(master, channel, channel.write, lambda: hang_ups.append(True))
    pump.start()
    return pump, channel, terminal, hang_ups


@pytest.fixture
async def pty():
    pump, channel, terminal, hang_ups = opened = open_pump()
    yield opened
    pump.close()
    os.close(terminal)


def read_all(fd: int, count: int) -> bytes:
    """What the child's end can read now, up to ``count`` bytes."""
    os.set_blocking(fd, False)
    data = bytearray()
    while len(data) < count:
        try:
            chunk = os.read(fd, count - len(data))
        except OSError:  # nothing more now, or the pump's end is closed
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


async def test_output_reaches_the_channel_and_waits_while_the_channel_is_full(pty) -> None:
    pump, channel, terminal, _ = pty
    os.write(terminal, b"frame one")
    await wait_until(lambda: channel.written == b"frame one", TIMEOUT, "the first frame on the channel")
    pump.read_output(False)  # the channel's buffer is full
    os.write(terminal, b"frame two")
    await asyncio.sleep(0.2)
    assert channel.written == b"frame one"
    pump.read_output(True)
    await wait_until(lambda: channel.written == b"frame oneframe two", TIMEOUT, "the second frame, after the pause")


async def test_input_the_child_does_not_read_piles_up_then_pauses_the_channel(pty) -> None:
    pump, channel, terminal, _ = pty
    sent = bytes(range(256)) * (4 * INPUT_BACKLOG // 256)
    for start in range(0, len(sent), 4096):
        pump.feed(sent[start:start + 4096])  # a player pasting, the child busy
    assert channel.paused and len(pump.backlog) > INPUT_BACKLOG
    received = bytearray()

    def child_reads() -> bool:
        received.extend(read_all(terminal, len(sent) - len(received)))
        return len(received) == len(sent)

    await wait_until(child_reads, TIMEOUT, "the child reading every byte")
    assert bytes(received) == sent  # all of it, in order
    await wait_until(lambda: not channel.paused, TIMEOUT, "the channel being read again")
    assert channel.pauses == 1 and not pump.backlog


async def test_window_changes_are_gathered_into_the_last_one(pty) -> None:
    pump, _, terminal, _ = pty
    set_window_size(terminal, (80, 24))
    for columns in range(81, 121):
        pump.resize((columns, 30))
    assert os.get_terminal_size(terminal) == (80, 24)  # not yet: gathered
    await asyncio.sleep(RESIZE_PAUSE)
    await wait_until(lambda: os.get_terminal_size(terminal) == (120, 30), TIMEOUT, "the last size")


async def test_a_child_closing_its_terminal_is_a_hang_up_and_its_last_words_are_kept() -> None:
    pump, channel, terminal, hang_ups = open_pump()
    pump.read_output(False)
    os.write(terminal, b"\x1b[?1049l goodbye")  # the terminal restored as the child leaves
    os.close(terminal)
    pump.drain()
    assert channel.written == b"\x1b[?1049l goodbye"
    pump.read_output(True)
    await wait_until(lambda: hang_ups == [True], TIMEOUT, "the hang-up")
    assert not pump.reading
    pump.close()


async def test_a_closed_pump_hangs_up_the_child_and_ignores_what_still_comes(pty) -> None:
    pump, channel, terminal, hang_ups = pty
    pump.resize((100, 40))
    pump.close()
    assert not pump.open
    os.set_blocking(terminal, False)
    assert os.read(terminal, 1) == b""  # the child's terminal has hung up (open, it would have nothing to read yet)
    pump.feed(b"late keys")
    pump.resize((90, 30))
    pump.drain()
    pump.read_output(True)
    await asyncio.sleep(2 * RESIZE_PAUSE)  # the resize asked before the close is not applied either
    assert channel.written == b"" and not pump.backlog and not pump.reading and hang_ups == []
