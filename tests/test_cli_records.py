"""The commands that read a saved match: ``batak verify``, ``batak replay`` and ``batak analyse``
(a user's findings: tracebacks and raw Python errors, names and table options left out, a
damaged record blaming "you")."""

from __future__ import annotations

import http.server
import json
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from batak import Match, Rules
from batak.i18n import card_text
from batak.record import dump_match, dumps
from batak.server.fair import commitment, deal_seed

# the same runner, each test in a folder of its own (an autouse fixture, used by importing it)
from test_cli import _in_a_folder_of_its_own, help_of, on_a_terminal, run  # noqa: F401

TABLE = "tf9c0ffee"


def played(rules: Rules, **kw: Any) -> Match:
    """A whole match where everyone takes the first legal move (the highest bid)."""
    match = Match(rules, **kw)
    while not match.over:
        moves = match.legal_moves()
        match.play(moves[-1] if match.game.phase == "bidding" else moves[0])
    return match


def fair_match(rules: Rules) -> tuple[Match, dict[str, Any]]:
    """A whole match (:func:`played`) dealt from table TABLE's seeds, as a server deals it,
    and its record's ``fair`` part: every deal's seed and commitment, revealed."""
    match = played(rules, deal_seed=lambda k: deal_seed(7, TABLE, k))
    seeds = [deal_seed(7, TABLE, k) for k in range(len(match.games))]
    fair = {
        "table": TABLE,
        "version": 1,
        "revealed": [
            {"deal": k + 1, "seed": s, "commitment": commitment(TABLE, s)}
            for k, s in enumerate(seeds)
        ],
    }
    return match, fair


