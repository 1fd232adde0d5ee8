"""The corpus named by what it holds: a digest of every case file, recorded beside its version.

A version alone cannot tell two corpora apart when someone adds a case and forgets to bump
it (the published reports all said "corpus 1.0.0" while 219 cases were added). So
``corpus.yaml`` also records the ``digest`` of the case files the version was given to, and
``SHA256SUMS`` beside it lists each case file's own digest (the format of ``sha256sum``).
A report's header names the corpus it ran by both; a report whose digest is not the current
corpus's is stale.

The digest is canonical: each case file's SHA-256 is taken over its bytes with line endings
written ``\\n`` (a checkout with CRLF endings holds the same corpus), and the corpus's digest
over the sorted lines ``<sha256>  <path>`` (paths relative to the corpus folder, with ``/``),
so neither the file system's order nor where the corpus sits changes it.

``euchre-spec corpus stamp`` records the digest after a change and moves the version by
what changed since the last stamp, which it can tell from ``SHA256SUMS``: only cases added,
a minor version; a case file changed or removed, a major version (``--patch`` when the change
alters no expectation, a typo in a title). ``--check`` says whether the stamp is current.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from conformance import CORPUS_DIR
from conformance.cases import CORPUS_FILE, case_files

SUMS_FILE = "SHA256SUMS"
DIGEST_PREFIX = "sha256:"
_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def file_digest(path: Path) -> str:
    """The SHA-256 of a case file's bytes, its line endings written ``\\n``."""
    data = path.read_bytes().replace(b"\r\n", b"\n")
    return hashlib.sha256(data).hexdigest()


def case_digests(root: Path = CORPUS_DIR) -> dict[str, str]:
    """Each case file under ``root`` (by its path relative to ``root``, with ``/``) and its digest."""
    root = Path(root)
    return {path.relative_to(root).as_posix(): file_digest(path) for path in case_files([root])}


def sums_text(digests: dict[str, str]) -> str:
    """The lines ``<sha256>  <path>``, sorted by path: ``SHA256SUMS``, and what the corpus's digest is taken over."""
    return "".join(f"{digests[path]}  {path}\n" for path in sorted(digests))


