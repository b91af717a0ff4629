"""Refusals and setup errors: stable codes, the clause, and the legal options."""

from __future__ import annotations

from msgspec import Struct

# Stable codes. Messages are for people and may change; codes do not.
ILLEGAL_DECISION = "ILLEGAL_DECISION"
GAME_OVER = "GAME_OVER"
ILLEGAL_RANDOM = "ILLEGAL_RANDOM"


class Refusal(Struct, frozen=True):
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


class SetupError(Exception):
    """A deal or a position the rules cannot start from. Compared by its
    fields, as a record (written out: the verify path loads no dataclass)."""

    __hash__ = None  # type: ignore[assignment]  # compared by value: not hashable

    def __init__(self, code: str, clause: str, message: str, details: dict | None = None):
        self.code = code
        self.clause = clause
        self.message = message
        self.details: dict = {} if details is None else details

    def _fields(self) -> tuple:
        return (self.code, self.clause, self.message, self.details)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return (f"SetupError(code={self.code!r}, clause={self.clause!r}, message={self.message!r}, "
                f"details={self.details!r})")

    def __str__(self) -> str:
        return f"{self.code} [{self.clause}] {self.message}"


class EngineError(RuntimeError):
    """The engine reached a state its own rules should make impossible (a bug)."""
