"""What the lines of every game's replay format share: one JSON object per
line whose `t` names its type, the free-form `x` an exporter may fill with
its own data (never read), and the `impl` of a game line naming the engine
that wrote the log. Each game's format (oracle/games/*/replay/format.py)
builds its line types on these."""

from typing import Any

from msgspec import UNSET, Struct


class _Line(Struct, tag_field="t", omit_defaults=True, kw_only=True):
    x: Any = UNSET  # exporter's own data, never read by the oracle


class Impl(Struct, omit_defaults=True):
    name: str
    version: str = ""
