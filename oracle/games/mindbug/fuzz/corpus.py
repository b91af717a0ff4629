"""Mindbug's seed inputs for `mb-oracle fuzz`: self-played games (every
edition, the later sets), scenarios, expectation and card files, well
formed, for the strategies to break; a small one of each when no folder is
at hand."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ....fuzz.corpus import scenario_documents, stream_games, yaml_texts
from ..editions import EDITIONS

# A small, valid scenario, used when no scenario folder is at hand.
MINIMAL_SCENARIO = """\
format: mb-scenario/1
id: fuzz.seed
title: An unblocked attack costs a life
clauses: [combat.unblocked]
source: {kind: rulebook, ref: "Combat: an attack no creature blocks costs the defender a life"}
given:
  players:
    - hand: [Bee Bear]
      play: [Luchataur]
    - hand: [Brain Fly]
      play: [Spider Owl]
steps:
  - attack: Luchataur
  - block: null
expect:
  players:
    - {life: 3}
    - {life: 2}
"""

MINIMAL_EXPECT = """\
format: mb-expect/1
expected:
  - code: ILLEGAL_DECISION
    clause: keywords.sneaky
    game: g-1
    note: a known divergence
  - code: STATE_MISMATCH
"""


def short_games() -> tuple[tuple[bytes, ...], ...]:
    """The self-played games with a claim per turn, the shorter half: the
    good games around a broken one."""
    games = sorted((g for g in selfplay_games() if sum(b'"t":"state"' in x for x in g) * 3 < len(g)), key=len)
    return tuple(games[:max(1, len(games) // 2)])


@cache
def selfplay_games(per_edition: int = 3, seed: int = 11) -> tuple[tuple[bytes, ...], ...]:
    """Self-played games (each a tuple of lines), with a claim after every
    decision so that claims of every shape are in the corpus."""
    from ..replay.selfplay import selfplay_lines

    games: list[tuple[bytes, ...]] = []
    for i, edition in enumerate(EDITIONS):
        for claims in ("every", "turn"):
            stream = b"".join(line + b"\n" for line in selfplay_lines(per_edition, seed + i, edition, "random", claims))
            games += stream_games(stream, "<selfplay>")
    # The later sets, dealt in the edition that knows them: set-aside cards in
    # the deal, stages, faces and boost cards in the claims.
    for i, sets in enumerate(later_deals()):
        stream = b"".join(line + b"\n" for line in selfplay_lines(1, seed + i, "en-revised", "random", "every",
                                                                  sets=sets))
        games += stream_games(stream, "<selfplay>")
    return tuple(games)


def later_deals(playable_only: bool = True) -> list[tuple[str, ...]]:
    """The deals of the later sets the corpus holds: each stand-alone set,
    each promo set with First Contact, all sets mixed; only those whose
    triggered abilities are all written (a game of the others cannot be
    played yet)."""
    from ..cards import CARDS, SETS
    from ..cards.abilities import TRIGGERED

    later = [s for s, card_set in SETS.items() if card_set.later]
    deals = [(s,) if len(SETS[s].designs) >= 24 else ("first-contact", s) for s in later]
    if later:
        deals.append(tuple(SETS))

    def playable(sets) -> bool:
        return all((d.name, t) in TRIGGERED for d in CARDS.values() if d.card_set in sets
                   for t in d.triggers if t in ("play", "attack", "defeated", "action"))
    return [d for d in deals if playable(d) or not playable_only]


def scenario_texts(folder: str | Path | None) -> tuple[str, ...]:
    """Each scenario document of the YAML files under `folder`, as text."""
    return scenario_documents(folder) or (MINIMAL_SCENARIO,)


# A small card file, used when no example card file is at hand.
MINIMAL_CARDS = """\
format: mb-cards/1
set: {id: fuzz-seed, name: Fuzz Seed}
cards:
  - name: Seed Eel
    copies: 2
    power: 5
    keywords: [SNEAKY]
    abilities:
      - {trigger: play, effect: defeat, target: {side: enemy, power_max: 4}}
  - name: Seed Golem
    power: 3
    abilities:
      - {trigger: constant, effect: power, amount: 1, target: {side: allied, others: true}}
"""


def card_texts(folder: str | Path | None) -> tuple[str, ...]:
    """The card files (mb-cards/1) of the YAML files under `folder` (e.g. examples/), as text."""
    return yaml_texts(folder, "mb-cards/") or (MINIMAL_CARDS,)
