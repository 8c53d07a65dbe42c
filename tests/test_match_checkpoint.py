"""play_match(..., checkpoint=PATH): a long match that stops loses nothing (issue 23, item 11).

The reference is always the same match played through without a checkpoint: a resumed match
must give its result deal for deal, having played only the deals the file did not hold.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from jass import InvalidInputError, JassError, play_match, rules
from jass.bots import Bot, RandomBot, RuleBot
from jass.matches import MatchResult, bot_seed

ROOT = Path(__file__).resolve().parents[1]


class Counted:
    """RandomBot's factory that counts the bots it makes in this process (picklable)."""

    made = 0

    def __call__(self, seed: int) -> Bot:
        Counted.made += 1
        return RandomBot(seed)


class Stop(Exception):  # noqa: N818
    """Stands for the match being cut short."""


def stop_after(chunks: int) -> Callable[[int, int], None]:
    seen: list[int] = []

    def progress(done: int, n: int) -> None:
        seen.append(done)
        if len(seen) == chunks:
            raise Stop

    return progress


def test_a_match_cut_short_resumes_and_gives_the_uninterrupted_result(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    expected = play_match(Counted(), RuleBot, 20, seed=4, chunk_size=3)
    with pytest.raises(Stop):
        play_match(Counted(), RuleBot, 20, seed=4, chunk_size=3, checkpoint=path,
                   progress=stop_after(3))  # fmt: skip
    assert len(path.read_text().splitlines()) == 1 + 3  # the parameters and three chunks
    Counted.made = 0
    seen: list[tuple[int, int]] = []
    got = play_match(Counted(), RuleBot, 20, seed=4, chunk_size=3, checkpoint=path,
                     progress=lambda done, n: seen.append((done, n)))  # fmt: skip
    assert got == expected
    assert Counted.made == (20 - 9) * 2 * 2  # only the 11 missing deals: 2 plays, 2 seats
    assert seen[0] == (9, 20)
    assert seen[-1] == (20, 20)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # Done: a third call reads every deal from the file and plays none.
    Counted.made = 0
    assert play_match(Counted(), RuleBot, 20, seed=4, chunk_size=3, checkpoint=path) == expected
    assert Counted.made == 0


def test_resuming_with_another_chunk_size_or_executor_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    expected = play_match(RandomBot, RuleBot, 13, mode="games", seed=2, max_hands=3)
    with pytest.raises(Stop):
        play_match(RandomBot, RuleBot, 13, mode="games", seed=2, max_hands=3, chunk_size=2,
                   checkpoint=path, progress=stop_after(2))  # fmt: skip
    with ThreadPoolExecutor(max_workers=2) as pool:
        got = play_match(RandomBot, RuleBot, 13, mode="games", seed=2, max_hands=3,
                         chunk_size=5, checkpoint=path, executor=pool)  # fmt: skip
    assert got == expected


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"seed": 5}, "seed 4 there, 5 here"),
        ({"n": 21}, "n 20 there, 21 here"),
        ({"duplicate": False}, "duplicate true there, false here"),
        ({"mode": "games"}, "mode"),
        ({"ruleset": rules.SCHIEBER_1000}, "rules"),
        ({"team_b": RandomBot}, "team_b"),
        ({"team_b": (RuleBot, RandomBot)}, "team_b"),
    ],
)
def test_a_checkpoint_of_another_match_is_refused(
    tmp_path: Path, change: dict[str, object], named: str
) -> None:
    path = tmp_path / "match.jsonl"
    arguments: dict[str, object] = {"team_a": RandomBot, "team_b": RuleBot, "n": 20, "seed": 4}
    with pytest.raises(Stop):
        play_match(**arguments, checkpoint=path, progress=stop_after(1))  # type: ignore[arg-type]
    before = path.read_bytes()
    with pytest.raises(InvalidInputError, match="written by another match") as caught:
        play_match(**{**arguments, **change}, checkpoint=path)  # type: ignore[arg-type]
    assert named in str(caught.value)
    assert path.read_bytes() == before  # refused: the file is left as it was


