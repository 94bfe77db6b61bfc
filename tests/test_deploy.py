"""``deploy/local.sh``, the cluster on one machine, with every program it starts stood in for
by a small script that records how it was called: the nodes are started again by
``restart-node`` as ``start`` started them."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCAL_SH = ROOT / "deploy" / "local.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _stub(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


@pytest.fixture
def stubs(tmp_path: Path) -> Path:
    """A folder with a stand-in for each program local.sh runs: PostgreSQL's (PGBIN), Redis and
    HAProxy succeed at once; ``id -u`` says an ordinary user (no ``runuser``). The stand-in
    ``curl`` answers a node's /healthz only once that port's stand-in node (``_node``) has
    written its call, as the real one answers once the node listens: it runs in the
    background, and a curl that succeeded at once let start or restart-node return before it
    had written anything."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name in ("initdb", "pg_ctl", "psql", "redis-server", "haproxy"):
        _stub(bin_ / name, "exit 0")
    up = tmp_path / "up"
    up.mkdir()
    _stub(
        bin_ / "curl",
        'for a in "$@"; do url=$a; done\n'
        "port=${url#http://127.0.0.1:}; port=${port%%/*}\n"
        f'[ -f {up}/"$port" ] && rm {up}/"$port"',
    )
    _stub(bin_ / "id", 'if [ "$1" = -u ]; then echo 1000; else exec /usr/bin/id "$@"; fi')
    return bin_


def _node(path: Path, calls: Path) -> None:
    """A stand-in batak: appends its path and arguments to ``calls``, then marks its port as up
    for the stand-in curl, and waits as a server does."""
    up = calls.parent / "up"
    _stub(
        path,
        f'echo "$0 $*" >> {calls}\n'
        'while [ $# -gt 0 ]; do [ "$1" = --port ] && port=$2; shift; done\n'
        f'touch {up}/"$port"\n'
        "exec sleep 120",
    )


def _run(
    args: list[str], env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(LOCAL_SH), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _kill_nodes(cluster: Path) -> None:
    for pid_file in cluster.glob("n*.pid"):
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


def test_restart_node_starts_the_node_with_starts_command_and_lease(
    tmp_path: Path, stubs: Path
) -> None:
    """``BATAK=.venv/bin/batak LEASE=3 deploy/local.sh start`` kept the ports in the cluster's
    folder but not the command nor the lease: a later ``deploy/local.sh restart-node n2`` ran
    ``batak`` from the PATH (none there: the node never came back, though the script said
    nothing) or a node with another lease than the others."""
    cluster = tmp_path / "cluster"
    calls = tmp_path / "calls"
    fake = tmp_path / "venv" / "batak"
    fake.parent.mkdir()
    _node(fake, calls)
    env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DIR": str(cluster),
        "PGBIN": str(stubs),
    }
    try:
        started = _run(["start"], {**env, "BATAK": str(fake), "LEASE": "3"})
        assert started.returncode == 0, started.stderr
        assert len(calls.read_text().splitlines()) == 3  # n1, n2, n3
        again = _run(["restart-node", "n2"], env)  # neither BATAK nor LEASE given again
        assert again.returncode == 0, again.stderr
        said = calls.read_text().splitlines()
        assert len(said) == 4, said
        assert "--node n2" in said[3] and "--lease-seconds 3 " in said[3], said[3]
    finally:
        _run(["stop"], env)
        _kill_nodes(cluster)


def test_start_without_a_batak_command_says_how_to_give_it(tmp_path: Path, stubs: Path) -> None:
    """It used to wait 10 s for a node that could not start, and point at the node's log."""
    env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DIR": str(tmp_path / "cluster"),
        "PGBIN": str(stubs),
        "BATAK": str(tmp_path / "nowhere" / "batak"),
    }
    done = _run(["start"], env)
    assert done.returncode == 2
    assert "BATAK=.venv/bin/batak" in done.stderr, done.stderr
    assert not (tmp_path / "cluster").exists()


