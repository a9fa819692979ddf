"""The layers stay visible: no view queries the ORM or defines a form, and no module imports
another's private name (README "How the code is laid out")."""

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "scorepad"
VIEWS = sorted((APP / "views").glob("*.py"))
ORM_CALLS = {"filter", "exclude", "get_object_or_404", "select_related", "prefetch_related", "order_by"}


def orm_uses(source: str) -> list[str]:
    """Queries written in ``source``: ``Model.objects``, queryset methods, ``get_object_or_404``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ORM_CALLS:
                found.append(ast.unparse(node.func))
    return found


def form_classes(source: str) -> list[str]:
    return [
        node.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and any(ast.unparse(base).endswith("Form") for base in node.bases)
    ]


def private_imports(source: str) -> list[str]:
    return [
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: path.name)
def test_a_view_module_neither_queries_the_orm_nor_defines_a_form(path):
    source = path.read_text()
    assert (orm_uses(source), form_classes(source)) == ([], [])


@pytest.mark.parametrize("path", sorted(APP.rglob("*.py")), ids=lambda path: str(path.relative_to(APP)))
def test_no_module_imports_a_private_name_of_another(path):
    assert private_imports(path.read_text()) == []


def test_the_checks_catch_what_they_look_for():
    found = orm_uses("Invite.objects.first()\nhousehold.players.filter(retired=False)")
    assert sorted(found) == ["Invite.objects", "household.players.filter"]
    assert orm_uses("x = get_object_or_404(Game, pk=1)") == ["get_object_or_404"]
    assert form_classes("class F(forms.Form): pass\nclass L(AuthenticationForm): pass") == ["F", "L"]
    assert private_imports("from .practice import _user, remember\nfrom x import __version__") == ["_user"]
