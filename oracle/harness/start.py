"""Where a harness game starts, what both games share: the error of a start
the harness cannot use, and a scenario read from its file. Mindbug's starts
(a deal, a seed, a replay log) are in oracle.games.mindbug.harness.start."""

from __future__ import annotations

from ..term import visible


class StartError(ValueError):
    """A start the harness cannot use; the message names the file, line or field."""


def load_scenario(path: str, scenario_id: str, game: str, not_ours: str, folders=None, card_files=()):
    """The scenario `scenario_id` of a scenario file (a LoadedScenario), a
    ruling of `game` (`not_ours`: what the refusal of another game's ruling
    adds, `{game}` standing for that ruling's game). With `folders` (a client names the file), only a regular file
    under them is read, and its `card_file` too, or one of `card_files`
    (safeyaml.read_within)."""
    from ..safeyaml import NotReadable, read_within
    from ..scenarios.loader import load_file, load_text

    try:
        if folders is None:
            sf = load_file(path)
        else:
            data = read_within(path, folders)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as e:
                raise StartError(f"{visible(path)}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset "
                                 f"{e.start})") from None
            sf = load_text(text, path, folders=folders, card_files=card_files)
    except OSError as e:
        raise StartError(f"{visible(path)}: {e.strerror or e}") from None
    except NotReadable as e:
        raise StartError(str(e)) from None
    if sf.errors:
        raise StartError(str(sf.errors[0]))
    for sc in sf.scenarios:
        if sc.id == scenario_id:
            if sc.game != game:
                raise StartError(f"{visible(path)}: scenario {scenario_id} is a ruling of {sc.game}; "
                                 f"{not_ours.replace('{game}', sc.game)}")
            return sc
    known = ", ".join(sc.id for sc in sf.scenarios) or "none"
    raise StartError(f"{visible(path)}: no scenario with id {scenario_id!r} (ids: {known})")
