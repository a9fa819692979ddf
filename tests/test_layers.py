"""The layers stay visible (README "How the code is laid out"). Every module of both packages,
``scorepad`` (the app) and ``pinochle_site`` (the site around it), sits in one layer, and bottom to
top a module imports only from its own layer or those below:

1. ``engine``: the rules, scoring and bots, pure Python.
2. ``constants``: the few numbers and words every layer above shares.
3. ``models`` (and ``migrations``): the tables.
4. infrastructure: ``throttle.py`` (limits on what a request may cost), ``bot_pool.py`` (the one
   home of bot searches, run in worker processes) and ``live/`` (everything live: the change bus
   and presence, the event streams' loop, the request threads). They serve every layer above and
   import only the layers below (Django, the engine, the constants, the models) and each other:
   none reads through a selector, writes through a service or knows a page; what a stream draws
   comes from its view as a callable. The site's plug-ins into Django sit here too:
   ``pinochle_site``'s cache backend, static files' storage and database-outage middleware (the
   settings name them) and its PostgreSQL date loader (``apps.py`` connects it); they import
   Django only.
5. ``selectors``: database reads and the read models they return (``Scoresheet``).
6. ``services``: writes (they read through the selectors).
7. ``forms``: input parsing; a form may call a service's checks, never the other way round.
8. pages: ``pages/`` builds what a page shows from read models and engine values; ``charts.py``,
   the totals chart's geometry from a game's totals, is a page builder too. A page builder never
   queries the ORM and never runs a bot search, so building a page is quick and repeatable.
9. ``templatetags``: the templates' filters, over pages and read models.
10. the entry points: ``views``, ``management`` commands, ``urls.py``, ``apps.py`` and
    ``signals.py`` (receivers ``apps.py`` connects, which call a service like a view does); and
    what is run by hand or by a command, not by a page: ``pinochle_site/tools`` (the load test,
    the benchmarks) and ``gunicorn_conf.py`` (the server's settings, which the load test reads).
11. the site, on top: ``pinochle_site``'s settings, URLs, and the ASGI and WSGI applications. They
    wire the entry points together, and nothing of the app imports them: a view never reaches up
    into the site (the request threads a view uses are ``live``'s).

Also: no view queries the ORM or defines a form, and no module imports another's private name.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "scorepad"
SITE = ROOT / "pinochle_site"
PACKAGES = ("scorepad", "pinochle_site")
MODULES = sorted([*APP.rglob("*.py"), *SITE.rglob("*.py")])
VIEWS = sorted((APP / "views").glob("*.py"))
PAGES = [*sorted((APP / "pages").glob("*.py")), APP / "charts.py"]

# Each layer by the modules it holds, bottom first: a name is a module or a package of them.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scorepad.engine",),
    ("scorepad.constants",),
    ("scorepad.models", "scorepad.migrations"),
    (
        "scorepad.throttle",
        "scorepad.bot_pool",
        "scorepad.live",
        "pinochle_site.cache",
        "pinochle_site.storage",
        "pinochle_site.middleware",
        "pinochle_site.postgres",
    ),
    ("scorepad.selectors",),
    ("scorepad.services",),
    ("scorepad.forms",),
    ("scorepad.pages", "scorepad.charts"),
    ("scorepad.templatetags",),
    (
        "scorepad.views",
        "scorepad.management",
        "scorepad.urls",
        "scorepad.apps",
        "scorepad.signals",
        "pinochle_site.tools",
        "pinochle_site.gunicorn_conf",
    ),
    ("pinochle_site.settings", "pinochle_site.urls", "pinochle_site.asgi", "pinochle_site.wsgi"),
)
# What runs a bot search (the expert's sampled deals, the advisor, a review's weighing, the
# practice table's bots): only ``bot_pool`` runs these for a page, never a page builder.
SEARCH_MODULES = {
    "scorepad.bot_pool",
    "scorepad.engine.advisor",
    "scorepad.engine.bots.expert",
    "scorepad.engine.search",
    "scorepad.engine.simulate",
}
SEARCH_NAMES = {
    "ExpertBot",  # engine.bots
    "make_bot",  # engine.bots: builds the expert by name
    "review_decision",  # engine.review: the expert weighs a decision
    "review_hand",
    "expert_for",
    "expert_duplicate",
    "play_on",  # engine.practice: the table's bots play on
    "hint",
    "weigh_concession",
    "review_slice",
}
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


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


KNOWN = {module_name(path) for path in MODULES}


def imported_modules(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """The ``scorepad`` and ``pinochle_site`` modules ``source`` (the text of ``module``) imports,
    anywhere in it (inside functions too), relative or absolute; ``from .. import throttle`` imports
    ``scorepad.throttle``."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [node.module])])
            found += [
                submodule if (submodule := f"{base}.{alias.name}") in KNOWN else base for alias in node.names
            ]
    return [name for name in found if any(name == top or name.startswith(f"{top}.") for top in PACKAGES)]


def layer_of(module: str) -> int | None:
    """The layer ``module`` belongs to (0 is the bottom); ``None`` for a bare package."""
    for number, members in enumerate(LAYERS):
        if any(module == member or module.startswith(f"{member}.") for member in members):
            return number
    return None


