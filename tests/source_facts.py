"""What the tests need from the project's sources (`../shared`), kept in the
repository so that they run on a fresh clone:

- `tests/data/first-contact-facts.tsv`: the printed facts of every First
  Contact design (name, French name, power, keywords, copies), as the fact
  sheet `shared/cards/first-contact.md` gives them;
- `tests/data/rulebook-fingerprints.txt`: a fingerprint (a short hash) of
  every run of RUN consecutive words of each Mindbug rulebook, and of each
  of its sentences shorter than that, so that a test can tell that no
  rulebook sentence is copied into the clause catalogue without the
  rulebooks' text.

With `../shared` beside the project, `python tests/source_facts.py` writes
both files again, and the tests check that they are current.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHEET = SHARED / "cards" / "first-contact.md"
RULEBOOKS = SHARED / "rulebooks"
FACTS = ROOT / "tests" / "data" / "first-contact-facts.tsv"
FINGERPRINTS = ROOT / "tests" / "data" / "rulebook-fingerprints.txt"

RUN = 8             # no eight consecutive words shared with a rulebook
SHORTEST = 5        # nor a whole sentence of five words or more
KEYWORDS = {"FRE": "FRENZY", "HUN": "HUNTER", "POI": "POISONOUS", "SNE": "SNEAKY", "TOU": "TOUGH"}


# -- card facts ----------------------------------------------------------------------


def sheet_facts(sheet: Path = SHEET) -> dict[str, tuple[str, int, tuple[str, ...], int]]:
    """name -> (French name, power, keywords, copies), read from the fact sheet."""
    copies = None
    seen = {}
    for line in sheet.read_text(encoding="utf-8").splitlines():
        if line.startswith("## Two copies"):
            copies = 2
        elif line.startswith("## One copy"):
            copies = 1
        elif line.startswith("## "):
            copies = None
        m = re.match(r"\|([^|]+)\|([^|]+)\|\s*(\d+)\s*\|([A-Z ]*)\|", line)
        if copies and m and m.group(1).strip() != "card":
            name, fr, power, kws = (x.strip() for x in m.groups())
            seen[name] = (fr, int(power), tuple(sorted(KEYWORDS[k] for k in kws.split())), copies)
    return seen


def facts_text(facts: dict) -> str:
    head = "# The printed facts of First Contact (tests/source_facts.py): name, French name, power, keywords, copies\n"
    return head + "".join(f"{n}\t{fr}\t{p}\t{' '.join(kw)}\t{c}\n" for n, (fr, p, kw, c) in sorted(facts.items()))


def shipped_facts(path: Path = FACTS) -> dict[str, tuple[str, int, tuple[str, ...], int]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, fr, power, kws, copies = line.split("\t")
            out[name] = (fr, int(power), tuple(kws.split()), int(copies))
    return out


# -- rulebook fingerprints -----------------------------------------------------------


def words(text: str) -> list[str]:
    text = text.replace("\ufffd ", "").replace("\ufffd", "").replace("\u2019", "'").lower()
    return re.sub(r"[^\w' ]+", " ", text).split()


def fingerprint(ws) -> str:
    return hashlib.blake2b(" ".join(ws).encode("utf-8"), digest_size=6).hexdigest()


def book_fingerprints(text: str) -> set[str]:
    """Every RUN-word run of a book (`HASH`), and each sentence of SHORTEST
    to RUN - 1 words (`N HASH`)."""
    ws = words(text)
    out = {fingerprint(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1)}
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        s = words(sentence)
        if SHORTEST <= len(s) < RUN:
            out.add(f"{len(s)} {fingerprint(s)}")
    return out


def fingerprints_text(books: Path = RULEBOOKS) -> str:
    out = "# Fingerprints of the Mindbug rulebooks (tests/source_facts.py): `## BOOK`, then HASH or N HASH lines\n"
    for book in sorted(books.glob("mindbug-rules-*.txt")):
        out += f"## {book.name}\n" + "".join(x + "\n" for x in sorted(book_fingerprints(book.read_text("utf-8"))))
    return out


def copied(texts, path: Path = FINGERPRINTS) -> list[tuple[str, str]]:
    """(book, our words) for each RUN-word run of `texts` found in a rulebook,
    and each rulebook sentence found whole in them."""
    runs, sentences, book = {}, {}, "?"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            book = line[3:]
        elif line and not line.startswith("#"):
            n, _, h = line.rpartition(" ")
            if n:
                sentences[(int(n), h)] = book
            else:
                runs[h] = book
    lengths = sorted({n for n, _ in sentences})
    found = []
    for text in texts:
        ws = words(text)
        for i in range(len(ws)):
            for n in (RUN, *lengths):
                if i + n > len(ws):
                    continue
                h = fingerprint(ws[i:i + n])
                where = runs.get(h) if n == RUN else sentences.get((n, h))
                if where is not None:
                    found.append((where, " ".join(ws[i:i + n])))
    return found


if __name__ == "__main__":
    if not SHEET.exists() or not RULEBOOKS.is_dir():
        sys.exit(f"the project's sources are not beside it: {SHARED}")
    FACTS.write_text(facts_text(sheet_facts()), encoding="utf-8")
    FINGERPRINTS.write_text(fingerprints_text(), encoding="utf-8")
    print(f"wrote {FACTS} and {FINGERPRINTS}")
