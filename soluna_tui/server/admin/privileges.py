"""Runs in the server process.

Who ``soluna serve`` runs as: never root, unless told to (``--allow-root``).

Started as root, the server reads its host key (which may be root's alone), then becomes the
unprivileged user given by ``--user`` for good (no supplementary groups, its own group, its own
user), all before it opens the store, starts the zygote, starts a thread or listens: what strangers
send over the network is never read by a root process, and every session's child runs as that user.

Only the host key is read as root. The store is opened after the drop, as the user: opened as root,
SQLite would create and open its files (the log, the lock) in a folder the user may write, and a
server taken over as that user could leave links there for root to write through on the next start.
So the data directory must be the user's: the server makes it for them when it is missing, and
stops with one line saying what to ``chown`` when the user cannot write it. Ports below 1024 need
root, so a dropped server listens above (2222; a firewall, or a service manager's socket, brings
22 to it).
"""

from __future__ import annotations

import logging
import os
import pwd
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from ..config import ServerConfig
from ..ssh.host_key import load_or_create_host_key
from ..storage import DEFAULT_FILE, URL_SCHEMES

log = logging.getLogger("soluna.server")

#: What a server started as root says when it is not told whom to run as.
STARTED_AS_ROOT = "started as root: give --user NAME (an unprivileged user) to run sessions as"


class UserRefused(ValueError):
    """``--user`` (or its absence) does not suit who started the server: a usage error (exit 2)."""


class UserCannotServe(ValueError):
    """The user the server now runs as cannot keep its files where it was told to."""


@dataclass(frozen=True)
class Account:
    """The user a server started as root becomes."""

    name: str
    uid: int
    gid: int
    home: str


def _account(name: str) -> Account:
    try:
        entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
    except (KeyError, OverflowError):
        raise UserRefused(f"--user {name}: no such user") from None
    return Account(entry.pw_name, entry.pw_uid, entry.pw_gid, entry.pw_dir)


def run_as(user: str | None, allow_root: bool) -> Account | None:
    """The account to drop to, or ``None``: nothing to change (not root, or root allowed by ``--allow-root``)."""
    if os.geteuid() != 0:
        if user is not None and _account(user).uid != os.geteuid():
            current = _name_of(os.geteuid())
            raise UserRefused(f"--user {user}: only root can run sessions as another user, and this server "
                              f"runs as {current}; leave --user out")
        return None
    if user is None:
        if allow_root:
            return None
        raise UserRefused(STARTED_AS_ROOT)
    account = _account(user)
    if account.uid == 0 or account.gid == 0:
        raise UserRefused(f"--user {user}: that is root or root's group; give an unprivileged user")
    return account


def _name_of(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def drop_root(config: ServerConfig, account: Account) -> ServerConfig:
    """As root: make the data directory the user's if it is missing, read the host key, become ``account``
    for good, and check the user can keep the SQLite store; the config with the key read."""
    _make_directory_for(config.data_dir, account)
    key = config.host_key if config.host_key is not None else load_or_create_host_key(config.resolved_host_key_path)
    become(account)
    _check_python(account)
    _check_store_folder(config, account)
    log.info("running as user %s (uid %d, gid %d); the host key was read as root", account.name, account.uid,
             account.gid)
    return replace(config, host_key=key)


def _make_directory_for(directory: Path, account: Account) -> None:
    """A missing data directory is made (mode 0700) and given to ``account``; an existing one is left as it is."""
    if directory.exists():
        return
    directory.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        return  # made meanwhile by someone else: theirs, not ours to give away
    os.chown(directory, account.uid, account.gid, follow_symlinks=False)


def become(account: Account) -> None:
    """Give up root for good: no supplementary groups, then the group, then the user; checked."""
    os.setgroups([])
    os.setgid(account.gid)
    os.setuid(account.uid)
    try:
        os.setuid(0)
    except PermissionError:
        pass
    else:
        raise OSError(f"could not give up root for user {account.name}")
    if os.getresuid() != (account.uid,) * 3 or os.getresgid() != (account.gid,) * 3 or os.getgroups():
        raise OSError(f"could not become user {account.name}")
    os.environ.update(HOME=account.home, USER=account.name, LOGNAME=account.name)


def _check_python(account: Account) -> None:
    """As the user: this Python, its standard library and this package must be theirs to read (a Python
    installed in root's home is not), or every later import and the zygote would fail."""
    import soluna_tui

    for path in (sys.executable, os.path.dirname(os.__file__), os.path.dirname(soluna_tui.__file__)):
        if not os.access(path, os.R_OK | os.X_OK):
            raise UserCannotServe(f"user {account.name} cannot read {path}: install Python and soluna where "
                                  "every user may read them")


def _check_store_folder(config: ServerConfig, account: Account) -> None:
    """As the user: the SQLite database's folder, and its files already there, must be writable (PostgreSQL
    keeps nothing on this machine)."""
    location = config.database
    if location is not None and location.startswith(URL_SCHEMES):
        return
    database = config.data_dir / DEFAULT_FILE if location is None else Path(location).expanduser()
    folder = database.parent
    try:
        os.stat(folder)
    except FileNotFoundError:
        return  # the store makes it, as the user, or says why it cannot
    except OSError:
        pass  # out of the user's reach: said below
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserCannotServe(f"user {account.name} cannot write {folder}: give --data-dir a folder it may "
                              f"write (or chown {account.name} {folder})")
    for path in (database, *(database.with_name(database.name + end) for end in ("-wal", "-shm", ".lock"))):
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise UserCannotServe(f"user {account.name} cannot write {path}: chown {account.name} {path}")