def test_a_relative_batak_is_kept_as_a_path_that_holds_from_any_folder(
    tmp_path: Path, stubs: Path
) -> None:
    """``BATAK=.venv/bin/batak deploy/local.sh start`` (the README's example) kept the relative
    path in ports.env: ``restart-node`` from another folder then found no batak and the node
    did not come back. A folder with a space in it is quoted for PostgreSQL's socket too (it
    was cut at the space inside pg_ctl's -o)."""
    checkout = tmp_path / "checkout"
    (checkout / ".venv" / "bin").mkdir(parents=True)
    calls = tmp_path / "calls"
    _node(checkout / ".venv" / "bin" / "batak", calls)
    _stub(stubs / "pg_ctl", f'printf "%s\\n" "$@" >> {tmp_path / "pg_ctl"}')
    cluster = tmp_path / "my cluster"
    env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DIR": str(cluster),
        "PGBIN": str(stubs),
    }
    try:
        started = _run(["start"], {**env, "BATAK": ".venv/bin/batak"}, cwd=checkout)
        assert started.returncode == 0, started.stderr
        kept = (cluster / "ports.env").read_text()
        assert f"BATAK={checkout}/.venv/bin/batak" in kept.replace("\\ ", " "), kept
        again = _run(["restart-node", "n2"], env, cwd=tmp_path)  # another folder
        assert again.returncode == 0, again.stderr
        said = calls.read_text().splitlines()
        assert len(said) == 4 and "--node n2" in said[3], said
        assert said[3].startswith(f"{checkout}/.venv/bin/batak serve "), said[3]
        pg_ctl = (tmp_path / "pg_ctl").read_text().splitlines()
        assert f"-p 5433 -k '{cluster}/pg' -c listen_addresses=127.0.0.1" in pg_ctl, pg_ctl
    finally:
        _run(["stop"], env, cwd=tmp_path)
        _kill_nodes(cluster)


def test_batak_and_lease_given_to_restart_node_win_over_the_kept_ones(
    tmp_path: Path, stubs: Path
) -> None:
    """A rolling restart onto a new install: ``BATAK=/new/batak deploy/local.sh restart-node
    n2`` ran the batak that start was given, kept in ports.env, without a word."""
    calls = tmp_path / "calls"
    old, new = tmp_path / "old" / "batak", tmp_path / "new" / "batak"
    for fake in (old, new):
        fake.parent.mkdir()
        _node(fake, calls)
    cluster = tmp_path / "cluster"
    env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DIR": str(cluster),
        "PGBIN": str(stubs),
    }
    try:
        assert _run(["start"], {**env, "BATAK": str(old), "LEASE": "3"}).returncode == 0
        again = _run(["restart-node", "n2"], {**env, "BATAK": str(new), "LEASE": "5"})
        assert again.returncode == 0, again.stderr
        assert _run(["restart-node", "n3"], env).returncode == 0  # the kept ones again
        said = calls.read_text().splitlines()
        assert len(said) == 5, said
        assert said[3].startswith(f"{new} ") and "--node n2" in said[3], said[3]
        assert "--lease-seconds 5 " in said[3], said[3]
        assert said[4].startswith(f"{old} ") and "--node n3" in said[4], said[4]
        assert "--lease-seconds 3 " in said[4], said[4]
        nowhere = _run(["restart-node", "n1"], {**env, "BATAK": str(tmp_path / "nowhere")})
        assert nowhere.returncode == 2 and "BATAK=.venv/bin/batak" in nowhere.stderr
    finally:
        _run(["stop"], env)
        _kill_nodes(cluster)


@pytest.mark.parametrize("args", [["restart-node"], ["restart-node", "n7"]])
def test_restart_node_without_a_node_it_knows_says_which_there_are(
    tmp_path: Path, stubs: Path, args: list[str]
) -> None:
    """It stopped at bash's "$2: unbound variable" (or "PORT[$n]: unbound variable")."""
    env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DIR": str(tmp_path / "cluster"),
        "PGBIN": str(stubs),
    }
    done = _run(args, env)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("restart-node NAME, NAME one of: n1 n2 n3"), done.stderr


def test_the_node_names_of_the_examples_are_ones_batak_serve_takes() -> None:
    """``batak serve --node`` takes only names safe in addresses (HAProxy's ``?node=``): those
    of local.sh, the HAProxy example and docs/cluster.md are such names."""
    import re

    from batak.cli.serve import _parse

    script = LOCAL_SH.read_text()
    listed = re.search(r"^NODES=\(([^)]*)\)", script, re.M)
    assert listed is not None
    names = set(listed.group(1).split())
    names |= set(
        re.findall(r"^\s*server (\S+) ", (ROOT / "deploy" / "haproxy.cfg").read_text(), re.M)
    )
    names |= set(re.findall(r"--node ([^\s`|]+)", (ROOT / "docs" / "cluster.md").read_text()))
    names.discard("NAME")
    assert names >= {"n1", "n2", "n3"}, names
    assert all(_parse("node", name) == name for name in names), names
