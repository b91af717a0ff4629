"""Where the rule modules register the steps of the game.

A *task* is a step the game takes on its own (start a turn, resolve a
combat); a *resume* applies a player's answer to a pending decision. Both
are named, so the state that refers to them stays plain data.
"""

from __future__ import annotations

from typing import Callable

TASKS: dict[str, Callable] = {}
RESUMES: dict[str, Callable] = {}


def task(name: str):
    def register(fn):
        TASKS[name] = fn
        return fn
    return register


def resume(name: str):
    def register(fn):
        RESUMES[name] = fn
        return fn
    return register