def upward_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that reach a layer above its own."""
    own = layer_of(module)
    assert own is not None, f"{module} belongs to no layer: add it to LAYERS"
    return [
        imported
        for imported in imported_modules(source, module, is_package=is_package)
        if (layer_of(imported) or 0) > own
    ]


def search_imports(source: str, module: str) -> list[str]:
    """What ``source`` imports that runs a bot search: a search module, or a searching function."""
    found = [name for name in imported_modules(source, module) if name in SEARCH_MODULES]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found += [alias.name for alias in node.names if alias.name in SEARCH_NAMES]
    return found


def untyped_htmx_requests(source: str) -> list[str]:
    """Functions whose ``request`` is a plain ``HttpRequest``: a view reads ``request.htmx`` through
    django-htmx's typed ``HtmxHttpRequest`` (``views/rendering.py``), never a cast."""
    return [
        node.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for argument in node.args.args
        if argument.arg == "request"
        and argument.annotation
        and ast.unparse(argument.annotation) == "HttpRequest"
    ]


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


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: path.name)
def test_a_view_takes_the_htmx_typed_request(path):
    assert untyped_htmx_requests(path.read_text()) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_imports_from_a_layer_above_its_own(path):
    module = module_name(path)
    if module in PACKAGES:
        assert imported_modules(path.read_text(), module, is_package=True) == []
        return  # the package itself holds nothing
    assert upward_imports(path.read_text(), module, is_package=path.name == "__init__.py") == []


@pytest.mark.parametrize("path", PAGES, ids=lambda path: str(path.relative_to(APP)))
def test_a_page_builder_neither_queries_the_orm_nor_runs_a_bot_search(path):
    source = path.read_text()
    assert (orm_uses(source), search_imports(source, module_name(path))) == ([], [])


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_imports_a_private_name_of_another(path):
    assert private_imports(path.read_text()) == []


def test_the_checks_catch_what_they_look_for():
    found = orm_uses("Invite.objects.first()\nhousehold.players.filter(retired=False)")
    assert sorted(found) == ["Invite.objects", "household.players.filter"]
    assert orm_uses("x = get_object_or_404(Game, pk=1)") == ["get_object_or_404"]
    assert form_classes("class F(forms.Form): pass\nclass L(AuthenticationForm): pass") == ["F", "L"]
    assert private_imports("from .practice import _user, remember\nfrom x import __version__") == ["_user"]
    views = "def page(request: HttpRequest): ...\ndef typed(request: HtmxHttpRequest, n: int): ..."
    assert untyped_htmx_requests(views) == ["page"]


def test_the_layer_check_catches_an_import_that_runs_up():
    lazy = "def limited():\n    from .views.rendering import page_or_partial\n"
    assert upward_imports(lazy, "scorepad.throttle") == ["scorepad.views.rendering"]
    assert imported_modules("from .. import throttle", "scorepad.forms.accounts") == ["scorepad.throttle"]
    assert upward_imports("from .. import throttle", "scorepad.forms.accounts") == []  # downward
    assert upward_imports("import scorepad.services.games", "scorepad.selectors.live") == [
        "scorepad.services.games"
    ]
    assert upward_imports("from ..forms.house_rules import words", "scorepad.selectors.rules") == [
        "scorepad.forms.house_rules"
    ]
    assert upward_imports("from . import rules", "scorepad.pages", is_package=True) == []
    assert upward_imports("from .rules import term", "scorepad.pages.lessons") == []  # same layer
    assert search_imports("from ..engine.bots import ExpertBot, HeuristicBot", "scorepad.pages.x") == [
        "ExpertBot"
    ]
    assert search_imports("from .. import bot_pool", "scorepad.pages.x") == ["scorepad.bot_pool"]
    assert search_imports("from ..engine.review import Verdict, differences", "scorepad.pages.x") == []


def test_the_layer_check_covers_the_site_and_the_live_package():
    # A view reaching up into the site (as the request threads once were): caught.
    assert upward_imports("from pinochle_site.asgi import application", "scorepad.views.tables") == [
        "pinochle_site.asgi"
    ]
    assert upward_imports("import pinochle_site.settings", "pinochle_site.tools.loadtest.run") == [
        "pinochle_site.settings"
    ]
    # The live package takes what it draws and does from above as callables, never by import.
    assert upward_imports("from ..services.tables import table_act_read", "scorepad.live.streams") == [
        "scorepad.services.tables"
    ]
    assert upward_imports("from ..views.tables import seat_stream", "scorepad.live.bus") == [
        "scorepad.views.tables"
    ]
    assert upward_imports("from ..throttle import CACHE_ERRORS", "scorepad.live.bus") == []  # same layer
    assert upward_imports("from ..models import PrivateTable", "scorepad.live.bus") == []
    # The site imports down; the tools and the commands sit side by side.
    assert upward_imports("from scorepad.live.request_threads import InThreads", "pinochle_site.asgi") == []
    assert upward_imports("from pinochle_site import gunicorn_conf", "pinochle_site.tools.loadtest.run") == []
    assert imported_modules("from .browser import Browser", "pinochle_site.tools.loadtest.run") == [
        "pinochle_site.tools.loadtest.browser"
    ]
    assert upward_imports("from pinochle_site.tools.loadtest import run", "scorepad.management.x") == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_module_belongs_to_a_layer(path):
    module = module_name(path)
    assert module in PACKAGES or layer_of(module) is not None, f"{module}: add it to LAYERS"
