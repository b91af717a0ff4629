"""Running scenarios: each in every edition it applies to, by the runner of
its game (oracle.games.<game>.scenarios: `run`)."""

from __future__ import annotations

from time import perf_counter

from .document import of_game
from .result import Result


def run_all(files, editions=None, sets=()) -> list[Result]:
    """Every scenario of `files` in each edition it applies to (or those of
    `editions`); `sets`: card sets added to every scenario's deck."""
    out = []
    for sf in files:
        for sc in sf.scenarios:
            for e in sc.editions():
                if editions and e not in editions:
                    continue
                start = perf_counter()
                result = run(sc, e, sets)
                result.time = perf_counter() - start
                out.append(result)
    return out


def run(sc, edition: str, sets=()) -> Result:
    """One scenario in one edition (a Result: pass, fail or not applicable);
    `sets`: card sets added to its deck, for a game whose decks have sets."""
    return of_game(sc.game).run(sc, edition, sets)
