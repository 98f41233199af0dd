""""You" is who sits here, told by the caller; a name is never taken for it."""

from __future__ import annotations

import pytest

from soluna_tui.play.you_wording import possessive, verb
from soluna_tui.rules.wording import minutes


def test_the_player_addressed_here_is_you_whatever_the_name() -> None:
    assert verb("Kim", "wins", "win", you=True) == "You win"
    assert possessive("Kim", you=True) == "your"


def test_a_player_called_you_elsewhere_is_spoken_of_by_name() -> None:
    assert verb("You", "wins", "win") == "You wins"
    assert verb("Ann", "opens", "open") == "Ann opens"
    assert possessive("You") == "You's"


@pytest.mark.parametrize(("seconds", "said"), [
    (1, "1 second"), (45, "45 seconds"), (59.6, "1 minute"), (60, "1 minute"), (90, "1 min 30 s"),
    (101.6, "1 min 42 s"), (120, "2 minutes"), (299.7, "5 minutes"), (599, "9 min 59 s"), (600, "10 minutes"),
    (900, "15 minutes"), (3600, "60 minutes"),
])
def test_a_duration_under_ten_minutes_is_said_to_the_second_as_the_panels_count(seconds: float, said: str) -> None:
    assert minutes(seconds) == said
