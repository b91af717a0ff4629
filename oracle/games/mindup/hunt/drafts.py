"""A Mind Up! reading point as a draft scenario file (mb-scenario/1,
`game: mind-up`): two documents from the same position and turns, one under
the team's reading, one under the alternative, each expecting what the
engine does under it. The header says which reading settles the point and
how Board Game Arena's implementation reads it.

The first line is the hunt's stamp (oracle.draftfile): a later hunt does
not overwrite a draft someone edited, unless forced, nor write through a
link out of its folder. A file is written whole, then moved in place.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import yaml

from ....draftfile import edited, write_draft
from .search import Finding, Played


POINT_ID = "mind-up.hunt.{}"      # a reading point's scenario id (and file name), from its clause


def scenario_id(f: Finding) -> str:
    return POINT_ID.format(f.point.clause.removeprefix("mu."))


def draft_path(f: Finding, folder: Path) -> Path:
    return folder / f"{scenario_id(f)}.yaml"


def _expect(played: Played) -> dict:
    if played.refusal is not None:
        (code, clause), (kind, at) = played.refusal, played.where
        return {"illegal": {kind: at, "code": code, "clause": clause}}
    s = played.game.state
    out: dict = {"round": s.round, "order": list(s.order)}
    if any(s.hands):
        out["hands"] = {p: list(h) for p, h in enumerate(s.hands)}
    if s.scores and s.scores[0]:
        out["rounds"] = {p: list(sc) for p, sc in enumerate(s.scores)}
    return {"expect": out}


def _document(f: Finding, alternative: bool) -> dict:
    r, sit = f.reading, f.situation
    choice = f.point.alternative if alternative else r.team
    text = dict(r.choices)[choice]
    doc: dict = {
        "format": "mb-scenario/1", "game": "mind-up",
        "id": scenario_id(f) + ("." + choice if alternative else ""),
        "title": f"{f.point.what}: under {r.clause}={choice}, {text}",
        "clauses": [r.clause],
        "status": "draft",
        "source": {"kind": "team ruling", "ref": f"the reading {r.clause}: {choice}"
                   + (" (the team's)" if not alternative else " (an alternative)")},
    }
    if alternative:
        doc["readings"] = {r.clause: choice}
    doc["given"] = sit.given
    if sit.turns:
        doc["turns"] = sit.turns
    if sit.next_rounds:
        doc["next_rounds"] = sit.next_rounds
    doc.update(_expect(f.other if alternative else f.team))
    return doc


def comment(f: Finding, budget: int | None, seed: int | None) -> str:
    r = f.reading
    lines = [f"Reading point {r.clause}: {f.point.what}.",
             f"The rulebook is silent; the team's reading ({r.team}) settles it: {dict(r.choices)[r.team]}.",
             f"The alternative ({f.point.alternative}): {dict(r.choices)[f.point.alternative]}.",
             f"How Board Game Arena reads it: {r.note}.",
             "The two documents play the same position and turns, one under each reading, and expect what each "
             "gives."]
    if budget is not None:
        lines.append(f"Found by mb-oracle hunt --game mind-up --budget {budget} --seed {seed}.")
    return "".join("# " + w + "\n" for line in lines for w in textwrap.wrap(line, 110))


def text(f: Finding, budget: int | None = None, seed: int | None = None) -> str:
    """The draft's text, without its stamp line."""
    docs = [_document(f, False), _document(f, True)]
    return comment(f, budget, seed) + "---\n".join(
        yaml.safe_dump(d, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None) for d in docs)


def write(f: Finding, folder: Path, budget=None, seed=None, force: bool = False) -> Path:
    """Write the finding's draft (oracle.draftfile.write_draft: DraftRefused
    for a link out of `folder`, or an edited draft unless `force`)."""
    path = write_draft(draft_path(f, folder), folder, text(f, budget, seed), "hunt", force)
    f.scenario = str(path)
    return path


__all__ = ["draft_path", "edited", "write", "text"]
