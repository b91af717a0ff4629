"""The hunt on declared cards (`mb-oracle hunt --cards FILE`).

For each card of a card file (spec/card-format.md) the hunt builds small
positions around it: the card played from hand, attacking, defeated, left
to harvest, or simply in play, against boards drawn from First Contact
(TOUGH creatures, exhausted ones, low life) with a fixed seed. Each position
is played in every edition, taking the first legal answer to every decision,
and:

- where the editions reach different outcomes, that is an
  `edition-difference` (a card with later-set mechanics is refused outside
  English revised: `later.octonite`);
- where the card's mechanics meet a question the catalogue leaves open or
  the engine does not execute, that is an `ambiguity` or a `rules-gap`:
  FAST against the Mindbug timing of each edition, stealing the last life,
  a Harvest or effect defeat against TOUGH (settled by
  keywords.tough.effects, said so as `no-real-conflict`).

Each finding is written, with `--out`, as a draft scenario (status: draft)
that loads and passes: it records what the engine does, for a rules team
to approve or change.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ....draftfile import write_draft
from ....term import visible
from ..cards import CARDS, TOUGH
from ..cards.abilities import LATER
from ..cards.compiled import TRIGGER_CLAUSE, load_file
from ..editions import EDITIONS

# The cards the positions hold in hand or attack with, never on the drawn boards.
HANDS = {"Bee Bear", "Brain Fly", "Gorillion", "Luchataur", "Spider Owl", "Rhino Turtle"}
FIRST_CONTACT = sorted(n for n, d in CARDS.items() if d.card_set == "first-contact" and n not in HANDS)


@dataclass
class CardFinding:
    card: str
    category: str                  # edition-difference | ambiguity | rules-gap | no-real-conflict
    clauses: tuple[str, ...]
    summary: str
    scenario: dict                 # the draft scenario (mb-scenario/1)
    outcomes: dict = field(default_factory=dict)   # edition -> outcome text

    @property
    def id(self) -> str:
        return self.scenario["id"]

    def to_json(self) -> dict:
        return {"id": self.id, "card": self.card, "category": self.category, "clauses": list(self.clauses),
                "summary": self.summary, "outcomes": self.outcomes}


def _slug(text: str) -> str:
    import re
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _position(spec, board: list[str], tough_exhausted: bool, life: int):
    """(given, steps) of a position that makes the card's ability act."""
    name = spec.name
    trig = next((a.trigger for a in spec.abilities if a.trigger != "constant"), None)
    if spec.code is not None:
        trig = CARDS[name].trigger
    enemy = [{"card": c, "exhausted": True} if tough_exhausted and CARDS[c].keywords & TOUGH else c for c in board]
    if trig == "attack":
        given = {"players": [{"play": [name], "hand": ["Bee Bear"]}, {"play": enemy, "hand": ["Brain Fly"],
                                                                        "life": life}]}
        return given, [{"attack": name}]
    if trig == "defeated":
        given = {"active": 1, "players": [{"play": [name], "hand": ["Bee Bear"]},
                                          {"play": ["Gorillion"] + enemy, "hand": ["Brain Fly"], "life": life}]}
        return given, [{"attack": "Gorillion"}, {"block": name}]
    if trig == "harvest" and spec.octonite <= 3:
        # Each player plays vanilla cards until the last counter goes.
        n = spec.octonite
        mine = ["Bee Bear", "Spider Owl#2"][: n - 1]
        theirs = ["Luchataur", "Luchataur#2", "Rhino Turtle#2"][:n]
        given = {"players": [{"hand": [name] + mine}, {"play": enemy, "hand": theirs, "life": life}]}
        steps = [{"play": name}, "pass"]
        for i in range(n):
            steps += [{"play": theirs[i]}, "pass"]
            if i < n - 1:
                steps += [{"play": mine[i]}, "pass"]
        return given, steps
    # play, constant, or none: play it from hand.
    given = {"players": [{"hand": [name, "Bee Bear"]}, {"play": enemy, "hand": ["Brain Fly"], "life": life}]}
    return given, [{"play": name}, "pass"]


