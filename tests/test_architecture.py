"""The shape of the code: no import circles, no app's views importing another app's views, every
view short, and the engine plain Python. The import graph is read from the source with ``ast``:
imports at module level and inside functions, relative ones resolved."""

import ast
import functools
import inspect
import textwrap
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent
MAX_VIEW_LINES = 30


def module_files() -> dict[str, Path]:
    """Every module under scoring/, by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = module_files()


def imported_names(name: str, path: Path) -> set[str]:
    """Every dotted name ``name`` imports, anywhere in it: ``import a.b`` is a.b, ``from a import
    b`` is a.b when a.b is a module under scoring/, else a."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return found


def internal(target: str) -> str | None:
    """The module under scoring/ that an imported name is (or lies in), if any."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


@functools.cache
def import_graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        targets = {internal(target) for target in imported_names(name, path)}
        graph[name] = {target for target in targets if target is not None and target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def views_app(name: str) -> str | None:
    """The app whose views ``name`` is (``scoring.table.views.hands``: ``scoring.table``), or None."""
    parts = name.split(".")
    return ".".join(parts[: parts.index("views")]) if "views" in parts[1:] else None


def feature_apps() -> list[str]:
    """The feature apps of settings.INSTALLED_APPS (the core, ``scoring``, is none), longest first."""
    from django.conf import settings

    return sorted((app for app in settings.INSTALLED_APPS if app.startswith("scoring.")), key=len, reverse=True)


def app_of(name: str, apps: list[str]) -> str | None:
    """The feature app a module lies in, or None for the core."""
    return next((app for app in apps if name == app or name.startswith(app + ".")), None)


def app_graph(graph: dict[str, set[str]], apps: list[str]) -> dict[str, set[str]]:
    """The modules' imports grouped by feature app: app → the other feature apps it imports."""
    grouped: dict[str, set[str]] = {app: set() for app in apps}
    for name, targets in graph.items():
        if (app := app_of(name, apps)) is not None:
            grouped[app] |= {app_of(target, apps) for target in targets} - {None, app}
    return grouped


def routed_views():
    """Every function a URL pattern of the project routes to, decorators unwrapped."""

    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern):
                yield inspect.unwrap(pattern.callback)

    return list(walk(get_resolver().url_patterns))


def view_lines(function) -> int:
    """Its lines from ``def`` to its last, decorators left out."""
    source = textwrap.dedent("".join(inspect.getsourcelines(function)[0]))
    node = ast.parse(source).body[0]
    return node.end_lineno - node.lineno + 1


def test_the_graph_reads_every_kind_of_import():
    graph = import_graph()
    assert len(graph) > 100
    assert "scoring.models" in graph["scoring.access"]  # from scoring.models import …
    assert "scoring.live" in graph["scoring.access"]  # from scoring import live
    assert "scoring.engine.analyse.tiles" in graph["scoring.engine.analyse.request"]  # from .tiles import …
    assert "scoring.engine.errors" in graph["scoring.engine.analyse.request"]  # from ..errors import …
    assert "scoring.table.views.games" in graph["scoring.table.urls"]  # from scoring.table.views import games


def test_a_circle_is_any_strongly_connected_component():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    assert circles(import_graph()) == []


def test_the_app_graph_groups_modules_by_app_and_finds_their_circles():
    apps = ["scoring.a", "scoring.b", "scoring.c"]
    graph = {
        "scoring.a.views": {"scoring.b.pages", "scoring.models"},
        "scoring.b.pages": {"scoring.b.presenters"},
        "scoring.b.presenters": {"scoring.c"},
        "scoring.c": {"scoring.a.listing"},
        "scoring.a.listing": set(),
        "scoring.models": set(),
    }
    grouped = app_graph(graph, apps)
    assert grouped == {"scoring.a": {"scoring.b"}, "scoring.b": {"scoring.c"}, "scoring.c": {"scoring.a"}}
    assert circles(grouped) == [apps]
    assert circles(app_graph({**graph, "scoring.c": set()}, apps)) == []


def test_no_circle_of_imports_between_feature_apps():
    """Grouped by app, the imports form no circle: what two apps share lives in the core or in one of them."""
    assert circles(app_graph(import_graph(), feature_apps())) == []


def test_no_views_module_imports_another():
    """A views module imports pages, presenters and the core, never another views module, its own app's or not."""
    crossing = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        if views_app(name)
        for target in sorted(targets)
        if views_app(target)
    ]
    assert crossing == []


