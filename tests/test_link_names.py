"""A name keeps at most two marks on a letter, however many were stacked on it (issue 39 found 15 kept)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from soluna_tui.link.safe_names import INVISIBLE, MARKS_PER_LETTER, visible_text
from soluna_tui.link.safe_talk import clean_chat
from soluna_tui.server.lobby.names import player_name


def most_marks_on_a_letter(text: str, form: str = "NFKD") -> int:
    """The most combining marks after any one character of ``text``, decomposed (a name: fully; a chat line, which
    keeps styled letters, canonically)."""
    most = run = 0
    for char in unicodedata.normalize(form, text):
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


MARKS = st.characters(categories=["Mn", "Me"])
#: Letters that hold at most two marks themselves (polytonic Greek's "ᾅ" holds three, and is kept whole).
LETTERS = st.characters(categories=["L", "N", "Zs"]).filter(
    lambda letter: most_marks_on_a_letter(letter) <= MARKS_PER_LETTER)


@given(st.lists(st.tuples(LETTERS, st.lists(MARKS, max_size=20)), max_size=12))
def test_a_name_and_a_chat_line_keep_at_most_two_marks_on_a_letter(letters) -> None:
    text = "".join(letter + "".join(marks) for letter, marks in letters)
    assert most_marks_on_a_letter(visible_text(text)) <= MARKS_PER_LETTER
    assert most_marks_on_a_letter(player_name(text)) <= MARKS_PER_LETTER
    assert most_marks_on_a_letter(clean_chat(text), "NFD") <= MARKS_PER_LETTER


ACCENTS = st.characters(min_codepoint=0x300, max_codepoint=0x36F).filter(lambda mark: mark not in INVISIBLE)


@given(st.lists(st.tuples(st.characters(categories=["Ll", "Lu"], max_codepoint=0x24F), st.lists(ACCENTS, max_size=2)),
                min_size=1, max_size=12))
def test_a_name_with_two_marks_or_fewer_on_each_letter_is_kept_as_it_is(letters) -> None:
    text = "".join(letter + "".join(marks) for letter, marks in letters)
    if most_marks_on_a_letter(text) <= MARKS_PER_LETTER:
        assert visible_text(text) == unicodedata.normalize("NFKC", text)


def test_fifteen_stacked_accents_become_two_and_real_names_keep_theirs() -> None:
    assert visible_text("ann" + "\u0301" * 15) == "an\u0144\u0301"  # ń (n with one) and one more
    assert visible_text("e\u0301" + "\u0301" * 14) == "é\u0301"  # é is e with one: one more stays
    for name in ("Nguyễn Thị Ánh", "Zoë", "Ǘ", "François", "ＡＮＮ"):
        assert visible_text(name) == unicodedata.normalize("NFKC", name)