# Life cards of EN first, at most: 3 life per player in every position of the hunt.
LIFE_CARDS = 6


def _without_later_cards(given: dict, sets, later: set[str]) -> dict:
    """The position of a card without later-set mechanics, from a file that
    also declares cards with them: those cards are put out of the game, so
    that every edition deals the position (later.octonite refuses a card
    dealt, not one out of the game). With `unused` given, a position's cards
    placed nowhere and not in it are out of the game; the first plain cards
    placed nowhere are left out of `unused` too, as EN first takes its life
    cards from them."""
    from ..scenarios.cards import all_ids, card_name
    if not later:
        return given
    placed = {entry if isinstance(entry, str) else entry["card"] for side in given["players"]
              for zone in ("hand", "play", "discard", "deck") for entry in side.get(zone, ())}
    free = [card_name(c) for c in all_ids(sets)]
    free = [ref for ref in free if ref not in placed and ref.split("#")[0] not in later]
    return {**given, "unused": free[LIFE_CARDS:]}


def _doc(sid, title, clauses, card, card_file, sets, given, steps, source) -> dict:
    return {"format": "mb-scenario/1", "id": sid, "title": title, "clauses": list(clauses), "sets": list(sets),
            "card_file": card_file, "status": "draft", "source": {"kind": "team ruling", "ref": source},
            "given": given, "steps": steps}


def _play(doc: dict, edition: str):
    """The outcome of a draft in one edition: a short text and the expectation that pins it."""
    from ..engine import SetupError
    from ....scenarios.loader import load_text
    from ..scenarios.cards import card_name
    from ..scenarios.runner import _decision, build
    probe = {k: v for k, v in doc.items() if k != "_path"}
    probe["expect"] = {"winner": None}       # a placeholder: only the position and steps are played here
    text = yaml.safe_dump(probe, sort_keys=False, allow_unicode=True)
    sf = load_text(text, doc["_path"])
    if sf.errors:
        return f"error: {sf.errors[0]}", None
    sc = sf.scenarios[0]
    try:
        g = build(sc, edition)
    except SetupError as e:
        return f"refused: {e.code} [{e.clause}]", {"illegal": {"step": 0, "code": e.code, "clause": e.clause}}
    for step in sc.doc.steps:
        kind, arg = _decision(step)
        for _ in range(50):
            if g.pending is None or (kind, arg) in g.pending.options or len(g.pending.options) != 1:
                break
            g.apply_unchecked(*g.pending.options[0])
        if g.pending is None or (kind, arg) not in g.pending.options:
            return "stopped: a step is not legal", None
        g.apply_unchecked(kind, arg)
    for _ in range(50):                      # forced decisions after the last step, as scenarios settle
        if g.pending is None or len(g.pending.options) != 1 or g.pending.stage == "action":
            break
        g.apply_unchecked(*g.pending.options[0])
    s = g.state
    players = []
    for p in (0, 1):
        players.append({"life": s.life[p], "play": sorted(card_name(c) for c in s.play[p]),
                        "discard": len(s.discard[p])})
    expect = {"players": [dict(pl) for pl in players], "winner": s.winner,
              "exhausted": sorted(card_name(c) for c in s.exhausted)}
    if s.pending is not None:
        expect["pending"] = {"stage": s.pending.stage, "player": s.pending.player}
    out = (f"life {s.life[0]}-{s.life[1]}; in play {players[0]['play']} / {players[1]['play']}"
           + (f"; exhausted {expect['exhausted']}" if s.exhausted else "")
           + (f"; player {s.winner} wins" if s.winner is not None else "")
           + (f"; waits for {s.pending.stage} (player {s.pending.player})" if s.pending is not None else ""))
    return out, {"expect": expect}


