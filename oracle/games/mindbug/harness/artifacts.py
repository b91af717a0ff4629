"""What conform writes for a shrunk divergence: the game as an mb-replay/1
log that ends with the engine's side of the divergence (so that `mb-oracle
verify` flags it), and a draft scenario (mb-scenario/1) of the same game
stating what the rules say there."""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

import msgspec
import yaml

from ....draftfile import DraftRefused, digest, edited, refusal, write_draft
from ....replay.reader import split_games
from ....replay.verify import verify_game
from ....safefile import write_file
from ....harness.lockstep import OPTIONS_DIFFER, STATE_MISMATCH, WRONG_RESULT
from ..cards import DEFAULT_SETS
from ..engine import Decision, Game
from ..engine.state import STAGE_KINDS
from ..replay.format import FORMAT
from ..scenarios.cards import references
from .start import deal_sets, game_from_setup
from .lockstep import Divergence, skipped, start_game
from .views import full_claim, option_key


def replay_lines(div: Divergence, edition: str, setup: dict, game_id: str, impl: dict,
                 extra: dict | None = None, readings: dict | None = None) -> list[dict]:
    """The log: the deal, the decisions both sides took (with the rules'
    state claim where the sides last agreed, so that verify names the
    clauses of the same events as conform), then the engine's side where it
    parts from the rules (its state claim, `extra`: a decision it offers that
    the rules refuse, or its result), then an end line."""
    head = {"t": "game", "format": FORMAT, "id": game_id, "edition": edition, "impl": impl}
    sets = deal_sets(setup)
    if sets != DEFAULT_SETS:
        head["sets"] = list(sets)
    if readings:
        head["readings"] = dict(readings)
    lines: list[dict] = [head, {"t": "setup", **{k: v for k, v in setup.items() if k != "t"}}]
    g = game_from_setup(edition, setup, readings, sets)
    for i, d in enumerate(div.decisions):
        if i == div.agreed and i:
            lines.append(full_claim(g))
        g.apply_unchecked(d.kind, d.arg)
        lines.append(d.to_json())
    f = div.finding
    tail = {"t": "end", "winner": None, "reason": "aborted",
            "detail": f"shrunk by mb-oracle conform: the engine and the rules part here ({f.code})"}
    if f.code == STATE_MISMATCH:
        lines.append(msgspec.to_builtins(div.reply.state))
        if skipped(g, div.reply) and div.reply.options:
            # The engine went past the choice the rules wait for: its next
            # decision, as its log would write it, shows verify the skip
            # (the choice's clauses come first, as conform names them).
            lines.append(min((msgspec.to_builtins(o) for o in div.reply.options), key=lambda o: str(option_key(o))))
    elif f.code == OPTIONS_DIFFER and extra is not None:
        lines.append(extra)
    elif f.code == WRONG_RESULT and div.reply.over is not msgspec.UNSET and div.reply.over is not None:
        tail = {"t": "end", "winner": div.reply.over.winner, "reason": div.reply.over.reason}
    else:
        lines.append({"t": "note", "text": f"{f.code} [{', '.join(f.clauses)}] {f.message}"})
    lines.append(tail)
    return lines


def verify_lines(lines: list[dict]):
    """The verify report of a log given as lines."""
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r) for r in split_games(io.BytesIO(data), "shrunk.jsonl")][0]


def _extras_in_order(div: Divergence) -> list[dict]:
    """The options the engine lists and the rules refuse, a card or cards
    first (a decline such as `hunt null` is often one verify accepts)."""
    return sorted(div.extra, key=lambda o: (o.get("card", o.get("cards")) is None, str(option_key(o))))


