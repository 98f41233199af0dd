"""``textual.js``'s messages read and bounded, without a server."""

from __future__ import annotations

import json
import time

import pytest

from soluna_tui.server.web.browser_messages import (
    MAX_BRACKETS,
    MAX_MESSAGE,
    Focus,
    Ping,
    Resize,
    Stdin,
    WebMessageError,
    pong,
    read_message,
)


def test_what_the_page_sends_is_read() -> None:
    assert read_message('["stdin", "q\\u00e9"]') == Stdin("qé".encode())
    assert read_message('["resize", {"width": 120, "height": 40}]') == Resize(120, 40)
    assert read_message('["ping", "1732600000000"]') == Ping("1732600000000")
    assert read_message('["focus"]') == Focus(True) and read_message('["blur"]') == Focus(False)
    assert json.loads(pong(Ping("17"))) == ["pong", "17"]
    assert read_message('["stdin", "\\ud800"]') == Stdin(b"?")  # a lone surrogate is no byte sequence


@pytest.mark.parametrize("text", [
    "", "not json", "{}", "[]", "[1]", '"stdin"', '["stdin"]', '["stdin", 1]', '["stdin", "a", "b"]',
    '["resize", {"width": 0, "height": 24}]', '["resize", {"width": 80, "height": 100000}]',
    '["resize", {"width": true, "height": 24}]', '["resize", {"width": 80}]',
    '["resize", {"width": 80, "height": 24, "x": 1}]', '["resize", [80, 24]]', '["ping", "' + "9" * 33 + '"]',
    '["focus", 1]', '["open_url", {"url": "https://example.org"}]', '["deliver_file_start", "x"]',
    '["stdin", "' + "a" * MAX_MESSAGE + '"]',
])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(WebMessageError):
        read_message(text)


@pytest.mark.parametrize("text", [
    "[" * 60_000, "[" * 30_000 + "]" * 30_000, '["stdin", ' + "{" * 5 + '"a"', "[" * (MAX_BRACKETS + 1),
    '["stdin", "[[["' + ", [[[[]]]]" + "]",
], ids=["60000 [", "30000 pairs", "braces", "one too many", "outside the string"])
def test_a_message_nested_deeper_than_the_page_s_is_refused_before_it_is_parsed(text: str) -> None:
    with pytest.raises(WebMessageError, match="nested deeper"):
        read_message(text)


def test_brackets_inside_strings_are_text_however_many() -> None:
    """Mouse reports and pastes carry ``[`` and ``{`` in their strings: never counted as depth."""
    pasted = "[" * 10_000 + '{"quoted": "\\"}' + "{" * 10_000
    assert read_message(json.dumps(["stdin", pasted])) == Stdin(pasted.encode())
    assert read_message('["stdin", "\\u001b[<0;12;5M\\"[["]') == Stdin(b'\x1b[<0;12;5M"[[')


@pytest.mark.parametrize("text", [
    '"\\"' * 20_000, '"' + '\\"' * 30_000, "\\" * 60_000, '"' * 60_000, '["stdin", "' + "\\u" * 20_000,
], ids=["quote escape quote", "unclosed escapes", "backslashes", "quotes", "unicode escapes"])
def test_measuring_a_message_takes_one_pass_whatever_its_quotes_and_escapes(text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(WebMessageError):
        read_message(text)
    assert time.perf_counter() - started < 0.2
