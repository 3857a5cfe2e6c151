"""A throwaway PostgreSQL server for the test suite: the PostgreSQL store's tests run against a
real server, not a mock. `.ci/run` installs Debian's `postgresql` package when the machine has
none; `start()` makes a fresh cluster in a temp directory and starts it on a free port of
127.0.0.1, tuned for speed rather than durability; `stop()` kills it and removes the directory.

Written by hand rather than with pytest-postgresql because CI runs as root, which initdb and
postgres refuse, and pytest-postgresql cannot run the server as another user. Here, as root, the
server runs as the `postgres` user that Debian's package creates.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from glob import glob
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

# The user the server runs as when we are root (Debian's package creates it).
SERVER_USER = "postgres"
# Speed over durability: the cluster lives for one test session and is then thrown away.
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
}
START_ATTEMPTS = 3  # another process may take the free port before the server binds it
START_TIMEOUT = 60  # seconds pg_ctl waits for the server to accept connections
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


class ServerError(RuntimeError):
    """initdb or pg_ctl failed; the message carries their output and the server log's tail."""


@dataclass(frozen=True)
class Binaries:
    """Where the PostgreSQL server programs are."""

    initdb: str
    pg_ctl: str


def find_binaries() -> Binaries | None:
    """`initdb` and `pg_ctl` on PATH, else from the newest `/usr/lib/postgresql/*/bin` (Debian
    keeps them off PATH); None when PostgreSQL is not installed."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return Binaries(initdb, pg_ctl)

    def version(bin_dir: str) -> tuple[int, ...]:
        name = Path(bin_dir).parent.name  # "15", "9.6"
        return tuple(int(part) for part in name.split(".") if part.isdigit())

    for bin_dir in sorted(glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        initdb, pg_ctl = os.path.join(bin_dir, "initdb"), os.path.join(bin_dir, "pg_ctl")
        if os.access(initdb, os.X_OK) and os.access(pg_ctl, os.X_OK):
            return Binaries(initdb, pg_ctl)
    return None


@dataclass
class Server:
    """A running throwaway server; `url` reaches its `postgres` database as the `postgres`
    superuser (no password: trust authentication, 127.0.0.1 only)."""

    url: str
    port: int
    directory: Path  # the temp dir: data/, the unix socket and server.log
    start_seconds: float  # how long start() took, initdb included
    _command: list[str] = field(repr=False)  # runs a program as the server's user
    _pg_ctl: str = field(repr=False)
    _stopped: bool = field(default=False, repr=False)

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    @property
    def pid(self) -> int:
        """The postmaster's process id (the first line of postmaster.pid)."""
        return int((self.data_dir / "postmaster.pid").read_text().split("\n", 1)[0])

    def stop(self) -> None:
        """Kill the server (`pg_ctl stop -m immediate`: nothing to save) and remove its
        directory. Safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        try:
            _stop(self._command, self._pg_ctl, self.data_dir)
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def start() -> Server:
    """Make a fresh cluster in a temp directory and start a server on it, waiting until it
    accepts connections. Raises ServerError when PostgreSQL is missing or will not start."""
    began = time.perf_counter()
    binaries = find_binaries()
    if binaries is None:
        raise ServerError(
            "PostgreSQL is not installed: no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin"
        )
    command, owner = _as_server_user()
    directory = Path(tempfile.mkdtemp(prefix="skirmbot-pg-", dir=_temp_root(owner)))
    try:
        if owner is not None:
            os.chown(directory, owner.pw_uid, owner.pw_gid)
        data = directory / "data"
        # C locale: byte-order collation on every machine (like SQLite's), no locale needed.
        _run(
            [*command, binaries.initdb, "-D", str(data), "-U", "postgres", "-A", "trust",
             "-E", "UTF8", "--locale=C", "--no-sync"],
            directory,
        )  # fmt: skip
        conf = data / "postgresql.conf"
        base = conf.read_text()
        for attempt in range(START_ATTEMPTS):
            port = _free_port()
            settings = {**SETTINGS, "port": str(port), "unix_socket_directories": f"'{directory}'"}
            # Later lines win; written once more per attempt with the new port.
            conf.write_text(
                base + "".join(f"\n{key} = {value}" for key, value in settings.items()) + "\n"
            )
            try:
                _run(
                    [*command, binaries.pg_ctl, "start", "-D", str(data), "-l", str(directory / "server.log"),
                     "-w", "-t", str(START_TIMEOUT)],
                    directory,
                )  # fmt: skip
                break
            except ServerError:
                if attempt == START_ATTEMPTS - 1 or "already in use" not in _log_tail(directory):
                    raise
        return Server(
            url=f"postgresql://postgres@127.0.0.1:{port}/postgres",
            port=port,
            directory=directory,
            start_seconds=time.perf_counter() - began,
            _command=command,
            _pg_ctl=binaries.pg_ctl,
        )
    except BaseException:
        if (directory / "data" / "postmaster.pid").exists():  # say pg_ctl gave up waiting
            with contextlib.suppress(ServerError):
                _stop(command, binaries.pg_ctl, directory / "data")
        shutil.rmtree(directory, ignore_errors=True)
        raise


async def create_database(admin_url: str, name: str) -> str:
    """Create an empty database `name` through the server at `admin_url`; its URL."""
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f"CREATE DATABASE {_identifier(name)}")
    finally:
        await connection.close()
    return _with_database(admin_url, name)


async def drop_database(admin_url: str, name: str) -> None:
    """Drop database `name` if it exists, closing whatever connections are still open on it."""
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f"DROP DATABASE IF EXISTS {_identifier(name)} WITH (FORCE)")
    finally:
        await connection.close()


def _as_server_user() -> tuple[list[str], pwd.struct_passwd | None]:
    """The prefix that runs a program as the server's user, and that user when it is not us:
    initdb and postgres refuse to run as root, so root runs them as `postgres`."""
    if os.geteuid() != 0:
        return [], None
    try:
        owner = pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise ServerError(
            f"running as root, and there is no {SERVER_USER!r} user to run PostgreSQL as "
            "(Debian's postgresql package creates it)"
        ) from None
    if runuser := shutil.which("runuser"):
        return [runuser, "-u", SERVER_USER, "--"], owner
    if setpriv := shutil.which("setpriv"):
        return [
            setpriv,
            f"--reuid={owner.pw_uid}",
            f"--regid={owner.pw_gid}",
            "--init-groups",
        ], owner
    raise ServerError(
        "running as root, and neither runuser nor setpriv is here to drop to postgres"
    )


def _temp_root(owner: pwd.struct_passwd | None) -> str:
    """The system temp dir, or /tmp when another user (the server's) cannot pass through it
    (say TMPDIR under root's 0700 home)."""
    root = tempfile.gettempdir()
    if owner is None:
        return root
    for folder in [Path(root), *Path(root).parents]:
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            return "/tmp"
    return root


def _stop(command: list[str], pg_ctl: str, data: Path) -> None:
    _run([*command, pg_ctl, "stop", "-D", str(data), "-m", "immediate", "-w"], data.parent)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _run(argv: list[str], cwd: Path) -> None:
    """Run a server program from `cwd` (the server's user may not be able to enter ours);
    ServerError with its output and the server log's tail when it fails."""
    result = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if result.returncode != 0:
        raise ServerError(
            f"{' '.join(argv)} exited with {result.returncode}:\n{result.stdout}{result.stderr}"
            f"{_log_tail(cwd)}"
        )


def _log_tail(directory: Path) -> str:
    try:
        lines = (directory / "server.log").read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "server.log:\n" + "\n".join(lines[-20:]) + "\n"


def _identifier(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ValueError(f"not a plain database name: {name!r}")
    return f'"{name}"'


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))
