"""Real PostgreSQL servers for the tests (no mocks): the one ``PARLOUR_TEST_POSTGRES`` names (a
``postgresql://`` URL of a database the tests may create schemas in), or a throwaway
server started from the installed binaries (``initdb``, ``pg_ctl``) on a free port in a
temporary folder; and a fresh schema (a namespace of its own) for each test.

PostgreSQL refuses to run as root (CI runs as root): there the throwaway server runs as the
unprivileged user ``nobody`` (``runuser``), in a folder it owns.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ENV = "PARLOUR_TEST_POSTGRES"
"""The environment variable naming a running PostgreSQL server for the tests."""


def _binary(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                                                   reverse=True)), None)  # fmt: skip
    if found is None:
        raise RuntimeError(f"{name} not found: install PostgreSQL (apt-get install postgresql) "
                           f"or set {ENV} to a server's URL")  # fmt: skip
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ThrowawayPostgres:
    """A PostgreSQL server of our own in a temporary folder: :meth:`start`, :meth:`stop` (the
    outage tests stop and restart it), :meth:`destroy` (stop and delete everything)."""

    def __init__(self) -> None:
        self._user = "nobody" if os.geteuid() == 0 else None
        # as root, in /tmp: the unprivileged user must reach its folder (TMPDIR may not let it)
        where = "/tmp" if self._user and os.path.isdir("/tmp") else None
        self.folder = Path(tempfile.mkdtemp(prefix="parlour-pg-", dir=where))
        self.data = self.folder / "data"
        self.port = _free_port()
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run(_binary("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")  # fmt: skip

    def _run(self, *command: str) -> None:
        runuser = shutil.which("runuser") or "/usr/sbin/runuser"
        prefix = [runuser, "-u", self._user, "--"] if self._user else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def start(self) -> None:
        """Start it (again) on its port; returns once it accepts connections."""
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
                   " -c fsync=off -c full_page_writes=off -c max_connections=60")  # fmt: skip
        self._run(_binary("pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.folder / "log"), "-w", "-t", "60", "start")  # fmt: skip

    def stop(self) -> None:
        """Stop it now (``-m fast``: every connection is cut)."""
        self._run(_binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The admin URL of a PostgreSQL server for this test session: ``PARLOUR_TEST_POSTGRES``,
    or a throwaway server started for it (started up to three times on a fresh port, in case
    another program took the port meanwhile)."""
    url = os.environ.get(ENV)
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            raise RuntimeError(f"{ENV} must be a postgresql:// URL, not {url!r}")
        yield url
        return
    server = throwaway()
    try:
        yield server.url()
    finally:
        server.destroy()


def throwaway() -> ThrowawayPostgres:
    """A started :class:`ThrowawayPostgres` (the caller destroys it)."""
    for attempt in range(3):
        server = ThrowawayPostgres()
        try:
            server.start()
            return server
        except RuntimeError:
            server.destroy()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def in_schema(url: str, schema: str) -> str:
    """``url`` whose connections work in ``schema`` (libpq's ``options``: ``search_path``)."""
    parts = urlsplit(url)
    option = f"options=-csearch_path%3D{schema}"
    return urlunsplit(parts._replace(query=f"{parts.query}&{option}" if parts.query else option))


@contextlib.contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """The URL of a new, empty schema on the server of ``admin_url`` (its own namespace: a
    database of its own for a store), dropped afterwards."""
    name = f"parlour_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f'CREATE SCHEMA "{name}"'.encode())
    try:
        yield in_schema(admin_url, name)
    finally:
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin,
        ):
            admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'.encode())
