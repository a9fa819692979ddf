"""The engine is pure Python: no module under scorepad/engine/ imports Django or the app around
it (``scorepad.models``, ``..services`` …), even lazily or by a relative import. And it is a
library, not a set of programs: benchmarks and other scripts live in ``pinochle_site/tools/``."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "scorepad" / "engine"


def outside_imports(source: str, package: str = "scorepad.engine") -> list[str]:
    """Every import in ``source`` (a module of ``package``) of django or of the app outside the
    engine: top level, inside functions, by name, absolute or relative (``from ..models import``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - (node.level - 1)])
            if node.module:
                names = [f"{base}.{node.module}"]
            else:  # from .. import models: each name may be a module
                names = [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = ast.unparse(node.func)
            if called in ("__import__", "importlib.import_module", "import_module"):
                names = [str(node.args[0].value)]
        found += [name for name in names if _outside(name)]
    return found


def _outside(name: str) -> bool:
    def under(top: str) -> bool:
        return name == top or name.startswith(top + ".")

    return under("django") or (under("scorepad") and not under("scorepad.engine"))


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parent.parts)


def test_the_engine_modules_are_found():
    names = {path.name for path in engine_modules()}
    assert {"__init__.py", "cards.py", "variants.py", "meld.py", "play.py"} <= names


@pytest.mark.parametrize("path", engine_modules(), ids=lambda path: str(path.relative_to(ENGINE)))
def test_engine_module_imports_neither_django_nor_the_app(path):
    assert outside_imports(path.read_text(), package_of(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "def later():\n    from django.conf import settings\n",
        "import importlib\nimportlib.import_module('django.utils')",
        "__import__('django')",
        "from ..models import Game",
        "from .. import models",
        "def later():\n    from ..services.games import hand_record\n",
        "from scorepad.selectors import games",
        "import scorepad.models",
    ],
)
def test_the_checker_catches_every_way_of_importing_django_or_the_app(source):
    assert outside_imports(source)


def test_a_bot_module_two_levels_down_may_import_the_engine_but_not_above_it():
    assert outside_imports("from ..cards import Card\nfrom . import heuristic", "scorepad.engine.bots") == []
    assert outside_imports("from ...models import Game", "scorepad.engine.bots") == ["scorepad.models"]


def test_the_checker_ignores_names_that_only_start_alike():
    assert outside_imports("import djangoish\nfrom .django_free import x\nimport scorepadish") == []


def script_parts(source: str) -> list[str]:
    """What makes ``source`` a program rather than a library module: an ``if __name__ ==
    "__main__"`` block, an argparse import, a ``print`` call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and ast.unparse(node.left) == "__name__":
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name == "argparse"]
        elif isinstance(node, ast.ImportFrom) and node.module == "argparse":
            found.append("argparse")
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "print":
            found.append("print")
    return found


@pytest.mark.parametrize("path", engine_modules(), ids=lambda path: str(path.relative_to(ENGINE)))
def test_engine_module_is_no_script(path):
    assert script_parts(path.read_text()) == []


def test_no_benchmark_lives_in_the_engine():
    assert [str(path.relative_to(ROOT)) for path in ENGINE.rglob("*benchmark*")] == []


def test_the_script_checker_catches_a_main_block_argparse_and_print():
    source = "import argparse\nfrom argparse import ArgumentParser\nif __name__ == '__main__':\n    print()\n"
    assert script_parts(source) == ["argparse", "argparse", "__name__ == '__main__'", "print"]
    assert script_parts("def name(card):\n    return card.__name__\n") == []
