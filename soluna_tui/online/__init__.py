"""The session's side of online play: the app a player's terminal runs in a session of ``soluna serve``.

It runs in the session's child process, or in a house of several sessions' apps (or the zygote that forks
them). The server (``soluna_tui/server``)
starts these modules by name (``link/child_config.py``) and speaks to the child only over the link
(``soluna_tui/link``); it never imports them, and nothing here imports the server. The first line of each
module's docstring says where it runs:

===================  ================  ===============================================================
Module               Runs in           What it does there
===================  ================  ===============================================================
zygote.py            zygote            imports the app once, forks a child per session, reaps them
rehearsal.py         zygote            a session played headless before the first fork: built once, shared
child.py             child             the child's set-up: session leader, limits, no tracebacks
house.py             house             several sessions' apps side by side, each on its own terminal
child_app.py         child             the app a session runs: each message from the server to its half, quitting
linked_app.py        child             the app's link to the server: what it said, questions, no disk
lobby_half.py        child             the lobby's menu and settings: their wishes told the server, and its answers
pairing_half.py      child             the lobby's quick matches and challenges, asked of the server, and their dialogs
people_half.py       child             who is online, as the server says it, handed to the lobby
records_half.py      child             the leaderboard and a record asked of the server; a finished match replayed
browsers_half.py     child             play in a browser: a code and the browsers signed in, asked of the server
match_half.py        child             the match shown: its news, a computer match kept, leaving it
remote_table.py      child             a seat at a match the server holds
who_is_online.py     child             who is online, as the server last said (the lobby draws from it)
talk_half.py         child             table talk heard, drawn in the chat panels; lines said, mutes, reports, tells
talk_commands.py     child             mute, unmute and report worked out once, for the chat line and the lines
cards_half.py        child             a player's card asked of the server by number, shown; a tell begun from it
tournaments_half.py  child             tournaments: the list, a page, join, withdraw, a player's own, asked
activity.py          child             what counts as the player there (a key that acts), told the server
line_lobby.py        child             the lobby in lines for a screen reader (a numbered menu), then a match in lines
line_state.py        child             what the lobby in lines knows, shared by its parts; saying, telling the server
line_talk.py         child             the lobby in lines' talk: each line told with its speaker, read back, said,
                                       mute, unmute, report
line_replays.py      child             the lobby in lines' replays: record's matches by number, replay N
line_cards.py        child             the lobby in lines' cards (finger NAME) and tells (tell NAME TEXT)
line_pairing.py      child             the lobby in lines' quick matches, challenges, a match created or joined by code
line_tables.py       child             the lobby in lines' matches: played, watched, a rematch; the computer's, kept
line_words.py        child             the lobby in lines' menu and words, and the lines saying people and matches
line_tournaments.py  child             the lobby in lines' tournaments: listed, read, joined and withdrawn by number
line_session.py      child             a child in lines (``ssh -t HOST screen-reader``): the terminal, the link, a loop
screens/             child             the screens only a session shows: the lobby, a quick match waiting,
                                       challenges, names, records, the leaderboard, a player's card, browsers,
                                       closing soon, tournaments
panes/               child             the lobby's panes (menu and settings, the lists: matches in play, who
                                       is online, the talk), each served by its half; the table is there
===================  ================  ===============================================================
"""
