"""Computer players that see only a seat's view, and the double-dummy solver.

A player is given ``Game.view(seat)`` for the seat to move, a plain JSON-ready dict, and returns a
legal move as its canonical text. It never receives a :class:`~batak.game.Game` or another seat's
cards, so "the bots do not see your cards" is true by construction.

>>> import batak, batak.bots
>>> g = batak.Game("standard", seed=3)
>>> bot = batak.bots.get("easy", seed=1)
>>> move = bot.choose(g.view(g.to_move))
>>> move in g.view(g.to_move)["legal_moves"]
True

Levels: ``easy``, ``medium``, ``hard`` (and ``random``, a uniform legal move, for tests).
A player written elsewhere is loaded by name with :func:`load` (``module:Class``), which says
what to fix when the name names no player that can be built.
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import inspect
import os
import site
import sysconfig
import traceback
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "LEVELS",
    "LEVEL_WORDS",
    "Player",
    "PlayerError",
    "error_text",
    "get",
    "level_word",
    "load",
    "name_hint",
    "shown",
    "where",
]

#: level -> "module:Class"; the class takes ``seed`` as a keyword argument.
_REGISTRY: dict[str, str] = {
    "random": "batak.bots.simple:RandomPlayer",
    "easy": "batak.bots.easy:EasyPlayer",
    "medium": "batak.bots.medium:MediumPlayer",
    "hard": "batak.bots.hard:HardPlayer",
}
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
#: the levels as the game names them in Turkish, accepted wherever a level is named
LEVEL_WORDS = {"kolay": "easy", "orta": "medium", "zor": "hard"}


def level_word(word: str) -> str:
    """The level a word names in either language and any case (``ZOR``, ``Orta``, ``HARD``),
    else ``word`` as it is (a ``module:Class``, a name to refuse).

    >>> level_word("zor"), level_word("Kolay"), level_word("MEDIUM"), level_word("m:Bot")
    ('hard', 'easy', 'medium', 'm:Bot')
    """
    low = word.strip().casefold()
    if low in LEVEL_WORDS:
        return LEVEL_WORDS[low]
    return low if low in (*LEVELS, "random") else word


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # batak/
_STDLIB = os.path.dirname(os.__file__) + os.sep


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(view) -> move text``. ``name`` names the player for people (our
    levels' ``easy``, ``medium``, ``hard``); the arena's reports name a loaded player by its
    class."""

    name: str

    def choose(self, view: Mapping[str, Any]) -> str:
        """A legal move (canonical text) for the seat whose view this is."""
        ...


def get(level: str, *, seed: int | None = None, **options: Any) -> Player:
    """A player of ``level`` (``easy``, ``medium``, ``hard`` or ``random``).

    Same seed and same view give the same move. Extra ``options`` go to the player (for example
    ``budget`` seconds for ``hard``).
    """
    target = _REGISTRY.get(level)
    if target is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of: {', '.join(_REGISTRY)}")
    module_name, class_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    player: Player = cls(seed=seed, **options)
    return player


class PlayerError(ValueError):
    """A player that cannot be loaded, or that failed at play: ``code`` says what went wrong and
    ``params`` the details, for a text a person reads (the ``cli.player_`` keys of the catalog).

    Codes of :func:`load`: ``not_a_name`` (not ``module:Class``; ``spec``, ``hint`` a guess or
    ``""``), ``a_file`` (a file path instead of a module name; ``spec``, ``module``, ``folder``),
    ``no_module`` (``module`` is not importable from here), ``import_failed`` (importing it raised;
    ``module``, ``error``, ``where``), ``no_class`` (``module``, ``name``, ``players``: what it
    has), ``not_a_player`` (``name`` is there but builds nothing: ``got`` is its type),
    ``no_seed`` (the class takes no ``seed`` keyword), ``init_failed`` (building it raised;
    ``error``, ``where``), ``no_choose`` (no ``choose(view)`` method).
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params


def where(error: BaseException) -> tuple[str, int, str] | None:
    """Where ``error`` was raised in the player's own code: ``(file, line, function)`` of the
    innermost frame outside this package and Python's standard library (else the innermost
    one; for a syntax error, the line it names), or ``None`` when the trace is only ours."""
    if isinstance(error, SyntaxError) and error.filename:
        return (error.filename, error.lineno or 0, "")
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not f.filename.startswith(_PACKAGE) and not f.filename.startswith("<frozen")
    ]
    if not frames:
        return None
    own = [f for f in frames if not f.filename.startswith(_STDLIB)]
    last = (own or frames)[-1]
    return (last.filename, last.lineno or 0, last.name)


def shown(value: object, width: int = 80) -> str:
    """What a player returned instead of a move, as its author reads it: its ``repr``, cut to
    ``width`` characters with "…" where it is longer.

    >>> shown(None), shown(["pass", "bid 4", "bid 5"], 20)
    ('None', "['pass', 'bid 4', '…")
    """
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def error_text(error: BaseException) -> str:
    """``Type: message`` (or the type alone), as a player's error is shown to its author."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def name_hint(spec: str) -> str:
    """The ``module:Class`` a dotted name most likely meant, or a module named alone meant with
    the one player it holds (``""`` if none).

    >>> name_hint("mybot.HighLow"), name_hint("/tmp/mybot.py"), name_hint("medium")
    ('mybot:HighLow', '', '')
    >>> name_hint("batak.bots.simple.RandomPlayer"), name_hint("batak.bots.easy")
    ('batak.bots.simple:RandomPlayer', 'batak.bots.easy:EasyPlayer')

    The module named alone is not imported for the hint (a typo would run whatever module it
    names: ``this`` prints the Zen of Python, ``antigravity`` opens a browser): its source is
    read (:func:`_players_in_source`), and only an author's own file, not the standard
    library's or an installed package's.

    >>> name_hint("this"), name_hint("antigravity")
    ('', '')
    """
    spec = spec.strip()
    if spec.isidentifier() or (spec and all(p.isidentifier() for p in spec.split("."))):
        found = _players_in_source(spec)
        if len(found) == 1:
            return f"{spec}:{found[0]}"
    head, dot, tail = spec.rpartition(".")
    return f"{head}:{tail}" if dot and head and tail and "/" not in spec else ""


