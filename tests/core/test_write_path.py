"""One write path: every create, update and delete of a game's or a group's rows is made by the
core's write path (every module of scoring/services/), which holds the row locks, keeps the replay
in step and bumps the versions the phones poll. Read by ``ast``, every Python file under scoring/."""

import ast
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent.parent
SCORING = ROOT / "scoring"

# The rows of the access budgets and an account's saved links (scoring/access.py) are not a
# game's or a group's data: they are counted and kept by whoever opens a link.
NOT_DATA = {"SavedGame", "AccessMiss"}
DATA = {model.__name__ for model in apps.get_app_config("scoring").get_models()} - NOT_DATA
# Named here so that a renamed model fails the test instead of quietly leaving the rule.
GAME_AND_GROUP_ROWS = {
    "Game",
    "Hand",
    "Settlement",
    "Transfer",
    "Group",
    "SettleUp",
    "PayCode",
    "HandCheck",
    "TableNight",
    "Season",
    "WriteReceipt",
}
# The related managers that reach those rows from another (``game.hands``, ``group.settle_ups``).
RELATED = {
    rel.get_accessor_name()
    for model in apps.get_app_config("scoring").get_models()
    for rel in model._meta.related_objects
    if rel.related_model.__name__ in DATA
}
MANAGERS = {"objects", "_default_manager", "_base_manager"}
MANAGER_WRITES = {"create", "get_or_create", "update_or_create", "bulk_create", "bulk_update"}
QUERYSET_READS = {"filter", "exclude", "all", "select_related", "prefetch_related", "order_by", "distinct", "only"}

ALL = {"create", "update", "delete", "save", "select_for_update", 'F("version")', "bump_versions", "raw SQL"}
# The write path: every module of this package may write anything.
PACKAGE = "scoring/services/"
# Modules outside it, and what each may write.
WRITE_PATH = {
    # Game.objects.bump_versions: the one version bump (Game.bump_version, for one game, calls it
    # and is called from the management command and the tests' factories too).
    "scoring/models.py": {'F("version")', "bump_versions"},
    # The stored replay (Game.state, Hand.result), rewritten under the game's row lock by a
    # write or by the reader that finds it stale; services keeps it in step through it.
    "scoring/replay.py": {"update", "select_for_update", "raw SQL"},
}
# Rows that are no game's or group's: the sign-up form's user, an account's saved link, the
# budgets' counts (one upsert statement).
OTHER_ROWS = {
    ("scoring/accounts/views.py", "form.save"),
    ("scoring/access.py", "saved.save"),
    ("scoring/access.py", "raw SQL"),
}
# The core's write path imports no feature app (the feature apps import the core).
FEATURE_APPS = ("groups", "table", "settle", "records", "analyse", "api", "pwa", "accounts", "nights")


def chain(node: ast.AST) -> list[ast.AST]:
    """``a.b(…).c`` as its parts, outermost first: the Attribute, Call and Name nodes down to the root."""
    parts = []
    while True:
        parts.append(node)
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return parts


def reaches_rows(node: ast.AST, bound: set[str]) -> bool | None:
    """True when ``node`` is a manager or queryset of a game's or group's rows (``Game.objects…``,
    ``game.hands…``, a name bound to one); False for another model's; None when it is no queryset
    that can be told (a dict, a hash, an instance)."""
    parts = chain(node)
    for part in parts:
        if isinstance(part, ast.Attribute) and part.attr in MANAGERS and isinstance(part.value, ast.Name):
            return part.value.id in DATA
    if any(isinstance(p, ast.Attribute) and p.attr in RELATED for p in parts):
        return True
    root = parts[-1]
    if isinstance(root, ast.Name) and root.id in bound:
        return True
    return None


