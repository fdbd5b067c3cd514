"""A throw-away PostgreSQL server in a temporary directory, for the tests (tests/support/postgres.py) and the
benches (bench_bot's and bench_store's PostgreSQL rows).

``initdb`` and ``pg_ctl`` from PATH or /usr/lib/postgresql/*/bin, run as an unprivileged user when we are
root (PostgreSQL refuses root), on a free port of 127.0.0.1, removed afterwards. Not part of the bot.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

REQUIRE = "SOLO_BOT_REQUIRE_POSTGRES"  # =1: the tests fail, not skip, without the server binaries
SUPERUSER = "postgres"


def find_bin_dir() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``; None when they are not installed."""
    candidates = []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for d in candidates:
        if all((d / name).exists() for name in ("initdb", "pg_ctl", "postgres", "createdb")):
            return d
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_as() -> str | None:
    """The user the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    subprocess.run(["useradd", "--system", "--no-create-home", "solopg"], check=True)
    return "solopg"


class PostgresServer:
    """One throw-away server: ``init()``, ``start()``, ``dsn(db)``, ``create_database()``, ``stop()``,
    ``remove()``. ``durable=True`` keeps the distribution's durability (fsync on, synchronous_commit on: the
    bench); the default turns fsync off (the tests)."""

    def __init__(self, bin_dir: Path, *, durable: bool) -> None:
        self.bin = bin_dir
        self.durable = durable
        self.user = _run_as()
        self.root = Path(tempfile.mkdtemp(prefix="solo-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._names = itertools.count(1)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.root.chmod(0o700)

    def _cmd(self, *args: str) -> list[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        return ["runuser", "-u", self.user, "--", *cmd] if self.user is not None else cmd

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(self._cmd(*args), capture_output=True, text=True, cwd=self.root)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stdout}{done.stderr}\n"
                               f"{self.log_tail()}")
        return done

    def log_tail(self) -> str:
        try:
            return (self.root / "server.log").read_text()[-2000:]
        except OSError:
            return ""

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-locale",
                  "--no-sync")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:  # the tests: no fsync (a crash of the machine is not what they test)
            options += " -c fsync=off -c full_page_writes=off -c shared_buffers=32MB"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "server.log"), "-w",
                  "-t", "120", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "120", "stop")

    def running(self) -> bool:
        done = subprocess.run(self._cmd("pg_ctl", "-D", str(self.data), "status"), capture_output=True,
                              cwd=self.root)
        return done.returncode == 0

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _client(self, tool: str, *args: str) -> None:
        self._run(tool, "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, *args)

    def create_database(self, template: str = "template0") -> str:
        name = f"t{os.getpid()}_{next(self._names)}"
        self._client("createdb", "-T", template, name)
        return name

    def drop_database(self, name: str) -> None:
        self._client("dropdb", "--force", "--if-exists", name)

    def remove(self) -> None:
        if self.running():
            with contextlib.suppress(RuntimeError):
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def temporary_server(*, durable: bool) -> Iterator[PostgresServer | None]:
    """A started throw-away server (``durable``: the distribution's durability; else no fsync), removed at the
    end; None when the server binaries are not installed."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        yield None
        return
    server = PostgresServer(bin_dir, durable=durable)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.remove()


MISSING = "no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin"
