"""Help for players (``/help/``): an index and one page per part of the app.

The pages are plain templates (``templates/help/<slug>.html``), written for players; the pages
they explain link to them with a "How … works" link. Anyone may read them, no account needed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .rendering import HtmxHttpRequest


@dataclass(frozen=True, slots=True)
class HelpTopic:
    slug: str
    title: str
    summary: str

    @property
    def template(self) -> str:
        return f"help/{self.slug.replace('-', '_')}.html"


HELP_TOPICS: tuple[HelpTopic, ...] = (
    HelpTopic("scorepad", "Keeping score", "Recording a hand, the bid chips, and putting a mistake right."),
    HelpTopic(
        "live-scoreboard", "The live scoreboard", "A link that shows every phone the totals as they change."
    ),
    HelpTopic(
        "households", "Households and invitations", "The people you play with, and who may keep score."
    ),
    HelpTopic("history", "History and statistics", "Every game you kept, and who wins how often."),
    HelpTopic(
        "backups", "Backups, import and export", "Keep a copy of your games, or bring them in from a file."
    ),
    HelpTopic("install", "Installing on a phone", "Open the app from its own icon, full screen."),
    HelpTopic(
        "practice", "Practice against the bots", "Whole games against bots of three strengths, with hints."
    ),
    HelpTopic(
        "play-together",
        "Playing together",
        "A private table by link, QR code or code: friends and family on their phones, bots in the rest.",
    ),
    HelpTopic(
        "review", "Review and replay", "What your decisions cost, the deal played again, trick by trick."
    ),
    HelpTopic(
        "daily-and-puzzles",
        "The daily deal and puzzles",
        "One deal a day, the same for everyone, beside the expert; puzzles where one answer is clearly best.",
    ),
    HelpTopic(
        "club-night",
        "Running a club night",
        "Many tables, a phone at each: check-in, rounds, the clock, corrections, standings and prizes;"
        " a weekly club's seasons and ratings.",
    ),
    HelpTopic("meld-calculator", "The meld calculator", "Tap the cards of a hand and see what it melds."),
    HelpTopic(
        "bid-advisor", "The bid advisor", "Three bids for a hand, worked out by playing it many times."
    ),
    HelpTopic("house-rules", "House rules", "Every rule your table can change, in plain words."),
)
TOPICS_BY_SLUG: dict[str, HelpTopic] = {topic.slug: topic for topic in HELP_TOPICS}


@require_safe
def help_index(request: HtmxHttpRequest) -> HttpResponse:
    """Every help page, with a line saying what it covers."""
    return render(request, "help/index.html", {"topics": HELP_TOPICS})


@require_safe
def help_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One topic's page; a slug that names no topic is a 404."""
    topic = TOPICS_BY_SLUG.get(slug)
    if topic is None:
        raise Http404("No such help page")
    return render(request, topic.template, {"topic": topic, "topics": HELP_TOPICS})
