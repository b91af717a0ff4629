"""The engine's records: what a game waits for (`Pending`), and as named
tuples what happened (`Event`) and an answer to a decision (`Decision`).

Their field types are written as objects, not as the strings that postponed
annotations would make of them: typing compiles each string field of a
NamedTuple into a forward reference when the class is made (about 0.2 M
instructions a field, at every start). So this module has no
`from __future__ import annotations`, and names nothing that is defined
later or elsewhere in its annotations.
"""

from typing import NamedTuple


class Pending:
    """What the game waits for: one player's decision, or a chance outcome.

    `options` lists every legal answer as a `(kind, arg)` pair. `resume` names
    the continuation that applies the answer; `clauses` cite the rules that
    ask for it; `source` is the card whose ability asks, if any. A pending
    decision is never changed once made (states share it when copied).

    A plain class with fixed fields, compared by its fields: the compiled
    build makes one and reads its fields directly (a named tuple was made
    through tuple.__new__, about 1,000 instructions each, 57 times a game).
    """

    __slots__ = ("stage", "player", "options", "resume", "clauses", "source", "prompt")

    def __init__(self, stage: str, player: int | None, options: list, resume: tuple, clauses: tuple,
                 source: int | None = None, prompt: str = ""):
        self.stage = stage
        self.player = player
        self.options = options
        self.resume = resume
        self.clauses = clauses
        self.source = source
        self.prompt = prompt

    def _fields(self) -> tuple:
        return (self.stage, self.player, self.options, self.resume, self.clauses, self.source, self.prompt)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pending) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((self.stage, self.player, tuple(self.options), self.resume, self.clauses, self.source,
                     self.prompt))

    def __reduce__(self) -> tuple:
        # pickle and copy make it again from its fields: a compiled class has no __dict__ to copy
        return (Pending, self._fields())

    def __repr__(self) -> str:
        return (f"Pending(stage={self.stage!r}, player={self.player!r}, options={self.options!r}, "
                f"resume={self.resume!r}, clauses={self.clauses!r}, source={self.source!r}, "
                f"prompt={self.prompt!r})")

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