def failing_log(div: Divergence, edition: str, setup: dict, game_id: str, impl: dict,
                readings: dict | None = None) -> tuple[list[dict] | None, dict | None, object]:
    """The shrunk game as a log that verify flags: (its lines, the engine's
    option it ends with or None, verify's report), or (None, None, None)
    when no log can show the divergence (an option the engine lacks, a
    refusal, or only options the engine adds that verify accepts as harmless)."""
    f = div.finding
    tries: list[dict | None] = _extras_in_order(div) if f.code == OPTIONS_DIFFER else [None]
    for extra in tries:
        if f.code not in (STATE_MISMATCH, WRONG_RESULT, OPTIONS_DIFFER):
            break
        if f.code == WRONG_RESULT and (div.reply.over is msgspec.UNSET or div.reply.over is None):
            break
        lines = replay_lines(div, edition, setup, game_id, impl, extra, readings)
        checked = verify_lines(lines)
        if checked.verdict == "violates":
            return lines, extra, checked
    return None, None, None


class _Refs(dict):
    """Card references, with a placeholder for an id the deal does not hold."""

    def __missing__(self, cid):
        return f"card {cid} (not in the deal)"


def _step(d: Decision, ref: dict):
    if d.kind in ("mindbug", "pass"):
        return d.kind
    if d.kind in ("choose", "random"):
        return {d.kind: [ref[c] for c in d.arg or ()]}
    return {d.kind: None if d.arg is None else ref[d.arg]}


def _player_expect(g: Game, p: int, fields: set, ref: dict) -> dict:
    s = g.state
    out: dict = {}
    if "life" in fields:
        out["life"] = s.life[p]
    if "mindbugs" in fields:
        out["mindbugs"] = s.mindbugs[p]
    for zone in ("hand", "discard"):
        if zone in fields:
            out[zone] = [ref[c] for c in getattr(s, zone)[p]]
    if "play" in fields:
        out["play"] = [{"card": ref[c], "exhausted": c in s.exhausted} for c in s.play[p]]
    if "deck" in fields:
        out["deck"] = len(s.deck[p])
    return out


def _given(setup, ref: dict) -> dict:
    """The scenario's start: the deal, or the position (a game followed past
    an expected divergence starts again from one)."""
    if isinstance(setup, dict):
        deal = {"decks": [[ref[c] for c in deck] for deck in setup["decks"]],
                "unused": [ref[c] for c in setup["unused"]]}
        if setup.get("reveals"):
            deal["reveals"] = [[ref[c] for c in pair] for pair in setup["reveals"]]
        if setup.get("first") is not None:
            deal["first"] = setup["first"]
        return {"deal": deal}
    pos = setup
    ex = set(pos.exhausted)
    players = []
    for p in (0, 1):
        players.append({"life": pos.life[p], "mindbugs": pos.mindbugs[p],
                        "hand": [ref[c] for c in pos.hand[p]],
                        "play": [{"card": ref[c], "exhausted": True} if c in ex else ref[c] for c in pos.play[p]],
                        "discard": [ref[c] for c in pos.discard[p]], "deck": [ref[c] for c in pos.deck[p]]})
    return {"active": pos.active, "turn": pos.turn, "players": players,
            "unused": [ref[c] for c in (pos.unused or [])]}