def test_no_app_views_import_another_apps_views():
    graph = import_graph()
    crossing = [
        f"{name} imports {target}"
        for name, targets in graph.items()
        if views_app(name)
        for target in sorted(targets)
        if views_app(target) not in (None, views_app(name))
    ]
    assert crossing == []


def test_the_core_imports_no_feature_app():
    """The feature apps import the core (models, writes, the replay), never the reverse."""
    from django.conf import settings

    apps = [app for app in settings.INSTALLED_APPS if app.startswith("scoring.")]
    assert len(apps) >= 8
    graph = import_graph()
    found = [
        f"{name} imports {target}"
        for name, targets in graph.items()
        if not any(name == app or name.startswith(app + ".") for app in apps)
        for target in sorted(targets)
        if any(target == app or target.startswith(app + ".") for app in apps)
    ]
    assert found == []


def test_every_view_is_at_most_thirty_lines():
    views = [view for view in routed_views() if view.__module__.startswith("scoring.")]
    assert len(views) > 50
    long = {f"{view.__module__}.{view.__qualname__}": view_lines(view) for view in views}
    assert {name: lines for name, lines in long.items() if lines > MAX_VIEW_LINES} == {}


def test_the_engine_imports_only_the_engine():
    """scoring/engine/ is plain Python: nothing from Django, nothing of scoring but the engine and
    the rulesets' engines."""
    found = []
    for name, path in MODULES.items():
        if not name.startswith("scoring.engine"):
            continue
        for target in sorted(imported_names(name, path)):
            top = target.split(".")
            if top[0] == "django" or (top[0] == "scoring" and not _engine(top)):
                found.append(f"{name} imports {target}")
    assert found == []


def _engine(parts: list[str]) -> bool:
    if parts[:2] == ["scoring", "engine"]:
        return True
    return parts[:2] == ["scoring", "rulesets"] and (len(parts) == 2 or parts[3:4] == ["engine"])


MAX_MODULE_LINES = 500


def test_no_module_under_scoring_is_over_500_lines():
    """A module past 500 lines holds several things: split it (as scoring/services/ is)."""
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    assert {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES} == {}


# One name per thing (docs/glossary.md, "Words kept to one meaning"): "check" is only 核对, "carry"
# only the 牌友圈's carry-over (结转), "kept" only a hand the phone keeps offline.
ONE_MEANING = {
    "check": {
        # 核对, and what its pages and rows call it
        "CHECKED",
        "CHECKS_TEMPLATE",
        "CHECK_FIELDS",
        "CheckForm",
        "HandCheck",
        "HandChecks",
        "RowChecks",
        "_checks",
        "check",
        "check_hand",
        "check_hands_up_to",
        "check_up_to",
        "check_views",
        "checker",
        "checks",
        "checks_of",
        "checks_required",
        "checks_required_field",
        "handchecks",
        "mine_check",
        "not_checked",
        "not_checked_words",
        "restored_checks",
        "row_checks",
        "sort_checks",
        "spend_check",
        "take_back_check",
        # Django's and the standard library's own names, and an HTML checkbox's state
        "CheckConstraint",
        "health_check_done",
        "runtime_checkable",
        "checked",
    },
    "carr": {"carry", "carry_paid", "carry_plan", "carry_undo", "group_carry"},
    "kept": {"KEPT_SALT", "Kept", "kept", "kept_stamp", "kept_table", "drop_kept_hand", "seat_kept_the_deal"},
}


@functools.cache
def identifiers() -> dict[str, frozenset[str]]:
    """Every identifier under scoring/ (its migrations aside), with the modules it is in; read once."""
    import tokenize

    found: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        if ".migrations." in name:
            continue
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                if token.type == tokenize.NAME:
                    found.setdefault(token.string, set()).add(name)
    return {name: frozenset(modules) for name, modules in found.items()}


def names_containing(word: str) -> dict[str, frozenset[str]]:
    """The identifiers holding ``word``, with the modules each is in."""
    return {name: modules for name, modules in identifiers().items() if word in name.lower()}


def test_each_of_the_double_words_names_one_thing():
    strays = {
        word: {name: sorted(files) for name, files in names_containing(word).items() if name not in allowed}
        for word, allowed in ONE_MEANING.items()
    }
    assert strays == {"check": {}, "carr": {}, "kept": {}}
    assert "validate_win" in names_containing("validate")  # the rulesets' rules of what may win
