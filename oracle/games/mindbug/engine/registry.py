"""Where the rule modules register the steps of the game.

A *task* is a step the game takes on its own (start a turn, resolve a
combat); a *resume* applies a player's answer to a pending decision. Both
are named, so the state that refers to them stays plain data.

A step is registered with `@task(name)` on its definition, or, for the
steps most decisions take, with `task(name)(fn)` after it: the compiled
build calls a decorated function by its name through the module's dict,
an undecorated one directly. Where a rule runs such a step at once, it
calls it directly while the registry still holds it (`Game._step`,
`turns.start_turn`), compiled only: a step an adapter registers in its
place is still the one that runs.
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
