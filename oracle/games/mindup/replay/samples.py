"""The Mind Up! samples of the corpus in replays/: self-played games that
conform (3 to 6 players, with and without objectives, both turn forms, a
declared reading), and games with one planted mistake each, found by verify
with its clause. Written by `python -m oracle.replay.samples replays/`."""

from __future__ import annotations

import copy
from pathlib import Path

import msgspec

from ....replay.reader import RawGame
from .selfplay import play_game
from .verifier import verify_game

_enc = msgspec.json.Encoder()
FILE = "conforming/mind-up.jsonl"


def _game(gid, players, seed, bot="random", objectives=0, claims="turn", readings=None, split=False) -> list[dict]:
    return list(play_game(players, seed, bot, gid, objectives, claims, readings, split))


def conforming() -> list[list[dict]]:
    return [
        _game("mind-up-3p", 3, 11),
        _game("mind-up-4p-objective", 4, 12, "greedy", 1, split=True),
        _game("mind-up-5p-three-objectives", 5, 13, "random", 3, claims="end"),
        _game("mind-up-6p-five-objectives", 6, 14, "greedy", 5),
        _change_of_mind(),
    ]


def _change_of_mind() -> list[dict]:
    """A game that follows mu.turn.change-choice=change-allowed: a player
    chooses twice before the reveal, and the last choice counts."""
    lines = _game("mind-up-reading-change-of-mind", 4, 15, split=True, readings={"mu.turn.change-choice":
                                                                                 "change-allowed"})
    return _change(lines)


def _change(lines: list[dict]) -> list[dict]:
    """The first player to choose first chooses another card of their hand."""
    first = next(i for i, x in enumerate(lines) if x["t"] == "choose")
    p = lines[first]["p"]
    mine = lines[1]["deck"][7 * p:7 * p + 7]
    other = next(c for c in mine if c != lines[first]["card"])
    lines.insert(first, {"t": "choose", "p": p, "card": other})
    return lines


def _index(lines, t, k=0) -> int:
    return [i for i, x in enumerate(lines) if x["t"] == t][k]


def violations() -> list[tuple[str, list[dict]]]:
    """(mistake, lines) for each planted mistake."""
    out = []
    base = _game("mind-up-violation-card-not-in-hand", 4, 21)
    lines = copy.deepcopy(base)
    i = _index(lines, "turn", 2)
    lines[i]["cards"][1] = lines[i]["cards"][0]
    out.append(("player B plays a card player A holds", lines))

    lines = copy.deepcopy(base)
    i = _index(lines, "state", 3)
    cols = lines[i]["columns"][2]
    full = max(range(5), key=lambda k: len(cols[k]))
    empty = next(k for k in range(4, -1, -1) if not cols[k])
    cols[empty].append(cols[full].pop())
    out.append(("a won card is put on an empty Score card though its colour has one", lines))

    lines = copy.deepcopy(base)
    lines[_index(lines, "state", 5)]["scores"][0][0] += 3    # the claim after round 1's last turn
    out.append(("player A's round 1 score is 3 too many", lines))

    lines = copy.deepcopy(base)
    end = lines[-1]
    loser = next(p for p in range(4) if p not in end["winners"])
    end["winners"] = [loser]
    out.append(("the end line names a player who did not win", lines))

    lines = copy.deepcopy(_game("x", 4, 22, split=True))
    i = _index(lines, "choose", 5)
    lines.insert(i, {"t": "reveal"})
    out.append(("the choices are revealed before every player chose", lines))

    lines = _change(_game("x", 4, 23, split=True))
    out.append(("a player chooses twice in one turn, under the team's reading", lines))

    lines = copy.deepcopy(base)
    i = _index(lines, "round", 1)
    lines.insert(i, {"t": "turn", "cards": list(lines[i - 2]["cards"])})
    out.append(("each player's last card of the round is played to the line", lines))

    lines = copy.deepcopy(base)
    s = lines[_index(lines, "state", 0)]
    s["line"] = [s["line"][-1]] + s["line"][1:-1] + [s["line"][0]]
    out.append(("the line is given out of order", lines))
    return out


NAMES = ("card-not-in-hand", "wrong-score-card", "wrong-score", "wrong-winner", "early-reveal", "plays-twice",
         "last-card-played", "line-out-of-order")


def build(out_dir: Path) -> list[dict]:
    """Write the Mind Up! samples under out_dir; their manifest entries."""
    for folder in ("conforming", "violations"):
        (out_dir / folder).mkdir(parents=True, exist_ok=True)
    manifest = []
    games = conforming()
    (out_dir / FILE).write_bytes(b"".join(_enc.encode(x) + b"\n" for lines in games for x in lines))
    manifest += [{"file": FILE, "game": lines[0]["id"], "verdict": "conforms"} for lines in games]
    for name, (what, lines) in zip(NAMES, violations(), strict=True):
        gid = f"mind-up-violation-{name}"
        lines[0] = {**lines[0], "id": gid, "x": {"mistake": what}}
        rel = f"violations/mind-up-{name}.jsonl"
        data = [_enc.encode(x) for x in lines]
        (out_dir / rel).write_bytes(b"".join(x + b"\n" for x in data))
        rep = verify_game(RawGame(rel, list(enumerate(data, 1))))
        f = rep.findings[0]
        entry = {"file": rel, "game": gid, "verdict": rep.verdict, "code": f.code, "clause": f.clauses[0],
                 "line": f.line, "mistake": what}
        if f.basis and f.basis != "rules":
            entry["basis"] = f.basis
        manifest.append(entry)
    return manifest
