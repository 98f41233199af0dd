"""Runs in the server process.

The web door's page and files: the name asked on arrival, the page with the terminal, the files
it loads (``textual-serve``'s xterm.js bundle, its stylesheet and font, and ours: the script that
fits the terminal to the device, the symbol font, the stylesheet), and the headers every answer
carries. Nothing on the page comes from another site: no web font, no script, no image (the page
works offline on a LAN); its splash shows the game's title, nothing of the server.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from urllib.parse import quote, urlsplit

from ...link.child_config import SCREEN_READER_COMMAND

#: The files the page loads, by the name it asks for: (package, path inside it, content type).
STATIC_FILES = {
    "textual.js": ("textual_serve", "static/js/textual.js", "text/javascript; charset=utf-8"),
    "xterm.css": ("textual_serve", "static/css/xterm.css", "text/css; charset=utf-8"),
    "RobotoMono.ttf": ("textual_serve", "static/fonts/RobotoMono-VariableFont_wght.ttf", "font/ttf"),
    "soluna.css": ("soluna_tui.server.web", "soluna.css", "text/css; charset=utf-8"),
    "soluna.js": ("soluna_tui.server.web", "soluna.js", "text/javascript; charset=utf-8"),
    "SolunaSymbols.ttf": ("soluna_tui.server.web", "SolunaSymbols.ttf", "font/ttf"),
    "SolunaSymbols-LICENSE.txt": ("soluna_tui.server.web", "SolunaSymbols-LICENSE.txt", "text/plain; charset=utf-8"),
}
#: ``textual.js`` keeps its terminal to itself (one object made on load, named nowhere) and fits it to the
#: window at one font size. The page's copy hands the terminal to ``soluna.js`` instead, as a
#: ``textual-terminal`` event on the page, and leaves the fitting to it (the font size that suits the device,
#: the visible part of a zoomed page). If a textual-serve release no longer has this line, its file is served
#: as it is and the page works as textual.js alone makes it (``tests/web`` fails on it).
TERMINAL_HANDED_OVER = (b"window.onresize=()=>{this.fit()}",
                        b'document.dispatchEvent(new CustomEvent("textual-terminal",{detail:this}))')
#: A value to fill in a page (``fill``), and those that are HTML made here, not text to escape.
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MADE_HERE = frozenset(("bar", "again", "error", "code_error", "notice", "name_focus", "code_focus", "heading",
                       "lines_checked", "other_mode"))
#: The longest name a visitor may type (the lobby cleans and shortens it as it does an SSH user name).
NAME_INPUT_LIMIT = 40
#: The longest code read from the page (ten letters, with a dash or spaces).
CODE_INPUT_LIMIT = 20
#: The page's screen-reader choice (the game in lines, as ``ssh -t HOST screen-reader``): a field of the name's form
#: and of the sign-in's, and a parameter of the page's address (``/?screen-reader=1``, a bookmark for a blind
#: player); ``SCREEN_READER_ON`` turns it on, any other value leaves it off.
SCREEN_READER_PARAMETER, SCREEN_READER_ON = "screen-reader", "1"
#: Where a tab in lines opens its websocket: the SSH command's name before the usual ``/ws`` and ``/ws/NAME``
#: (``textual.js`` adds its own query to the address, so the choice is in the path).
LINES_SOCKET_PREFIX = f"/{SCREEN_READER_COMMAND}"
#: The page's address in lines, and on the full screen (the choice made, whatever the browser keeps).
LINES_PAGE, FULL_SCREEN_PAGE = f"/?{SCREEN_READER_PARAMETER}={SCREEN_READER_ON}", f"/?{SCREEN_READER_PARAMETER}=0"


class PublicUrlError(ValueError):
    """A ``--public-url`` that is not an http(s) address of a host."""


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    content_type: str


def load_static_files() -> dict[str, StaticFile]:
    """Every file the page loads, read once from the wheels that ship them (``textual.js`` handing its terminal
    over: ``TERMINAL_HANDED_OVER``)."""
    files = {name: StaticFile(resources.files(package).joinpath(path).read_bytes(), content_type)
             for name, (package, path, content_type) in STATIC_FILES.items()}
    textual = files["textual.js"]
    files["textual.js"] = StaticFile(textual.body.replace(*TERMINAL_HANDED_OVER, 1), textual.content_type)
    return files


def public_origin(url: str) -> str:
    """The origin (``https://soluna.example.org``) of a ``--public-url``; ``PublicUrlError`` if it is none."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username or parts.password:
        raise PublicUrlError(f"{url!r} is not an address such as https://soluna.example.org")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def security_headers(origin: str | None) -> dict[str, str]:
    """What every answer carries: scripts, styles, fonts and connections from this server only; never framed; no
    address sent to another site (but to this one: a form sent with ``no-referrer`` says its Origin is ``null``)."""
    socket = f" {origin.replace('http', 'ws', 1)}" if origin else ""
    policy = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self'; "
              f"img-src 'self' data:; connect-src 'self'{socket}; form-action 'self'; base-uri 'none'; "
              "frame-ancestors 'none'")
    return {"Content-Security-Policy": policy, "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin",
            "Cross-Origin-Resource-Policy": "same-origin"}


HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, interactive-widget=resizes-content">
<title>{{title}}</title>
<link rel="icon" href="data:,">
{links}
</head>
"""

NAME_PAGE = HEAD.format(links="""<link rel="stylesheet" href="/static/soluna.css">
<script src="/static/soluna.js"></script>""") + """<body>
<main class="welcome">
<h1>Soluna</h1>
<p>Bruno Faidutti's two-player stacking game: play the computer, or meet other players in the lobby.</p>
{notice}<form method="get" action="/">
<label for="name">Your name</label><br>
<input id="name" name="name" maxlength="{limit}" required{name_focus} autocomplete="nickname" value="{name}">
<button type="submit">Play</button><br>
<input type="checkbox" id="screen-reader" name="screen-reader" value="1"{lines_checked}>
<label for="screen-reader">Screen reader: play as lines</label>
</form>
{error}<form method="post" action="/sign-in" class="sign-in">
<input type="hidden" name="screen-reader" value="{lines}">
<label for="code">Or your code, to play under your SSH key's name, rated</label><br>
<input id="code" name="code" maxlength="{code_limit}" required autocomplete="off" autocapitalize="characters"
 spellcheck="false" placeholder="ABCD-EFGHJK" value="{code}">
<button type="submit"{code_focus}>Sign in</button>
</form>
{code_error}<p class="hint">Play over SSH with a key, and the lobby's "Play in a browser" shows a code for this
page.</p>
</main>
</body>
</html>
"""

PLAY_PAGE = HEAD.format(links="""<link rel="stylesheet" href="/static/xterm.css">
<link rel="stylesheet" href="/static/soluna.css">
<script src="/static/textual.js"></script>
<script src="/static/soluna.js"></script>""") + """<body>
{bar}{heading}<div class="splash">Soluna</div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{socket}" data-font-size="16"
 data-screen-reader="{lines}"></div>
<div class="keys" aria-label="Keys a phone's keyboard lacks">
<button type="button" data-key="escape">Esc</button><button type="button" data-key="tab">Tab</button>
<button type="button" data-key="?" aria-label="Help">?</button>
<button type="button" data-key="u" aria-label="Undo">Undo</button>
<button type="button" data-key="left" aria-label="Left">←</button><button type="button" data-key="up"
 aria-label="Up">↑</button><button type="button" data-key="down" aria-label="Down">↓</button><button type="button"
 data-key="right" aria-label="Right">→</button><button type="button" data-key="enter">Enter</button>
