"""Every repository path a comment, a docstring or a document cites is a file or folder of the
repository, so a reader who follows one lands on the code it means, even after a move."""

import ast
import bisect
import functools
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP = {"__pycache__", "staticfiles", "screenshots", "node_modules", ".hypothesis"}
TOP = ("scoring", "templates", "static", "tests", "docs", "bench", "yiwu_site", "scripts", "locale")
# A path starts at a top-level folder (or is README.md / Makefile) not glued to a word or a URL's
# "/", and runs over ASCII path characters, "<placeholder>" segments and globs.
PATH = re.compile(
    r"(?<![A-Za-z0-9_./\-<>*])"
    rf"(?:(?:{'|'.join(TOP)})/(?:[A-Za-z0-9_./\-<>*:#]|\{{[^}}\s]*\}})*|README\.md|Makefile)(?![A-Za-z0-9_\-])"
)
# A document named on its own, without its folder, which must be one of the repository's.
DOCUMENT = re.compile(r"(?<![A-Za-z0-9_./\-<>*])[A-Za-z0-9_\-]+\.md\b")
TEMPLATE_COMMENT = re.compile(r"\{#(.*?)#\}|\{%\s*comment\b.*?%\}(.*?)\{%\s*endcomment\s*%\}|<!--(.*?)-->", re.S)


def files(folder: str, *patterns: str):
    for pattern in patterns:
        for path in sorted((ROOT / folder).glob(pattern)):
            if path.is_file() and not SKIP.intersection(path.relative_to(ROOT).parts):
                yield path


# Strings, comments and brackets, in one pass of the regular expression engine.
PYTHON = re.compile(
    r"""(?P<comment>\#[^\n]*)"""
    r"""|(?P<string>[rRbBuUfF]{0,2}(?:"{3}(?:\\.|[^\\])*?"{3}|'{3}(?:\\.|[^\\])*?'{3}|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'))"""
    r"""|(?P<open>[(\[{])|(?P<close>[)\]}])""",
    re.S,
)
STATEMENT_END = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\n|$)")


def python_comments(source: str):
    """(line, text) of each comment and of each string that is a statement of its own (docstrings).

    The same as tokenize's comments and ast's bare strings (test_the_fast_reader_agrees_with_tokenize_and_ast)
    at a fraction of their cost (docs/performance.md)."""
    newlines = [match.start() for match in re.finditer("\n", source)]
    depth = 0
    for match in PYTHON.finditer(source):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "comment" or (depth == 0 and _alone_on_its_line(source, match)):
            yield bisect.bisect_left(newlines, match.start()) + 1, match.group()


def _alone_on_its_line(source: str, match: re.Match) -> bool:
    """A string that starts its line outside brackets, with no continuation before it, and ends it."""
    line_start = source.rfind("\n", 0, match.start()) + 1
    continued = source[max(0, line_start - 2) : line_start] == "\\\n"
    return (
        not continued
        and not source[line_start : match.start()].strip()
        and bool(STATEMENT_END.match(source, match.end()))
    )


def python_comments_by_tokenize_and_ast(source: str):
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield node.lineno, node.value.value


def template_comments(source: str):
    for match in TEMPLATE_COMMENT.finditer(source):
        yield source.count("\n", 0, match.start()) + 1, next(group for group in match.groups() if group is not None)


def make_comments(source: str):
    for number, line in enumerate(source.splitlines(), 1):
        if "#" in line and not line.startswith("\t"):  # a recipe's "#" is the shell's
            yield number, line[line.index("#") :]


def js_comments(source: str):
    """(line, text) of each // and /* */ comment, skipping strings, template literals and regex literals."""
    i, n, last = 0, len(source), ""
    while i < n:
        char = source[i]
        if source.startswith("//", i) or source.startswith("/*", i):
            end = source.find("\n" if source[i + 1] == "/" else "*/", i + 2)
            end = n if end < 0 else end
            yield source.count("\n", 0, i) + 1, source[i + 2 : end]
            i = end + (0 if source[i + 1] == "/" else 2)
        elif char in "'\"`" or (
            char == "/" and (last == "" or last in "(,=:[!&|?{};+-*%<>~^" or _keyword_before(source, i))
        ):
            i = _end_of_literal(source, i)
            last = "a"
        else:
            if not char.isspace():
                last = char
            i += 1