#: The largest source file read for a player's hint (bytes): a bot's file is far smaller, and
#: parsing a huge generated one would take minutes and gigabytes.
HINT_SOURCE_LIMIT = 1_000_000


def _players_in_source(name: str) -> list[str]:
    """The classes with a ``choose`` method of their own defined at the top of the module
    ``name``, read from its source file without importing it or its packages (a class that
    inherits its ``choose`` is not seen: then no hint, the example is shown). Nothing (``[]``)
    when the module is not a ``.py`` file of the author's (under the current folder or a
    ``PYTHONPATH`` entry): the standard library and installed packages are not read."""
    locations: list[str] | None = None  # sys.path, then each package's folders
    spec = None
    for part in name.split("."):  # (importlib.util.find_spec would import the packages)
        try:
            spec = importlib.machinery.PathFinder.find_spec(part, locations)
        except (ImportError, OSError, ValueError):
            return []
        if spec is None:
            return []
        locations = list(spec.submodule_search_locations or [])
    origin = spec.origin if spec is not None else None
    if not origin or not origin.endswith(".py") or not os.path.isfile(origin):
        return []
    path = os.path.realpath(origin)
    if any(path.startswith(folder + os.sep) for folder in _not_authors()):
        return []
    try:
        if os.path.getsize(path) > HINT_SOURCE_LIMIT:  # not a bot's file: not read for a hint
            return []
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except Exception:  # unreadable or unparsable (said once named right, by load): no hint
        # (MemoryError and RecursionError too: a deeply nested expression, a generated file)
        return []
    return sorted(
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any(
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "choose"
            for item in node.body
        )
    )


def _not_authors() -> set[str]:
    """The folders of the standard library and of installed packages (site-packages)."""
    paths = sysconfig.get_paths()
    folders = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    folders.update(getattr(site, "getsitepackages", list)())
    folders.add(site.getusersitepackages())
    return {os.path.realpath(f) for f in folders if f}


def load(spec: str, *, seed: int | None = None) -> Player:
    """The player ``spec`` names, ``module:Class`` (or ``module:function``), built with
    ``seed``: the module must be importable (a file ``mybot.py`` in the current folder with
    ``PYTHONPATH=.``), and what it builds must have ``choose(view)``. Raises
    :class:`PlayerError` saying what to fix.

    >>> load("batak.bots.simple:RandomPlayer", seed=1).name
    'random'
    >>> try:
    ...     load("batak.bots.simple.RandomPlayer")
    ... except PlayerError as e:
    ...     print(e.code, e.params["hint"])
    not_a_name batak.bots.simple:RandomPlayer
    """
    module_name, colon, name = spec.strip().rpartition(":")
    if not colon or not module_name or not name:
        raise PlayerError("not_a_name", spec=spec, hint=name_hint(spec))
    if "/" in module_name or "\\" in module_name or module_name.endswith(".py"):
        file = module_name.replace("\\", "/")
        folder, _, base = file.rpartition("/")
        stem = base.removesuffix(".py")
        raise PlayerError("a_file", spec=spec, module=stem, name=name, folder=folder or ".")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        missing = e.name or ""
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            raise PlayerError("no_module", module=module_name) from e
        raise PlayerError(
            "import_failed", module=module_name, error=error_text(e), where=where(e)
        ) from e
    # a syntax error, or the module's own code raised (sys.exit() too: the player's failure,
    # which would end the command, or a worker of the arena's, without a word)
    except (Exception, SystemExit) as e:
        raise PlayerError(
            "import_failed", module=module_name, error=error_text(e), where=where(e)
        ) from e
    factory = getattr(module, name, None)
    if factory is not None and not callable(factory):
        raise PlayerError("not_a_player", module=module_name, name=name, got=type(factory).__name__)
    if factory is None:
        players = sorted(
            n
            for n, v in vars(module).items()
            if inspect.isclass(v) and callable(getattr(v, "choose", None))
        )
        file = getattr(module, "__file__", None) or ", ".join(getattr(module, "__path__", []))
        raise PlayerError("no_class", module=module_name, file=file, name=name, players=players)
    try:
        params: Mapping[str, inspect.Parameter] | None = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # pragma: no cover - a callable without a signature
        params = None
    if params is not None and not (
        "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    ):
        raise PlayerError("no_seed", spec=spec)
    try:
        player = factory(seed=seed)
    except (Exception, SystemExit) as e:
        raise PlayerError("init_failed", spec=spec, error=error_text(e), where=where(e)) from e
    if not callable(getattr(player, "choose", None)):
        raise PlayerError("no_choose", spec=spec)
    return player  # type: ignore[no-any-return]
