"""The database schema as numbered migrations, the same text for SQLite and PostgreSQL.

A migration is applied once, in one transaction with the row in ``schema_version`` that records
it; a database already at a version is left alone. Never edit a released migration: add one.
``{id}`` stands for an auto-numbered primary key, spelled as each database wants it.
Times are seconds since the epoch; JSON documents are text (portable, and read whole anyway).
"""

from __future__ import annotations

CREATE_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY,"
    " applied_at DOUBLE PRECISION NOT NULL)"
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: players, matches in play, finished matches, ratings, one-time imports.
    (
        """CREATE TABLE players (
            fingerprint TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            first_seen DOUBLE PRECISION NOT NULL,
            last_seen DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE matches (
            code TEXT PRIMARY KEY,
            version INTEGER NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            document TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE finished_matches (
            id {id},
            code TEXT NOT NULL,
            result TEXT NOT NULL,
            winner INTEGER,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            document TEXT NOT NULL,
            fingerprint0 TEXT,
            fingerprint1 TEXT,
            started_at DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION NOT NULL,
            rating_changes TEXT NOT NULL)""",
        "CREATE INDEX finished_by_first_player ON finished_matches (fingerprint0, finished_at)",
        "CREATE INDEX finished_by_second_player ON finished_matches (fingerprint1, finished_at)",
        "CREATE INDEX finished_by_code ON finished_matches (code, finished_at)",
        """CREATE TABLE ratings (
            fingerprint TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            conservative DOUBLE PRECISION NOT NULL,
            played INTEGER NOT NULL,
            won INTEGER NOT NULL,
            lost INTEGER NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX ratings_by_rank ON ratings (conservative)",
        """CREATE TABLE imports (
            name TEXT PRIMARY KEY,
            done_at DOUBLE PRECISION NOT NULL,
            detail TEXT NOT NULL)""",
    ),
    # 2: several servers on one database: who is alive, what each match last told its players,
    # matches against the computer kept for players (held when they leave or their server dies).
    (
        "ALTER TABLE matches ADD COLUMN news TEXT",
        """CREATE TABLE servers (
            id TEXT PRIMARY KEY,
            seen_at DOUBLE PRECISION NOT NULL,
            watching TEXT NOT NULL)""",
        """CREATE TABLE computer_games (
            id TEXT PRIMARY KEY,
            server TEXT,
            identity TEXT NOT NULL,
            fingerprint TEXT,
            secret_hash TEXT NOT NULL,
            document TEXT NOT NULL,
            held_until DOUBLE PRECISION,
            updated_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX computer_games_by_identity ON computer_games (identity, updated_at)",
    ),
    # 3: names compared by what they look like (their Unicode skeleton), not by letters: each player's
    # name_key is computed again, in Python (``Database.migrate``), for the same result on both databases.
    (),
    # 4: clocks: a match's clock (its setting, each player's time left, whose runs and since when), in play
    # and as it ended; the leaderboard reads players by their count of rated matches.
    (
        "ALTER TABLE matches ADD COLUMN clock TEXT",
        "ALTER TABLE finished_matches ADD COLUMN clock TEXT",
        "CREATE INDEX ratings_by_played ON ratings (played, conservative)",
    ),
    # 5: names that differ only by spaces look alike ("a n n" is "ann"): every name_key is computed again.
    (),
    # 6: the lobby's settings a keyed player left (rules, stars, clock...), set again on their next visit.
    (
        """CREATE TABLE lobby_choices (
            fingerprint TEXT PRIMARY KEY,
            choices TEXT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL)""",
    ),
    # 7: fair play. Secrets tried, per seat, match and address, kept where every server counts them; and
    # each pair of rated players' rated matches (the leaderboard admits a player by their opponents),
    # counted from the matches filed so far.
    (
        """CREATE TABLE secret_tries (
            scope TEXT PRIMARY KEY,
            tries INTEGER NOT NULL,
            last_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX secret_tries_by_time ON secret_tries (last_at)",
        """CREATE TABLE rated_opponents (
            fingerprint TEXT NOT NULL,
            opponent TEXT NOT NULL,
            matches INTEGER NOT NULL,
            PRIMARY KEY (fingerprint, opponent))""",
        """INSERT INTO rated_opponents (fingerprint, opponent, matches)
            SELECT player, opponent, COUNT(*) FROM (
                SELECT fingerprint0 AS player, fingerprint1 AS opponent FROM finished_matches
                WHERE rating_changes <> '[]'
                UNION ALL
                SELECT fingerprint1, fingerprint0 FROM finished_matches WHERE rating_changes <> '[]') AS rated
            GROUP BY player, opponent""",
    ),
    # 8: who is online: each server's sessions (their names, what they do, who hides), with its heartbeat, and
    # that list's version (read again only when it changes). How many watch each match is read from it now:
    # ``watching`` is no longer written.
    (
        "ALTER TABLE servers ADD COLUMN online TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE servers ADD COLUMN online_version INTEGER NOT NULL DEFAULT 0",
    ),
    # 9: table talk. The chat lines players reported, kept for the owner (``soluna serve chat-reports``); and a
    # match's talk, written only when the owner asks (``--keep-chat``), with the match (its code and start).
    (
        """CREATE TABLE chat_reports (
            id {id},
            code TEXT,
            started_at DOUBLE PRECISION,
            room TEXT NOT NULL,
            name TEXT NOT NULL,
            fingerprint TEXT,
            text TEXT NOT NULL,
            said_at DOUBLE PRECISION NOT NULL,
            reporter TEXT NOT NULL,
            reporter_fingerprint TEXT,
            reported_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX chat_reports_by_time ON chat_reports (reported_at)",
        """CREATE TABLE chat_lines (
            id {id},
            code TEXT NOT NULL,
            started_at DOUBLE PRECISION NOT NULL,
            room TEXT NOT NULL,
            name TEXT NOT NULL,
            fingerprint TEXT,
            text TEXT NOT NULL,
            said_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX chat_lines_by_match ON chat_lines (code, started_at, said_at)",
    ),
    # 10: players meeting: those waiting for a quick match (one a person, on one terminal), and challenges.
    (
        """CREATE TABLE seeks (
            person TEXT PRIMARY KEY,
            session TEXT NOT NULL UNIQUE,
            server TEXT NOT NULL,
            seeker TEXT NOT NULL,
            terms TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            code TEXT,
            partner TEXT)""",
        """CREATE TABLE challenges (
            id {id},
            sender TEXT NOT NULL,
            sender_session TEXT NOT NULL,
            sender_server TEXT NOT NULL,
            target TEXT NOT NULL,
            who TEXT NOT NULL,
            terms TEXT NOT NULL,
            sent_at DOUBLE PRECISION NOT NULL,
            state TEXT NOT NULL,
            code TEXT,
            reason TEXT)""",
        "CREATE INDEX challenges_by_target ON challenges (target)",
    ),
    # 11: browsers signed in as a keyed player. The one-time codes shown in the SSH lobby (named by their first
    # letters, the whole code kept only as a salted hash), and each browser's sign-in (its cookie kept as a hash).
    (
        """CREATE TABLE browser_codes (
            code_id TEXT PRIMARY KEY,
            code_hash TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            name TEXT NOT NULL,
            wrong INTEGER NOT NULL,
            made_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX browser_codes_by_key ON browser_codes (fingerprint)",
        """CREATE TABLE browser_sign_ins (
            id {id},
            token_hash TEXT NOT NULL UNIQUE,
            fingerprint TEXT NOT NULL,
            name TEXT NOT NULL,
            linked_at DOUBLE PRECISION NOT NULL,
            last_seen DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL,
            address TEXT NOT NULL,
            agent TEXT NOT NULL)""",
        "CREATE INDEX browser_sign_ins_by_key ON browser_sign_ins (fingerprint)",
    ),
    # 12: established keys, the trust the leaderboard admits players by (``server/rating_model.py``): named by the owner
    # (``named``) or earned against established keys (``played``). Those the leaderboard listed until now, at its
    # defaults then (5 rated matches against 3 players with 5 rated matches against others), are kept (``listed``).
    (
        """CREATE TABLE established_keys (
            fingerprint TEXT PRIMARY KEY,
            reason TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL)""",
        """INSERT INTO established_keys (fingerprint, reason, since)
            SELECT r.fingerprint, 'listed', r.updated_at FROM ratings r WHERE r.played >= 5 AND (
                SELECT COUNT(*) FROM rated_opponents o JOIN ratings q ON q.fingerprint = o.opponent
                WHERE o.fingerprint = r.fingerprint AND q.played - o.matches >= 5) >= 3""",
    ),
    # 13: moderation that follows people. Whom each keyed player muted (a key, or a guest's address: ``speaker``),
    # kept with their key; a reported line (``line_key``: the line, however many servers heard it) reported once
    # per reporter (``reporter_key``: a key, or a guest's address); earlier reports have neither and stay apart.
    (
        """CREATE TABLE chat_mutes (
            listener TEXT NOT NULL,
            speaker TEXT NOT NULL,
            name TEXT NOT NULL,
            muted_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (listener, speaker))""",
        "ALTER TABLE chat_reports ADD COLUMN line_key TEXT",
        "ALTER TABLE chat_reports ADD COLUMN reporter_key TEXT",
        "CREATE UNIQUE INDEX chat_reports_once ON chat_reports (line_key, reporter_key)",
    ),
    # 14: names as labels of a key. A name a key gave up (its player chose another) stays reserved to that key for
    # a while (``players.NAME_RESERVED_FOR``), compared by what it looks like (``name_key``), unless the owner frees it.
    (
        """CREATE TABLE released_names (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            released_at DOUBLE PRECISION NOT NULL)""",
    ),
    # 15: a match in play adjourned (nobody could play for over a day): when, until both its players are back.
    (
        "ALTER TABLE matches ADD COLUMN adjourned_at DOUBLE PRECISION",
    ),
    # 16: tournaments (``storage/tournaments.py``): each announced one, its entrants (by key) and its pairings (a
    # ``second_player`` of NULL is a bye), everything a server needs to run it on, or resume it after a restart.
    (
        """CREATE TABLE tournaments (
            id {id},
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            length INTEGER NOT NULL,
            starts_at DOUBLE PRECISION NOT NULL,
            terms TEXT NOT NULL,
            min_rating INTEGER,
            min_rated_matches INTEGER,
            created_by TEXT,
            state TEXT NOT NULL,
            round INTEGER NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION,
            winner TEXT)""",
        "CREATE INDEX tournaments_by_state ON tournaments (state, starts_at)",
        """CREATE TABLE tournament_entrants (
            tournament INTEGER NOT NULL,
            fingerprint TEXT NOT NULL,
            name TEXT NOT NULL,
            rating INTEGER,
            joined_at DOUBLE PRECISION NOT NULL,
            paused INTEGER NOT NULL,
            PRIMARY KEY (tournament, fingerprint))""",
        """CREATE TABLE tournament_pairings (
            id {id},
            tournament INTEGER NOT NULL,
            round INTEGER NOT NULL,
            first_player TEXT NOT NULL,
            second_player TEXT,
            paired_at DOUBLE PRECISION NOT NULL,
            code TEXT,
            outcome TEXT,
            finished_at DOUBLE PRECISION)""",
        "CREATE INDEX tournament_pairings_by_tournament ON tournament_pairings (tournament, id)",
        "CREATE INDEX tournament_pairings_by_code ON tournament_pairings (code)",
    ),
    # 17: each room of table talk's budget of lines (``storage/talk_rooms.py``), taken from by every server alike.
    (
        """CREATE TABLE talk_rooms (
            room TEXT PRIMARY KEY,
            lines DOUBLE PRECISION NOT NULL,
            counted_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX talk_rooms_by_time ON talk_rooms (counted_at)",
    ),
)

#: The migrations that compute every player's ``name_key`` again.
REKEY_PLAYERS = frozenset({3, 5})
#: The version a fully migrated database is at.
LATEST = len(MIGRATIONS)