def _keyword_before(source: str, i: int) -> bool:
    return re.search(r"\b(?:return|typeof|case|in|of|void|delete|throw)\s*$", source[max(0, i - 12) : i]) is not None


def _end_of_literal(source: str, i: int) -> int:
    quote, j, in_class = source[i], i + 1, False
    while j < len(source):
        char = source[j]
        if char == "\\":
            j += 2
            continue
        if quote == "/" and char == "[":
            in_class = True
        elif quote == "/" and char == "]":
            in_class = False
        elif char == quote and not in_class:
            return j + 1
        elif char == "\n" and quote in "'\"/":
            return j
        j += 1
    return j


def commented_sources():
    """Each file whose comments are read, with the function that reads them."""
    for folder in ("scoring", "yiwu_site", "tests", "bench", "scripts"):
        for path in files(folder, "**/*.py"):
            yield path, python_comments
    templates = [*files("templates", "**/*"), *files("scoring", "rulesets/*/templates/**/*")]
    for path in [*templates, *files("tests", "rulesets/*/templates/**/*")]:
        yield path, template_comments
        if path.suffix == ".js":
            yield path, js_comments
    for path in files("static", "js/**/*.js"):
        yield path, js_comments
    yield ROOT / "Makefile", make_comments


def cited_paths(text: str):
    for match in PATH.finditer(text):
        path = re.sub(r"(::|#).*$", "", match.group())  # a test's node id, an anchor
        path = re.sub(r"(:\d+(-\d+)?)+$", "", path.rstrip(".:"))  # a line number or range
        path = path.rstrip(".:")
        if path.endswith("/.."):  # a folder followed by an ellipsis
            path = path[:-3]
        if path:
            yield path


@functools.cache
def ignored_outputs() -> tuple[str, ...]:
    """Folders .gitignore names by their path: what a command writes (make screenshots), cited as such."""
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return tuple(line.rstrip("/") + "/" for line in lines if "/" in line.rstrip("/"))


def exists(path: str) -> bool:
    """The path, its "<placeholder>" segments, globs and {a,b} alternatives standing for any name."""
    if "{" in path and "}" in path:
        head, rest = path.split("{", 1)
        choices, tail = rest.split("}", 1)
        return all(exists(head + choice + tail) for choice in choices.split(","))
    if any((path.rstrip("/") + "/").startswith(output) for output in ignored_outputs()):
        return True
    pattern = re.sub(r"<[^>/]*>", "*", path).rstrip("/")
    if "*" not in pattern:
        return (ROOT / pattern).exists()
    return next(ROOT.glob(pattern), None) is not None


def documents():
    return [ROOT / "README.md", *files("docs", "**/*.md")]


@functools.cache
def document_names() -> frozenset[str]:
    return frozenset({"README.md"} | {path.name for folder in TOP for path in files(folder, "**/*.md")})


def broken_in(label: str, lines) -> list[str]:
    names = document_names()
    broken = []
    for line, text in lines:
        broken += [f"{label}:{line}: {path}" for path in cited_paths(text) if not exists(path)]
        broken += [f"{label}:{line}: {name}" for name in DOCUMENT.findall(text) if name not in names]
    return broken


def test_every_path_a_comment_cites_exists():
    broken, read = [], 0
    for path, comments in commented_sources():
        read += 1
        broken += broken_in(str(path.relative_to(ROOT)), comments(path.read_text(encoding="utf-8")))
    assert read > 400  # the walk reads the repository
    assert not broken, "\n" + "\n".join(broken)


MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)  # a block of code, whose "# ..." lines are no headings


def anchors(document: Path) -> set[str]:
    """The #anchors of a markdown file's headings, as GitHub makes them."""
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", FENCE.sub("", document.read_text(encoding="utf-8")), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_path_a_document_cites_exists(document):
    found = broken_in_document(document, document.read_text(encoding="utf-8"))
    assert not found, "\n" + "\n".join(found)


