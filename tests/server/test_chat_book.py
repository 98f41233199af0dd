"""A terminal's book of table talk: what a panel shows is found from the end of its rooms (a lobby open a while
has 500 lines; going through all of them for each line heard cost each lobby 0.4 ms a line), and says the same
as the whole book read in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from soluna_tui.link.messages import Chat, ChatLine
from soluna_tui.link.safe_talk import MATCH_LINES_KEPT, Room
from soluna_tui.play.chat_book import ChatBook

CODE = "ABCD"
ROOMS = ((Room.LOBBY, None), (Room.PLAYERS, CODE), (Room.SPECTATORS, CODE))

#: Lines as they come, each to one of the three rooms, said by one of five speakers (``0``: this player).
said = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 4)), max_size=40)


def book_of(lines: list[tuple[int, int]], muted: set[int], deaf: bool) -> tuple[ChatBook, list[tuple[ChatLine, tuple]]]:
    book, heard = ChatBook(), []
    for number, (room, speaker) in enumerate(lines, start=1):
        where = ROOMS[room]
        line = ChatLine(number, where[0], speaker, f"p{speaker}", f"line {number}", float(number), yours=speaker == 0)
        book.take(Chat(where[0], (line,), code=where[1]))
        heard.append((line, where))
    book.muted = {speaker: f"p{speaker}" for speaker in muted}
    book.deaf = deaf
    return book, heard


@given(said, st.sets(st.integers(1, 4)), st.booleans(), st.integers(0, 12))
def test_the_last_lines_shown_are_the_last_of_the_whole_book_read_in_order(lines, muted, deaf, last) -> None:
    book, heard = book_of(lines, muted, deaf)
    for code, watching in ((None, False), (CODE, False), (CODE, True)):
        whole = book.lines(code, watching)
        assert book.lines(code, watching, last) == (whole[-last:] if last else [])
        assert [line for line, where in heard if book.shows(line, where, watching)
                and (code is None) == (where[1] is None)] == whole


def test_a_full_lobby_s_last_lines_are_its_newest_shown() -> None:
    book, _ = book_of([(0, 1 + number % 4) for number in range(MATCH_LINES_KEPT + 20)], {2}, False)
    shown = book.lines(None, last=5)
    assert [line.id for line in shown] == [515, 516, 517, 519, 520]  # speaker 2 (lines 514, 518) muted
    assert len(book.rooms[ROOMS[0]]) == MATCH_LINES_KEPT
