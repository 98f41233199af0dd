"""Typing a move: ``:`` opens a prompt for ``2S>1S`` (notation) or ``3>6`` (the towers' keys)."""

from __future__ import annotations

import pytest
from textual import events

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, Move
from soluna_tui.widgets.move_prompt import MovePrompt

from .burst import burst
from .helpers import footer_keys, game, hot_seat, make_app, screen_text, set_position, settle


def prompt_of(app) -> MovePrompt:
    return game(app).picking.move_prompt


async def type_move(pilot, text: str, enter: bool = True) -> None:
    """``:``, the text and Enter, all in one burst (as a paste or a quick typist sends them)."""
    await burst(pilot, ":", *text, *(["enter"] if enter else []))


@pytest.mark.parametrize(("text", "mover", "target"), [
    ("1S>1M", 0, 4), ("1s > 1m", 0, 4), ("1 sun>1 moon", 0, 4), ("1☀>1☾", 0, 4), ("1>5", 0, 4), ("4>7", 3, 6),
    ("3>1m", 2, 4)])
async def test_a_typed_move_is_played_from_and_onto_the_places_typed(tmp_path, text, mover, target) -> None:
    """Keys name places (the first like it where notation names a tower): the move leaves that place
    empty and the new tower in the target's."""
    app = make_app(tmp_path, hot_seat(seed=1))  # 1S 1S 1S 1S 1M 1M 1M 1* 1C 1C 1C 1C
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        move = Move.parse("1S>1M")
        await type_move(pilot, text)
        assert screen.match.round.moves == (move,)
        assert not prompt_of(app).display
        assert screen.board.cursor == target
        assert screen.picking_arrangement[mover] is None and screen.picking_arrangement[target] == move.result
        screen_now = screen_text(app)
        assert "1. Ann       1S>1M" in screen_now and "Bob to move" in screen_now


async def test_the_prompt_shows_what_is_typed_and_escape_closes_it(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await burst(pilot, "4")
        await type_move(pilot, "2S>1", enter=False)
        prompt = prompt_of(app)
        assert prompt.display and app.focused is prompt and prompt.value == "2S>1"
        text = screen_text(app)
        assert "2S>1" in text and "type a move" in text and "Play the move" in text
        await burst(pilot, "escape")
        assert not prompt.display and prompt.value == ""
        assert screen.board.cursor == 3 and screen.match.round.ply == 0
        assert "Ann to move" in screen_text(app)
        # Opening the prompt puts a tower in hand back.
        await burst(pilot, "enter", ":")
        assert screen.picking.picked_slot is None and prompt.display


@pytest.mark.parametrize(("text", "said"), [
    ("1>3", "2S cannot go on 1M: the heights differ (2, 1) and so do the symbols (sun, moon)."),
    ("2S>1M", "2S cannot go on 1M: the heights differ"),
    ("3M>1M", "There is no 3M tower to move."),
    ("1M>2M", "There is no 2M tower"),
    ("1M>1M", "There is only one 1M tower"),
    ("9>1", "No tower has the key 9: the keys are 1 to 4"),
    ("3>3", "3>3 puts a tower on itself"),
    ("2x>1M", "Unknown symbol 'x'"),
    ("2S 1M", "A move is A>B"),
    ("1>25C", "A tower holds 1 to 24 discs, not 25"),
])
async def test_a_refused_move_says_why_and_keeps_the_text(tmp_path, text, said) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        set_position(screen, "2S 1S 1M 1C")
        await pilot.pause()
        await type_move(pilot, text)
        assert screen.match.round.ply == 0
        prompt = prompt_of(app)
        assert prompt.display and prompt.value == text
        status = " ".join(line.split("│")[0].strip() for line in screen_text(app).splitlines()[-6:])
        assert said in status
        # Mended in place: clear the line, type a legal move, Enter.
        await burst(pilot, "ctrl+u", *"1>2", "enter")
        assert screen.match.round.moves == (Move.parse("2S>1S"),)


async def test_a_tower_without_targets_is_refused_as_picking_refuses_it(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        set_position(screen, "4S 2M 1M 1C")
        await pilot.pause()
        await type_move(pilot, "1>4")
        assert screen.match.round.ply == 0
        assert "4S cannot go anywhere: no other tower is 4 high or has a sun on top." in screen_text(app)


async def test_keys_after_enter_act_on_the_board_again(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await burst(pilot, ":", *"5>6", "enter", "2", "enter")
        assert screen.match.round.moves == (Move.parse("1M>1M"),)
        assert screen.picking.picked_slot == 1 and not prompt_of(app).display


async def test_a_pasted_move_lands_in_the_prompt(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        app.post_message(events.Paste(":1C>1*\n"))
        await burst(pilot)
        prompt = prompt_of(app)
        assert prompt.display and prompt.value == "1C>1*" and screen.match.round.ply == 0
        await burst(pilot, "enter")
        assert screen.match.round.moves == (Move.parse("1C>1*"),)


async def test_against_the_computer_only_on_your_turn(tmp_path) -> None:
    setup = MatchSetup.against_computer("greedy", MatchOptions(first_opener=1), seed=3)
    app = make_app(tmp_path, setup, computer_pause=2)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await pilot.pause()
        assert screen.flow.thinking
        await burst(pilot, ":", "1")
        assert not prompt_of(app).display
        assert footer_keys(app)["Type"] is False  # dimmed while it thinks
        await settle(pilot, app)
        assert screen.match.round.ply == 1
        assert footer_keys(app)["Type"] is True
        assert ": Type" in screen_text(app).splitlines()[-1]
        mine = screen.match.position.legal_moves[0]
        await type_move(pilot, str(mine))
        assert screen.match.round.moves[1] == mine
        await settle(pilot, app)
        assert screen.match.round.ply == 3 and screen.match.to_move == 0
        assert not prompt_of(app).display


#: Typed moves each refusal of the prompt answers: unreadable, a key or a tower that is not there, illegal.
REFUSED_TYPINGS = [
    "2X>1S", "1sunny>1moon", "1" + "Q" * 60 + ">1S", "abcdefghijklmnopqrstu>1S", "1S1M>2C", "0S>1S",
    "0000000000000000000000S>1S", "1" + "9" * 40 + "S>1M", "9" * 50 + ">1", "zz", "1S 1M", "3>3", ">",
    "12S>1M", "1>25C", "1C>2S", "3M>1S", "2S>1M", "1S>1S", "1S>" + "☀" * 30, "1 " + "moonish" * 6 + ">1S",
]


async def test_a_refusal_of_a_typed_move_is_whole_at_80x24_its_example_never_cut(tmp_path) -> None:
    """The prompt's two lines of status at 80x24 hold every refusal whole (no ellipsis), the fix it
    explains (``use S, M, * or C``, ``like 3M``) included: the text typed is on the prompt's line above,
    not repeated."""
    from soluna_tui.widgets.status_line import StatusLine

    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        set_position(screen, "12S 2S 1S 1M 1M 1C")
        await pilot.pause()
        status = screen.query_one(StatusLine)
        for text in REFUSED_TYPINGS:
            await burst(pilot, "escape")
            await type_move(pilot, text)
            assert screen.match.round.ply == 0 and prompt_of(app).value == text
            said = status.text
            assert status.kind == "error" and said.endswith(".")
            shown = [line[1:status.size.width - 1].strip()
                     for line in screen_text(app).splitlines()[status.region.y:status.region.bottom]]
            assert "…" not in "".join(shown), (text, shown)
            assert " ".join(" ".join(shown).split()) == " ".join(said.split()), (text, said, shown)
