"""What every mb-scenario/1 document has, whatever its game: the format
id, the scenario id's pattern, where the ruling comes from (`source`) and
its status. Mindbug's structs (oracle.scenarios.format) and Mind Up!'s
(oracle.scenarios.mindup_format) build on these."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

FORMAT = "mb-scenario/1"

SOURCE_KINDS = ("rulebook example", "rulebook", "card list", "FAQ", "team ruling")
STATUSES = ("approved", "draft")
ID_PATTERN = r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$"


class Source(Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """Where the ruling comes from, and a free-text reference."""

    kind: Literal[SOURCE_KINDS]  # type: ignore[valid-type]
    ref: Annotated[str, Meta(min_length=1)]
