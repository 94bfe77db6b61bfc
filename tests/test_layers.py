"""The package's shape: layers that only point down, and no import cycle between modules.

The layers, bottom to top (docs/architecture.md draws them with a line per module):

- engine: ``batak`` itself and its modules (cards, rules, moves, game, view, match, record,
  scoring, i18n, explain): a pure library, no I/O, no third-party import;
- ``batak.bots``: computer players that receive a seat's view, the solver, analysis;
- ``batak.arena``: the measuring tool that plays bots against each other;
- ``batak.server``: the online service (and the web client's files it serves, ``batak.web``);
- ``batak.cli``: the ``batak`` command and its terminal programs.

Imports are read from the source (also those inside functions; not those under
``if TYPE_CHECKING:``), so a new upward import or a new cycle fails here.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from helpers import SRC, package_modules

PKG = SRC / "batak"

#: layer -> the layers its modules may import.
ALLOWED: dict[str, set[str]] = {
    "engine": {"engine"},
    "bots": {"engine", "bots"},
    "arena": {"engine", "bots", "arena"},
    "web": set(),
    "server": {"engine", "bots", "server", "web"},
    "cli": {"engine", "bots", "arena", "server", "cli"},
}
THIRD_PARTY_FREE = {"engine"}
#: Build tools that live in the package but never run in it: compiling the catalog needs Babel.
BUILD_TOOLS = {"batak.i18n.build"}
STDLIB = set(sys.stdlib_module_names)


MODULES = package_modules()


def layer(module: str) -> str:
    if module == "batak.__main__":  # ``python -m batak`` runs the command
        return "cli"
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ALLOWED:
        return parts[1]
    return "engine"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(module: str) -> tuple[set[str], set[str]]:
    """(batak modules, other top-level packages) that ``module`` imports."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    ours: set[str] = set()
    others: set[str] = set()

    def resolve(base: str, names: list[str]) -> None:
        if base.split(".")[0] != "batak":
            others.add(base.split(".")[0])
            return
        for name in names:
            full = f"{base}.{name}"
            ours.add(full if full in MODULES else base)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "batak":
                        ours.add(alias.name)
                    else:
                        others.add(alias.name.split(".")[0])
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base_parts = package.split(".")
                    base_parts = base_parts[: len(base_parts) - (child.level - 1)]
                    base = ".".join(base_parts + ([child.module] if child.module else []))
                else:
                    base = child.module or ""
                resolve(base, [a.name for a in child.names])
            visit(child)

    visit(tree)
    ours.discard(module)
    return ours, others


GRAPH = {m: imports_of(m)[0] for m in MODULES}


def test_every_module_is_in_a_layer() -> None:
    assert "batak.cli" in MODULES and "batak.server" in MODULES and "batak.game" in MODULES
    assert {layer(m) for m in MODULES} == set(ALLOWED)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module: str) -> None:
    wrong = {m for m in GRAPH[module] if layer(m) not in ALLOWED[layer(module)]}
    assert not wrong, f"{module} ({layer(module)}) imports {sorted(wrong)} from a higher layer"


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if layer(m) in THIRD_PARTY_FREE and m not in BUILD_TOOLS)
)
def test_engine_uses_the_standard_library_only(module: str) -> None:
    _, others = imports_of(module)
    assert others <= STDLIB | {"__future__"}, f"{module} imports {sorted(others - STDLIB)}"


def test_no_import_cycle() -> None:
    """Depth-first search for a cycle in the module graph; names the first one it finds."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(GRAPH.get(m, ())):
            if n not in GRAPH:
                continue
            if state.get(n) == 1:
                return [*stack[stack.index(n) :], n]
            if n not in state and (found := dfs(n)) is not None:
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(GRAPH):
        if m not in state and (cycle := dfs(m)) is not None:
            pytest.fail("import cycle: " + " -> ".join(cycle))


def test_the_server_imports_nothing_from_the_terminal_programs() -> None:
    code = (
        "import sys, batak.server, batak.server.app, batak.server.hub; "
        "print(sorted(m for m in sys.modules if m.startswith(('batak.cli', 'batak.arena'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
