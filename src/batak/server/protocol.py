"""The wire protocol: typed JSON messages, checked field by field (see ``docs/protocol.md``).

>>> parse('{"type": "move", "table": "t1", "id": "m1", "v": 3, "move": "AS"}')["move"]
'AS'
>>> parse('{"type": "move", "table": "t1"}')
Traceback (most recent call last):
...
batak.server.protocol.ProtocolError: move: 'id' is missing (a string of 1 to 64 characters)
>>> parse("[1, 2]")
Traceback (most recent call last):
...
batak.server.protocol.ProtocolError: a message is a JSON object with a "type"
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import i18n

__all__ = [
    "CLIENT_TYPES",
    "PROTOCOL_VERSION",
    "REACTIONS",
    "ROOM_LIMITS",
    "ProtocolError",
    "dumps",
    "error",
    "parse",
]

PROTOCOL_VERSION = 1
REACTIONS = ("👍", "👏", "😂", "😮", "😢", "😡", "🙏", "gg")


class ProtocolError(ValueError):
    """A message the server refuses; ``code`` is machine-readable, ``str()`` says why in English
    and :meth:`text` in the reader's language (``batak.i18n`` message ``server.KEY``)."""

    def __init__(
        self,
        code: str,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
        ref: Any = None,
    ) -> None:
        self.code = code
        self.key = key or code
        self.params = dict(params or {})
        self.ref = ref
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """Why, in ``lang`` (``en`` or ``tr``); a field's expected kind is said in it too."""
        params = {
            k: v.describe(lang) if isinstance(v, Field) else v for k, v in self.params.items()
        }
        return i18n.text(f"server.{self.key}", lang, **params)


@dataclass(frozen=True)
class Field:
    kind: str  # str, int, bool, seat, obj, any
    required: bool = True
    max_len: int = 64
    low: int = 0
    high: int = 2**53
    nullable: bool = False

    def describe(self, lang: str = "en") -> str:
        if self.kind == "str":
            return i18n.text("server.field_str", lang, max_len=self.max_len)
        if self.kind in ("int", "seat"):
            return i18n.text("server.field_int", lang, low=self.low, high=self.high)
        if self.kind in ("bool", "obj"):
            return i18n.text(f"server.field_{self.kind}", lang)
        return i18n.text("server.field_any", lang)


def _s(max_len: int = 64, required: bool = True, nullable: bool = False) -> Field:
    return Field("str", required, max_len=max_len, nullable=nullable)


def _i(low: int = 0, high: int = 2**53, required: bool = True, nullable: bool = False) -> Field:
    return Field("int", required, low=low, high=high, nullable=nullable)


def _b(required: bool = False) -> Field:
    return Field("bool", required)


TABLE = _s(32)
#: The one set of limits on a room's options, however they are set: ``create``'s own fields or
#: its ``rules`` object (the hub checks the options a room would get, whichever way they came).
ROOM_LIMITS: dict[str, tuple[int, int]] = {
    "deals": (1, 50),
    "target_score": (1, 10000),
    "decision_seconds": (5, 600),
    "trick_pause_ms": (0, 5000),
    "deal_pause_ms": (0, 30000),
}
#: Every message type a client may send, with its fields.
CLIENT_TYPES: dict[str, dict[str, Field]] = {
    "hello": {
        "token": _s(128, required=False, nullable=True),
        "name": _s(64, required=False, nullable=True),
        "lang": _s(8, required=False, nullable=True),
        "protocol": _i(1, 100, required=False),
        "ack_in_event": _b(),
    },
    "ping": {"t": Field("any", required=False)},
    "lobby": {},
    "quick": {"mode": _s(16), "stake": _i(0, 10**9, required=False)},
    "create": {  # the ranges of a room's options: ROOM_LIMITS, checked by the hub
        "preset": _s(32, required=False),
        "rules": Field("obj", required=False),
        "deals": _i(required=False, nullable=True),
        "target_score": _i(required=False, nullable=True),
        "bots": _b(),
        "show_bots": _b(),
        "public": _b(),
        "decision_seconds": _i(required=False),
        "trick_pause_ms": _i(required=False),
        "deal_pause_ms": _i(required=False),
        "seat": _i(0, 3, required=False),
        "bot_level": _s(16, required=False),
        "stake": _i(0, 10**9, required=False),
    },
    "join": {
        "table": _s(32, required=False),
        "code": _s(16, required=False),
        "seat": _i(0, 3, required=False, nullable=True),
        "spectate": _b(),
        "since": _i(0, required=False),
    },
    "room": {"code": _s(16)},
    "sync": {"table": TABLE, "since": _i(0, required=False)},
    "start": {"table": TABLE},
    "move": {"table": TABLE, "id": _s(64), "v": _i(0), "move": _s(16)},
    "hint": {"table": TABLE},
    "review": {"table": TABLE, "deal": _i(1, 1000)},
    "chat": {"table": TABLE, "text": _s(2000)},
    "react": {"table": TABLE, "reaction": _s(16)},
    "leave": {"table": TABLE, "here": _b()},
    "rematch": {"table": TABLE, "accept": _b()},
    "adjourn": {"table": TABLE},
    "mytables": {},
    "my_matches": {},
    "leaderboard": {},
    "stats": {"player": _s(64, required=False)},
    "register": {"username": _s(32), "password": _s(256), "bot": _b()},
    "login": {"username": _s(32), "password": _s(256)},
    "logout": {"everywhere": _b()},
    "change_password": {"password": _s(256), "new": _s(256)},
    "delete_account": {"password": _s(256)},
    "my_data": {},
    "invite": {"table": TABLE, "username": _s(32)},
    "invitable": {"table": TABLE},
    # tournaments and the story mode (issue 13 items 4 and 5)
    "tourney_create": {
        "name": _s(64, required=False, nullable=True),
        "preset": _s(32, required=False),
        "rounds": _i(1, 10, required=False),
        "deals": _i(1, 12, required=False),
        "start": _i(0, required=False),
        "join": _b(),
    },
    "tourney_list": {},
    "tourney": {"tournament": TABLE},
    "tourney_join": {"tournament": TABLE},
    "tourney_leave": {"tournament": TABLE},
    "tourney_start": {"tournament": TABLE},
    "story": {},
    "story_play": {"stage": _i(0, 20), "again": _b()},
    "wallet": {},  # chips (issue 12)
    "chip_leaderboard": {},
    # progress (server/progress.py): XP and level, the rated leaderboard, the weekly league
    "progress": {"player": _s(64, required=False)},
    "ratings": {},
    "league": {},
}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


