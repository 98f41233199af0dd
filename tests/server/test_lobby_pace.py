"""When a lobby draws others' news: a change of who is online at the next of its moments half a second apart, the
talk at the next of those a second apart (every other one), the count of the talk's lines unread (while it is not
open) at the next of those three seconds apart, whatever news waits drawn together whenever it draws."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from soluna_tui.online.panes.lobby_pace import NEWS_EVERY, ONLINE_EVERY, UNREAD_EVERY, LobbyPace


@dataclass
class FakeTimer:
    delay: float
    callback: Callable[[], None]
    stopped: bool = False

    def stop(self) -> None:
        self.stopped = True


@dataclass
class Lobby:
    """A lobby in view, its timers kept to be run by hand."""

    composed: bool = True
    in_view: bool = True
    timers: list[FakeTimer] = field(default_factory=list)

    def set_timer(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        self.timers.append(FakeTimer(delay, callback))
        return self.timers[-1]

    def live(self) -> list[FakeTimer]:
        return [timer for timer in self.timers if not timer.stopped]


def paced(phase: float) -> tuple[Lobby, LobbyPace, list[str]]:
    """A lobby whose moments fall at ``phase`` seconds from now (modulo their cadence), and what it drew."""
    lobby, drawn = Lobby(), []
    pace = LobbyPace(lobby)  # type: ignore[arg-type]  # the screen as the pace needs it
    pace._phase = time.monotonic() + phase
    return lobby, pace, drawn


def part(name: str, drawn: list[str]) -> Callable[[], None]:
    def draw() -> None:
        drawn.append(name)

    draw.__name__ = name
    return draw


@pytest.mark.parametrize("phase", [0.1, 0.3, 0.45])
def test_the_talk_waits_for_the_lobbys_next_second_and_who_is_online_for_its_next_half_second(phase) -> None:
    lobby, pace, drawn = paced(phase)
    pace.draw_news(part("talk", drawn))
    [talk] = lobby.live()
    assert talk.delay == pytest.approx(phase, abs=0.02)  # the next of the moments a second apart
    pace.draw_news(part("talk", drawn))  # more talk: no other timer
    assert lobby.live() == [talk]
    talk.callback()
    assert drawn == ["talk"]

    lobby, pace, drawn = paced(phase + ONLINE_EVERY)  # the next moment a second apart is past the next half second
    pace.draw_news(part("talk", drawn))
    pace.draw_news(part("online", drawn), ONLINE_EVERY)  # sooner: the talk goes with it
    [online] = lobby.live()
    assert lobby.timers[0].stopped and online.delay == pytest.approx(phase, abs=0.02)
    pace.draw_news(part("talk", drawn))  # waits for the same moment, not its own later one
    assert lobby.live() == [online]
    online.callback()
    assert sorted(drawn) == ["online", "talk"] and len(lobby.timers) == 2  # drawn together, nothing left waiting


@pytest.mark.parametrize("phase", [0.2, 1.4, 2.9])
def test_an_unread_count_waits_for_the_lobbys_next_three_seconds_unless_other_news_is_drawn_sooner(phase) -> None:
    lobby, pace, drawn = paced(phase)
    pace.draw_news(part("unread", drawn), UNREAD_EVERY)
    [unread] = lobby.live()
    assert unread.delay == pytest.approx(phase, abs=0.02)  # the next of the moments three seconds apart
    pace.draw_news(part("unread", drawn), UNREAD_EVERY)  # more lines unread: no other timer
    assert lobby.live() == [unread]
    pace.draw_news(part("online", drawn), ONLINE_EVERY)
    [sooner] = lobby.live()
    if phase % ONLINE_EVERY < phase - 0.01:  # a half second's moment comes first: the count is drawn with it
        assert unread.stopped and sooner.delay == pytest.approx(phase % ONLINE_EVERY, abs=0.02)
    else:  # the same moment: one timer for both
        assert sooner is unread
    sooner.callback()
    assert sorted(drawn) == ["online", "unread"]  # drawn together, at the sooner moment


def test_news_waits_while_the_lobby_is_hidden_and_is_drawn_when_it_shows_again() -> None:
    lobby, pace, drawn = paced(0.2)
    lobby.in_view = False  # under a match
    pace.draw_news(part("online", drawn), ONLINE_EVERY)
    lobby.live()[0].callback()
    assert drawn == []
    lobby.in_view = True
    pace.shown_again()
    assert drawn == ["online"]


def test_the_cadences_share_their_moments() -> None:
    assert NEWS_EVERY / ONLINE_EVERY == int(NEWS_EVERY / ONLINE_EVERY)  # the talk's moments are among the others'
    assert UNREAD_EVERY / NEWS_EVERY == int(UNREAD_EVERY / NEWS_EVERY)  # and the unread count's among the talk's
