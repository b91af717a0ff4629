"""The architecture as a test: cli -> replay, scenarios, hunt -> engine ->
cards, clauses, editions. A module imports only from its own layer or the
layers below it, and no two modules import each other, directly or in a
ring (imports inside functions count: a late import is still a dependency).
An import under `if TYPE_CHECKING:` names a type for mypy and mypyc (a rule
module's `g: Board`) and never runs: it must respect the layers, but it is
not an import that can close a ring of the package. Inside the Mindbug
engine it counts too: its modules read in layers, records and state at the
bottom, the rules above them, the game on top (the tests at the end).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "oracle"

# The layer of each part of the package, lowest first. A new part must be
# placed here: the test names any module it does not know.
LAYERS = {
    "oracle": 0,
    "oracle.clauses": 0,
    "oracle.safeyaml": 0, "oracle.structure": 0, "oracle.junit": 0, "oracle.term": 0, "oracle.schemas": 0,
    "oracle.clause_view": 0, "oracle.loading": 0, "oracle.ending": 0,
    # A game's package: its entry, cards, editions and readings (0), its engine (1).
    "oracle.games": 0, "oracle.games.mindbug": 0, "oracle.games.mindup": 0,
    "oracle.games.mindbug.engine": 1, "oracle.games.mindup.engine": 1,
    "oracle.games.mindbug.replay": 2, "oracle.games.mindbug.hunt": 2, "oracle.games.mindbug.harness": 2,
    "oracle.replay": 2, "oracle.scenarios": 2, "oracle.hunt": 2, "oracle.coverage": 2, "oracle.fuzz": 2,
    "oracle.harness": 2, "oracle.report": 2, "oracle.games.mindup.replay": 2,
    "oracle.games.mindup.hunt": 2, "oracle.games.mindup.harness": 2, "oracle.games.mindup.fuzz": 2,
    "oracle.games.mindbug.fuzz": 2, "oracle.games.mindbug.scenarios": 2, "oracle.games.mindup.scenarios": 2,
    "oracle.games.mindbug.board": 2, "oracle.games.mindup.board": 2, "oracle.games.mindup.board_edit": 2,
    "oracle.board": 2,
    "oracle.cli": 3, "oracle.__main__": 3, "oracle.launch": 3,
}


def _modules() -> dict[str, Path]:
    mods = {}
    for f in ROOT.rglob("*.py"):
        parts = list(f.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = f
    return mods


def _typing_only(tree: ast.AST) -> set[int]:
    """The import statements under `if TYPE_CHECKING:` (ids of their nodes)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))}
    return out


def _imports(name: str, path: Path, mods: dict, run_time_only: bool = False) -> set[str]:
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _typing_only(tree) if run_time_only else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in mods}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = {f"{target}.{a.name}" for a in node.names} & mods.keys()
            # `from pkg import sub` depends on the submodule; `from pkg import name` on pkg.
            if subs:
                out |= subs
            if len(subs) < len(node.names) and target in mods:
                out.add(target)
    out.discard(name)
    return out


def _layer(name: str) -> int | None:
    while name:
        if name in LAYERS:
            return LAYERS[name]
        name = name.rpartition(".")[0]
    return None


def _graph(run_time_only: bool = False):
    mods = _modules()
    return {name: _imports(name, path, mods, run_time_only) for name, path in mods.items()}


def test_every_module_has_a_layer():
    unplaced = sorted(m for m in _modules() if _layer(m) is None)
    assert not unplaced, f"place these modules in a layer (tests/test_layers.py LAYERS): {unplaced}"


def test_no_module_imports_a_layer_above_it():
    upward = []
    for name, deps in _graph().items():
        mine = _layer(name)
        for d in deps:
            theirs = _layer(d)
            # A package's __init__ may gather its own submodules.
            if mine is not None and theirs is not None and theirs > mine and not d.startswith(name + "."):
                upward.append(f"{name} (layer {mine}) imports {d} (layer {theirs})")
    assert not upward, "\n".join(sorted(upward))


