"""The target `cards` (and the card files of `yaml-values`): a card file is
refused with a message, or its cards register, deal, play and verify, and
no shipped card's name finds another card; the forms of a card's names
that find it (for the hostile names of hostile.py and names.py)."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from ....fuzz.checks import Tally


def check_cards(tally: Tally, data: bytes) -> None:
    """The card file loader: a CardFileError, or cards that register, deal
    and play. Two self-played games with them (the engine's invariants
    checked at every step) must each conform when verified. The card
    database is put back afterwards."""
    from ....replay import report as render
    from ....replay.reader import split_games
    from ....replay.verify import verify_game
    from ..cards import lookup
    from ..cards.compiled import register, snapshot
    from ..cards.declared import CardFileError, load
    from ..editions import EDITIONS, profile
    from ..engine import SetupError
    from ..engine.deck import check_mechanics
    from ..replay.selfplay import selfplay_lines

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "card-file.yaml"
        path.write_bytes(data)
        try:
            decl = load(path)
        except CardFileError as e:
            assert e.message, "card error: a card file refused without a message"
            return
    before = shipped_lookups()
    restore = snapshot()
    try:
        register(decl)
        # A card file changes only the games that deal its set: every shipped name finds what it found.
        assert shipped_lookups() == before, "card names: a declared card took over a shipped card's name"
        sets = ("first-contact", decl.set.id)
        # Declared cards with a later-set mechanic are dealt in en-revised only (later.octonite).
        edition = EDITIONS[len(data) % len(EDITIONS)]
        try:
            check_mechanics(profile(edition), {i: lookup(c.name) for i, c in enumerate(decl.cards)})
        except SetupError:
            edition = "en-revised"
        stream = b"".join(line + b"\n" for line in
                          selfplay_lines(2, len(data), edition, "random", "turn", check=True, sets=sets))
        raws = list(split_games(io.BytesIO(stream), "<fuzz>"))
        tally.games_in += len(raws)
        for raw in raws:
            rep = verify_game(raw)
            tally.verdicts_out += 1
            if rep.verdict != "conforms":
                f = rep.findings[0]
                raise AssertionError(f"self-play: a game with declared cards is {rep.verdict} "
                                     f"({f.code} {f.clauses} line {f.line}: {f.message})")
            render.human_game(rep)
            render.json_game(rep)
    finally:
        restore()


def name_forms(name: str) -> list[str]:
    """Ways to write a card's names that find it: cases, slugs, French."""
    from ..cards import lookup, slugify

    card = lookup(name)
    return [card.name, card.name.lower(), card.name.upper(), card.slug, card.slug.replace("-", "_"), card.french,
            slugify(card.french), card.french.upper(), f"  {card.name}  ".replace(" ", "-")]


def shipped_lookups() -> dict[str, str]:
    """What each form of each shipped card's names finds now."""
    from ..cards import CARDS, lookup

    return {form: lookup(form).name for name, c in CARDS.items() if c.card_set in ("first-contact", "new-servants")
            for form in name_forms(name)}