def server_record(preset: str = "standard", *, fair: bool = True) -> dict[str, Any]:
    """A finished match as a server records it (server/table.py ``_finish``): the players'
    names and, for a table with verifiable deals, every deal's seed and commitment."""
    rules = Rules.preset(preset, deals=1)
    match, revealed = fair_match(rules)
    meta: dict[str, Any] = {
        "table": TABLE,
        "players": ["Ayşe", "u1bot", "Bot 3", "Bot 4"][: rules.players],
        "finished": "2024-01-01T00:00:00Z",
    }
    if fair:
        meta["fair"] = revealed
    return dump_match(match, meta=meta)


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------- verify
def test_verify_checks_a_servers_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path / "srv.json", server_record())
    code, out, err = run(monkeypatch, capsys, ["verify", path, "--lang", "en"])
    assert (code, err) == (0, "")
    assert "The deal checks: its cards were fixed before it and dealt from its seed." in out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_verify_says_once_what_commitment_and_seed_mean(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    """'taahhüt' and 'tohum' (commitment, seed) are words few players know: the report says
    once, before the deals, what they are; the deals' lines stay as short as they were."""
    match, fair = fair_match(Rules.preset("standard", deals=2))
    path = write(tmp_path / "srv.json", dump_match(match, meta={"table": TABLE, "fair": fair}))
    code, out, _ = run(monkeypatch, capsys, ["verify", path, "--lang", lang])
    assert code == 0
    gloss = {
        "en": ("commitment is the fingerprint the server published before dealing", "seed,"),
        "tr": ("taahhüdü, sunucunun el dağıtılmadan önce yayımladığı parmak izidir", "tohumu"),
    }[lang]
    lines = out.splitlines()
    first = " ".join(lines[: lines.index(next(x for x in lines if x.startswith(("Deal 1", "1."))))])
    assert all(g in first for g in gloss), out
    assert sum(gloss[0] in line for line in lines) == 1  # once, not on every deal's line


def _not_verifiable(tmp_path: Path) -> dict[str, tuple[str, str, str]]:
    """name -> (the file, what the English error says, what the Turkish one says)."""
    weird = server_record()
    weird["meta"]["fair"]["revealed"] = "x"
    no_deals = server_record()
    no_deals["deals"] = []
    local = dumps(played(Rules.preset("standard", deals=1)), meta={"seat": 0, "by": "batak play"})
    (tmp_path / "local.json").write_text(local, encoding="utf-8")
    (tmp_path / "text.json").write_text("hello", encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(bytes(range(128, 256)))
    not_batak_en, not_batak_tr = "is not a saved Batak match", "kaydedilmiş bir Batak oyunu değil"
    not_json_en, not_json_tr = "is not a saved match (it is not JSON text)", "JSON metni değil"
    return {
        "list": (write(tmp_path / "list.json", [1, 2, 3]), not_batak_en, not_batak_tr),
        "empty": (write(tmp_path / "empty.json", {}), not_batak_en, not_batak_tr),
        "analysis": (
            write(tmp_path / "analysis.json", {"file": "m.json", "deals": []}),
            not_batak_en,
            not_batak_tr,
        ),
        "weird": (
            write(tmp_path / "weird.json", weird),
            "is damaged: its deals, or what is kept to check them (each deal's fingerprint and"
            " the seed its cards were shuffled from), are not as a server writes them",
            "kaydı bozuk: elleri ya da elleri denetlemek için saklananlar (her elin parmak izi",
        ),
        "text": (str(tmp_path / "text.json"), not_json_en, not_json_tr),
        "binary": (str(tmp_path / "binary.json"), not_json_en, not_json_tr),
        "missing": ("nofile.json", "there is no file nofile.json", "nofile.json diye bir dosya"),
        "local": (
            str(tmp_path / "local.json"),
            "only a server publishes a fingerprint of each deal's cards (a commitment) before"
            " dealing, so only a server's records can be checked; a match played on your own"
            " computer ('batak play') has none",
            "kartların parmak izini (taahhüt) yalnızca sunucu yayımlar",
        ),
        "old server": (
            write(tmp_path / "old.json", server_record(fair=False)),
            "the server published no fingerprint of each deal's cards (commitment) before"
            " dealing, so there is nothing to check",
            "sunucu elleri dağıtmadan önce kartların parmak izini (taahhüt) yayımlamamış",
        ),
        "no deals": (
            write(tmp_path / "no_deals.json", no_deals),
            "has no deal to check",
            "denetlenecek el yok",
        ),
        "bad address": ("https://[::1/x", "https://[::1/x", "https://[::1/x"),
        "half an address": (
            f"/api/tables/{TABLE}/record?key=abc",
            f"give its full address: http://HOST:PORT/api/tables/{TABLE}/record?key=abc",
            "tam adresini yaz: http://SUNUCU:PORT/api/tables/",
        ),
    }


@pytest.mark.parametrize(
    "case",
    [
        "list",
        "empty",
        "analysis",
        "weird",
        "text",
        "binary",
        "missing",
        "local",
        "old server",
        "no deals",
        "bad address",
        "half an address",
    ],
)
def test_verify_says_in_plain_words_why_a_file_cannot_be_checked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    """No traceback, no Python exception text: an error on stderr in the reader's language, as
    replay and analyse give, and exit code 2."""
    path, en, tr = _not_verifiable(tmp_path)[case]
    for lang, said, error in (("en", en, "batak: error: "), ("tr", tr, "batak: hata: ")):
        code, out, err = run(monkeypatch, capsys, ["verify", path, "--lang", lang])
        assert code == 2
        assert out == ""
        assert err.startswith(error) and said in err, err
        # the words of the checks (commitment, seed: taahhüt, tohum) never come unexplained
        plain = re.sub(r"\(an? commitment\)|\(commitment\)|\(taahhüt\)", "", err)
        assert not re.search(r"commitments?\b|\bseeds\b|taahhüd|taahhüt|tohumlar", plain), err
        for python in ("Errno", "Expecting value", "codec", "indices", "Traceback", "'str'"):
            assert python not in err


class _Server(http.server.BaseHTTPRequestHandler):
    """A server's record address: ``/ok`` the record, the others its refusals."""

    record = b""

    def do_GET(self) -> None:
        # redirects: /loop to itself, /hop1 to /hop2 and so on (more than urllib follows)
        hop = re.fullmatch(r"/hop(\d+)", self.path)
        if self.path == "/loop" or hop:
            self.send_response(302)
            self.send_header("Location", f"/hop{int(hop[1]) + 1}" if hop else "/loop")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        status = {"/ok": 200, "/gone": 404, "/private": 403, "/playing": 409}.get(self.path, 500)
        body = self.record if status == 200 else b'{"error": "no"}'
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    _Server.record = json.dumps(server_record()).encode()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Server)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_verify_from_an_address_and_what_a_server_refuses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], server: str
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["verify", f"{server}/ok", "--lang", "en"])
    assert code == 0 and "The deal checks" in out
    for path, en, tr in (
        ("/gone", f"the server at {server} has no such match", "sunucusunda böyle bir oyun yok"),
        ("/private", "gives this match's record only to its players", "yalnızca oyuncularına"),
        ("/playing", "is not over yet", "henüz bitmedi"),
        ("/other", "did not give the record (HTTP 500)", "kaydı vermedi (HTTP 500)"),
    ):
        for lang, said in (("en", en), ("tr", tr)):
            code, out, err = run(monkeypatch, capsys, ["verify", server + path, "--lang", lang])
            assert code == 2 and out == "" and said in err, err
            assert "HTTP Error" not in err


@pytest.mark.parametrize("command", ["verify", "replay", "analyse"])
def test_a_redirect_loop_is_said_as_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], server: str, command: str
) -> None:
    """A server whose redirects go round (an address sent to itself, or on and on) was said
    as "did not give the record (HTTP 302)": a number that tells a reader nothing."""
    for path in ("/loop", "/hop1"):
        for lang, said in (
            ("en", f"the server at {server} did not give the record: it sends the address"
             " round in a loop of redirects (too many redirects)"),
            ("tr", f"{server} sunucusu kaydı vermedi: adresi bir yönlendirme döngüsünde"
             " döndürüp duruyor (çok fazla yönlendirme)"),
        ):  # fmt: skip
            code, out, err = run(monkeypatch, capsys, [command, server + path, "--lang", lang])
            assert code == 2 and out == "", err
            assert said in " ".join(err.split()) and "302" not in err, err


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_play_loads_a_record_from_its_address_with_the_same_refusals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], server: str, lang: str
) -> None:
    """``batak play --load`` took a file only ("there is no file http://…"), where analyse and
    replay read a record from its address on a server. It reads it the same way now, with the
    same refusals; a server's record is a finished match: its sheet and result, with the
    players' names the record keeps, and no turn to play."""
    code, out, err = run(monkeypatch, capsys, ["play", "--load", f"{server}/ok", "--lang", lang])
    assert (code, err) == (0, ""), err
    over = {"en": "The match recorded in", "tr": "kaydındaki oyun bitmiş"}[lang]
    assert over in out and f"{server}/ok" in out, out
    assert "Ayşe" in out and "u1bot" in out and "Bot 4" in out, out
    assert {"en": "Winner: ", "tr": "Kazanan: "}[lang] in out
    for path in ("/gone", "/private", "/playing", "/other", "/loop"):
        address = server + path
        code, out, err = run(monkeypatch, capsys, ["play", "--load", address, "--lang", lang])
        assert code == 2 and out == "", (path, out)
        analyse = run(monkeypatch, capsys, ["analyse", address, "--lang", lang])
        assert err == analyse[2] and "HTTP Error" not in err and "no file" not in err, err


