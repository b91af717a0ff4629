"""What `mb-oracle editions` lists of Mindbug: the four editions as rules
profiles with every switch where they differ, then the team readings; and
what `mb-oracle cards` lists: its card sets, or its cards."""

from __future__ import annotations

from ...reading_type import readings_text
from .editions import PROFILES
from .readings import READINGS


def editions_listing() -> tuple[dict, list[str]]:
    """(the JSON document, the lines of the human listing)."""
    doc = {"editions": [p.to_json() for p in PROFILES.values()], "readings": [r.to_json() for r in READINGS]}
    lines = []
    for p in PROFILES.values():
        lines.append(f"{p.edition}: {p.title} ({p.rulebook})")
        for s in p.switches:
            how = {"states": "states", "implied": "implied", "silent": "silent, reading"}[s.how]
            lines.append(f"  {s.name:<24} {str(s.value):<11} {how:<16} [{s.clause}] {s.note}")
    lines.append("team readings (no edition settles them; verify --reading CLAUSE=CHOICE, game line `readings`):")
    return doc, lines + readings_text(READINGS)


def cards_listing(names, set_names, list_sets: bool, cards_file) -> tuple[object, list[str]]:
    """(the JSON document, the lines of the human listing) of `mb-oracle
    cards`: the known sets (`list_sets`), else the cards named, else those
    of the sets named (all without); `cards_file` loaded first (its set and
    cards known). An unknown card or set is a usage error."""
    import click

    from ...term import plural
    from .cards import CARDS, SETS, UnknownCard, UnknownSet, check_sets, lookup
    from .cards.compiled import declared

    if cards_file:
        declared(cards_file)
    if list_sets:
        lines = []
        for s in SETS.values():
            info = s.to_json()
            n = info.get("faces", 0)
            faces = (f", {info['set_aside']} set-aside cards ({n} stage faces)" if s.lines
                     else f", {n} stage face{'s' * (n != 1)} of no known line, never dealt" if n else "")
            lines.append(f"{s.id:<16} {s.name} / {s.french}: {plural(info['designs'], 'design')}, "
                         f"{plural(info['cards'], 'card')}{faces}")
        return [s.to_json() for s in SETS.values()], lines
    try:
        keep = set(check_sets(set_names)) if set_names else set(SETS)
        chosen = [lookup(n) for n in names] if names else [c for c in CARDS.values() if c.card_set in keep]
    except (UnknownCard, UnknownSet) as e:
        raise click.UsageError(str(e)) from None
    lines = []
    for c in chosen:
        kws = " ".join(c.keyword_names)
        lines.append(f"{c.name:<26} {c.power:>2}  x{c.copies}  {kws:<18} {c.text}")
        lines.append(f"{'':<26}     {c.french} / {c.slug}{_stage_words(c)}")
    return [c.to_json() for c in chosen], lines


def _stage_words(c) -> str:
    """'  (stage II of Cloud Lady's line)' for a card of an evolution line, else ''."""
    if not c.stage:
        return ""
    roman = {1: "I", 2: "II", 3: "III"}[c.stage]
    if not c.line:
        return f"  (stage {roman}, of no known line: never dealt)"
    aside = ", set aside" if c.stage == 2 else ", the back of stage II" if c.stage == 3 else ""
    return f"  (stage {roman} of {c.line}'s line{aside})"
