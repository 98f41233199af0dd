"""What the game's first frame does without (``benchmarks/startup.py`` times it): parts that most matches never
show are made, and their modules imported, the first time they show."""

from __future__ import annotations

from soluna_tui.link.messages import ChatLine
from soluna_tui.link.safe_talk import Room
from soluna_tui.widgets.chat_input import ChatInput
from soluna_tui.widgets.chat_lines import ChatLines

from ..fresh import modules_after
from .helpers import game, hot_seat, make_app, screen_text


def test_the_game_starts_without_table_talk() -> None:
    """The talk's lines, chat line and book are the SSH child's: a game on one terminal never imports them."""
    loaded = modules_after(
        "import soluna_tui.cli as cli\n"
        "cli.build_parser(every_command=not cli.starts_the_app(['play']))\n"
        "from soluna_tui.app.soluna_app import SolunaApp\n"
        "from soluna_tui.screens.game import GameScreen"
    )
    talk = ("soluna_tui.play.chat_book", "soluna_tui.widgets.chat_input", "soluna_tui.widgets.chat_lines",
            "soluna_tui.link.safe_talk")
    assert [name for name in loaded if name.startswith(talk)] == []


async def test_the_talk_panel_is_made_when_the_first_line_comes(tmp_path) -> None:
    """Beside the board the panel is an empty box until a line is heard; then it shows it, and opens its chat line."""
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = game(app)
        panel = screen.chat_panel
        assert not panel.display and not screen.query(ChatLines) and not screen.query(ChatInput)
        panel.show([ChatLine(id=1, room=Room.PLAYERS, speaker=7, name="cyd", text="good luck", at=0.0)])
        await pilot.pause()
        assert panel.display and "cyd: good luck" in screen_text(app)
        assert len(screen.query(ChatLines)) == 1 and not panel.chat_line.display
        panel.open()
        await pilot.pause()
        assert panel.chat_line.display and app.focused is panel.chat_line
        assert len(screen.query(ChatInput)) == 1  # made once
