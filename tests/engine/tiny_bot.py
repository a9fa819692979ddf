"""A tiny outside bot for the tests: reads §9.6 views, one per line, and answers the first legal option.

``python tiny_bot.py [MODE]``; the modes other than ``first`` play properly until their first
``play`` decision and misbehave there, to test how the engine stops a game:

* ``first``      play properly: the first legal answer every time (a pass when it may pass);
* ``illegal``    answer a card that is not legal (or, bidding, a bid under the minimum);
* ``garbage``    answer a line that is not JSON;
* ``die``        exit with status 3 instead of answering;
* ``hang``       never answer.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

KEYS = {"bid": "bid", "trump": "trump", "pass": "pass", "play": "card", "concede": "concede"}


def first_legal(view: dict[str, Any]) -> Any:
    if view["decision"] == "pass":
        return view["legal"][: view["count"]]
    return view["legal"][0]


def illegal(view: dict[str, Any]) -> Any:
    decision = view["decision"]
    if decision == "bid":
        return max(bid for bid in view["legal"] if bid is not None) - 1
    if decision == "play":
        return next(code for code in ("AS", "9C", "JD", "KH") if code not in view["legal"])
    if decision == "pass":
        return view["legal"][: view["count"] - 1]
    return "X"


def main(mode: str) -> None:
    for line in sys.stdin:
        view = json.loads(line)
        misbehave = mode != "first" and view["decision"] == "play"
        if misbehave and mode == "die":
            sys.exit(3)
        if misbehave and mode == "hang":
            time.sleep(3600)
        if misbehave and mode == "garbage":
            print("I play the ace", flush=True)
            continue
        answer = illegal(view) if misbehave else first_legal(view)
        print(json.dumps({KEYS[view["decision"]]: answer}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "first")