def _finish(doc: dict, results: dict) -> dict:
    """Pin the observed outcomes: a shared `expect` with per-edition
    overrides for the editions that play the position; an edition that
    refuses the setup is left out (a refusal draft shows it: `_refusal`)."""
    playing = [e for e in EDITIONS if results[e][1] is not None and "expect" in results[e][1]]
    doc = {k: v for k, v in doc.items() if k != "_path"}
    if not playing:
        return _refusal(doc, results)
    first = results[playing[0]][1]["expect"]
    doc["expect"] = first
    by = {e: results[e][1] for e in playing[1:] if results[e][1]["expect"] != first}
    if by:
        doc["expect_by_edition"] = by
    if len(playing) < len(EDITIONS):
        doc["editions"] = playing
    return doc


def _refusal(doc: dict, results: dict) -> dict:
    """The draft of a setup the editions refuse: no steps, `illegal` at step 0."""
    refused = [e for e in EDITIONS if results[e][1] is not None and "illegal" in results[e][1]]
    if not refused:
        raise ValueError(f"draft {doc['id']}: no edition plays it ({results[EDITIONS[0]][0]})")
    doc = {k: v for k, v in doc.items() if k not in ("_path", "steps", "expect", "expect_by_edition")}
    doc["editions"] = refused
    doc["illegal"] = results[refused[0]][1]["illegal"]
    return doc


def hunt_cards(path: str | Path, out_dir: Path | None = None, budget: int = 8, seed: int = 0) -> list[CardFinding]:
    """Hunt the cards of one card file; with `out_dir`, every finding's draft
    scenario goes there (file `<finding id>.yaml`)."""
    decl = load_file(path)
    rng = random.Random(seed)
    where = Path(out_dir) if out_dir is not None else Path(".")
    card_file = os.path.relpath(Path(path).resolve(), where.resolve())
    sets = ["first-contact", decl.set.id]
    later = {c.name for c in decl.cards if c.name in LATER}
    found: list[CardFinding] = []
    seen = set()
    for spec in decl.cards:
        boards = []
        for i in range(budget):
            k = 1 + i % 3
            boards.append((sorted(rng.sample(FIRST_CONTACT, k)), bool(rng.random() < 0.3), rng.choice((1, 2, 3))))
        boards.sort(key=lambda b: (len(b[0]), b[2]))
        for board, exhausted, life in boards:
            if spec.name in board:
                continue
            given, steps = _position(spec, board, exhausted, life)
            if spec.name not in later:
                given = _without_later_cards(given, sets, later)
            sid = f"card-hunt.{_slug(spec.name)}.{_slug('-'.join(board))}-{life}"
            doc = _doc(sid, f"{spec.name} against {', '.join(board)} (opponent at {life} life)",
                       ["triggers.play"], spec.name, card_file, sets, given, steps, "the card hunt")
            doc["_path"] = str(where / f"{sid}.yaml")
            results = {e: _play(doc, e) for e in EDITIONS}
            texts = {e: r[0] for e, r in results.items()}
            groups = {}
            for e in EDITIONS:
                groups.setdefault(texts[e], []).append(e)
            key = (spec.name, "editions", tuple(sorted(tuple(g) for g in groups.values())))
            if len(groups) > 1 and key not in seen:
                seen.add(key)
                refused = any(t.startswith("refused") for t in texts.values())
                clauses = ("later.octonite",) if refused else ("setup.sets",)
                doc["clauses"] = list(clauses)
                summary = (f"{spec.name}: the editions reach different outcomes ("
                           + "; ".join(f"{', '.join(g)}: {t}" for t, g in groups.items()) + ")")
                if refused:
                    doc["id"] = f"card-hunt.{_slug(spec.name)}.refused"
                    draft = _refusal(doc, results)
                else:
                    draft = _finish(doc, results)
                found.append(CardFinding(spec.name, "edition-difference", clauses, summary, draft, texts))
        found += _questions(spec, decl, card_file, sets, where, set() if spec.name in later else later)
    return found


