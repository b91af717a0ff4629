"""`mb-oracle hunt`: search for contradictions, ambiguities, edition
differences and engine bugs, and write each finding as a draft scenario.
The command is shared; each game's hunt is its registry entry's HUNT."""

from __future__ import annotations

import sys

import click

from .. import games

# The choices of --edition and the most processes of -j: the default game's (the other games' hunts take
# neither); the largest --budget, any game's: a search keeps what it has tried, so memory grows with the budget.
EDITIONS = games.attribute(games.DEFAULT, "EDITION_IDS")
SHARES = games.attribute(games.DEFAULT, "HUNT_JOBS")
MAX = 1_000_000


@click.command()
@click.option("--game", "game", default=games.DEFAULT, show_default=True, metavar="GAME",
              help="The game to hunt: mindbug, or mind-up (invariants over random games, then the reading points).")
@click.option("--edition", "edition", type=click.Choice(EDITIONS), help="Hunt in this edition only.")
@click.option("--all", "all_editions", is_flag=True, help="Hunt in every edition (the default).")
@click.option("--budget", type=click.IntRange(1, MAX), default=None, metavar="SITUATIONS",
              help="The most situations the hunt examines, shrinking included (default 2500): half with real "
                   "cards, half with changed ones. With --cards: boards per declared card (default 8). With --game "
                   "mind-up: random games played (default 200). At most 1,000,000: a search keeps what it has "
                   "tried, so memory grows with the budget.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search (same seed, same hunt).")
@click.option("--out", "out", type=click.Path(file_okay=False),
              help="Write each finding as a draft scenario here (never over a draft someone edited).")
@click.option("--force", is_flag=True, help="With --out: overwrite drafts even where someone edited them.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option("--no-abstract", is_flag=True, help="Only real First Contact cards (no changed powers or keywords).")
@click.option("-j", "--jobs", type=click.IntRange(1, SHARES), default=1, show_default=True,
              help=f"Processes to share the card designs between (1 to {SHARES}, the shares of the designs; the "
                   "findings do not depend on it).")
@click.option("--progress/--no-progress", default=True, help="Progress on standard error (terminals only).")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Hunt the cards declared in FILE (mb-cards/1) instead: positions around each card in every "
                   "edition; --budget boards per card.")
@click.option("--sets", "sets_spec", metavar="SET,SET",
              help="Hunt the later sets instead (comma-separated: beyond-eternity, beyond-evolution): positions "
                   "where their mechanics meet the old keywords, played under every choice of the readings "
                   "involved, in en-revised.")
def hunt(game, edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file,
         sets_spec):
    """Hunt for rules contradictions, ambiguities and edition differences.

    Hypothesis searches situations (attackers, blockers, cards to play) and
    checks the engine against the rules read a second time as constraints.
    Each finding is shrunk to a minimal position; with --out it is written
    as a draft scenario; a draft someone has edited since the hunt wrote it
    is not overwritten (the run then writes no draft and exits 2) unless
    --force. Exit status 1 when the engine gives an outcome the constraints
    forbid; Ctrl-C ends it at once with exit status 130 (SIGTERM: 143).
    """
    # Ctrl-C and SIGTERM end the hunt where it stands, whatever Hypothesis
    # is doing (a KeyboardInterrupt raised inside its engine may be held up).
    from ..caches import keep_out_of_the_folder
    from ..replay.parallel import interrupt_exits

    keep_out_of_the_folder()
    with interrupt_exits():
        _hunt(game, edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file,
              sets_spec)


def _hunt(game, edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file,
          sets_spec) -> None:
    """The game's hunt through its registry entry (HUNT): budget, seed, out,
    force and format, and the options of the games that take them, by name
    (each game refuses those it does not take)."""
    if edition and all_editions:
        raise click.UsageError("--edition and --all exclude each other")
    try:
        games.check(game)
    except games.UnknownGame as e:
        raise click.UsageError(str(e)) from None
    sys.exit(games.attribute(game, "HUNT")(budget, seed, out, force, fmt, edition=edition, no_abstract=no_abstract,
                                           jobs=jobs, progress=progress, cards_file=cards_file, sets_spec=sets_spec))
