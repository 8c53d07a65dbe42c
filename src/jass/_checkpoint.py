"""Checkpoints of :func:`jass.play_match`: each finished chunk of deals, kept in a file.

The file is JSON lines. The first line holds the match's parameters; each further line one
chunk's plays, with a CRC-32 of its text. A line is written whole with one ``write`` and
flushed to disk (``fsync``) before the match goes on. A process killed in the middle of a
write leaves a last line that is cut short or fails its check: it is dropped when the file
is read again, and its deals are played again. A damaged line anywhere else, or parameters
that are not the match's, are refused: the file belongs to another match.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "match.jsonl")
>>> saved = Checkpoint.open(path, {"n": 3}, plays_per_deal=1)
>>> saved.append(0, 2, [(10, 1, 1, 0, 0), (-4, -1, 1, 0, 0)])
>>> Checkpoint.open(path, {"n": 3}, plays_per_deal=1).done == {
...     0: (2, [(10, 1, 1, 0, 0), (-4, -1, 1, 0, 0)])}
True
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any, Final

from jass._matchplay import Job, Play, team_fingerprint
from jass.engine.game import Game
from jass.errors import InvalidInputError, describe
from jass.records import record

FORMAT: Final = "jass-match-checkpoint"
VERSION: Final = 1


class Checkpoint:
    """A match's checkpoint file: the chunks already played, and a way to add one.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
    >>> Checkpoint.open(path, {"n": 1}, plays_per_deal=2).done
    {}
    """

    def __init__(self, path: Path, done: dict[int, tuple[int, list[Play]]]) -> None:
        self.path = path
        self.done = done

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], parameters: dict[str, Any], *, plays_per_deal: int
    ) -> Checkpoint:
        """Read the checkpoint at ``path``, or start one; refuse another match's.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
        >>> _ = Checkpoint.open(path, {"n": 1, "seed": 1}, plays_per_deal=1)
        >>> Checkpoint.open(path, {"n": 1, "seed": 2}, plays_per_deal=1)
        Traceback (most recent call last):
        ...
        jass.errors.InvalidInputError: the checkpoint ... another match: seed 1 there, 2 here; ...
        """
        if not isinstance(path, (str, os.PathLike)):
            raise InvalidInputError(f"checkpoint must be a path, got {describe(path)}")
        file = Path(path)
        header = json.dumps(
            {"format": FORMAT, "version": VERSION, "parameters": parameters}, sort_keys=True
        )
        if not file.exists():
            _create(file, header + "\n")
            return cls(file, {})
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise InvalidInputError(f"cannot read the checkpoint {file}: {exc.strerror}") from None
        complete, newline, torn = data.rpartition(b"\n")
        if not newline:
            raise InvalidInputError(f"{file} is not a match checkpoint (it has no first line)")
        if torn:  # a write cut short by a crash: dropped, and its deals played again
            _truncate(file, len(complete) + 1)
        lines = complete.split(b"\n")
        first = _json(lines[0])
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise InvalidInputError(f"{file} is not a match checkpoint (its first line is not one)")
        if first.get("version") != VERSION:
            raise InvalidInputError(
                f"the checkpoint {file} has version {describe(first.get('version'))}; "
                f"this jass reads version {VERSION}"
            )
        _compare(file, first.get("parameters"), parameters)
        done: dict[int, tuple[int, list[Play]]] = {}
        for number, line in enumerate(lines[1:], 2):
            chunk = _chunk(line, plays_per_deal, parameters.get("n"))
            if chunk is None:
                raise InvalidInputError(
                    f"the checkpoint {file} is damaged at line {number}: delete it to start again"
                )
            start, stop, plays = chunk
            if any(start < end and begin < stop for begin, (end, _) in done.items()):
                raise InvalidInputError(
                    f"the checkpoint {file} is damaged at line {number}: deals {start} to "
                    f"{stop - 1} are in it twice"
                )
            done[start] = (stop, plays)
        return cls(file, done)

    def append(self, start: int, stop: int, plays: list[Play]) -> None:
        """Add the plays of deals ``start`` to ``stop - 1``, on disk before this returns."""
        payload = json.dumps([start, stop, plays], separators=(",", ":"))
        line = json.dumps({"deals": payload, "crc": zlib.crc32(payload.encode())})
        with self.path.open("ab") as out:
            out.write(line.encode() + b"\n")
            out.flush()
            os.fsync(out.fileno())
        self.done[start] = (stop, list(plays))


def _create(file: Path, text: str) -> None:
    """Write the header to a new file atomically: a checkpoint always has its parameters."""
    temporary = file.with_name(file.name + ".tmp")
    try:
        with temporary.open("w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, file)
    except OSError as exc:
        raise InvalidInputError(f"cannot write the checkpoint {file}: {exc.strerror}") from None


def _truncate(file: Path, size: int) -> None:
    with file.open("r+b") as out:
        out.truncate(size)
        out.flush()
        os.fsync(out.fileno())


def _json(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _chunk(line: bytes, per_deal: int, n: object) -> tuple[int, int, list[Play]] | None:
    """A chunk line's deals and plays, or ``None`` if it is damaged."""
    record = _json(line)
    if not isinstance(record, dict) or set(record) != {"deals", "crc"}:
        return None
    payload = record["deals"]
    if not isinstance(payload, str) or zlib.crc32(payload.encode()) != record["crc"]:
        return None
    value = _json(payload.encode())
    if not isinstance(value, list) or len(value) != 3:
        return None
    start, stop, plays = value
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (start, stop)):
        return None
    if not isinstance(n, int) or not 0 <= start < stop <= n:
        return None
    if not isinstance(plays, list) or len(plays) != (stop - start) * per_deal:
        return None
    read: list[Play] = []
    for play in plays:
        if not isinstance(play, list) or len(play) != 5 or not all(type(x) is int for x in play):
            return None
        read.append(Play(*play))
    return start, stop, read


def _compare(file: Path, there: object, here: dict[str, Any]) -> None:
    if there == here:
        return
    if not isinstance(there, dict):
        raise InvalidInputError(
            f"the checkpoint {file} has no match parameters: delete it to start again"
        )
    differences = [
        f"{key} {_show(there.get(key))} there, {_show(here.get(key))} here"
        for key in sorted(set(there) | set(here))
        if there.get(key) != here.get(key)
    ]
    raise InvalidInputError(
        f"the checkpoint {file} was written by another match: {'; '.join(differences[:4])}; "
        "pass the same arguments to resume it, or another checkpoint path"
    )


def _show(value: object) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def parameters(job: Job, n: int, names: list[str]) -> dict[str, Any]:
    """What a checkpoint must agree on with the match that resumes it, as JSON values.

    ``names`` are the factories' names, for the message that refuses another match's file.

    >>> from jass.bots import RandomBot
    >>> from jass.rules import SCHIEBER
    >>> job = Job(SCHIEBER, (RandomBot,) * 4, "hands", True, 3, 1000)
    >>> sorted(parameters(job, 10, ["RandomBot"] * 4))
    ['duplicate', 'max_hands', 'mode', 'n', 'rules', 'seed', 'team_a', 'team_b']
    """
    a1, a2, b1, b2 = job.factories
    return {
        "n": n,
        "mode": job.mode,
        "duplicate": job.duplicate,
        "seed": job.seed,
        "max_hands": job.max_hands,
        "rules": record(Game.new(job.ruleset, seed=0))["rules"],
        "team_a": [*names[:2], team_fingerprint(a1), team_fingerprint(a2)],
        "team_b": [*names[2:], team_fingerprint(b1), team_fingerprint(b2)],
    }
