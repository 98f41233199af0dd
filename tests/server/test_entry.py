"""Who gets in and with what: the gate's limits, the terminal a client may ask for, the protocol's lines."""

from __future__ import annotations

import pytest

from soluna_tui.link.messages import ChooseName
from soluna_tui.link.protocol import ProtocolError, decode, encode
from soluna_tui.server.client_env import ascii_wanted, child_environment, clamp_size, term_refusal
from soluna_tui.server.config import Limits
from soluna_tui.server.gate import Gate, RateWindow, client_key

from .helpers import Clock


@pytest.mark.parametrize(("address", "key"), [
    ("192.0.2.7", "192.0.2.7"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::9", "2001:db8:1:2::/64"), ("::ffff:192.0.2.7", "192.0.2.7"), ("fe80::1%eth0", "fe80::/64"),
])
def test_addresses_are_counted_per_ipv4_address_or_ipv6_64(address, key) -> None:
    assert client_key(address) == key


def test_a_rate_window_forgets_after_a_minute_and_counts_hammering() -> None:
    clock = Clock()
    window = RateWindow(2, clock=clock)
    assert window.allow("a") and window.allow("a") and not window.allow("a")
    assert window.allow("b")
    clock.now += 30
    assert not window.allow("a")  # refused attempts count too
    clock.now += 61
    assert window.allow("a")


def test_the_gate_caps_per_address_and_in_all() -> None:
    gate = Gate(Limits(sessions=2, per_ip=2, new_per_minute=100), clock=Clock())
    assert gate.admit_connection("2001:db8::1") is None
    assert gate.admit_connection("2001:db8::2") is None
    assert gate.admit_connection("2001:db8::3").startswith("Slow down: at most 2 connections at once")
    assert gate.admit_connection("192.0.2.1") is None
    assert gate.admit_connection("192.0.2.2") is None
    assert gate.admit_connection("192.0.2.3").startswith("Server full")  # 4 connections: twice the sessions
    gate.release_connection("2001:db8::2")
    assert gate.admit_connection("2001:db8::5") is None
    assert gate.admit_session() is None and gate.admit_session() is None
    assert gate.admit_session().startswith("Server full: 2 players are on already")
    gate.release_session()
    assert gate.admit_session() is None


@pytest.mark.parametrize(("term", "refused"), [
    ("xterm-256color", None), ("screen.xterm-256color", None), ("vt100", None), (None, "needs a terminal"),
    ("", "TERM=unset"), ("dumb", "TERM=dumb"), ("xterm;rm -rf /", "not one the game can trust"),
    ("\x1b]0;pwned\x07", "not one the game can trust"), ("x" * 60, "not one the game can trust"),
])
def test_terminal_types(term, refused) -> None:
    reason = term_refusal(term)
    assert (reason is None) if refused is None else (refused in reason)


def test_only_term_and_colour_hints_reach_the_child() -> None:
    requested = {"NO_COLOR": "yes", "COLORTERM": "truecolor", "LD_PRELOAD": "/evil.so", "TERM": "ignored",
                 "PATH": "/evil", "TEXTUAL": "devtools"}
    assert child_environment("xterm", requested) == {"TERM": "xterm", "NO_COLOR": "1", "COLORTERM": "truecolor"}
    assert child_environment("xterm", {"NO_COLOR": "", "COLORTERM": "true\x1bcolor"}) == {"TERM": "xterm"}
    assert child_environment("xterm", {"NO_COLOR": "x" * 100}) == {"TERM": "xterm"}


def test_ascii_drawing_follows_the_console_or_a_non_utf8_locale() -> None:
    assert not ascii_wanted("xterm-256color", {})
    assert ascii_wanted("linux", {})
    assert ascii_wanted("xterm", {"LANG": "en_US.ISO-8859-1"})
    assert not ascii_wanted("xterm", {"LANG": "de_DE.UTF-8"})
    assert not ascii_wanted("xterm", {"LANG": "bad value; x" * 10})


@pytest.mark.parametrize(("asked", "given"), [((80, 24), (80, 24)), ((0, 0), (1, 1)), ((10**6, 10**6), (500, 200)),
                                              ((501, 199), (500, 199))])
def test_window_sizes_are_clamped(asked, given) -> None:
    assert clamp_size(*asked) == given


@pytest.mark.parametrize("line", [b"not json\n", b"[1, 2]\n", b'{"no": "type"}\n', b'{"type": 3}\n', b"\xff\xfe\n",
                                  b"[" * 100_000 + b"\n"])
def test_lines_that_are_not_messages(line) -> None:
    with pytest.raises(ProtocolError):
        decode(line)


def test_messages_round_trip_on_one_line_of_utf8() -> None:
    message = ChooseName("Zoë\nthe second")
    line = encode(message)
    assert decode(line) == message and line.count(b"\n") == 1 and "Zoë".encode() in line