def test_verify_says_when_no_server_answers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/api/tables/{TABLE}/record"
    code, out, err = run(monkeypatch, capsys, ["verify", url, "--lang", "en"])
    assert code == 2 and out == ""
    assert f"could not reach the server at http://127.0.0.1:{port}: nothing answers there" in err
    assert "urlopen" not in err and "Errno" not in err
    code, _, err = run(monkeypatch, capsys, ["verify", url, "--lang", "tr"])
    assert code == 2 and "sunucusuna ulaşılamadı: orada yanıt veren yok" in err
    code, _, err = run(monkeypatch, capsys, ["verify", "http://127.0.0.1:port/x", "--lang", "en"])
    assert code == 2 and "is not an address to fetch a record from" in err


class _Hostile(http.server.BaseHTTPRequestHandler):
    """A server that is not a record's: it sends too much, sends the fetch elsewhere, or
    trickles its answer; ``/ok`` the record (reached by a redirect on the same server too)."""

    record = b""
    elsewhere = ""  # another server's address
    stop = threading.Event()  # set when the test ends: a trickle stops

    def do_GET(self) -> None:
        path = self.path.partition("?")[0]
        if path in ("/here", "/away", "/ftp"):
            target = {"/here": "/ok", "/away": self.elsewhere + "/ok?key=k", "/ftp": "ftp://x/r"}
            self.send_response(302)
            self.send_header("Location", target[path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/slowhead":  # the head a byte at a time
            self.wfile.write(b"HTTP/1.0 200 OK\r\n")
            self._trickle(b"X-Slow: " + b"a" * 400)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if path == "/ok":
            self.send_header("Content-Length", str(len(self.record)))
            self.end_headers()
            self.wfile.write(self.record)
        elif path == "/big":  # a size said in advance, over 1 MB
            body = self.record * (2**20 // len(self.record) + 2)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path == "/endless":  # no size said: the body until the connection closes
            self.end_headers()
            for _ in range(2**20 // len(self.record) + 2):
                try:
                    self.wfile.write(self.record)
                except OSError:  # (the reader stopped at its cap)
                    return
        else:  # /trickle: a byte now and then, for ever (but for a guard)
            self.end_headers()
            self._trickle(self.record)

    def _trickle(self, data: bytes) -> None:
        for byte in data[:400]:  # (20 s at most: a fetch that does not stop fails, no hang)
            if self.stop.wait(0.05):
                return
            try:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
            except OSError:
                return

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve_in_my_range(handler: type[http.server.BaseHTTPRequestHandler]) -> Any:
    for port in range(19300, 19400):
        try:
            return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        except OSError:
            continue
    pytest.skip("no free port in 19300-19399")


@pytest.fixture
def hostile() -> Iterator[str]:
    _Hostile.record = json.dumps(server_record()).encode()
    _Hostile.stop = threading.Event()
    servers = [_serve_in_my_range(_Hostile), _serve_in_my_range(_Hostile)]
    _Hostile.elsewhere = f"http://127.0.0.1:{servers[1].server_address[1]}"
    for httpd in servers:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{servers[0].server_address[1]}"
    finally:
        _Hostile.stop.set()
        for httpd in servers:
            httpd.shutdown()
            httpd.server_close()


def test_a_record_s_fetch_is_capped_kept_on_its_server_and_given_a_deadline(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], hostile: str
) -> None:
    """The fetch of ``batak verify`` (and ``replay``, ``analyse``) read a body of any size (300
    MB took 661 MB), followed redirects to another host and to ``ftp://`` (then said the named
    server had "nothing answers there"), waited 30 s per read so a trickle held it for ever,
    and took ``HTTP://`` for a file name. Here the cap is set to 1 MB and the deadline to a
    second (the real ones, 20 MB and 60 s, stand far above a record's size and fetch)."""
    from batak.cli import verify

    monkeypatch.setattr(verify, "MAX_RECORD_BYTES", 2**20, raising=False)  # (none before)
    monkeypatch.setattr(verify, "FETCH_SECONDS", 1.0, raising=False)

    def said(address: str, lang: str = "en", command: str = "verify") -> tuple[int, str, str]:
        return run(monkeypatch, capsys, [command, address, "--lang", lang])

    code, out, err = said(hostile.replace("http://", "HTTP://") + "/ok")  # the scheme in capitals
    assert (code, err) == (0, "") and "The deal checks" in out
    code, out, err = said(hostile + "/here")  # a redirect on the same server: followed
    assert (code, err) == (0, "") and "The deal checks" in out
    for path in ("/big", "/endless"):
        code, out, err = said(hostile + path)
        assert code == 2 and out == "", err
        assert f"the server at {hostile} sent more than 1\u00a0MB" in err, err
    code, _, err = said(hostile + "/big", "tr")
    assert code == 2 and "hiçbir oyunun kaydı bu kadar büyük olmaz" in err, err
    code, out, err = said(hostile + "/away")
    assert code == 2 and out == ""
    assert err.strip().endswith(
        f"the server at {hostile} sends the record on to {_Hostile.elsewhere}/ok?key=k, which was"
        " not followed: the address (and a private room's key in it) goes only to the server you"
        " named"
    ), err
    code, _, err = said(hostile + "/ftp", "tr")
    assert code == 2 and "kaydı ftp://x/r adresine yönlendiriyor" in err, err
    assert "yanıt veren yok" not in err
    for path, command in (("/trickle", "verify"), ("/slowhead", "verify"), ("/trickle", "replay")):
        code, out, err = said(hostile + path, command=command)
        assert code == 2 and out == "", (path, command, out)
        assert f"the server at {hostile} did not send the record within 1\u00a0s" in err, err
    code, _, err = said(hostile + "/trickle", "tr", "analyse")
    assert code == 2 and "sunucusu kaydı 1\u00a0sn içinde göndermedi" in err, err


def test_verify_help_gives_the_full_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = help_of(capsys, ["verify", "--help", "--lang", "en"])
    assert "http://HOST:PORT/api/tables/ID/record" in out


# ---------------------------------------------------------------------- replay and analyse
def test_replay_analyse_and_arena_say_what_the_table_changed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As ``batak play`` says it under its title: "Changed from the standard table: …"."""
    rules = Rules.preset("standard", deals=1).replace(must_trump=False, scoring="simple")
    path = tmp_path / "opt.json"
    path.write_text(dumps(played(rules, seed=3), meta={"seat": 0}), encoding="utf-8")
    changed = "Changed from the standard table: Must trump when void: no, Scoring: simple"
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0 and changed in out.replace("\n  ", " ")
    code, out, _ = run(
        monkeypatch, capsys, ["analyse", str(path), "--lang", "tr", "--seconds", "0.2"]
    )
    assert code == 0
    assert "standard masasından farklı kurallar: Renk yoksa koz zorunlu: hayır" in out
    args = ["arena", "--rule", "scoring=simple", "--deals", "1", "--no-plot", "--quiet"]
    code, out, _ = run(
        monkeypatch, capsys, [*args, "--out", str(tmp_path / "a.json"), "--lang", "en"]
    )
    assert code == 0
    title, line = out.splitlines()[:2]
    assert title.startswith("Arena: ") and line.startswith(
        "Changed from the standard table: Scoring"
    )
    # a table as its preset has no such line
    path.write_text(
        dumps(played(Rules.preset("standard", deals=1), seed=3), meta={"seat": 0}),
        encoding="utf-8",
    )
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0 and "Changed from" not in out


def test_replay_tells_the_reader_their_own_hand_is_face_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Açık eşli, the reader the bidder's partner: "your hand is face up now", as play says it,
    not the general sentence with "You" put in ("You now plays face up")."""
    match = played(Rules.preset("esli-acik", deals=1), seed=3)
    exposed = match.games[0].exposed_seat
    assert exposed is not None
    path = tmp_path / "acik.json"
    path.write_text(dumps(match, meta={"seat": exposed}), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0
    assert "Açık eşli: your hand is face up now; everyone sees it." in out
    assert "You now plays" not in out
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "tr"])
    assert code == 0 and "Açık eşli — elin artık masada açık; herkes görüyor." in out
    # another reader sees that seat named
    path.write_text(dumps(match, meta={"seat": (exposed + 1) % 4}), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0 and "Açık eşli: Computer 3 now plays face up." in out


def test_replay_and_analyse_name_a_servers_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A server's record keeps the players' names (meta.players, by seat): replay and analyse
    say them, not "Player 1".."Player 4"; a record without names keeps "Player N"."""
    record = server_record()
    path = write(tmp_path / "srv.json", record)
    code, out, _ = run(monkeypatch, capsys, ["replay", path, "--lang", "en"])
    assert code == 0
    assert "dealer: Ayşe" in out and "\n  u1bot " in out and "Bot 4: " in out
    assert "Player " not in out
    assert "Totals: Ayşe: " in out
    args = ["analyse", path, "--lang", "tr", "--seconds", "0.2"]
    code, out, _ = run(monkeypatch, capsys, args)
    assert code == 0 and "dağıtan: Ayşe" in out and "Oyuncu 1" not in out
    # names that do not tell the seats apart, or that carry control characters
    record["meta"]["players"] = ["Ayşe", "Ayşe", "Bot 3", "Bot 4"]
    code, out, _ = run(
        monkeypatch, capsys, ["replay", write(tmp_path / "x.json", record), "--lang", "en"]
    )
    assert code == 0 and "Player 2" in out
    record["meta"]["players"] = ["Ay\x1b[2Jşe", "u1bot", "Bot 3", "Bot 4"]
    code, out, _ = run(
        monkeypatch, capsys, ["replay", write(tmp_path / "y.json", record), "--lang", "en"]
    )
    assert code == 0 and "\x1b" not in out and "Ay[2Jşe" in out
    del record["meta"]["players"]
    code, out, _ = run(
        monkeypatch, capsys, ["replay", write(tmp_path / "z.json", record), "--lang", "en"]
    )
    assert code == 0 and "dealer: Player 1" in out


def _damaged(match: Match, code: str, not_seat: int) -> tuple[dict[str, Any], int, str]:
    """The record of ``match`` with one card of deal 1, played by a seat other than
    ``not_seat``, changed for one the engine refuses with ``code``; and that seat and card."""
    from batak import Game
    from batak.cards import CARDS

    record = dump_match(match)
    original = match.games[0]
    game = Game(
        match.rules,
        hands=original.initial_hands,
        kitty=original.initial_kitty or None,
        dealer=original.dealer,
    )
    for j, move in enumerate(original.history):
        seat = game.to_move
        assert seat is not None
        if seat != not_seat and game.phase == "play":
            for card in CARDS:
                refusal = game.check(str(card))
                if refusal is not None and refusal.code == code:
                    record["deals"][0]["moves"][j] = str(card)
                    return record, seat, str(card)
        game.play(move)
    raise AssertionError(f"no card of deal 1 can be made a {code} refusal")


@pytest.mark.parametrize("code", ["not_in_hand", "must_follow"])
def test_a_damaged_record_names_the_seat_whose_move_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, code: str
) -> None:
    """The engine's reason speaks to the mover ("you do not hold K♠"); a record's move is
    another seat's, which the message names."""
    from batak.cli.console import seat_labels

    match = played(Rules.preset("standard", deals=1), seed=3)
    record, seat, card = _damaged(match, code, not_seat=0)
    record["meta"] = {"seat": 0}
    path = write(tmp_path / "bad.json", record)
    who = {lang: seat_labels(4, 0, lang)[seat] for lang in ("en", "tr")}
    said = {
        "not_in_hand": {"en": f"{who['en']} does not hold ", "tr": "elinde olmayan"},
        "must_follow": {"en": f"{who['en']} had to follow suit: ", "tr": "renge uymalıydı: "},
    }[code]
    for lang in ("en", "tr"):
        code_, _, err = run(monkeypatch, capsys, ["replay", path, "--lang", lang])
        assert code_ == 2
        assert f"('{card}'): {who[lang]}" in err and said[lang] in err, err
        assert "you do not hold" not in err and "you must" not in err
    # the same move as the reader's own: the engine's words to them
    record["meta"] = {"seat": seat}
    code_, _, err = run(
        monkeypatch, capsys, ["analyse", write(tmp_path / "own.json", record), "--lang", "en"]
    )
    assert code_ == 2
    assert {"not_in_hand": "you do not hold", "must_follow": "you must follow suit"}[code] in err
    # a server's record: the player's name
    record["meta"] = {"players": ["Ayşe", "u1bot", "Bot 3", "Bot 4"], "table": TABLE}
    code_, _, err = run(
        monkeypatch, capsys, ["replay", write(tmp_path / "srv.json", record), "--lang", "en"]
    )
    assert code_ == 2 and f"('{card}'): {['Ayşe', 'u1bot', 'Bot 3', 'Bot 4'][seat]} " in err


def test_analyse_refuses_an_output_it_cannot_write_before_the_review(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--json into a folder that does not exist was found out only after the whole review."""
    import batak.cli.analyse as analyse

    path = write(tmp_path / "srv.json", server_record())

    def no_review(*args: Any, **kw: Any) -> Any:
        raise AssertionError("the review started")

    monkeypatch.setattr(analyse, "review_deal", no_review)
    for out_path, said in (
        ("/nonexistent/dir/x.json", "could not save to /nonexistent/dir/x.json: there is no such"),
        (str(tmp_path), f"could not save to {tmp_path}: that is a folder"),
    ):
        code, out, err = run(
            monkeypatch, capsys, ["analyse", path, "--json", out_path, "--lang", "en"]
        )
        assert code == 2 and out == "" and said in err, err
    code, _, err = run(
        monkeypatch, capsys, ["analyse", path, "--json", "/nonexistent/x.json", "--lang", "tr"]
    )
    assert code == 2 and "böyle bir klasör yok" in err
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    good = tmp_path / "review.json"
    args = ["analyse", path, "--json", str(good), "--lang", "en", "--seconds", "0.2"]
    code, out, _ = run(monkeypatch, capsys, args)
    assert code == 0 and json.loads(good.read_text(encoding="utf-8"))["deals"]


@pytest.mark.parametrize(("lang", "dealer"), [("en", "dealer"), ("tr", "dağıtan")])
def test_the_replays_score_sheet_keeps_the_dealer_in_80_columns_in_both_languages(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lang: str,
    dealer: str,
) -> None:
    """The Turkish heads are longer: the sheet left the dealer's column out where the English
    one kept it."""
    for deals in (3, 12):  # a deal number of one digit, and of two
        path = tmp_path / "m.json"
        match = played(Rules.preset("standard", deals=deals), seed=3)
        path.write_text(dumps(match, meta={"seat": 0}), encoding="utf-8")
        code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", lang])
        assert code == 0
        sheet = out.split("Yazboz", 1)[1].splitlines()
        head = next(x for x in sheet if "|" in x)
        assert dealer in head, head
        assert max(len(x) for x in sheet) <= 80
        assert any(x.startswith(f"{deals} ") for x in sheet)


def test_the_table_line_is_wrapped_to_the_terminal_in_play_and_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The table's one-line summary of açık eşli is 110 columns wide: broken at spaces."""
    from batak.explain import preset_summary

    rules = Rules.preset("esli-acik", deals=1)
    assert len(preset_summary(rules, "en")) > 80
    path = tmp_path / "acik.json"
    path.write_text(dumps(played(rules, seed=3), meta={"seat": 0}), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, ["replay", path.name, "--lang", "en"])
    assert code == 0
    head = out.split("── Deal 1", 1)[0].strip().splitlines()
    assert max(len(x) for x in head) <= 80, head
    assert " ".join(x.strip() for x in head[1:]).strip() == preset_summary(rules, "en")
    code, out, _ = run(monkeypatch, capsys, ["play", "--preset", "esli-acik", "--lang", "tr"])
    assert code == 0
    head = out.splitlines()[:3]
    assert max(len(x) for x in head) <= 80, head
    summary = preset_summary(Rules.preset("esli-acik"), "tr")
    assert f"{head[1]} {head[2].strip()}" == summary


def test_replay_of_a_record_that_stops_in_a_trick_shows_its_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each card is said in its trick's line when the trick is done: a record that stops in
    the middle of a trick showed none of that trick's cards."""
    match = Match(Rules.preset("standard", deals=1), seed=3)
    game = match.game
    while not (game.tricks and len(game.current_trick) == 2):  # two cards into trick 2
        moves = match.legal_moves()
        match.play(moves[-1] if game.phase == "bidding" else moves[0])
    cards = [str(card_text(str(c))) for _, c in game.current_trick]
    path = tmp_path / "partial.json"
    path.write_text(dumps(match), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0
    (line,) = [x for x in out.splitlines() if x.startswith("Trick 2, unfinished: ")]
    shown = [part.split(": ")[-1] for part in line.split(" · ")]
    assert shown == cards
    assert "(the record stops here, in the middle of the deal)" in out


def test_a_replay_with_wide_names_keeps_its_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A server's record keeps its players' names: names in Japanese (two columns a character)
    and with combining marks (none) were padded by their characters, so the hands dealt did
    not start one under the other, and the score sheet's bars neither."""
    from test_cli import _bars, columns

    record = server_record("standard")
    names = [
        "山田太郎鈴木花子佐藤次郎",
        "Ays\u0327e Yi\u0307lmaz-Karaog\u0306lu",
        "東京麻雀",
        "Bot 4",
    ]
    record["meta"]["players"] = names
    write(tmp_path / "wide.json", record)
    path = "wide.json"  # (in the folder of the test: a long path is not cut)
    for lang in ("en", "tr"):
        code, out, _ = run(monkeypatch, capsys, ["replay", path, "--lang", lang])
        assert code == 0
        lines = out.splitlines()
        assert max(columns(x) for x in lines) <= 80, [x for x in lines if columns(x) > 80]
        hands = [x for x in lines if x.startswith(tuple(f"  {n} " for n in names))]
        assert len(hands) == 4, lines
        assert len({columns(x[: x.index("♠")]) for x in hands}) == 1, "\n".join(hands)
        head = next(i for i, x in enumerate(lines) if x.startswith("# ") and "|" in x)
        table = [lines[head], *(x for x in lines[head + 2 : head + 4] if "|" in x)]
        assert len({tuple(_bars(x)) for x in table}) == 1, "\n".join(table)


@pytest.mark.parametrize(("lang", "you"), [("en", "You"), ("tr", "Sen")])
def test_a_player_named_you_is_not_the_reader_who_wins_the_ihale(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lang: str,
    you: str,
) -> None:
    """auction_over_lines spoke to the reader when the winner's label was the word "You":
    replaying a server's record where a player is named "You" said "You win the ihale at 13."
    to a reader who did not play. The reader is told by seat; the player named so is said as
    any other, and a reader at the table is still spoken to."""
    data = server_record()
    data["meta"]["players"] = ["Ayşe", you, "Bot 3", "Bot 4"]  # seat 1 wins the ihale at 13
    path = tmp_path / "you.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path), "--lang", lang])
    assert code == 0, err
    said = {"en": f"The ihale is won by {you} at 13.", "tr": f"İhaleci: {you} (13)."}[lang]
    assert said in out.splitlines() and "win the ihale" not in out and "sen aldın" not in out
    data["meta"]["seat"] = 1  # (a record saved by its player 1: "You" is the reader)
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path), "--lang", lang])
    won = {"en": "You win the ihale at 13.", "tr": "İhaleyi sen aldın (13)."}[lang]
    assert code == 0 and won in out.splitlines(), out


def test_a_player_named_you_is_not_the_reader_who_says_a_soz(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """soz_line spoke to the reader when the label was the word "You", as the ihale's line did
    before 2038dd8: replaying a Koz Maça record where a player is named "You" said "You say 2"
    to a reader who did not play. The reader is told by seat; the player named so is said as
    any other ("You says 2"), and a reader at the table is still spoken to."""
    data = server_record("sultan-kozmaca")
    data["meta"]["players"] = ["Ayşe", "You", "Bot 3", "Bot 4"]
    path = tmp_path / "you.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0, err
    said = [x for x in out.splitlines() if x.startswith("You say ")]
    assert not said and re.search(r"^You says \d+$", out, re.M), out
    data["meta"]["seat"] = 1  # (a record saved by its player 1: "You" is the reader)
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert code == 0 and re.search(r"^You say \d+$", out, re.M), out


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("command", ["play", "replay"])
def test_a_finished_records_score_sheet_with_names_fits_60_columns(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
    lang: str,
) -> None:
    """A server's record keeps its players' names: the sheet's narrowest layout still headed
    its columns with the names cut to 8 columns, and was 57 + 4 × 3 = 67 columns wide at a
    terminal of 60. Now, when that is too wide, the seats' codes (P1, O1) head the columns and
    say the bidder, and the totals line under the sheet gives each code its full name once."""
    from test_cli import columns

    data = server_record()
    names = ["Ayşe Yılmaz", "Mehmet Öztürk", "Zeynep Kaya", "Bot 4"]
    data["meta"]["players"] = names
    path = write(tmp_path / "names.json", data)
    args = [command, "--load", path] if command == "play" else [command, path]
    code, out = on_a_terminal(monkeypatch, [*args, "--lang", lang], 60)
    assert code == 0, out
    sheet = out.split("Yazboz", 1)[1].split("\n\n", 1)[0].splitlines()
    assert max(columns(x) for x in sheet) <= 60, "\n".join(sheet)
    p = {"en": "P", "tr": "O"}[lang]
    head = next(x for x in sheet if "|" in x)
    assert [x.strip() for x in head.split("|")[1:]] == [f"{p}{n}" for n in range(1, 5)], head
    totals = " ".join(" ".join(x for x in sheet if x.startswith(("Totals", "Toplam", " "))).split())
    for n, name in enumerate(names, 1):
        assert f"{name} ({p}{n}): " in totals, totals
    # at 80 columns the names head the columns, and the totals need no codes
    code, out = on_a_terminal(monkeypatch, [*args, "--lang", lang], 80)
    assert code == 0 and "|  Ayşe Yıl  |" in out and f"({p}1)" not in out, out


def test_a_name_wider_than_the_line_keeps_its_separator_with_it() -> None:
    """The totals line broke before a name wider than the line: the `` ·`` that parts it from
    the item before stood alone on a line of its own."""
    from batak.cli.console import fit_list

    name = "Mehmetöztürkkaraoğluyılmaz"
    lines = fit_list("Totals: {}".format, ["Ayşe: 20", f"{name}: -130", "Zeynep: 4"], 24)
    assert lines == ["Totals: Ayşe: 20", f"  · {name}:", "    -130 · Zeynep: 4"], lines


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_finished_record_that_does_not_say_the_readers_seat_names_the_seats(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lang: str,
) -> None:
    """``batak play --load`` of a finished record with no names and no saved seat labelled seat
    0 "You" (and the others "Computer k"), yet said no "you won/lost": it does not know the
    reader sat there. The seats are said by their names, as batak replay says them; a record
    that keeps the seat still speaks to its player."""
    match = played(Rules.preset("standard", deals=2), seed=3)
    path = tmp_path / "m.json"
    path.write_text(dumps(match), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["play", "--load", str(path), "--lang", lang])
    assert code == 0, err
    you, player = {"en": ("You", "Player 1"), "tr": ("Sen", "Oyuncu 1")}[lang]
    computer = {"en": "Computer", "tr": "Bilgisayar"}[lang]
    totals = next(x for x in out.splitlines() if x.startswith(("Totals", "Toplam")))
    assert f"{player}: " in totals and you not in totals and computer not in out, out
    path.write_text(dumps(match, meta={"seat": 0}), encoding="utf-8")
    code, out, err = run(monkeypatch, capsys, ["play", "--load", str(path), "--lang", lang])
    from batak.cli.text import t

    said = [t(key, lang) for key in ("you_won", "you_lost", "you_shared")]
    assert code == 0 and f"{you}: " in out and any(x in out.splitlines() for x in said), out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_finished_match_loaded_with_save_is_saved_as_it_was_read(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    server: str,
    tmp_path: Path,
    lang: str,
) -> None:
    """``batak play --load FILE_OR_URL --save F`` of a finished match showed its sheet and
    result and saved nothing, without a word. The record is saved to F as it was read (a
    server's names and seeds kept: batak verify still checks it), and that is said."""
    from batak.cli.text import t

    saved = tmp_path / "mac.json"
    args = ["play", "--load", f"{server}/ok", "--save", str(saved), "--lang", lang]
    code, out, err = run(monkeypatch, capsys, args)
    assert (code, err) == (0, ""), err
    assert " ".join(out.split()).endswith(t("saved", lang, path=str(saved))), out  # (worded)
    assert json.loads(saved.read_text(encoding="utf-8")) == server_record()
    code, out, _ = run(monkeypatch, capsys, ["verify", str(saved), "--lang", "en"])
    assert code == 0 and "The deal checks" in out, out
    # a file: the same, its saver's seat kept
    match = played(Rules.preset("standard", deals=1), seed=3)
    mine = tmp_path / "mine.json"
    mine.write_text(dumps(match, meta={"seat": 2}), encoding="utf-8")
    copy = tmp_path / "copy.json"
    args = ["play", "--load", str(mine), "--save", str(copy), "--lang", lang]
    code, out, err = run(monkeypatch, capsys, args)
    assert code == 0 and t("saved", lang, path=str(copy)) in " ".join(out.split()), err
    assert json.loads(copy.read_text(encoding="utf-8")) == json.loads(mine.read_text())


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_finished_match_loaded_whose_save_fails_exits_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    server: str,
    tmp_path: Path,
    lang: str,
) -> None:
    """``batak play --load ADDRESS --save F`` of a finished match: the save was all that was
    asked for, and when it failed the command still exited 0 (its reason said among the
    output). It exits 1 now, the reason an error in the reader's language, and F not made."""
    from batak.cli.text import error_message, t

    bad = tmp_path / "missing" / "mac.json"
    problem = {"en": "there is no such folder", "tr": "böyle bir klasör yok"}[lang]
    reason = t("save_failed", lang, path=str(bad), message=problem)
    mine = tmp_path / "mine.json"
    mine.write_text(dumps(played(Rules.preset("standard", deals=1), seed=3)), encoding="utf-8")
    for source in (f"{server}/ok", str(mine)):
        args = ["play", "--load", source, "--save", str(bad), "--lang", lang]
        code, out, err = run(monkeypatch, capsys, args)
        assert code == 1, out + err
        assert error_message(lang, reason) in err and reason not in out, out + err
        assert not bad.exists()


@pytest.mark.parametrize("command", ["replay", "analyse"])
def test_the_title_of_a_replay_and_an_analysis_is_worded_into_60_columns(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """The title names the record and the table ("X kaydının tekrarı — zipi-kitty masası"):
    with a file's name it was 72 columns at a terminal of 60, said whole on one line."""
    from batak.cli.text import t
    from test_cli import columns

    name = "zipi-kitty-masasinda-dun-aksam.json"  # (in the test's own folder)
    write(Path(name), server_record("zipi-kitty"))
    args = [command, name, "--lang", "tr"] + (["--seconds", "0.05"] * (command == "analyse"))
    code, out = on_a_terminal(monkeypatch, args, 60)
    assert code == 0, out
    title = t(f"{command}_title", "tr", path=name, name="zipi-kitty")
    assert len(title) > 60, title  # (one line would not fit)
    head = out.splitlines()[:2]
    assert max(columns(x) for x in head) <= 60 and " ".join(" ".join(head).split()) == title, head


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_replay_says_the_kitty_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    """A kitty deal's replay said the kitty's cards under the hands dealt, and again under
    "The bidder takes the 4 kitty cards and buries 4." a few lines down: once is enough."""
    from batak.cli.text import t

    path = write(tmp_path / "kitty.json", server_record("zipi-kitty"))
    code, out, err = run(monkeypatch, capsys, ["replay", path, "--lang", lang])
    assert code == 0, err
    said = t("kitty_was", lang, cards="").strip()
    assert out.count(said) == 1, out
    assert t("takes_kitty", lang, n=4) in out, out  # what the bidder does with it, still said


def test_a_reviews_totals_keep_each_count_with_its_name() -> None:
    """analyse of an eşli record at 60 columns in Turkish: "Toplam kaybedilen löve — Oyuncu 1:
    1, Oyuncu 2: 1, Oyuncu 3:" and "1, Oyuncu 4: 4" on the next line. The names were whole
    (no-break spaces), the count was not kept with its name."""
    import re
    from types import SimpleNamespace

    from batak.bots.review import summary_lines
    from batak.cli.console import whole_names, wrap_text

    lost = {0: 1, 1: 1, 2: 1, 3: 4}
    review: Any = SimpleNamespace(
        bidding=[], decisions=[], complete=True, costly=list, lost=lost.get, given=lambda s: 0
    )
    names = whole_names([f"Oyuncu {n}" for n in range(1, 5)])
    (total,) = [x for x in summary_lines(review, names, "tr") if x.startswith("Toplam")]
    for width in range(24, 72):
        lines = wrap_text(total, width)
        assert not any(re.match(r"\s*\d", x) for x in lines), (width, lines)


@pytest.mark.parametrize("preset", ["zipi-kitty", "cetinsgame-esli"])
def test_every_line_of_a_replay_fits_60_columns_in_turkish(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    preset: str,
) -> None:
    """The hands dealt were said on one line each: 62 and 63 columns for a kitty table's 16
    cards with the players' names, broken by the terminal inside a suit (``♣ K J 8 6`` / ``4``).
    They are broken between two suits now, the rest under the hand's first suit."""
    from test_cli import columns

    data = server_record(preset)
    data["meta"]["players"] = ["Ayşe Yılmaz", "Mehmet Öztürk", "Zeynep Kaya", "Bot 4"][
        : len(data["meta"]["players"])
    ]
    write(tmp_path / "k.json", data)
    code, out = on_a_terminal(monkeypatch, ["replay", "k.json", "--lang", "tr"], 60)
    assert code == 0, out
    lines = out.splitlines()
    assert max(columns(x) for x in lines) <= 60, [x for x in lines if columns(x) > 60]
    dealt = lines[lines.index("Dağıtılan eller:") + 1 :]
    rows = dealt[: next(i for i, x in enumerate(dealt) if not x.startswith("  "))]
    players = len(data["meta"]["players"])
    assert sum(x.count(s) for x in rows for s in "♠♥♦♣") == 4 * players, rows
    first = {columns(x[: x.index("♠")]) for x in rows if "♠" in x}
    assert len(first) == 1, rows  # the hands start one under the other
    rest = [x for x in rows if x.startswith("   ")]  # a hand's second line: under its first suit
    assert bool(rest) == (preset == "zipi-kitty"), rows  # (13 cards of eşli fit on one)
    assert all(columns(x) - columns(x.lstrip()) in first for x in rest), rows
    assert all(x.lstrip()[0] in "♠♥♦♣" for x in rest), rows