def bound_names(tree: ast.AST) -> set[str]:
    """The names a module binds to a queryset of those rows (``parts = Transfer.objects.filter(…)``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and reaches_rows(node.value, set()):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def writes(source: str, path: str = "") -> list[tuple[int, str, str]]:
    """Each write ``source`` makes: (line, kind, the code)."""
    tree = ast.parse(source)
    bound = bound_names(tree)
    found = []
    for node in ast.walk(tree):
        kind = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # an f-string's parts too
            if node.value.lstrip().upper().startswith(("UPDATE ", "INSERT ", "DELETE ")):
                kind = "raw SQL"
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            first = node.args[0] if node.args else None
            if name == "F" and isinstance(first, ast.Constant) and first.value == "version":
                kind = 'F("version")'
            elif name in ("select_for_update", "bump_versions"):
                kind = name
            elif isinstance(func, ast.Attribute):
                rows = reaches_rows(func.value, bound)
                if name in MANAGER_WRITES and rows:
                    kind = "create"
                elif name == "update" and rows:
                    kind = "update"
                elif name == "update" and rows is None:
                    # a queryset method before it (``x.filter(…).update``) says it is one
                    reads = any(
                        isinstance(p, ast.Attribute) and p.attr in QUERYSET_READS for p in chain(func.value)[1:]
                    )
                    kind = "update" if reads else None
                elif name == "delete" and rows is not False:
                    kind = "delete"  # a queryset's, or an instance's (``game.delete()``)
                elif name == "save":
                    kind = "save"
                if kind in ("save", "delete") and (path, ast.unparse(func)) in OTHER_ROWS:
                    kind = None
        if kind is not None and (path, kind) not in OTHER_ROWS:
            found.append((node.lineno, node.col_offset, kind, ast.unparse(node)[:90]))
    return [(line, kind, code) for line, _col, kind, code in sorted(found)]


def python_files():
    for path in sorted(SCORING.rglob("*.py")):
        if "migrations" not in path.parts:
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_the_scan_sees_each_kind_of_write():
    source = """
Game.objects.create(players=[])
Hand.objects.bulk_create(rows)
Group.objects.filter(pk=1).update(name="x")
parts = Transfer.objects.filter(settle_up_part__settle_up=s)
parts.update(paid_at=None)
game.hands.filter(seq=1).delete()
settle_up.delete()
hand.save()
Game.objects.select_for_update().get(pk=1)
Game.objects.filter(pk=1).update(version=F("version") + 1)
Game.objects.filter(pk__in=ids).bump_versions()
cursor.execute(f"UPDATE {table} SET result = %s WHERE id = %s")
context.update(row=1)
AccessMiss.objects.filter(window=1).delete()
h.update(b"")
"""
    kinds = [kind for _line, kind, _code in writes(source)]
    assert kinds == [
        "create",
        "create",
        "update",
        "update",
        "delete",
        "delete",
        "save",
        "select_for_update",
        "update",
        'F("version")',
        "bump_versions",
        "raw SQL",
    ]


def allowed(path: str) -> set[str]:
    """What the module at ``path`` may write: anything in the package, its listed kinds elsewhere."""
    return ALL if path.startswith(PACKAGE) else WRITE_PATH.get(path, set())


def outside_writes(files) -> tuple[list[str], int]:
    """The writes of ``(path, source)`` pairs that their module may not make, and how many it may."""
    outside, inside = [], 0
    for path, source in files:
        for line, kind, code in writes(source, path):
            if kind in allowed(path):
                inside += 1
            else:
                outside.append(f"{path}:{line}: {kind}: {code}")
    return outside, inside


def test_a_write_of_each_rows_model_outside_the_package_is_caught():
    assert GAME_AND_GROUP_ROWS <= DATA
    models = sorted(GAME_AND_GROUP_ROWS)
    source = "".join(f"{model}.objects.create()\n" for model in models)
    outside = [f"scoring/settle/views/settle.py:{n}: create: {m}.objects.create()" for n, m in enumerate(models, 1)]
    assert outside_writes([("scoring/settle/views/settle.py", source)]) == (outside, 0)
    assert outside_writes([("scoring/services/games.py", source)]) == ([], len(GAME_AND_GROUP_ROWS))
    # a module named like the package but outside it is no part of it
    assert len(outside_writes([("scoring/services.py", source)])[0]) == len(GAME_AND_GROUP_ROWS)
    assert outside_writes([("scoring/replay.py", "Game.objects.filter(pk=1).update(state={})\n")]) == ([], 1)
    assert outside_writes([("scoring/replay.py", "Hand.objects.create()\n")])[0]


def test_only_the_write_path_writes_a_games_or_a_groups_rows():
    assert GAME_AND_GROUP_ROWS <= DATA
    files = list(python_files())
    assert sum(path.startswith(PACKAGE) for path, _source in files) >= 2
    outside, inside = outside_writes(files)
    assert outside == []
    assert inside > 20  # the scan reads the write path's own writes


def test_the_write_path_imports_no_feature_app():
    found = []
    paths = [*(p.relative_to(ROOT).as_posix() for p in sorted((ROOT / PACKAGE).rglob("*.py"))), *WRITE_PATH]
    assert len(paths) > len(WRITE_PATH)
    for path in paths:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                if len(parts) > 1 and parts[0] == "scoring" and parts[1] in FEATURE_APPS:
                    found.append(f"{path}: {name}")
    assert found == []