def _questions(spec, decl, card_file, sets, where, later: set[str]) -> list[CardFinding]:
    """The open questions a card's mechanics meet, one probe each; `later`:
    the file's cards with later-set mechanics, put out of the game."""
    out = []
    verbs = {a.effect for a in spec.abilities}

    def probe(sid, title, clauses, category, summary, given, steps):
        given = _without_later_cards(given, sets, later)
        doc = _doc(sid, title, clauses, spec.name, card_file, sets, given, steps, summary)
        doc["_path"] = str(where / f"{sid}.yaml")
        results = {e: _play(doc, e) for e in EDITIONS}
        out.append(CardFinding(spec.name, category, tuple(clauses), summary, _finish(doc, results),
                               {e: r[0] for e, r in results.items()}))

    slug = _slug(spec.name)
    if "FAST" in spec.keywords:
        probe(f"card-hunt.{slug}.fast-and-mindbug", f"{spec.name} (FAST) is mindbugged",
              ["keywords.fast", "keywords.fast.mindbugged", "mindbug.extra-action"], "rules-gap",
              f"{spec.name}: English revised lets the player who mindbugged a FAST creature attack with it during "
              "the other player's turn; by the team's reading the engine does not offer that attack, and its "
              "player goes on with the extra turn action (the reading keywords.fast.mindbugged=before-extra-action "
              "offers it at once). The first editions have no FAST (the card is refused there).",
              {"players": [{"hand": [spec.name, "Bee Bear"]}, {"hand": ["Brain Fly"], "play": ["Spider Owl"]}]},
              [{"play": spec.name}, "mindbug"])
    if "steal-life" in verbs:
        trig = next(a.trigger for a in spec.abilities if a.effect == "steal-life")
        given, steps = _position(spec, [], False, 1)
        probe(f"card-hunt.{slug}.steal-the-last-life", f"{spec.name} steals the opponent's last life",
              ["later.steal-life", "winning.life"], "ambiguity",
              f"{spec.name} ({trig}): stealing the last life ends the game at once (winning.life); whether the "
              "thief still gains it is not said. The engine ends the game first: no gain.", given, steps)
    defeats = [a for a in spec.abilities if a.effect == "defeat"]
    if defeats:
        a = defeats[0]
        given, steps = _position(spec, ["Elephantopus", "Plated Scorpion"], False, 3)
        probe(f"card-hunt.{slug}.defeat-against-tough", f"{spec.name}'s {a.trigger} effect against TOUGH creatures",
              ["keywords.tough.effects", TRIGGER_CLAUSE[a.trigger]], "no-real-conflict",
              f"{spec.name}: its {a.trigger} effect defeats; a TOUGH creature is exhausted instead in every edition "
              "(keywords.tough.effects: stated, implied in en-first).", given, steps)
    return out


def draft_path(f: CardFinding, out_dir: Path) -> Path:
    return out_dir / f"{f.id}.yaml"


def write(f: CardFinding, out_dir: Path, force: bool = False) -> Path:
    """Write the finding's draft (stamped, oracle.draftfile); DraftRefused
    for a file someone edited (unless `force`) or a link out of `out_dir`."""
    header = f"# {f.category}: {f.summary}\n"
    body = header + yaml.safe_dump(f.scenario, sort_keys=False, allow_unicode=True, width=100)
    return write_draft(draft_path(f, out_dir), out_dir, body, "hunt --cards", force)


def render(found: list[CardFinding], out_dir: Path | None) -> str:
    lines = [f"mb-oracle hunt --cards: {len(found)} finding{'s' * (len(found) != 1)}", ""]
    for i, f in enumerate(found, 1):
        lines.append(f"{i}. {f.category}: {f.card}: {' + '.join(f.clauses)}")
        lines.append(f"   {f.summary}")
        for e, t in f.outcomes.items():
            lines.append(f"   {e}: {t}")
        lines.append(f"   scenario: {f.id}")
        lines.append("")
    if out_dir is not None:
        lines.append(f"draft scenarios in {out_dir}: mb-oracle scenarios {out_dir}")
    return "\n".join(map(visible, lines))   # card names, ids and paths from the input


__all__ = ["CardFinding", "draft_path", "hunt_cards", "render", "write"]
