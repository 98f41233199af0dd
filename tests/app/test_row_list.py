"""The lobby's lists drawn with the line API (issue 43): a change of who is online repaints the lines that changed
and no other, each row kept by its identity (the person's number, the match's code), the highlight staying on
its row as others come and go; the keys and the mouse as a menu's."""

from __future__ import annotations

from textual.app import App, ComposeResult

from soluna_tui.link.messages import Doing, ListedMatch, OnlinePerson
from soluna_tui.online.panes.matches_in_play import MatchesInPlay
from soluna_tui.widgets.people_list import PeopleList
from soluna_tui.widgets.row_list import RowList


def crowd(count: int) -> list[OnlinePerson]:
    return [OnlinePerson(10 + number, f"p{number:02}", False, None, Doing.LOBBY) for number in range(count)]


class Lists(App[None]):
    """Who is online, six lines tall, and the matches in play under it."""

    CSS = "PeopleList, MatchesInPlay { max-height: 6; }"

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int | str] = []

    def compose(self) -> ComposeResult:
        yield PeopleList(id="people")
        yield MatchesInPlay()

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        self.chosen.append(event.index)

    def on_matches_in_play_chosen(self, event: MatchesInPlay.Chosen) -> None:
        self.chosen.append(event.entry.code)


class Drawn:
    """The lines a list draws (``render_line``'s rows) and the rows whose text it makes (``row_text``)."""

    def __init__(self, rows: RowList) -> None:
        self.lines: list[int] = []
        self.texts: list[object] = []
        render_line, row_text = rows.render_line, rows.row_text

        def counted_line(y: int):
            self.lines.append(y)
            return render_line(y)

        def counted_text(value, width: int) -> str:
            self.texts.append(value)
            return row_text(value, width)

        rows.render_line, rows.row_text = counted_line, counted_text  # type: ignore[method-assign]

    def clear(self) -> None:
        self.lines.clear()
        self.texts.clear()


async def test_a_change_repaints_its_line_and_an_arrival_shifts_the_lines_under_it_only() -> None:
    app = Lists()
    async with app.run_test(size=(60, 16)) as pilot:
        people = crowd(30)
        listed = app.query_one(PeopleList)
        listed.show(people, None)
        await pilot.pause()
        assert listed.size.height == 6 and listed.option_count == 30
        drawn = Drawn(listed)
        busy = people.copy()
        busy[3] = OnlinePerson(13, "p03", False, None, Doing.COMPUTER, ("5",))
        listed.show(busy, None)
        await pilot.pause()
        assert sorted(set(drawn.lines)) == [3] and [value[0].name for value in drawn.texts] == ["p03"]
        drawn.clear()
        newcomer = OnlinePerson(99, "p01a", True, 1500, Doing.LOBBY)
        listed.show([*busy[:2], newcomer, *busy[2:]], None)
        await pilot.pause()
        assert sorted(set(drawn.lines)) == [2, 3, 4, 5]  # the newcomer's and the lines it shifted, in view
        assert [value[0].name for value in drawn.texts] == ["p01a"]  # the shifted rows' lines not made again
        drawn.clear()
        listed.show([*busy[:2], newcomer, *busy[2:], OnlinePerson(98, "zed", False, None, Doing.LOBBY)], None)
        await pilot.pause()
        assert drawn.lines == []  # out of view: only the scroll bar knows
        assert listed.option_count == 32


async def test_the_highlight_stays_on_its_person_as_others_come_and_go_and_at_its_place_when_they_go() -> None:
    app = Lists()
    async with app.run_test(size=(60, 16)) as pilot:
        people = crowd(10)
        listed = app.query_one(PeopleList)
        listed.show(people, None)
        listed.focus()
        await pilot.press("down", "down", "down")
        assert listed.highlighted == 3
        listed.show([OnlinePerson(5, "a", False, None, Doing.LOBBY), *people], None)
        assert listed.highlighted == 4 and listed.value_at(4)[0].name == "p03"
        listed.show([person for person in people if person.name != "p03"], None)
        assert listed.highlighted == 4 and listed.value_at(4)[0].name == "p05"  # gone: the one now at its place
        await pilot.press("up")
        assert listed.value_at(listed.highlighted)[0].name == "p04"
        await pilot.press("end")
        assert listed.highlighted == 8 and listed.scroll_offset.y == 3  # the last row in view
        await pilot.press("down", "enter")  # the last: Down does nothing, Enter chooses it
        await pilot.press("home", "up")
        assert listed.highlighted == 0 and listed.scroll_offset.y == 0
        await pilot.press("pagedown")
        assert listed.highlighted == 5
        await pilot.click(listed, offset=(5, 2))  # a click on the third line in view chooses its row
        await pilot.pause()
        assert app.chosen == [8, 2] and listed.highlighted == 2 and listed.value_at(2)[0].name == "p02"
        drawn = Drawn(listed)
        await pilot.hover(listed, offset=(5, 4))  # the row under the mouse lit, as an OptionList lights it
        await pilot.pause()
        repainted = set(drawn.lines)
        assert 4 in repainted and repainted <= {2, 4}  # the row it reached, and the one it left (the click's)
        lit, plain = listed.render_line(4), listed.render_line(3)
        assert next(iter(lit)).style != next(iter(plain)).style


async def test_a_match_s_line_wraps_where_the_list_is_narrow_and_a_click_on_either_line_chooses_it() -> None:
    app = Lists()
    async with app.run_test(size=(40, 16)) as pilot:
        matches = app.query_one(MatchesInPlay)
        first = ListedMatch("ABCD", ("player0", "q0"), 1, (0, 0), 0, (False, False), yours=True)
        second = ListedMatch("EFGH", ("p1", "q1"), 2, (1, 0), 0, (False, False))
        matches.show((first, second))
        await pilot.pause()
        assert matches.option_count == 2 and matches.virtual_size.height == 3  # the held seat's line in two
        await pilot.click(matches, offset=(3, 1))
        await pilot.pause()
        assert app.chosen == ["ABCD"] and matches.highlighted == 0
        drawn = Drawn(matches)
        matches.show((first, ListedMatch("EFGH", ("p1", "q1"), 2, (1, 1), 0, (False, False))))
        await pilot.pause()
        assert sorted(set(drawn.lines)) == [2] and [entry.code for entry in drawn.texts] == ["EFGH"]


async def test_two_alike_lines_keep_the_highlight_on_its_person_when_the_other_goes() -> None:
    """Two guests of the same name, doing the same: their lines alike; the second highlighted, the first goes: the
    highlight is drawn again on the line the second moved to."""
    app = Lists()
    async with app.run_test(size=(60, 16)) as pilot:
        twins = [OnlinePerson(number, "bob (guest)", False, None, Doing.LOBBY) for number in (1, 2)]
        people = crowd(10)
        listed = app.query_one(PeopleList)
        listed.show([*people[:2], *twins, *people[2:]], None)
        await pilot.pause()
        listed.highlighted = 3
        await pilot.pause()
        assert listed.scroll_offset.y == 0
        drawn = Drawn(listed)
        listed.show([*people[:2], twins[1], *people[2:]], None)
        await pilot.pause()
        assert listed.highlighted == 2 and 2 in drawn.lines
