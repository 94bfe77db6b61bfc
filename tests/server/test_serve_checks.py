"""What ``batak serve`` and ``batak admin`` check before they start, and say in one plain line:
options out of range, a data folder or database that cannot be used, a port already taken; a
database password never printed; a Redis that cannot be reached said in the log; the player
endpoints answer 404 for an id no player has."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from harness import ServerProcess, ServerThread, fast_config, free_port

from batak.cli import main
from batak.cli.serve import _parse, start_lines, storage_problem
from batak.server.app import origin_allowed
from batak.server.client import Client, ServerError
from batak.server.cluster.bus import Bus
from batak.server.config import ServerConfig
from batak.server.storage import shown_url

NO_PG = "postgresql://batak:s3cret-pw@127.0.0.1:1/batak"  # nothing listens on port 1
#: ``hostname -f`` on a cloud machine (51 characters)
_CLOUD_NAME = "batak-1.europe-west3-a.c.my-project-123456.internal"


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [
        ("port", "8000", 8000),
        ("port", "65535", 65535),
        ("port", "0", None),
        ("port", "99999", None),
        ("port", "-1", None),
        ("port", "abc", None),
        ("whole", "0", 0),
        ("whole", "-1", None),
        ("whole", "1.5", None),
        ("count", "0", None),
        ("count", "3", 3),
        ("positive", "0", None),
        ("positive", "0.5", 0.5),
        ("positive", "nan", None),
        ("time", "0", 0.0),
        ("time", "-5", None),
        ("time", "inf", None),
        ("percent", "100", 100),
        ("percent", "150", None),
        ("stakes", "100,1000", (100, 1000)),
        ("stakes", "0,-5", None),
        ("stakes", "abc", None),
        ("stakes", "", None),
        ("url", "https://batak.example", "https://batak.example"),
        ("url", "http://10.0.0.5:8000/", "http://10.0.0.5:8000/"),
        ("url", "notaurl", None),
        ("url", "ftp://x", None),
        ("url", "http://h:99999", None),
        ("origin", "https://a.example/", "https://a.example"),
        ("origin", "https://a.example/path", None),
        ("origin", "garbage", None),
        ("redis", "redis://127.0.0.1:6380/0", "redis://127.0.0.1:6380/0"),
        ("redis", "redis://cache", "redis://cache"),
        ("redis", "rediss://:pw@cache:6380/2", "rediss://:pw@cache:6380/2"),
        ("redis", "unix:///run/redis.sock", "unix:///run/redis.sock"),
        ("redis", "http://cache:6379", None),
        ("redis", "cache:6379", None),
        ("redis", "redis://cache:6379/x", None),
        ("redis", "redis://cache:99999/0", None),
        ("redis", "redis:///0", None),
        ("redis", "unix://", None),
        ("node", "n1", "n1"),
        ("node", "eu-west.2_b", "eu-west.2_b"),
        ("node", "N" * 63, "N" * 63),  # (32 at most before)
        ("node", "N" * 64, None),
        # --node "$(hostname -f)" on a cloud machine (51 characters: refused before)
        ("node", _CLOUD_NAME, _CLOUD_NAME),
        ("node", "node 1", None),  # HAProxy's ?node= never matches a space
        ("node", "n1&x=2", None),
        ("node", "düğüm", None),
        ("node", "", None),
        ("node", ".n1", None),
    ],
)
def test_option_values_are_checked(kind: str, value: str, expected: Any) -> None:
    assert _parse(kind, value) == expected


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--port", "99999"], "not a port"),
        (["--stakes", "abc"], "not stakes"),
        (["--fee-percent", "150"], "percentage from 0 to 100"),
        (["--decision-seconds", "0"], "not a number above 0"),
        (["--rooms-per-guest", "-1"], "whole number of 0 or more"),
        (["--public-url", "notaurl"], "not a web address"),
        (["--allow-origin", "garbage"], "not an origin"),
        # it used to be taken, and the start ended in redis-py's traceback (exit 3)
        (["--node", "n1", "--redis", "http://cache:6379"], "not a Redis address"),
        # it was taken, and broke the load balancer's ?node= routing
        (["--node", "node 1"], "not a node name: use only the letters a-z and A-Z, digits,"),
    ],
)
def test_serve_refuses_bad_values_in_plain_words(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_bad_redis_address_is_refused_without_its_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", "--lang", "tr", "--node", "n1", "--redis", "rediss://:hush-pw@cache/x"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Redis adresi değil" in err and "rediss://:***@cache/x" in err, err
    assert "hush-pw" not in err


@pytest.mark.parametrize(
    "url",
    ["redis://:hush-pw@cache:99999/0", "redis://u:hush-pw@cache:abc/0", "redis://u:hush-pw@[::1/0"],
)
def test_a_redis_address_with_a_bad_port_is_refused_without_its_password(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Masking the password read the port, which raised for a port that is not one: argparse
    then said 'invalid parse value' with the whole address, password and all, in English."""
    with pytest.raises(SystemExit) as e:
        main(["serve", "--lang", "tr", "--node", "n1", "--redis", url])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "hush-pw" not in err and ":***@" in err, err
    assert "redis://SUNUCU:PORT/0 biçiminde yaz" in err, err


