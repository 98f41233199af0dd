"""``textual.js``'s messages read and bounded, without a server."""

from __future__ import annotations

import json

import pytest

from soluna_tui.server.web.messages import (
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
