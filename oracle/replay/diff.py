"""Structural diffs of a state claim, for people and for tools."""

from __future__ import annotations

import json


def readable(view: dict) -> dict:
    """A claim view with play entries as objects, for people and for diffs."""
    out = dict(view)
    if "play" in out:
        out["play"] = [[{k: v for k, v in zip(("card", "exhausted", "power", "keywords"), e) if v is not None}
                        for e in side] for side in out["play"]]
        for side in out["play"]:
            for e in side:
                if "keywords" in e:
                    e["keywords"] = list(e["keywords"])
    return out


def state_diff(rules: dict, log: dict) -> dict:
    """The structural difference from the rules' view to the log's, as JSON data."""
    from deepdiff import DeepDiff  # loaded only when a claim differs

    diff = DeepDiff(rules, log, ignore_order=False, view="text")
    return json.loads(diff.to_json()) if diff else {}