def corpus_digest(digests: dict[str, str]) -> str:
    """The corpus's digest, ``sha256:<hex>``, from its case files' digests."""
    return DIGEST_PREFIX + hashlib.sha256(sums_text(digests).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CorpusIdentity:
    """A corpus as a report names it: its version, its digest and how many case files it has."""

    version: str
    digest: str | None
    cases: int | None


def current_identity(root: Path = CORPUS_DIR) -> CorpusIdentity:
    """The corpus under ``root`` as it is now: the version its ``corpus.yaml`` says, and the
    digest of the case files it holds now (not the recorded one: a report of a corpus changed
    since its stamp must not pass as a report of the stamped one)."""
    from conformance.cases import load_corpus_meta
    digests = case_digests(root)
    return CorpusIdentity(load_corpus_meta(root).version, corpus_digest(digests), len(digests))


# -- the stamp ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Stamp:
    """What ``corpus.yaml`` and ``SHA256SUMS`` record."""

    version: str
    digest: str | None
    sums: dict[str, str]


def read_stamp(root: Path = CORPUS_DIR) -> Stamp:
    from conformance.cases import load_corpus_meta
    from reference_impl.yaml_source import load_file
    version = load_corpus_meta(root).version
    digest = (load_file(Path(root) / CORPUS_FILE).data or {}).get("digest")
    sums: dict[str, str] = {}
    path = Path(root) / SUMS_FILE
    if path.is_file():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            digest_hex, sep, name = line.partition("  ")
            if not sep or not re.fullmatch(r"[0-9a-f]{64}", digest_hex):
                raise ValueError(f"{path}:{number}: not a line '<sha256>  <path>': {line!r}")
            sums[name] = digest_hex
    return Stamp(version, str(digest) if digest is not None else None, sums)


@dataclass(frozen=True)
class Change:
    """What changed in the case files since the stamp."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def bump(self) -> str | None:
        """The least the version must move by: major when an expectation may have changed
        (a case file changed or removed), minor when cases were only added."""
        if self.changed or self.removed:
            return "major"
        return "minor" if self.added else None

    def summary(self, limit: int = 5) -> str:
        parts = []
        for words, names in (("added", self.added), ("changed", self.changed), ("removed", self.removed)):
            if names:
                shown = ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")
                parts.append(f"{len(names)} {words} ({shown})")
        return "; ".join(parts) or "no case file changed"


def changes(old: dict[str, str], new: dict[str, str]) -> Change:
    return Change(tuple(sorted(set(new) - set(old))), tuple(sorted(p for p in set(old) & set(new) if old[p] != new[p])),
                  tuple(sorted(set(old) - set(new))))


def bumped(version: str, kind: str) -> str:
    match = _VERSION.match(version)
    if not match:
        raise ValueError(f"corpus version {version!r} is not MAJOR.MINOR.PATCH")
    major, minor, patch = map(int, match.groups())
    return {"major": f"{major + 1}.0.0", "minor": f"{major}.{minor + 1}.0", "patch": f"{major}.{minor}.{patch + 1}"}[kind]


def stamp_problem(root: Path = CORPUS_DIR) -> str | None:
    """Why the recorded stamp does not describe the corpus (a case changed and nobody
    re-stamped it), or None when it does."""
    stamp = read_stamp(root)
    digests = case_digests(root)
    digest = corpus_digest(digests)
    if stamp.digest == digest:
        return None
    change = changes(stamp.sums, digests).summary() if stamp.sums else f"no {SUMS_FILE} lists the case files stamped"
    return (f"the corpus has changed since version {stamp.version} was stamped ({change}): "
            f"its digest is {digest}, corpus.yaml records {stamp.digest or 'none'}; run "
            f"`euchre-spec corpus stamp` to move the version (adding cases is minor, changing or removing one is major) "
            f"and record the digest")


def write_stamp(root: Path, version: str, digests: dict[str, str]) -> None:
    """Record ``version`` and the digest in ``corpus.yaml`` (its lines edited in place, its
    comments kept) and every case file's digest in ``SHA256SUMS``."""
    path = Path(root) / CORPUS_FILE
    text = path.read_text(encoding="utf-8")
    text, found = re.subn(r"(?m)^version:.*$", f"version: {version}", text, count=1)
    if not found:
        raise ValueError(f"{path}: no 'version:' line to update")
    line = f"digest: {corpus_digest(digests)}"
    text, found = re.subn(r"(?m)^digest:.*$", line, text, count=1)
    if not found:
        text = re.sub(r"(?m)^(version:.*)$", lambda m: m.group(1) + "\n" + line, text, count=1)
    path.write_text(text, encoding="utf-8")
    (Path(root) / SUMS_FILE).write_text(sums_text(digests), encoding="utf-8")


# -- reports against the corpus ------------------------------------------------------------------

def report_corpus(header: dict) -> CorpusIdentity:
    """The corpus a report's header names (an older report names no digest)."""
    suite = header.get("suite") or {}
    cases = suite.get("corpus_cases")
    return CorpusIdentity(str(suite.get("corpus_version") or "?"), suite.get("corpus_digest"),
                          cases if isinstance(cases, int) else None)


def staleness(header: dict, current: CorpusIdentity) -> str | None:
    """Why a report does not describe the current corpus (None: it ran this very corpus)."""
    ran = report_corpus(header)
    if current.digest is None:                  # the current corpus known by its version only
        return None if ran.version == current.version else f"it ran corpus {ran.version}; the corpus is now {current.version}"
    if ran.digest == current.digest:
        return None
    if ran.digest is None:
        why = f"it ran corpus {ran.version}, named by no digest"
    elif ran.version == current.version:
        why = f"it ran other case files under the same version {ran.version} ({ran.digest})"
    else:
        why = f"it ran corpus {ran.version}"
    return (f"{why}; the corpus is now {current.version}" + (f", {current.cases} case files" if current.cases else "")
            + f" ({current.digest})")