#: made once: ``json.loads`` with an option builds a new decoder for every message
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _check(kind: str, spec: Mapping[str, Field], msg: Mapping[str, Any]) -> None:
    unknown = sorted(set(msg) - set(spec) - {"type", "ref"})
    if unknown:
        raise ProtocolError(
            "bad_message",
            "unknown_fields",
            {"kind": kind, "fields": ", ".join(map(repr, unknown))},
        )
    for name, f in spec.items():
        if name not in msg:
            if f.required:
                raise ProtocolError(
                    "bad_message", "missing_field", {"kind": kind, "name": name, "what": f}
                )
            continue
        value = msg[name]
        if value is None and (f.nullable or not f.required):
            continue
        ok = True
        if f.kind == "str":
            ok = isinstance(value, str) and 1 <= len(value) <= f.max_len
        elif f.kind in ("int", "seat"):
            ok = isinstance(value, int) and not isinstance(value, bool) and f.low <= value <= f.high
        elif f.kind == "bool":
            ok = isinstance(value, bool)
        elif f.kind == "obj":
            ok = isinstance(value, dict)
        if not ok:
            raise ProtocolError(
                "bad_message",
                "bad_field",
                {"kind": kind, "name": name, "what": f, "got": _short(value)},
            )


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def parse(raw: str | bytes, max_bytes: int = 4096) -> dict[str, Any]:
    """A checked client message, or :class:`ProtocolError` saying what is wrong with it."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise ProtocolError("too_big", params={"limit": max_bytes, "size": size})
    if isinstance(raw, bytes):
        raise ProtocolError("bad_json", "binary")
    try:
        msg = _DECODER.decode(raw)
    except RecursionError:
        raise ProtocolError("bad_json", "json_deep") from None
    except ValueError as e:
        raise ProtocolError("bad_json", "not_json", {"detail": str(e)}) from None
    _check_sound(msg)
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "no_type")
    kind = msg["type"]
    ref = msg.get("ref")
    if ref is not None and not (
        (isinstance(ref, str) and len(ref) <= 64)
        or (isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) < 2**53)
    ):
        raise ProtocolError("bad_message", "bad_ref")
    spec = CLIENT_TYPES.get(kind)
    if spec is None:
        raise ProtocolError(
            "unknown_type",
            params={"kind": _short(kind), "known": ", ".join(CLIENT_TYPES)},
            ref=ref,
        )
    try:
        _check(kind, spec, msg)
    except ProtocolError as e:
        e.ref = ref
        raise
    return msg


#: The largest whole number a message may hold anywhere (what every JSON reader, a browser's
#: included, reads exactly).
MAX_SAFE_INT = 2**53


def _check_sound(value: Any) -> None:
    """Refuse a parsed JSON value that could not be sent back as it is: a string (or key) that
    is not valid Unicode text (a lone surrogate such as ``"\\ud800"``, which no UTF-8 encoder
    accepts), a number that is not finite (``1e999`` reads as infinity), or a whole number beyond
    ``MAX_SAFE_INT``. Whatever passes can be stored, echoed and sent; walked without recursion
    (the JSON reader's own depth limit applies first)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not _is_text(v):
                raise ProtocolError("bad_message", "bad_text")
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if abs(v) > MAX_SAFE_INT:
                raise ProtocolError("bad_message", "too_large")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise ProtocolError("bad_message", "not_finite")
        elif isinstance(v, dict):
            for k, item in v.items():
                if not _is_text(k):
                    raise ProtocolError("bad_message", "bad_text")
                stack.append(item)
        elif isinstance(v, list):
            stack.extend(v)


def _is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def error(code: str, message: str, ref: Any = None, **extra: Any) -> dict[str, Any]:
    """An ``error`` message for the client."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    out.update(extra)
    return out


_dumps: Callable[[Any], str] = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False
).encode

try:  # optional: several times faster, the same text
    import orjson

    def dumps(msg: Mapping[str, Any]) -> str:
        """Compact JSON text of a server message."""
        try:
            return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # e.g. a whole number beyond 64 bits echoed back: the slow way
            return _dumps(msg)

except ImportError:  # pragma: no cover - depends on the install

    def dumps(msg: Mapping[str, Any]) -> str:
        """Compact JSON text of a server message."""
        return _dumps(msg)
