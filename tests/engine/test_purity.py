"""The engine is pure Python: no module under scorepad/engine/ imports Django, even lazily."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "scorepad" / "engine"


def django_imports(source: str) -> list[str]:
    """Every import of django in ``source``: top level, inside functions, or by name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = ast.unparse(node.func)
            if called in ("__import__", "importlib.import_module", "import_module"):
                names = [str(node.args[0].value)]
        found += [name for name in names if name == "django" or name.startswith("django.")]
    return found


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_engine_modules_are_found():
    names = {path.name for path in engine_modules()}
    assert {"__init__.py", "cards.py", "variants.py", "meld.py"} <= names


@pytest.mark.parametrize("path", engine_modules(), ids=lambda path: path.name)
def test_engine_module_imports_no_django(path):
    assert django_imports(path.read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "def later():\n    from django.conf import settings\n",
        "import importlib\nimportlib.import_module('django.utils')",
        "__import__('django')",
    ],
)
def test_the_checker_catches_every_way_of_importing_django(source):
    assert django_imports(source)


def test_the_checker_ignores_names_that_only_start_alike():
    assert django_imports("import djangoish\nfrom .django_free import x") == []