def draft_scenario(div: Divergence, edition: str, setup: dict, scenario_id: str, engine: str,
                   extra: dict | None = None, readings: dict | None = None) -> dict:
    """A draft scenario: the deal, the decisions, and what the rules say
    where the engine differs: that `extra` (an option the engine lists) is
    refused, or else the state, the result or the legal options there."""
    deal = setup if isinstance(setup, dict) else {"cards": setup.cards}     # a deal, or a position's cards
    ref = references(deal["cards"])                                         # each id as a scenario names it
    g = start_game(edition, setup, readings)[0]
    for d in div.decisions:
        g.apply_unchecked(d.kind, d.arg)
    f = div.finding
    doc: dict = {
        "format": "mb-scenario/1", "id": scenario_id,
        "title": f"{engine} and the rules part after {len(div.decisions)} decisions: {f.code}",
        "clauses": list(f.clauses) or ["turns.action"], "editions": [edition],
        "source": {"kind": "rulebook", "ref": f"found by mb-oracle conform; {f.message}"[:300]},
        "status": "draft", "given": _given(setup, ref), "steps": [_step(d, ref) for d in div.decisions],
        "settle": False,
    }
    # The card sets its cards come from (the later sets), which a scenario names to play with them.
    sets = deal_sets(deal)
    if sets != DEFAULT_SETS:
        at = list(doc).index("given")
        doc = dict([*list(doc.items())[:at], ("sets", list(sets)), *list(doc.items())[at:]])
    if readings:
        doc["readings"] = dict(readings)
    if f.code == OPTIONS_DIFFER and extra is not None:
        o = extra
        bad = Decision.make(o["t"], o.get("p"), o.get("cards", o.get("card")))
        # As the scenario runner takes the step: the forced decisions it does
        # not answer first, then the step by its own player (`by`), which
        # may not be the one the rules wait for (a HUNTER choice offered to
        # the defender). The game itself, not a copy: a copy forgets the
        # events of the last decision, which the refusal of a HUNTER choice
        # reads (the Attack effect may have removed the creature it names:
        # effects.hunter-order), as they are there where the runner takes it.
        at = g
        while at.pending is not None and len(at.pending.options) == 1 and bad.kind not in STAGE_KINDS[at.pending.stage]:
            at.apply_unchecked(*at.pending.options[0])
        refusal = at.refusal(bad)
        step = _step(bad, _Refs(ref))
        if bad.player is not None and (at.pending is None or at.pending.player != bad.player):
            step = {**(step if isinstance(step, dict) else {step: None}), "by": bad.player}
        doc["steps"].append(step)
        doc["illegal"] = {"step": len(doc["steps"]), "code": refusal.code if refusal else "ILLEGAL_DECISION"}
        if refusal is not None:
            doc["illegal"]["clause"] = refusal.clause
        return doc
    expect: dict = {}
    if f.code == STATE_MISMATCH:
        fields = {(e.field or "").split("[")[0] for e in f.diff or () if e.field} | \
                 {pl.get("zone") for e in f.diff or () if e.field is None
                  for side in (e.log, e.rules) if isinstance(side, list) for pl in side if isinstance(pl, dict)}
        fields &= {"life", "mindbugs", "hand", "discard", "play", "deck"}
        expect["players"] = [_player_expect(g, p, fields or {"life"}, ref) for p in (0, 1)]
    if g.pending is not None:
        expect["pending"] = {"stage": g.pending.stage, "player": None if g.pending.is_chance else g.pending.player,
                             "options": [_step(d, ref) for d in g.legal_decisions()]}
    else:
        expect["winner"], expect["reason"] = g.winner, g.reason
    doc["expect"] = expect
    return doc


_LOG_LINE = "# The game's log: {} (sha256 {}).\n"
_LOG_RE = re.compile(r"^# The game's log: .+ \(sha256 ([0-9a-f]{64})\)\.$", re.M)


def _log_edited(log: Path, yml: Path) -> bool:
    """The log beside a draft changed since conform wrote the pair (or the
    draft did, or no conform run wrote them)."""
    try:
        data = log.read_bytes()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    if edited(yml):
        return True
    try:
        m = _LOG_RE.search(yml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return True
    return m is None or hashlib.sha256(data).hexdigest() != m.group(1)


def write(folder: Path, stem: str, lines: list[dict] | None, scenario: dict, header: str,
          force: bool = False) -> tuple[Path | None, Path]:
    """The shrunk game's log (when there is one: `lines`) and its draft
    scenario (stamped, with the log's hash); DraftRefused, naming the file,
    when either was edited since a run wrote it (unless `force`) or is a
    link out of `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"{stem}.jsonl"
    yml = folder / f"{stem}.yaml"
    text = None if lines is None else "".join(json.dumps(x) + "\n" for x in lines)
    body = (header + ("" if text is None else _LOG_LINE.format(log.name, digest(text)))
            + yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True, width=100))
    why = refusal(yml, folder, force) or (
        None if text is None else refusal(log, folder, force, lambda p: _log_edited(p, yml)))
    if why is not None:
        raise DraftRefused(why)
    if text is not None:
        write_file(log, text)
    write_draft(yml, folder, body, "conform", force=True)
    return (None if text is None else log), yml