def _rings(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import rings of `edges` (module -> the modules it imports): its
    strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    rings: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            ring = []
            while True:
                w = stack.pop()
                on.discard(w)
                ring.append(w)
                if w == v:
                    break
            if len(ring) > 1:
                rings.append(sorted(ring))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return rings


def _without_package_gathering(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package __init__ that re-exports its submodules is not a cycle with them."""
    return {a: {b for b in deps if not a.startswith(b + ".")} for a, deps in graph.items()}


def test_no_import_cycles():
    rings = _rings(_without_package_gathering(_graph(run_time_only=True)))
    assert not rings, f"import cycles: {rings}"


def test_the_ring_finder_finds_a_ring():
    assert _rings({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _rings({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_reads_relative_imports():
    """The graph the tests above check is the real one: relative imports are
    resolved to modules (combat uses the effect verbs), and card data stays
    below the engine."""
    graph = _graph()
    assert "oracle.games.mindbug.engine.effects" in graph["oracle.games.mindbug.engine.combat"]
    assert not any(d.startswith("oracle.games.mindbug.engine") for d in graph["oracle.games.mindbug.cards.abilities"])


def test_only_imports_for_types_are_left_out_of_the_ring_check():
    """`g: Board` in combat names a type (an import under TYPE_CHECKING):
    the layer check sees it, the ring check of the whole package does not;
    an import that runs stays in both."""
    assert "oracle.games.mindbug.engine.board" in _graph()["oracle.games.mindbug.engine.combat"]
    run_time = _graph(run_time_only=True)
    assert "oracle.games.mindbug.engine.board" not in run_time["oracle.games.mindbug.engine.combat"]
    assert "oracle.games.mindbug.engine.effects" in run_time["oracle.games.mindbug.engine.combat"]


# -- the Mindbug engine, in layers ----------------------------------------------
# The state and its records at the bottom, with the board the rule modules
# see of a game (board.Board); the rule modules above them; the game that
# drives them (game.Game) on top. A rule module names the game it works on as
# a Board, so even the imports that only name a type run one way.
ENGINE = "oracle.games.mindbug.engine"
ENGINE_BOTTOM = {f"{ENGINE}.{m}" for m in ("records", "state", "board", "presence", "registry", "errors")}
ENGINE_TOP = {ENGINE, f"{ENGINE}.game"}     # the package's entry gathers the game and the rules


def _engine_graph() -> dict[str, set[str]]:
    """The engine's modules and what each imports of the engine, imports that
    only name a type included."""
    return {m: {d for d in deps if d == ENGINE or d.startswith(ENGINE + ".")}
            for m, deps in _graph().items() if m.startswith(ENGINE + ".")}


def test_the_engine_imports_form_no_ring_even_for_types():
    rings = _rings(_engine_graph())
    assert not rings, f"rings in the engine's imports, imports for types included: {rings}"


def test_no_rule_module_imports_the_game():
    """The rules take the game as a `Board` (board.py); only the package's
    entry imports game.py."""
    users = sorted(m for m, deps in _engine_graph().items() if f"{ENGINE}.game" in deps)
    assert not users, f"these engine modules import game.py (take a board.Board instead): {users}"


def test_the_bottom_of_the_engine_imports_no_rule():
    upward = sorted(f"{m} imports {d}" for m, deps in _engine_graph().items() if m in ENGINE_BOTTOM
                    for d in deps - ENGINE_BOTTOM)
    assert not upward, "\n".join(upward)


def test_the_game_is_on_top():
    """Every rule module is reached from the game without the game being
    reached from any of them: game.py drives the rules, they never drive it."""
    graph = _engine_graph()
    below = {m for m in graph if m not in ENGINE_TOP}
    assert all(f"{ENGINE}.game" not in graph[m] for m in below)
    assert f"{ENGINE}.board" in graph[f"{ENGINE}.game"]


def _module_level(tree: ast.Module):
    """The statements of a module's top level, those under `if` and `try` included."""
    for node in tree.body:
        if isinstance(node, (ast.If, ast.Try)):
            yield from (n for part in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", []))
                        for n in part)
            for h in getattr(node, "handlers", []):
                yield from h.body
        else:
            yield node


def _foot_imports(package: str = "oracle.games.mindbug") -> list[str]:
    """Imports below the code of `package`'s modules, and any `# noqa: E402`."""
    out = []
    for name, path in _modules().items():
        if not (name == package or name.startswith(package + ".")):
            continue
        text = path.read_text(encoding="utf-8")
        seen_def = False
        for node in _module_level(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                seen_def = True
            elif seen_def and isinstance(node, (ast.Import, ast.ImportFrom)):
                out.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
        if "noqa: E402" in text:
            out.append(f"{path.relative_to(ROOT.parent)}: # noqa: E402")
    return sorted(set(out))


def test_no_module_of_the_game_imports_at_its_foot():
    """In Mindbug's package (its engine, its cards) every import is at the
    top of its module: an import below the code (a re-export at the foot,
    `# noqa: E402`) is how a ring is hidden."""
    foot = _foot_imports()
    assert not foot, f"imports below a module's code: {foot}"


def _imports_in_functions(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted({n.lineno for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))})


def test_the_engine_imports_nothing_inside_a_function():
    late = [f"{name}:{line}" for name, path in sorted(_modules().items()) if name.startswith(ENGINE + ".")
            for line in _imports_in_functions(path)]
    assert not late, f"imports inside functions of the engine (import at the top instead): {late}"


def test_the_abilities_get_their_verbs_from_one_module():
    """The verbs an ability is handed (`fx`) are verbs.py, which imports only
    downward: no rule module and not the game import it back, bar the one
    that resolves triggered effects."""
    import importlib

    triggers = importlib.import_module(f"{ENGINE}.triggers")
    verbs = importlib.import_module(f"{ENGINE}.verbs")
    assert triggers._VERBS is verbs
    graph = _engine_graph()
    assert sorted(m for m, deps in graph.items() if f"{ENGINE}.verbs" in deps) == [f"{ENGINE}.triggers"]
    for verb in ("defeat", "gain_life", "boost", "copy_play", "roll", "evolve", "give_control"):
        assert callable(getattr(verbs, verb)), verb


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _importing(among, into: tuple[str, ...]) -> dict[str, list[str]]:
    """The modules `among(name)` accepts that import a module of the
    packages `into`, each with what it imports of them."""
    found = {}
    for name, deps in _graph().items():
        if among(name):
            direct = sorted(d for d in deps if _within(d, into))
            if direct:
                found[name] = direct
    return found


# The core (every module outside oracle/games) reaches a game only through
# the registry (oracle.games: a game's entry names each part the core calls).


def _game_packages() -> tuple[str, ...]:
    from oracle.games import GAMES

    return tuple(GAMES.values())


def _core_reaching_a_game() -> dict[str, list[str]]:
    return _importing(lambda m: not _within(m, ("oracle.games",)), _game_packages())


def test_the_core_reaches_a_game_only_through_the_registry():
    found = _core_reaching_a_game()
    assert not found, ("these core modules import a game's package; reach it through the registry "
                       f"(oracle.games) instead: {found}")


def test_the_boundary_check_sees_imports_across_it():
    """The check above reads the real graph: a game's replay imports the
    shared machinery (that way is allowed), and a lazy import inside a
    function counts (Mindbug's cards listing loads a card file that way)."""
    graph = _graph()
    assert "oracle.replay.findings" in graph["oracle.games.mindup.replay.verifier"]
    assert "oracle.replay.reader" in graph["oracle.games.mindbug.replay.verifier"]
    assert "oracle.games.mindbug.cards.compiled" in graph["oracle.games.mindbug.listing"]
    assert not any(_within(d, _game_packages()) for d in graph["oracle.replay.verify"])


def test_the_core_check_sees_a_game_imported_through_the_registry_as_allowed():
    graph = _graph()
    assert "oracle.games" in graph["oracle.replay.verify"]          # the registry: allowed
    assert "oracle.replay.verify" not in _core_reaching_a_game()
    assert "oracle.scenarios.runner" not in _core_reaching_a_game()  # each game's runner, through the registry
    # and a direct import across packages is seen: Mindbug's verifier reads with the core's reader
    assert "oracle.games.mindbug.replay.verifier" in _importing(lambda m: m.startswith("oracle.games.mindbug"),
                                                                ("oracle.replay",))


def test_no_game_imports_another():
    """Games are peers: what two games share lives in the core."""
    for game in _game_packages():
        others = tuple(g for g in _game_packages() if g != game)
        assert _importing(lambda m, game=game: _within(m, (game,)), others) == {}
