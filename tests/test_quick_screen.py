"""The tests' quick pyte screen (``tests/quick_screen.py``) shows what pyte's own shows, cell for cell."""

from __future__ import annotations

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st

from .quick_screen import QuickByteStream, QuickScreen

TEXT = st.text(st.sampled_from("ab Z9█▀─│☀★漢字é\u0301\u200b\r\n\b\t\x07\x0e\x0f\x00\x7f"), max_size=12)
CSI_FINALS = "ABCDEFGHJKLMPXZ@`abcdefghlmnqrsu~z"
CSI = st.builds(
    lambda private, numbers, final: "\x1b[" + private + ";".join(numbers) + final,
    st.sampled_from(["", "?"]),
    st.lists(st.sampled_from(["", "0", "1", "2", "5", "7", "25", "38", "48", "255", "1049", "99999"]), max_size=5),
    st.sampled_from(CSI_FINALS) | st.characters(min_codepoint=0x40, max_codepoint=0x7E))
OTHER = st.sampled_from(["\x1b7", "\x1b8", "\x1bD", "\x1bM", "\x1bE", "\x1bc", "\x1b#8", "\x1b(0", "\x1b(B",
                         "\x1b]2;title\x07", "\x1b]0;name\x1b\\", "\x1b[>0c", "\x1b[ q", "\x1b[1$p", "\x1b[1\x18x",
                         "\x1b[2\nJ", "\x1b%G", "\x18", "\x1a"])
PIECES = st.lists(TEXT | CSI | OTHER, max_size=40)


def state(screen: pyte.Screen) -> tuple[object, ...]:
    cells = [[screen.buffer[y][x] for x in range(screen.columns)] for y in range(screen.lines)]
    cursor = screen.cursor
    saved = [(point.cursor.x, point.cursor.y, point.cursor.attrs, point.g0_charset, point.g1_charset, point.charset,
              point.origin, point.wrap) for point in screen.savepoints]
    return (cells, cursor.x, cursor.y, cursor.attrs, cursor.hidden, set(screen.mode), screen.margins, screen.title,
            screen.icon_name, screen.charset, screen.g0_charset, screen.g1_charset, set(screen.tabstops), saved,
            set(screen.dirty))


def fed(screen: pyte.Screen, stream: pyte.ByteStream, chunks: list[bytes]) -> list[str | None]:
    """Each chunk fed to ``stream``; what each raised (pyte raises on some parameters it cannot take)."""
    raised: list[str | None] = []
    for chunk in chunks:
        try:
            stream.feed(chunk)
        except Exception as error:  # noqa: BLE001 (the same, whatever it is, from both)
            raised.append(type(error).__name__)
        else:
            raised.append(None)
    return raised


@settings(max_examples=300, deadline=None)
@given(PIECES, st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=8),
       st.sampled_from([(20, 6), (8, 3), (80, 24)]))
def test_the_quick_screen_shows_what_pyte_shows_whatever_the_bytes_and_where_reads_split_them(
        pieces: list[str], cuts: list[int], size: tuple[int, int]) -> None:
    data = "".join(pieces).encode()
    chunks, offset, turn = [], 0, 0
    while offset < len(data):  # split anywhere: inside an escape, inside a character's UTF-8 bytes
        width = cuts[turn % len(cuts)]
        chunks.append(data[offset:offset + width])
        offset, turn = offset + width, turn + 1
    theirs, ours = pyte.Screen(*size), QuickScreen(*size)
    their_errors = fed(theirs, pyte.ByteStream(theirs), chunks)
    our_errors = fed(ours, QuickByteStream(ours), chunks)
    assert our_errors == their_errors
    assert state(ours) == state(theirs)
    assert shown(ours) == shown(theirs)


def shown(screen: pyte.Screen) -> list[str] | str:
    """The screen's lines, or what pyte raised working them out (a wide character's stub overwritten, say)."""
    try:
        return screen.display
    except IndexError as error:
        return repr(error)


def test_a_frame_s_text_and_colours_land_in_the_same_cells() -> None:
    frame = ("\x1b[?1049h\x1b[?25l\x1b[1;1H\x1b[38;2;255;200;0;48;2;0;0;128m★ sun\x1b[0m \x1b[1;7mmoon\x1b[0m"
             "\x1b[3;5H\x1b[2K漢字 wide\x1b[24;80Hz\x1b[2;1H\x1b[4h_inserted\x1b[4l\x1b[r\x1b[5;10r\x1b[10;1H\n\n")
    theirs, ours = pyte.Screen(80, 24), QuickScreen(80, 24)
    pyte.ByteStream(theirs).feed(frame.encode())
    QuickByteStream(ours).feed(frame.encode())
    assert state(ours) == state(theirs)
    assert "★ sun moon" in ours.display[0] and ours.buffer[0][0].fg == theirs.buffer[0][0].fg != "default"