</div>
<main class="ended">
<h1>Session ended</h1>
<p class="last-line"></p>
<p class="again">{again}</p>
</main>
</body>
</html>
"""

#: The way back once the session ended: the page again (a guest's under the same name; in lines, in lines again).
AGAIN = '''<form method="get" action="/">{name}{lines}<button type="submit">Play again</button></form>'''
#: The field that keeps the screen-reader choice in a form.
LINES_FIELD = f'<input type="hidden" name="{SCREEN_READER_PARAMETER}" value="{SCREEN_READER_ON}">'
#: The title and the heading (for a screen reader only: the terminal is the page) of the page in lines.
LINES_TITLE = "Soluna in lines"
LINES_HEADING = f'<h1 class="unseen">{LINES_TITLE}</h1>\n'

#: The bar over a signed-in browser's terminal: whose name it plays under, and signing out.
SIGNED_IN_BAR = """<form method="post" action="/sign-out" class="signed-in">
Signed in as {name} with a code from the SSH lobby. <button type="submit">Sign out</button>
{other_mode}</form>
"""


def screen_reader_asked(values: Mapping[str, str]) -> bool:
    """Whether a page's address (or a form) asks for the game in lines: its ``screen-reader`` is ``1`` (any other
    value, or none, is the full screen: a mistyped bookmark is no error)."""
    return values.get(SCREEN_READER_PARAMETER) == SCREEN_READER_ON


def name_page(name: str = "", error: str = "", code: str = "", code_error: str = "", notice: str = "",
              lines: bool = False) -> str:
    """The page a visitor arrives at: the name they will be known by in the lobby, or a code from the SSH lobby
    (``code`` filled in: the page was opened as the code's link; the code is used only once Sign in is pressed),
    and the screen-reader choice (``lines``: ticked, as the page's address asked)."""
    return fill(NAME_PAGE, title="Soluna", limit=str(NAME_INPUT_LIMIT), code_limit=str(CODE_INPUT_LIMIT), name=name,
                code=code, name_focus="" if code else " autofocus", code_focus=" autofocus" if code else "",
                lines_checked=" checked" if lines else "", lines=SCREEN_READER_ON if lines else "",
                error=_said(error, "error"), code_error=_said(code_error, "error"), notice=_said(notice, "notice"))


def play_page(origin: str, name: str | None, lines: bool = False) -> str:
    """The page with the terminal: a guest's websocket at ``/ws/NAME``; a signed-in browser's (``name`` ``None``)
    at ``/ws``, where the server knows who it is by its cookie alone. In ``lines`` (for a screen reader), both
    under ``LINES_SOCKET_PREFIX``, the terminal's screen-reader mode on, its own title and heading."""
    base = origin.replace("http", "ws", 1) + (LINES_SOCKET_PREFIX if lines else "")
    mode = {"title": LINES_TITLE if lines else "Soluna", "heading": LINES_HEADING if lines else "",
            "lines": SCREEN_READER_ON if lines else ""}
    again_in_lines = LINES_FIELD if lines else ""
    if name is None:
        return fill(PLAY_PAGE, bar="", socket=f"{base}/ws", again=AGAIN.format(name="", lines=again_in_lines), **mode)
    return fill(PLAY_PAGE, bar="", socket=f"{base}/ws/{quote(name, safe='')}",
                again=AGAIN.format(name=f'<input type="hidden" name="name" value="{html.escape(name)}">',
                                   lines=again_in_lines)
                + f'\n<a href="{LINES_PAGE if lines else "/"}">Change name</a>', **mode)


def signed_in_page(origin: str, name: str, lines: bool = False, kept: bool = False) -> str:
    """The page with the terminal for a browser signed in as ``name``'s key, with its Sign out and a link to the
    other way of playing (in lines, or on the full screen), but where the key keeps the game in lines (``kept``:
    ``forget`` in the SSH lobby's lines undoes that)."""
    page = play_page(origin, None, lines)
    other = f'<a href="{FULL_SCREEN_PAGE if lines else LINES_PAGE}">' \
            f'{"Play on the full screen" if lines else "Screen reader: play as lines"}</a>\n'
    bar = fill(SIGNED_IN_BAR, name=name, other_mode="" if kept else other)
    return page.replace("<body>\n", "<body>\n" + bar, 1)


def fill(template: str, **values: str) -> str:
    """``template`` with each ``{key}`` replaced by its value, HTML-escaped (but those this module made as HTML:
    the bar, the links, the lines said, the focus), in one pass: a value is never read as a ``{key}`` itself."""
    def value(found: re.Match[str]) -> str:
        key = found[1]
        if key not in values:
            return found[0]
        return values[key] if key in MADE_HERE else html.escape(values[key])

    return PLACEHOLDER.sub(value, template)


def _said(text: str, kind: str) -> str:
    return f'<p class="{kind}">{html.escape(text)}</p>\n' if text else ""