def test_a_write_cut_short_is_dropped_and_its_deals_played_again(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    expected = play_match(RandomBot, RuleBot, 10, seed=1, chunk_size=2)
    with pytest.raises(Stop):
        play_match(RandomBot, RuleBot, 10, seed=1, chunk_size=2, checkpoint=path,
                   progress=stop_after(2))  # fmt: skip
    whole = path.read_bytes()
    with path.open("ab") as out:
        out.write(whole.splitlines(keepends=True)[-1][:25])  # a third chunk, half written
    assert play_match(RandomBot, RuleBot, 10, seed=1, chunk_size=2, checkpoint=path) == expected
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 5
    assert all(json.loads(line) for line in lines)


def test_a_damaged_line_or_a_file_that_is_not_a_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    with pytest.raises(Stop):
        play_match(RandomBot, RuleBot, 10, seed=1, chunk_size=2, checkpoint=path,
                   progress=stop_after(2))  # fmt: skip
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1].replace("1", "2", 1) + lines[2])
    with pytest.raises(InvalidInputError, match="damaged at line 2"):
        play_match(RandomBot, RuleBot, 10, seed=1, chunk_size=2, checkpoint=path)
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    with pytest.raises(InvalidInputError, match="is not a match checkpoint"):
        play_match(RandomBot, RuleBot, 10, checkpoint=other)
    assert other.read_text() == "my notes\n"


# --- the process dies --------------------------------------------------------------------------

CHILD = """
import sys, time
from jass import play_match
from jass.bots import RuleBot
from tests.test_match_checkpoint import Counted
play_match(Counted(), RuleBot, 40, seed=9, chunk_size=2, checkpoint=sys.argv[1],
           progress=lambda done, n: time.sleep(0.15))
print("finished")
"""


def test_a_killed_process_resumes_to_the_serial_result(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], cwd=ROOT, env=env, stdout=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if path.exists() and len(path.read_bytes().splitlines()) >= 1 + 4:
                break
            time.sleep(0.02)
        child.send_signal(signal.SIGKILL)  # the whole process, in the middle of the match
        out, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    assert b"finished" not in out
    kept = len(path.read_bytes().splitlines()) - 1
    assert 4 <= kept < 20
    Counted.made = 0
    resumed = play_match(Counted(), RuleBot, 40, seed=9, chunk_size=2, checkpoint=path)
    assert Counted.made == (40 - 2 * kept) * 2 * 2
    serial = play_match(Counted(), RuleBot, 40, seed=9)
    assert resumed == serial
    assert_deal_for_deal(resumed, serial)


def assert_deal_for_deal(got: MatchResult, expected: MatchResult) -> None:
    assert got.margins == expected.margins
    assert got.outcomes == expected.outcomes
    assert got.hands_played == expected.hands_played


class KillWorkerOnce:
    """RandomBot's factory that kills the worker building deal 5's seat-0 bot, the first time."""

    def __init__(self, marker: Path, parent: int) -> None:
        self.marker, self.parent = marker, parent

    def __call__(self, seed: int) -> Bot:
        if seed == bot_seed(3, 5, 0) and os.getpid() != self.parent and not self.marker.exists():
            self.marker.write_text("killed")
            os.kill(os.getpid(), signal.SIGKILL)
        return RandomBot(seed)


def test_a_pool_that_breaks_keeps_what_was_played_and_a_rerun_resumes(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    factory = KillWorkerOnce(tmp_path / "killed", os.getpid())
    with ProcessPoolExecutor(max_workers=2) as pool, pytest.raises(JassError) as caught:
        play_match(factory, RuleBot, 12, seed=3, chunk_size=2, executor=pool, checkpoint=path)
    assert "rerun the same call to resume" in str(caught.value)
    assert len(path.read_bytes().splitlines()) >= 1 + 1  # deals played before were kept
    resumed = play_match(factory, RuleBot, 12, seed=3, chunk_size=2, checkpoint=path)
    assert_deal_for_deal(resumed, play_match(RandomBot, RuleBot, 12, seed=3))


def test_a_bad_checkpoint_argument_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="checkpoint must be a path"):
        play_match(RandomBot, RandomBot, 2, checkpoint=3)  # type: ignore[arg-type]