@pytest.mark.parametrize("command", ["serve", "admin"])
@pytest.mark.parametrize(
    "url", ["postgresql://u:hush-pw@db:abc/x", "postgresql://u:hush-pw@db:99999/x"]
)
def test_a_database_address_with_a_bad_port_is_refused_without_its_password(
    command: str, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It ended in a traceback (the password masked by reading the port, which raised)."""
    argv = [command, "--lang", "tr", "--database", url]
    assert main([*argv, "players"] if command == "admin" else argv) == 2
    err = capsys.readouterr().err
    assert "hush-pw" not in err and "Traceback" not in err, err
    assert "“postgresql://u:***@db:" in err and "bir veritabanı adresi değil" in err, err


def test_serve_refuses_in_turkish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--lang", "tr", "--port", "abc"])
    assert "1 ile 65535 arasında bir tam sayı ver" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["serve", "--lang", "tr", "--node", "düğüm 1"])
    assert e.value.code == 2
    assert "düğüm adı olamaz: yalnızca a-z ve A-Z harflerini" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "usage", "unknown"),
    [
        # serve's usage is 17 lines: the error would scroll past it, so it is one line
        (
            ["serve", "--prot", "80"],
            "usage: batak serve [options] ('batak serve --help' lists them)\n",
            "--prot 80; did you mean --port?",
        ),
        (["admin", "ledger-check", "--x"], "usage: batak admin ledger-check [-h]", "--x"),
        (
            ["online", "--crate", "standard"],
            "usage: batak online [-h]",
            "--crate; did you mean --create?",
        ),
    ],
)  # fmt: skip
def test_an_unknown_option_is_refused_with_its_own_commands_usage(
    argv: list[str], usage: str, unknown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It used to come with the top usage, ``batak {play,replay,...}``, which does not show
    the options of the command the mistake was made in. A typo gets the option it resembles;
    a usage of many lines gives way to one that says where they are listed."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    assert err.rstrip().endswith(": error: unrecognized arguments: " + unknown), err
    assert err.count("\n") <= 7, err


def test_data_folders_that_cannot_be_used(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    url = f"sqlite:///{blocker}/batak.sqlite3"
    assert "a file is in the way" in (storage_problem(url, "en") or "")
    url = f"sqlite:///{blocker}/sub/batak.sqlite3"
    assert "klasör olması gereken yerde bir dosya var" in (storage_problem(url, "tr") or "")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "batak.sqlite3").write_bytes(b"not a database " * 100)
    said = storage_problem(f"sqlite:///{bad}/batak.sqlite3", "en") or ""
    assert "is not a Batak database" in said and "file is not a database" in said
    assert "is not a database address" in (storage_problem("mysql://x", "en") or "")
    good = tmp_path / "good"
    assert storage_problem(f"sqlite:///{good}/batak.sqlite3", "en") is None
    assert (good / "batak.sqlite3").is_file()  # a server makes its database
    # ... batak admin does not
    missing = tmp_path / "typo"
    said = storage_problem(f"sqlite:///{missing}/batak.sqlite3", "en", create=False) or ""
    assert "no Batak database" in said and not missing.exists()


def _as_a_plain_user() -> list[str]:
    """A command prefix under which file permissions hold: root's rights to write anywhere
    dropped (setpriv), or nothing for a user who has none."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    prefix = [setpriv or "", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]
    if not setpriv or subprocess.run([*prefix, "--", "true"], check=False).returncode:
        pytest.skip("run as root, and setpriv cannot drop root's right to write anywhere")
    return [*prefix, "--"]


def _batak(*argv: str) -> subprocess.CompletedProcess[str]:
    """``batak ARGV`` where the files' permissions hold (see :func:`_as_a_plain_user`)."""
    cmd = [*_as_a_plain_user(), sys.executable, "-m", "batak", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def test_a_data_folder_that_may_only_be_read_is_refused_before_the_start(tmp_path: Path) -> None:
    """A server on a database it may only read used to say it had started, then log "could
    not store (attempt to write a readonly database)" at every move, for ever; an empty folder
    it may not write in was said in SQLite's words ("unable to open database file")."""
    data = tmp_path / "data"
    assert storage_problem(f"sqlite:///{data}/batak.sqlite3", "en") is None  # a database
    empty = tmp_path / "empty"
    empty.mkdir()
    for path in (data / "batak.sqlite3", data, empty):
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        port = str(free_port())
        for folder in (data, empty):
            done = _batak("serve", "--port", port, "--data", str(folder), "--lang", "en")
            assert done.returncode == 2, done
            assert done.stderr == (
                f"batak serve: cannot keep the data in {folder}: there is no permission to "
                "write there. Choose another folder with --data.\n"
            )
            assert "open http" not in done.stdout
        # batak admin: the VIP flag is refused the same way (it was a traceback)
        done = _batak("admin", "--data", str(data), "--lang", "en", "vip", "ayse", "on")
        assert done.returncode == 2 and "Traceback" not in done.stderr, done
        assert "there is no permission to write there" in done.stderr
    finally:
        for path in (data, data / "batak.sqlite3", empty):
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_one_server_at_a_time_on_a_data_folder(tmp_path: Path) -> None:
    """A second server on the same folder used to start too: both resumed the same tables, and
    the first one's moves then failed for ever ("UNIQUE constraint failed: events...")."""
    data = tmp_path / "data"
    first = ServerProcess(data, free_port(), "--bot-delay", "0")
    first.start()
    try:
        assert first.proc is not None
        argv = ["serve", "--port", str(free_port()), "--data", str(data), "--lang", "en"]
        cmd = [sys.executable, "-m", "batak", *argv]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
        assert done.returncode == 2 and "open http" not in done.stdout
        assert done.stderr == (
            f"batak serve: another batak serve (process {first.proc.pid}) already uses the data "
            f"in {data}: two servers on one database would run the same tables at once and spoil "
            "each other's moves. Stop that one first, or choose another folder with --data.\n"
        )
    finally:
        first.kill()  # the lock goes with the process, however it ends
    second = ServerProcess(data, free_port(), "--bot-delay", "0")
    second.start()
    second.stop()


def test_one_server_at_a_time_on_a_postgresql_database_unless_they_are_a_cluster(
    tmp_path: Path,
) -> None:
    """A second ``batak serve`` on the same PostgreSQL database used to start: it loaded the
    tables of the first and both failed to store moves for ever ("duplicate key ... events").
    It is refused, as on SQLite; so is a cluster node beside a lone server, and a lone server
    beside a cluster's nodes (which share the database, each table held by one node)."""
    from harness import postgres_database

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    with pg as url:
        shown = shown_url(url)

        def second(*extra: str) -> subprocess.CompletedProcess[str]:
            argv = ["serve", "--port", str(free_port()), "--database", url, "--lang", "en"]
            cmd = [sys.executable, "-m", "batak", *argv, *extra]
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)

        first = ServerProcess(tmp_path / "a", free_port(), "--database", url)
        first.start()
        try:
            done = second()
            assert done.returncode == 2 and "open http" not in done.stdout
            assert done.stderr.startswith(
                f"batak serve: another batak serve already uses the database {shown}: "
            ), done.stderr
            assert "--node" in done.stderr
            node = second("--node", "n2")
            assert node.returncode == 2, node.stderr
            assert node.stderr.startswith("batak serve: a batak serve that is not a cluster node")
        finally:
            first.kill()  # the lock goes with the connection, however the process ends
        nodes = [
            ServerProcess(tmp_path / n, free_port(), "--database", url, "--node", n)
            for n in ("n1", "n2")
        ]
        try:
            for n in nodes:  # the nodes of a cluster share the database
                n.start()
            alone = second()
            assert alone.returncode == 2 and "another batak serve" in alone.stderr
        finally:
            for n in nodes:
                n.stop()


def test_the_postgresql_lock_is_taken_again_when_its_connection_is_lost() -> None:
    """The lock lived on one connection: PostgreSQL restarted (or a proxy cut it), the server
    ran on without it, and a second one started beside it. The lock is watched: taken again
    on a new connection; taken by another server meanwhile, this one is told (and stops)."""
    import time

    import psycopg
    from harness import postgres_database

    from batak.cli.serve import PG_LOCK, _claim_postgres, claim_database

    pg = postgres_database()
    if pg is None:
        pytest.skip("BATAK_TEST_POSTGRES is not set (.ci/run starts a PostgreSQL server)")
    cut = (
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name = 'batak serve (lock)' AND datname = current_database()"
    )

    def until(cond: Any) -> None:
        deadline = time.monotonic() + 15
        while not cond():
            assert time.monotonic() < deadline
            time.sleep(0.05)

    with pg as url:
        lost: list[int] = []
        lock, holder = _claim_postgres(url, False, every=0.5, lost=lambda: lost.append(1))
        assert lock is not None and holder == ""
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(cut)
        until(lambda: getattr(lock, "retaken", 0) == 1)
        assert claim_database(url) == (None, "?")  # held again: a second server is refused
        with psycopg.connect(url, autocommit=True) as other:
            other.execute(cut)
            other.execute("SELECT pg_advisory_lock(%s)", (PG_LOCK,))  # another server's, now
            until(lambda: lost == [1])
        lock.close()
        assert not lost[1:]


def test_an_unreachable_database_is_said_without_its_password() -> None:
    said = storage_problem(NO_PG, "en") or ""
    assert "cannot reach the database" in said
    assert "s3cret-pw" not in said and "batak:***@127.0.0.1:1" in said
    assert shown_url("postgresql://u:p@[::1]:5/db") == "postgresql://u:***@[::1]:5/db"
    assert shown_url("postgresql://u@h/db") == "postgresql://u@h/db"


def test_serve_says_the_port_is_taken_and_never_that_it_started(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--data", str(tmp_path / "d")])
    out, err = capsys.readouterr()
    assert code == 2
    assert f"port {port} on 127.0.0.1 is already in use" in err
    assert "open http" not in out and "Traceback" not in err
    assert not (tmp_path / "d").exists()  # a refused start leaves no data folder behind


def test_serve_refuses_what_it_cannot_start_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("x")
    argv = ["serve", "--port", str(free_port())]
    assert main([*argv, "--data", str(tmp_path / "afile")]) == 2
    assert "cannot keep the data in" in capsys.readouterr().err
    assert main([*argv, "--database", NO_PG]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the database" in err and "s3cret-pw" not in err
    assert main([*argv, "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "--redis needs --node" in capsys.readouterr().err


def test_admin_does_not_make_up_an_empty_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "typo-folder"
    assert main(["admin", "--data", str(typo), "ledger-check"]) == 2
    assert "no Batak database" in capsys.readouterr().err
    assert not typo.exists()


def test_admin_takes_its_folder_after_the_jobs_name_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak admin vip NAME on --data DIR`` used to be refused ("unrecognized arguments:
    --data DIR"): only ``batak admin --data DIR vip NAME on`` was understood."""
    data = tmp_path / "data"
    assert storage_problem(f"sqlite:///{data}/batak.sqlite3", "en") is None  # a database
    assert main(["admin", "ledger-check", "--data", str(data), "--lang", "tr"]) == 0
    assert "Çip defteri tam tutuyor" in capsys.readouterr().out
    # given after the job's name, it wins over the one before it
    typo = tmp_path / "typo"
    assert main(["admin", "--data", str(typo), "chip-report", "--data", str(data)]) == 0
    assert main(["admin", "--lang", "en", "vip", "nobody", "on", "--data", str(data)]) == 2
    assert "No account is called nobody." in capsys.readouterr().err
    assert not typo.exists()


def test_admin_refuses_a_database_of_another_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``batak admin --data other players`` on another program's SQLite file gave it the whole
    Batak schema and said its chip ledger was exact."""
    import sqlite3

    other = tmp_path / "other"
    other.mkdir()
    with sqlite3.connect(other / "batak.sqlite3") as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    for job in ("players", "ledger-check"):
        assert main(["admin", "--data", str(other), "--lang", "en", job]) == 2
        err = capsys.readouterr().err
        assert "is not a Batak database (no Batak data in it)" in err, err
    with sqlite3.connect(other / "batak.sqlite3") as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names == {"notes"}


@pytest.mark.parametrize("value", ["0", "-2", "x"])
def test_admin_refuses_a_least_number_of_rooms_below_one(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``chip-report --min-matches 0`` used to be taken and said "met at 0 or more rooms"."""
    with pytest.raises(SystemExit) as e:
        main(["admin", "chip-report", "--min-matches", value, "--lang", "en"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(f"--min-matches: not a whole number of 1 or more: {value}"), err


def test_a_redis_never_reached_is_said_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    cluster = SimpleNamespace(node="n1")
    bus = Bus(cluster, "redis://:hush-pw@127.0.0.1:1/0")  # type: ignore[arg-type]

    async def run() -> None:
        await bus.start()
        await asyncio.sleep(0.2)
        await bus.stop()

    with caplog.at_level(logging.WARNING, logger="batak.server.cluster.bus"):
        asyncio.run(run())
    said = [r.getMessage() for r in caplog.records if "cannot reach Redis" in r.getMessage()]
    assert len(said) == 1  # once, not at every retry
    assert "hush-pw" not in said[0] and ":***@127.0.0.1:1" in said[0]
    assert not bus.up


def test_stats_and_progress_of_no_player_are_404(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:

        async def me() -> str:
            c = Client(srv.url, name="Ayşe")
            await c.connect()
            await c.close()
            return str(c.player["id"])

        pid = asyncio.run(me())
        for what in ("stats", "progress"):
            with urllib.request.urlopen(f"{srv.http}/api/players/{pid}/{what}", timeout=5) as r:
                assert r.status == 200 and json.loads(r.read())
            for nobody in ("999999", "abc"):
                with pytest.raises(urllib.error.HTTPError) as e:
                    urllib.request.urlopen(f"{srv.http}/api/players/{nobody}/{what}", timeout=5)
                assert e.value.code == 404
                assert json.loads(e.value.read()) == {"error": "no such player"}


def test_the_first_lines_say_where_a_server_listens_when_players_open_another_address() -> None:
    """Every node of a cluster used to print the same line, the load balancer's address, with
    neither its name nor the port it listens at; a server behind a proxy said only the
    proxy's address."""
    db = "postgresql://batak:***@db/batak"
    node = ServerConfig(
        port=8001, node="n2", public_url="https://batak.example", database=NO_PG, redis="redis://r"
    )
    assert start_lines(node, "en", db)[0] == (
        "Batak server, node n2, listening at 127.0.0.1:8001: players open https://batak.example/"
        "  (websocket wss://batak.example/ws, data: postgresql://batak:***@db/batak); Ctrl+C stops"
        " it and hands its tables to the other nodes"
    )
    tr = start_lines(node, "tr", db)[0]
    assert tr.startswith("Batak sunucusu, n2 düğümü, 127.0.0.1:8001 adresini dinliyor: "), tr
    proxied = ServerConfig(host="::1", port=8000, public_url="https://batak.example")
    assert start_lines(proxied, "en", "/srv/batak-data")[0].startswith(
        "Batak server listening at [::1]:8000: players open https://batak.example/  "
    )
    assert start_lines(ServerConfig(port=8000), "en", "/srv/batak-data")[0] == (
        "Batak server: open http://127.0.0.1:8000/  (websocket ws://127.0.0.1:8000/ws, data:"
        " /srv/batak-data); Ctrl+C stops it"
    )


def test_the_start_names_the_operators_commands_on_its_database() -> None:
    """The start said where the data is, which address to open and how to stop, but nothing
    of ``batak admin`` (accounts, bans, chips, backups), nor which folder to give it."""
    lines = start_lines(ServerConfig(port=8000), "en", "/srv/my batak")
    assert lines[-1] == (
        "The operator's commands (accounts, bans, chips, a backup), also while it runs:"
        " batak admin --data '/srv/my batak' --help"
    )
    node = ServerConfig(node="n1", database="postgresql://batak@127.0.0.1:1/batak")
    said = start_lines(node, "tr", "postgresql://batak@127.0.0.1:1/batak")
    assert said[-1] == (
        "Sunucu yöneticisinin komutları (hesaplar, yasaklar, çipler, yedek), sunucu çalışırken"
        " de: batak admin --database postgresql://batak@127.0.0.1:1/batak --help"
    )


def test_the_operators_command_says_where_the_databases_password_goes() -> None:
    """With a password in --database the command was printed with ``***`` in its place, which
    cannot be pasted as it is and did not say so."""
    node = ServerConfig(node="n1", database=NO_PG, redis="redis://r")
    said = start_lines(node, "en", "postgresql://batak:***@127.0.0.1:1/batak")
    assert said[-1] == (
        "The operator's commands (accounts, bans, chips, a backup), also while it runs, with the"
        " database's password in place of PASSWORD: batak admin --database"
        " postgresql://batak:PASSWORD@127.0.0.1:1/batak --help"
    )
    said = start_lines(node, "tr", "postgresql://batak:***@127.0.0.1:1/batak")
    assert said[-1] == (
        "Sunucu yöneticisinin komutları (hesaplar, yasaklar, çipler, yedek), sunucu çalışırken"
        " de; ŞİFRE yerine veritabanının şifresini yaz: batak admin --database"
        " 'postgresql://batak:ŞİFRE@127.0.0.1:1/batak' --help"
    )
    assert not any("s3cret" in x for x in said)


def test_listening_everywhere_without_a_public_address_says_other_browsers_are_refused() -> None:
    """``--host 0.0.0.0`` alone (the README's way to host friends, but for ``--public-url``)
    started without a word, and every friend's browser was refused at the websocket (403)."""
    lines = start_lines(ServerConfig(host="0.0.0.0", port=8000), "en", "/srv/batak-data")
    assert lines[0].startswith("Batak server: open http://127.0.0.1:8000/  ")
    assert lines[1] == (
        "It listens on every network interface, but a browser on another computer is refused"
        " until you give the address it opens: start it with --public-url"
        " http://THIS-COMPUTER'S-ADDRESS:8000 (invite links are built from it too)."
    )
    assert (
        "--public-url http://BU-BİLGİSAYARIN-ADRESİ:8000"
        in start_lines(ServerConfig(host="::", port=8000), "tr", "/srv")[1]
    )
    given = ServerConfig(host="0.0.0.0", port=8000, public_url="http://192.168.1.5:8000")
    assert not any("--public-url" in x for x in start_lines(given, "en", "/srv/batak-data"))


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "::0", "0:0:0:0:0:0:0:0", "0000::"])
def test_every_spelling_of_every_interface_opens_at_this_computer_s_address(host: str) -> None:
    """``--host ::0`` (or ``0:0:0:0:0:0:0:0``) printed "open http://[::0]:8000/", an address
    no browser opens, and not that other computers' browsers are refused, where ``0.0.0.0``
    and ``::`` said http://127.0.0.1:8000/ and the refusal."""
    lines = start_lines(ServerConfig(host=host, port=8000), "en", "/srv/batak-data")
    assert lines[0].startswith("Batak server: open http://127.0.0.1:8000/  "), lines[0]
    assert lines[1].startswith("It listens on every network interface, but "), lines[1]


def test_an_ipv6_wildcard_is_reached_at_127_0_0_1_too() -> None:
    """The start line says http://127.0.0.1:PORT for ``--host ::``: the socket takes IPv4
    connections too, whatever the system's default (IPV6_V6ONLY off)."""
    import socket

    from batak.server.serve import listen

    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    try:
        sock = listen("::0", 0)
    except OSError:
        pytest.skip("no IPv6 here")
    with sock:
        assert sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 0
        sock.listen()
        with socket.create_connection(("127.0.0.1", sock.getsockname()[1]), timeout=5):
            pass


@pytest.mark.parametrize("allowed", [("http://192.168.1.5:8000",), ("*",)])
def test_no_refusal_is_foretold_to_browsers_an_allowed_origin_lets_in(
    allowed: tuple[str, ...],
) -> None:
    """With ``--allow-origin`` the start still said that every other computer's browser would
    be refused, which the friend's browser, let in, then was not."""
    config = ServerConfig(host="0.0.0.0", port=8000, allowed_origins=allowed)
    assert origin_allowed("http://192.168.1.5:8000", config)
    assert not any("--public-url" in x for x in start_lines(config, "en", "/srv/batak-data"))


@pytest.mark.parametrize(
    "given",
    [
        {"allowed_origins": ("http://localhost:5173",)},
        {"allowed_origins": ("http://127.0.0.1:3000", "http://[::1]:3000")},
        {"allowed_origins": ("http://app.localhost:3000",)},
        {"public_url": "http://127.0.0.1:8000"},
        {"public_url": "http://localhost:8000", "allowed_origins": ("http://0.0.0.0:8000",)},
        # these silenced it still: a name's trailing dot, 127.0.0.1 written as IPv6 does, and
        # IPv4's short forms, which browsers read as 127.0.0.1
        {"allowed_origins": ("http://localhost.:5173",)},
        {"allowed_origins": ("http://app.localhost.:5173",)},
        {"allowed_origins": ("http://[::ffff:127.0.0.1]:3000",)},
        {"public_url": "http://127.1:8000"},
        {"public_url": "http://2130706433:8000"},
        {"allowed_origins": ("http://0x7f000001:3000", "http://0177.0.0.1:3000")},
        {"allowed_origins": ("http://127.8.9.10:3000", "http://127.0.0.1.:3000")},
    ],
)
def test_origins_of_this_computer_only_do_not_silence_the_refusal_foretold(
    given: dict[str, Any],
) -> None:
    """Any ``--allow-origin`` (a development server's on localhost, say) silenced the warning,
    and then every other computer's browser was refused all the same: only an address whose
    host is not this computer's loopback may be the one they open."""
    config = ServerConfig(host="0.0.0.0", port=8000, **given)
    assert not origin_allowed("http://192.168.1.5:8000", config)
    lines = start_lines(config, "en", "/srv/batak-data")
    assert lines[1].startswith("It listens on every network interface, but a browser on another")
    tr = start_lines(config, "tr", "/srv/batak-data")
    assert tr[1].startswith("Bütün ağ arayüzlerini dinliyor")


@pytest.mark.parametrize(
    "given",
    [
        {"allowed_origins": ("http://localhost:5173", "https://batak.example")},
        {"public_url": "http://10.0.0.5:8000"},
        {"allowed_origins": ("http://[2001:db8::5]:8000",)},
        {"allowed_origins": ("http://[::ffff:10.0.0.5]:8000",)},
        {"public_url": "http://10.5:8000"},  # 10.0.0.5
        {"public_url": "http://batak.example.:8000"},
        {"public_url": "http://127.0.0.1.example:8000"},
    ],
)
def test_an_address_of_another_host_still_silences_it(given: dict[str, Any]) -> None:
    config = ServerConfig(host="0.0.0.0", port=8000, **given)
    assert not any("--public-url" in x for x in start_lines(config, "en", "/srv/batak-data"))


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_an_operator_with_no_account_is_said_at_the_start_in_the_reader_s_language(
    tmp_path: Path, lang: str
) -> None:
    """``--operator`` with a name no account has was an English log line on stderr, among
    uvicorn's; now a line of the start, in the reader's language, that says what it means."""
    port = free_port()
    cmd = [sys.executable, "-m", "batak", "serve", "--port", str(port), "--data", str(tmp_path)]
    cmd += ["--operator", "nosuchuser", "--operator", "nobody2", "--lang", lang]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline()]
        while "batak admin --data" not in lines[-1]:  # the last line of the start
            lines.append(proc.stdout.readline())
            assert lines[-1], lines
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        assert proc.stderr is not None
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    said = {
        "en": "--operator nosuchuser, nobody2: no account has that username yet; whoever registers"
        " it gets the operator's right (any number of tournaments, any of them started early).",
        "tr": "--operator nosuchuser, nobody2: bu kullanıcı adıyla henüz bir hesap yok; onu kim"
        " açarsa turnuva yetkisini o alır (istediği kadar turnuva düzenler, her birini erken"
        " başlatabilir).",
    }
    assert lines[1] == said[lang] + "\n" and len(lines) == 3, lines
    assert "nosuchuser" not in err, err


def test_an_operator_with_an_account_is_not_said() -> None:
    lines = start_lines(ServerConfig(port=8000, operators=("ayse",)), "en", "/srv")
    assert not any("--operator" in x for x in lines), lines


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopped_server_says_so_and_that_nothing_is_lost(tmp_path: Path, how: int) -> None:
    """Ctrl+C (or a service manager's SIGTERM) used to bring the prompt back without a word."""
    port = free_port()
    cmd = [sys.executable, "-m", "batak", "serve", "--port", str(port), "--data", str(tmp_path)]
    proc = subprocess.Popen(
        [*cmd, "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("Batak server: open http://127.0.0.1:"), first
        proc.send_signal(how)  # (the lines of the start are printed at once, in one call)
        proc.wait(timeout=30)  # a few lines: the pipes do not fill meanwhile
        assert proc.stderr is not None
        # read through the buffer that readline filled (communicate would pass it by)
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    # the process ends as the signal says (uvicorn raises it again after a clean shutdown)
    assert proc.returncode in (0, 130, -how), err
    assert "Traceback" not in err, err
    assert out.startswith("The operator's commands (accounts, bans, chips, a backup), also"), out
    assert f"batak admin --data {shlex.quote(str(tmp_path))} --help\n" in out, out
    assert out.strip().endswith(
        "Batak server stopped. Every move is stored; unfinished tables go on when it starts again."
    ), out


def test_admin_gives_a_forgotten_password_a_new_one_and_ends_the_sessions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host's friend forgot their password: ``batak admin password NAME``, while the server
    runs. The old password and the old session no longer work; the new password does, for the
    same player. A short password or two different ones typed change nothing."""
    pytest.importorskip("argon2")
    data = tmp_path / "data"
    # a token known in memory is looked up again at once (30 s by default)
    with ServerThread(fast_config(data, session_recheck_seconds=0.0)) as srv:

        async def register() -> tuple[str, str]:
            async with Client(srv.url, name="Ali") as c:
                await c.register("ali", "eski-sifre-1")
                assert c.token is not None
                return c.player["id"], c.token

        pid, token = asyncio.run(register())
        where = ["--data", str(data), "--lang", "en"]
        assert main(["admin", "password", "ali", "--password", "short", *where]) == 2
        assert "at least 8 characters; nothing is changed" in capsys.readouterr().err
        # no terminal to type it in: said so (it was "the two passwords are not the same")
        assert main(["admin", "password", "ali", *where]) == 2
        err = capsys.readouterr().err
        assert "run this in a terminal, or give it with --password or in BATAK_NEW_PASSWORD" in err
        answers = iter(["yeni-sifre-2", "yeni-sifre-3"])
        monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
        monkeypatch.setattr(sys.stdin, "isatty", lambda: True)  # typed at a terminal
        assert main(["admin", "password", "ali", *where]) == 2
        assert "the two passwords are not the same" in capsys.readouterr().err
        monkeypatch.setenv("BATAK_NEW_PASSWORD", "yeni-sifre-2")
        assert main(["admin", "password", "ali", *where]) == 0
        assert "ali has a new password. Sessions ended: 1;" in capsys.readouterr().out

        async def after() -> None:
            async with Client(srv.url, token=token) as old:  # the old session: a new guest
                assert old.player["id"] != pid
                with pytest.raises(ServerError) as e:
                    await old.login("ali", "eski-sifre-1")
                assert e.value.code == "bad_login"
            async with Client(srv.url) as c:
                await c.login("ali", "yeni-sifre-2")
                assert c.player["id"] == pid

        asyncio.run(after())


def test_admin_backs_up_the_database_while_the_server_runs_and_the_copy_restores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A host had to stop the game to back it up (copying a live SQLite file can tear it).
    ``batak admin backup FILE`` copies it while the server runs (SQLite's online backup), checks
    the copy and says how to restore it; it never writes over a file, and on PostgreSQL it
    names pg_dump."""
    pytest.importorskip("argon2")
    from batak.server.storage import Storage

    data = tmp_path / "data"
    copy = tmp_path / "copy.sqlite3"
    with ServerThread(fast_config(data, quick_deals=1)) as srv:

        async def play() -> str:
            async with Client(srv.url, name="Ali") as c:
                await c.register("ali", "eski-sifre-1")
                st = await c.quick("ihaleli")
                assert (await c.play(st.id, timeout=60)).over
                return st.id

        table = asyncio.run(play())
        for _ in range(200):  # the match's end stored (the server commits it after the move)
            with sqlite3.connect(f"file:{data / 'batak.sqlite3'}?mode=ro", uri=True) as db:
                got = db.execute("SELECT status FROM tables WHERE id = ?", (table,)).fetchone()
            if got == ("over",):
                break
            time.sleep(0.05)
        where = ["--data", str(data), "--lang", "en"]
        assert main(["admin", "backup", str(copy), *where]) == 0
        out = capsys.readouterr().out
        assert f"Backed up to {copy} (" in out and "tables, 1 accounts; " in out
        assert "checked). To restore it: stop the server" in out
        assert not copy.with_name(copy.name + ".part").exists()
        # never over a file, nor into a folder that is not there
        assert main(["admin", "backup", str(copy), *where]) == 2
        assert "is already there: a backup never writes over a file" in capsys.readouterr().err
        assert main(["admin", "backup", str(tmp_path / "no" / "x.sqlite3"), *where]) == 2
        assert "there is no folder" in capsys.readouterr().err
        # in Turkish, with a decimal comma (it said "0.2 MB")
        turkish = tmp_path / "yedek.sqlite3"
        assert main(["admin", "backup", str(turkish), "--data", str(data), "--lang", "tr"]) == 0
        said = capsys.readouterr().out
        assert re.search(r" \(\d+,\d MB: \d+ masa, 1 hesap; denetlendi\)", said), said
    # restored in another folder, as the message says: the account and the match are there
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copy(copy, restored / "batak.sqlite3")

    async def check() -> None:
        st = Storage(f"sqlite:///{restored / 'batak.sqlite3'}")
        await st.open()
        try:
            assert (await st.account_named("ali")) is not None
            row = await st.run(
                lambda cur: cur.execute(
                    st.q("SELECT status FROM tables WHERE id = ?"), (table,)
                ).fetchone()
            )
            assert row is not None and row[0] == "over"
        finally:
            await st.close()

    asyncio.run(check())
    assert main(["admin", "--database", NO_PG, "backup", str(tmp_path / "pg.dump")]) == 2
    assert "for PostgreSQL use its own tool, e.g. pg_dump" in capsys.readouterr().err


def test_a_backup_ends_while_the_server_keeps_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy made in steps starts again whenever another connection commits between two of
    them: on a busy server it never ended (the reviewer's 247 MB database with a commit every
    20 ms ran past a minute). Made in one step, it ends however often the server writes."""
    import threading

    from batak.server.storage import Storage

    data = tmp_path / "data"
    db = data / "batak.sqlite3"

    async def make() -> None:
        st = Storage(f"sqlite:///{db}")
        await st.open()
        await st.close()

    asyncio.run(make())
    with sqlite3.connect(db) as conn:  # some 24 MB: many steps of 1,024 pages
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE filler (b BLOB)")
        conn.executemany(
            "INSERT INTO filler VALUES (?)", [(os.urandom(4096),) for _ in range(6000)]
        )
    stop = threading.Event()

    def write() -> None:  # a commit every 2 ms, as a busy server's
        conn = sqlite3.connect(db, isolation_level=None)
        while not stop.is_set():
            conn.execute("INSERT INTO filler VALUES (x'00')")
            time.sleep(0.002)
        conn.close()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    codes: list[int] = []
    copy = tmp_path / "copy.sqlite3"
    job = threading.Thread(
        target=lambda: codes.append(main(["admin", "--data", str(data), "backup", str(copy)])),
        daemon=True,
    )
    job.start()
    job.join(60)  # a hang, not a speed check (in one step: about a second here)
    stop.set()
    writer.join(10)
    assert codes == [0], capsys.readouterr()
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT COUNT(*) FROM filler").fetchone()[0] >= 6000
