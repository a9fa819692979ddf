"""The documents stay short, and the code says why in words: no file of the app or its tests names
an issue by number (a reader has no issue tracker beside the code; the reason belongs in the
sentence), and the README and the bots' findings stay within a length a reader finishes."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED_DIRS = ("scorepad", "pinochle_site", "tests", "templates", "static")
TEXT_SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt", ".toml"}
SKIPPED_PARTS = {"__pycache__", "vendor", "migrations"}  # vendored code and Django's generated files

# "issue 16", "Issue #9", "issues 3 and 4", "issue-12", "issue 17's"
ISSUE_NUMBER = re.compile(r"\bissues?[\s#-]*#?\d+", re.IGNORECASE)

MAX_LINES = 300
SHORT_DOCUMENTS = ("README.md", "scorepad/engine/bots/FINDINGS.md")


@pytest.mark.parametrize(
    "text",
    [
        "weighed by the expert (issue 16).",
        "# Issue #9's target",
        '(issue 17\'s "No habits players hate")',
        "see issues 3 and 4",
        "issue-12",
        "ISSUE 5",
    ],
)
def test_the_pattern_finds_an_issue_number(text):
    assert ISSUE_NUMBER.search(text)


@pytest.mark.parametrize(
    "text",
    ["a known issue with the cache", "tissue 16", "the issue: 3 players", "misissue"],
)
def test_the_pattern_leaves_plain_words_alone(text):
    assert not ISSUE_NUMBER.search(text)


def checked_files() -> list[Path]:
    this_file = Path(__file__).resolve()
    files = []
    for folder in CHECKED_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in TEXT_SUFFIXES or not path.is_file():
                continue
            if SKIPPED_PARTS & set(path.relative_to(ROOT).parts) or path.resolve() == this_file:
                continue  # this file holds its examples on purpose
            files.append(path)
    return files


def test_every_checked_folder_has_files_to_check():
    checked = {path.relative_to(ROOT).parts[0] for path in checked_files()}
    assert checked == set(CHECKED_DIRS)


def test_no_file_of_the_app_or_its_tests_names_an_issue_by_number():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in checked_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ISSUE_NUMBER.search(line)
    ]
    assert found == [], "say the reason in words instead:\n" + "\n".join(found)


@pytest.mark.parametrize("name", SHORT_DOCUMENTS)
def test_the_document_stays_within_its_length(name):
    lines = (ROOT / name).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines: at most {MAX_LINES}"


def test_the_readmes_quick_run_names_only_declared_markers():
    """pytest takes any word in ``-m`` (``--strict-markers`` checks only the tests' marks): a marker
    misspelt in the README's quick command would quietly run the whole suite."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    expressions = re.findall(r'pytest -m "([^"]+)"', readme)
    assert expressions, "the README names the quick run's command"
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {line.split(":")[0] for line in config["tool"]["pytest"]["ini_options"]["markers"]}
    named = {word for expression in expressions for word in re.findall(r"\w+", expression)}
    assert named - {"not", "and", "or"} <= declared
