"""Generated card definitions: every legal card loads, deals and plays,
with the engine's invariants holding and the log conforming."""

import io
import itertools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.games.mindbug.cards.compiled import register
from oracle.games.mindbug.cards.declared import load
from oracle.games.mindbug.hunt.card_strategies import card_file
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game

_N = itertools.count(1)   # every generated set and card gets names of its own


def _fresh(later):
    n = next(_N)
    return card_file(f"gen-{'l' if later else 'p'}{n}", f"Gen{'L' if later else 'P'}{n}", 3, later)


def _play(doc, edition):
    decl = load("gen.json", json.dumps(doc))
    register(decl)
    sets = ("first-contact", decl.set.id)
    data = b"".join(x + b"\n" for x in selfplay_lines(3, 5, edition, check=True, sets=sets))
    reps = [verify_game(r) for r in split_games(io.BytesIO(data), "<gen>")]
    assert [r.verdict for r in reps] == ["conforms"] * 3, [r.findings for r in reps if r.findings][:1]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_first_contact_style_cards_play_in_every_edition(data):
    doc = data.draw(_fresh(False))
    _play(doc, data.draw(st.sampled_from(("en-first", "fr-first", "fr-revised", "en-revised"))))


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_later_set_cards_play_in_the_english_revised_edition(data):
    _play(data.draw(_fresh(True)), "en-revised")
