"""Refusals and setup errors: stable codes, the clause, and the legal options."""

from __future__ import annotations

from dataclasses import dataclass, field

# Stable codes. Messages are for people and may change; codes do not.
ILLEGAL_DECISION = "ILLEGAL_DECISION"
GAME_OVER = "GAME_OVER"
ILLEGAL_RANDOM = "ILLEGAL_RANDOM"


@dataclass(frozen=True)
class Refusal:
    code: str
    clause: str
    message: str
    options: tuple = ()
    card: str | None = None  # the card whose ability forbids it, if any

    def to_json(self) -> dict:
        d = {"code": self.code, "clause": self.clause, "message": self.message,
             "options": [o.to_json() for o in self.options]}
        if self.card:
            d["card"] = self.card
        return d


class Refused(Exception):
    """Raised by `Game.apply` for an illegal decision; the game is unchanged."""

    def __init__(self, refusal: Refusal):
        super().__init__(f"{refusal.code} [{refusal.clause}] {refusal.message}")
        self.refusal = refusal


@dataclass
class SetupError(Exception):
    """A deal or a position the rules cannot start from."""

    code: str
    clause: str
    message: str
    details: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code} [{self.clause}] {self.message}"


class EngineError(RuntimeError):
    """The engine reached a state its own rules should make impossible (a bug)."""
