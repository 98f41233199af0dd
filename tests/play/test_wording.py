""""You" is who sits here, told by the caller; a name is never taken for it."""

from __future__ import annotations

from soluna_tui.play.wording import possessive, verb


def test_the_player_addressed_here_is_you_whatever_the_name() -> None:
    assert verb("Kim", "wins", "win", you=True) == "You win"
    assert possessive("Kim", you=True) == "your"


def test_a_player_called_you_elsewhere_is_spoken_of_by_name() -> None:
    assert verb("You", "wins", "win") == "You wins"
    assert verb("Ann", "opens", "open") == "Ann opens"
    assert possessive("You") == "You's"
