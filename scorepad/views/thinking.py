"""Views whose requests may make the bots think pay for it: ``@pays_for_thinking``.

Every search runs through ``bot_pool``, which measures the CPU it took where it ran. Around the
view a purse is open (``bot_pool.paying``): each search first asks whether the visitor's address
has CPU seconds left this window (``throttle.cpu_refusal``) and is refused before it starts when
not, as a 429 in words; once the view has answered, what its searches cost is charged to the
address (``throttle.charge_cpu``). A view may catch ``bot_pool.BudgetSpent`` itself to show a page
without what it would have thought (the throw-in offer's expected results).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpResponse

from .. import bot_pool, throttle
from .limits import too_many_requests
from .rendering import HtmxHttpRequest

View = Callable[..., HttpResponse]


def pays_for_thinking(view: View) -> View:
    @wraps(view)
    def wrapped(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        address = throttle.client_address(request)

        def refusal() -> tuple[str, int] | None:
            over = throttle.cpu_refusal(address)
            return None if over is None else (over.words, over.seconds)

        with bot_pool.paying(refusal) as purse:
            try:
                return view(request, *args, **kwargs)
            except bot_pool.BudgetSpent as spent:
                return too_many_requests(request, spent.words, spent.seconds)
            finally:
                throttle.charge_cpu(address, purse.spent)

    return wrapped
