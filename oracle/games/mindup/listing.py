"""What `mb-oracle editions --game mind-up` lists: its rulebook and the
team readings of its silences; and what `mb-oracle cards --game mind-up`
lists: its cards, its Score cards and its objectives."""

from __future__ import annotations

from ...reading_type import readings_text
from . import EDITION_TITLES, EDITIONS, NAME, RULEBOOKS, TITLE, all_readings


def editions_listing() -> tuple[dict, list[str]]:
    """(the JSON document, the lines of the human listing)."""
    readings = all_readings()
    doc = {"game": NAME, "editions": [{"edition": x, "title": EDITION_TITLES[x], "rulebook": RULEBOOKS[x]}
                                      for x in EDITIONS],
           "readings": [r.to_json() for r in readings]}
    lines = [f"{x}: {TITLE}, {EDITION_TITLES[x]} ({RULEBOOKS[x]})" for x in EDITIONS]
    lines.append("team readings (the rulebook is silent; verify --reading CLAUSE=CHOICE, game line `readings`):")
    return doc, lines + readings_text(readings)


def cards_listing(names, set_names, list_sets: bool, cards_file) -> tuple[dict, list[str]]:
    """(the JSON document, the lines of the human listing) of `mb-oracle
    cards`: the cards (all, or those numbered in `names`) with colour and
    bubble, then the Score cards and the objectives. The options of card
    sets and card files are a usage error: the game has one deck."""
    import click

    from . import cards as mu

    if set_names or list_sets or cards_file:
        raise click.UsageError(f"--set, --sets and --cards are Mindbug's; {NAME} has one deck")
    try:
        numbers = [int(n) for n in names] if names else list(mu.CARDS)
        if any(n not in mu.CARDS for n in numbers):
            raise ValueError
    except ValueError:
        raise click.UsageError(f"{NAME}'s cards are numbered 1 to {mu.CARD_COUNT}: "
                               f"{', '.join(map(repr, names))}") from None
    listed = [{"number": n, "colour": mu.colour(n), "bubble": mu.bubble(n)} for n in numbers]
    objectives = [{"id": i, "letter": letter, "value": value, "condition": text}
                  for i, (letter, value, text) in mu.OBJECTIVES.items()]
    doc = {"game": NAME, "cards": listed, "score_cards": list(mu.SCORE_VALUES),
           "objectives": [] if names else objectives}
    lines = ["card  colour  bubble"]
    for c in listed:
        bubble = f"{c['bubble']:+d}" if c["bubble"] else "0"
        lines.append(f"{c['number']:>4}  {c['colour']:<7} {bubble:>2}")
    if names:
        return doc, lines
    lines.append(f"Score cards: {', '.join(map(str, mu.SCORE_VALUES))}")
    lines.append("objectives (the optional rule; spec/mind-up/clauses.md, mu.objectives.*):")
    lines += [f"  {o['id']:>2}  {o['letter']}  {o['value']:+d}  {o['condition']}" for o in objectives]
    return doc, lines