def broken_in_document(document: Path, text: str) -> list[str]:
    """Its markdown links (and their #anchors), and every path in its text, backticked or not."""
    lines = []
    for match in MARKDOWN_LINK.finditer(text):
        target, _, anchor = match.group(1).partition("#")
        if re.match(r"[a-z]+:", target):
            continue
        resolved = (document.parent / target).resolve() if target else document
        line = text.count("\n", 0, match.start()) + 1
        if not resolved.exists():
            lines.append((line, f"link {target}"))
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            lines.append((line, f"link {match.group(1)}"))
    broken = lines + [
        (number, path)
        for number, body in enumerate(text.splitlines(), 1)
        for path in cited_paths(body)
        if not exists(path)
    ]
    return [f"{document.relative_to(ROOT)}:{line}: {what}" for line, what in sorted(broken)]


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("see `scoring/steps.py`.", ["scoring/steps.py"]),
        ("tests/web/test_it_poll.py:12, docs/deploy.md#budget-counts", ["tests/web/test_it_poll.py", "docs/deploy.md"]),
        ("templates/<feature>/ and tests/web/...", ["templates/<feature>/", "tests/web/"]),
        ("/static/js/app.js is a URL; rulesets/templates/x is no top-level path", []),
        ("见scoring/engine/的说明 README.md", ["scoring/engine/", "README.md"]),
    ],
)
def test_a_path_is_read_out_of_its_sentence(text, cited):
    assert list(cited_paths(text)) == cited


def test_a_missing_path_is_caught_and_a_placeholder_matches_any_name():
    assert not exists("static/js/picture.js")
    assert not exists("tests/web/")
    assert exists("templates/<feature>/")
    assert exists("scoring/rulesets/<code>/templates/")
    assert not exists("scoring/rulesets/<code>/views.py")
    assert exists("tests/{core,table}/__init__.py")
    assert {"budget-counts", "readiness-for-the-load-balancer-readyz"} <= anchors(ROOT / "docs/deploy.md")
    assert "run-the-load-test-yourself" in anchors(ROOT / "docs/deploy.md")
    assert not any(anchor.startswith("also") for anchor in anchors(ROOT / "docs/deploy.md"))  # a "# also:" in code
    assert exists("tests/browser/screenshots/")  # written by make screenshots, ignored by git
    assert broken_in("x.py", [(1, "# design.md §2, docs/deploy.md")]) == ["x.py:1: design.md"]
    assert broken_in("x.py", [(3, "# see scoring/steps.py")]) == ["x.py:3: scoring/steps.py"]


def test_a_document_s_wrong_link_anchor_or_path_is_caught():
    text = "[a](docs/deploy.md#sizing) [b](docs/deploy.md#no-such-part) [c](docs/gone.md)\nsee `tests/web/`"
    assert broken_in_document(ROOT / "README.md", text) == [
        "README.md:1: docs/gone.md",  # as a path in the text, and as a link
        "README.md:1: link docs/deploy.md#no-such-part",
        "README.md:1: link docs/gone.md",
        "README.md:2: tests/web/",
    ]


def test_js_comments_skip_strings_and_regex_literals():
    source = 'const u = "http://x/static/a.js"; // see static/js/app.js\nconst r = /\\/\\//g; /* docs/a.md */'
    assert [text.strip() for _, text in js_comments(source)] == ["see static/js/app.js", "docs/a.md"]


@pytest.mark.parametrize(
    "name", ["tests/test_comment_paths.py", "scoring/settle/picture.py", "yiwu_site/settings.py", "bench/web.py"]
)
def test_the_fast_reader_agrees_with_tokenize_and_ast(name):
    source = (ROOT / name).read_text(encoding="utf-8")
    fast = [(line, _text_of(text)) for line, text in python_comments(source)]
    slow = [(line, text) for line, text in python_comments_by_tokenize_and_ast(source)]
    assert sorted(fast) == sorted(slow)
    assert len(fast) > 10


def _text_of(token: str) -> str:
    return token if token.startswith("#") else ast.literal_eval(token)
