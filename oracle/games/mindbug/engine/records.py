"""The engine's records, as named tuples: what a game waits for
(`Pending`), what happened (`Event`), an answer to a decision (`Decision`)
and the mechanics a table's cards can meet (`Flags`).

Their field types are written as objects, not as the strings that postponed
annotations would make of them: typing compiles each string field of a
NamedTuple into a forward reference when the class is made (about 0.2 M
instructions a field, 39 fields, at every start). So this module has no
`from __future__ import annotations`, and names nothing that is defined
later or elsewhere in its annotations.
"""

from typing import NamedTuple


class Pending(NamedTuple):
    """What the game waits for: one player's decision, or a chance outcome.

    `options` lists every legal answer as a `(kind, arg)` pair. `resume` names
    the continuation that applies the answer; `clauses` cite the rules that
    ask for it; `source` is the card whose ability asks, if any. A pending
    decision is never changed once made (states share it when copied).
    """

    stage: str
    player: int | None
    options: list
    resume: tuple
    clauses: tuple
    source: int | None = None
    prompt: str = ""

    @property
    def is_chance(self) -> bool:
        return self.stage == "random"

    @property
    def players(self) -> frozenset[int]:
        """Who must decide, as a set: in Mindbug one player (none for a chance
        outcome); a game of simultaneous decisions (Mind Up!) has several."""
        return frozenset() if self.player is None else frozenset((self.player,))

    def to_builtins(self) -> dict:
        return {
            "stage": self.stage,
            "player": self.player,
            "options": [[k, list(a) if isinstance(a, tuple) else a] for k, a in self.options],
            "resume": list(self.resume),
            "clauses": list(self.clauses),
            "source": self.source,
            "prompt": self.prompt,
        }

    @classmethod
    def from_builtins(cls, d: dict) -> "Pending":
        return cls(
            d["stage"], d["player"],
            [(k, tuple(a) if isinstance(a, list) else a) for k, a in d["options"]],
            _tuplify(d["resume"]), tuple(d["clauses"]), d.get("source"), d.get("prompt", ""),
        )


def _tuplify(x):
    if isinstance(x, list):
        return tuple(_tuplify(i) for i in x)
    return x


class Event(NamedTuple):
    """Something that happened, with the clauses that made it happen."""

    kind: str
    clauses: tuple[str, ...]
    player: int | None = None
    card: int | None = None
    cards: tuple[int, ...] | None = None
    amount: int | None = None
    source: int | None = None

    def to_json(self) -> dict:
        d = {"kind": self.kind, "clauses": list(self.clauses)}
        for k in ("player", "card", "cards", "amount", "source"):
            v = getattr(self, k)
            if v is not None:
                d[k] = list(v) if isinstance(v, tuple) else v
        return d


class Decision(NamedTuple):
    """One answer to a pending decision: `kind` is play, attack, mindbug, pass,
    hunt, block, choose or random; `arg` a card id, a tuple of ids, or None."""

    kind: str
    player: int | None
    arg: int | tuple | None = None

    @classmethod
    def make(cls, kind: str, player: int | None, arg=None) -> "Decision":
        if isinstance(arg, list):
            arg = tuple(arg)
        if kind in ("choose", "random") and isinstance(arg, tuple):
            arg = tuple(sorted(arg))
        return cls(kind, player, arg)

    def to_json(self) -> dict:
        d: dict = {"t": self.kind}
        if self.player is not None:
            d["p"] = self.player
        if self.kind in ("choose", "random"):
            d["cards"] = list(self.arg or ())  # type: ignore[arg-type]  # a tuple of ids
        elif self.kind in ("play", "attack", "hunt", "block", "activate"):
            d["card"] = self.arg
        return d


class Flags(NamedTuple):
    life_readers: bool
    from_discard: bool
    end_of_turn: bool
    action: bool
    events: bool          # "when ..." abilities of creatures in play (triggers.when.events)
    to_discard: bool      # abilities that trigger as their card arrives in a discard pile (triggers.to-discard)
    in_discard: bool      # abilities that work from a discard pile (later.in-discard)
    piles: bool           # ... or powers that read a discard pile: a pile change forgets cached powers
    names: frozenset      # every design name the game can show (hooks of single cards test it: promos)
    # Whether any design of the game has the ability a hook looks for: with
    # none, the hot paths of the engine do not call the hook at all (each
    # hook tests `names` itself too, and answers "nothing" in such a game).
    play_limits: bool     # promo.play-limit (engine.play_limits)
    hand_locks: bool      # promo.hand-closed (engine.hand_lock)
    life_locks: bool      # promo.cannot-lose-life (engine.outcome)
    mindbug_hooks: bool   # promo.mindbug-ban, promo.mindbug-used, promo.life-as-mindbugs (engine.mindbug_rules)
    side_markers: bool    # promo.side-markers (engine.sides)
    granted_attack: bool  # promo.granted-attack (engine.granted)
    block_readers: bool   # promo.blocked-this-turn (engine.turn_record)
    defeat_readers: bool  # promo.felix-defeated (engine.turn_record)
    hunt_rules: bool      # later.forced.hippo (engine.forced, combat)
    reversed: bool        # later.reversed (combat)
    lines: bool           # designs of evolution lines (later.evolve): creatures with a stage
    enemy_attack_rules: bool      # abilities.cannot-attack: bans on enemy creatures (Hamster Lion)
    any_side_attack_rules: bool   # ... and bans on either side's creatures (the later sets)
