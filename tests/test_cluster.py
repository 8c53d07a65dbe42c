"""The arena on real clusters (Dask, Ray) and on executors that lose work.

The tests marked ``cluster`` start a ``distributed.LocalCluster`` of two worker processes, or
a local Ray of two CPUs, and check that :func:`jass.play_match` gives the serial result deal
for deal, also when a worker process is killed in the middle of a match. Deselect them with
``-m 'not cluster'``; CI runs them. The others check the retry logic with executors made
here, without a cluster.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import (
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest

from jass import InvalidInputError, JassError, PlayerView, play_match
from jass.bots import Bot, RandomBot, RuleBot, play_hand
from jass.engine.actions import Action
from jass.engine.game import Game
from jass.errors import MissingDependencyError
from jass.executors import RayExecutor
from jass.matches import MatchResult, bot_seed, deal_seed
from jass.rules import SCHIEBER

T = TypeVar("T")

# Read by Ray when it is imported: off, Ray runs a single machine on the loopback address
# (as the Dask cluster here) rather than on the machine's network address.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

SEED = 11
#: Seconds a whole cluster test may take before it fails instead of hanging CI.
DEADLINE = 120

# --- bots and executors, importable by the workers -------------------------------------------


class SlowBot:
    """A RandomBot that sleeps ``delay`` seconds per decision, to keep the workers busy."""

    def __init__(self, seed: int, delay: float = 0.0) -> None:
        self._bot = RandomBot(seed)
        self._delay = delay

    def choose_action(self, view: PlayerView) -> Action:
        if self._delay:
            time.sleep(self._delay)
        return self._bot.choose_action(view)


class KillOnce:
    """A factory of SlowBots that kills its own process when it builds the bot of ``trigger``.

    It does that once per ``marker`` file: the first time, it writes its pid there and sends
    itself SIGKILL, as a worker that crashes in the middle of a chunk; a retry of the chunk
    finds the file and plays on. With ``marker=None`` it kills every time. It never kills
    the test process.
    """

    label = "SlowBot"  # the serial reference, SlowBot, has the same name

    def __init__(
        self, trigger: int, marker: Path | None, delay: float = 0.0, spare: int = -1
    ) -> None:
        self.trigger = trigger
        self.marker = marker
        self.delay = delay
        self.spare = spare  # the pid not to kill: the test process

    def __call__(self, seed: int) -> Bot:
        if seed == self.trigger and os.getpid() != self.spare:
            if self.marker is None:
                os.kill(os.getpid(), signal.SIGKILL)
                raise AssertionError("unreachable: the process is dead")
            try:
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                os.kill(os.getpid(), signal.SIGKILL)
        return SlowBot(seed, self.delay)


class CountingExecutor(Executor):
    """Passes every submission to ``inner`` and counts them."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.submitted: list[tuple[Any, ...]] = []
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            self.submitted.append(args[1:])  # (start, stop, attempt): not the job
        return self.inner.submit(fn, *args, **kwargs)


class FlakyExecutor(Executor):
    """Runs every call in this thread, except that it fails the first ``failures[start]``
    submissions of the chunk that starts at deal ``start`` with ``error``, as a lost worker."""

    def __init__(self, failures: dict[int, int], error: Exception) -> None:
        self.failures = dict(failures)
        self.error = error
        self.submitted: list[tuple[int, int, int]] = []

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        start, stop, attempt = args[1:]
        self.submitted.append((start, stop, attempt))
        future: Future[T] = Future()
        if self.failures.get(start, 0) > 0:
            self.failures[start] -= 1
            future.set_exception(self.error)
        else:
            future.set_result(fn(*args, **kwargs))
        return future


class ProgressLog:
    """A progress callback that records its calls and can act after ``k`` deals once."""

    def __init__(self, at: int = -1, action: Callable[[], None] | None = None) -> None:
        self.calls: list[tuple[int, int]] = []
        self._at = at
        self._action = action

    def __call__(self, done: int, n: int) -> None:
        self.calls.append((done, n))
        if self._action is not None and done >= self._at:
            action, self._action = self._action, None
            action()

    def check(self, n: int, chunk_size: int) -> None:
        """Every chunk reported once, in order: the counts grow to n and never pass it."""
        done = [d for d, _ in self.calls]
        assert done == [min(stop, n) for stop in range(chunk_size, n + chunk_size, chunk_size)]
        assert {total for _, total in self.calls} == {n}


def serial(factory: Any, n: int, **kwargs: Any) -> MatchResult:
    return play_match(factory, RuleBot, n, seed=SEED, **kwargs)


def assert_same_deals(got: MatchResult, expected: MatchResult, n: int) -> None:
    """The same result, deal for deal: no deal lost, none counted twice."""
    assert len(got.margins) == len(got.outcomes) == 2 * n
    assert got.deals == n
    assert got.margins == expected.margins
    assert got.outcomes == expected.outcomes
    assert got.deal_margins == expected.deal_margins
    assert got.deal_scores == expected.deal_scores
    assert got.hands_played == expected.hands_played == 2 * n
    assert got == expected


def replayed_margin(index: int, *, delay: float = 0.0) -> int:
    """Team A's margin in the first play of deal ``index``, replayed here from the seeds."""
    bots: list[Bot] = [
        SlowBot(bot_seed(SEED, index, 0), delay),
        RuleBot(bot_seed(SEED, index, 1)),
        SlowBot(bot_seed(SEED, index, 2), delay),
        RuleBot(bot_seed(SEED, index, 3)),
    ]
    game = play_hand(Game.new(SCHIEBER, seed=deal_seed(SEED, index)).deal(), bots)
    return game.scores[0] - game.scores[1]


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail the test, rather than hang, if it takes more than DEADLINE seconds."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"the test took more than {DEADLINE} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(DEADLINE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- retries, without a cluster ----------------------------------------------------------------


def test_lost_chunks_are_submitted_again_and_counted_once() -> None:
    expected = serial(SlowBot, 12, chunk_size=3)
    executor = FlakyExecutor({3: 1, 9: 3}, CancelledError())
    progress = ProgressLog()
    got = play_match(
        SlowBot, RuleBot, 12, seed=SEED, chunk_size=3, executor=executor, progress=progress
    )
    assert_same_deals(got, expected, 12)
    progress.check(12, 3)
    # four chunks submitted first; then the chunk at 3 once more, the one at 9 three times
    assert executor.submitted == [
        (0, 3, 0), (3, 6, 0), (6, 9, 0), (9, 12, 0),
        (3, 6, 1),
        (9, 12, 1), (9, 12, 2), (9, 12, 3),
    ]  # fmt: skip


def test_a_chunk_that_keeps_failing_stops_the_match_with_a_jass_error() -> None:
    lost = ConnectionError("the worker went away")
    executor = FlakyExecutor({4: 3}, lost)
    progress = ProgressLog()
    with pytest.raises(JassError, match=r"deals 4 to 7 .* failed 3 times") as caught:
        play_match(
            SlowBot, RuleBot, 12, seed=SEED, chunk_size=4, executor=executor,
            progress=progress, retries=2,
        )  # fmt: skip
    assert caught.value.__cause__ is lost
    assert "ConnectionError" in str(caught.value)
    assert progress.calls == [(4, 12)]  # the first chunk came back; nothing after the failure
    assert [s for s in executor.submitted if s[0] == 4] == [(4, 8, 0), (4, 8, 1), (4, 8, 2)]
    with pytest.raises(JassError, match="failed 1 time on"):
        play_match(
            SlowBot, RuleBot, 4, chunk_size=4, executor=FlakyExecutor({0: 1}, lost), retries=0
        )


def not_a_bot(seed: int) -> object:
    return seed


class UnpicklableError(Exception):
    def __reduce__(self) -> Any:
        raise TypeError("cannot pickle this")


def raise_unpicklable(seed: int) -> Bot:
    raise UnpicklableError(f"no bot for {seed}")


def test_an_error_of_the_deals_is_raised_as_it_is_without_retries() -> None:
    executor = CountingExecutor(ThreadPoolExecutor(max_workers=2))
    with pytest.raises(InvalidInputError, match="not a Bot") as caught:
        play_match(RandomBot, not_a_bot, 6, chunk_size=2, executor=executor)  # type: ignore[arg-type]
    assert len(executor.submitted) == 3  # no retries: the same error would come back
    assert "Traceback" in str(caught.value.__cause__)  # the worker's traceback, as the cause
    assert "_bots" in str(caught.value.__cause__)
    # an exception that cannot travel back from a worker comes back as a JassError
    with pytest.raises(JassError, match=r"deals 0 to 1 raised UnpicklableError\('no bot for"):
        play_match(raise_unpicklable, RandomBot, 2, chunk_size=2, executor=executor)
    executor.inner.shutdown()


@pytest.mark.parametrize("retries", [-1, 1.5, True, "2", None])
def test_bad_retries_are_refused(retries: object) -> None:
    with pytest.raises(InvalidInputError, match="retries must be an int of at least 0"):
        play_match(RandomBot, RandomBot, 2, retries=retries)  # type: ignore[arg-type]


def test_a_process_pool_does_not_survive_a_dead_worker(tmp_path: Path) -> None:
    # The standard pool breaks for good when a worker dies: the retries fail at once, and
    # the match stops with a JassError saying so. Dask and Ray replace the worker.
    factory = KillOnce(bot_seed(SEED, 2, 0), tmp_path / "killed", spare=os.getpid())
    with ProcessPoolExecutor(max_workers=2) as pool, pytest.raises(JassError) as caught:
        play_match(factory, RuleBot, 6, seed=SEED, chunk_size=2, executor=pool, retries=1)
    assert "BrokenProcessPool" in str(caught.value)
    assert (tmp_path / "killed").exists()


def test_the_reference_deals_replay_from_the_seeds() -> None:
    # The serial run the cluster runs are compared with is itself checked against plays
    # rebuilt here from the published seeds.
    expected = serial(SlowBot, 6)
    assert [expected.margins[2 * i] for i in range(6)] == [replayed_margin(i) for i in range(6)]
    assert expected.team_a == "SlowBot"
    assert serial(KillOnce(-1, None), 6) == expected


@pytest.mark.slow
def test_ray_executor_needs_ray_and_imports_it_only_when_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code = "import sys, jass, jass.executors; print('ray' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    needs_ray = r"RayExecutor needs Ray.*python-jass\[cluster\]"
    with pytest.raises(MissingDependencyError, match=needs_ray):
        RayExecutor()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "reason"),
    [({"num_cpus": -1}, "cannot be negative"), ({"cpus": 1}, "Invalid option keyword cpus")],
)
def test_ray_executor_refuses_options_ray_refuses(options: dict[str, Any], reason: str) -> None:
    pytest.importorskip("ray")
    with pytest.raises(InvalidInputError, match=f"Ray refuses the task options .*{reason}"):
        RayExecutor(**options)


@pytest.mark.cluster
def test_the_cluster_benchmark_runs(tmp_path: Path) -> None:
    # In its own process: it starts (and stops) its own Dask cluster and Ray instance. It
    # runs before the fixtures below start theirs, to have the machine to itself.
    script = Path(__file__).parents[1] / "benchmarks" / "bench_cluster.py"
    args = ["--deals", "6", "--chunk-size", "2", "--repeat", "1"]
    out = subprocess.run(
        [sys.executable, str(script), *args],
        check=False, capture_output=True, text=True, timeout=DEADLINE, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("6 duplicate deals per match (12 hands), chunks of 2 deals")
    assert [line.split("  ")[0] for line in lines[2:]] == [
        "serial", "process pool, 2 workers", "Dask LocalCluster, 2 workers", "Ray, 2 workers",
    ]  # fmt: skip


# --- Dask --------------------------------------------------------------------------------

N = 30
CHUNK = 3


def local_cluster() -> Any:
    """Two worker processes of one thread each, on the loopback interface only."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",  # any free port: 8787 may be taken
        silence_logs=logging.CRITICAL,  # the killed workers are meant to die
    )


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """A client of a LocalCluster of two worker processes, one thread each, shut down after."""
    distributed = pytest.importorskip("distributed")
    cluster = local_cluster()
    client = distributed.Client(cluster)
    try:
        client.wait_for_workers(2, timeout=60)
        yield client
    finally:
        client.close(timeout=30)
        cluster.close(timeout=30)


def worker_pids(client: Any) -> dict[str, int]:
    pids: dict[str, int] = client.run(os.getpid)
    return pids


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_dask_gives_the_serial_result_deal_for_deal(dask_client: Any) -> None:
    expected = serial(SlowBot, N)
    progress = ProgressLog()
    executor = CountingExecutor(dask_client.get_executor())
    got = play_match(
        SlowBot, RuleBot, N, seed=SEED, chunk_size=CHUNK, executor=executor, progress=progress
    )
    assert_same_deals(got, expected, N)
    progress.check(N, CHUNK)
    assert len(executor.submitted) == N // CHUNK  # nothing was retried
    games = partial(
        play_match, RandomBot, RuleBot, 2, seed=3, mode="games", ruleset=SCHIEBER.evolve(target=500)
    )
    got_games = games(executor=dask_client.get_executor())
    assert got_games == games()
    assert got_games.hands_played > 4


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_dask_survives_a_worker_killed_in_the_middle_of_a_match(dask_client: Any) -> None:
    delay = 0.0005  # about 40 ms a deal: the workers are busy when the kill comes
    factory = partial(SlowBot, delay=delay)
    expected = serial(factory, N)
    before = worker_pids(dask_client)
    assert len(before) == 2
    victim = min(before.values())

    def kill() -> None:
        os.kill(victim, signal.SIGKILL)

    progress = ProgressLog(at=2 * CHUNK, action=kill)  # after 2 of 10 chunks
    got = play_match(
        factory, RuleBot, N, seed=SEED, chunk_size=CHUNK,
        executor=dask_client.get_executor(), progress=progress,
    )  # fmt: skip
    assert_same_deals(got, expected, N)
    progress.check(N, CHUNK)
    assert got.margins[2 * (N - 1)] == replayed_margin(N - 1, delay=delay)
    # the worker was killed (its nanny started a new one in its place)
    dask_client.wait_for_workers(2, timeout=60)
    after = worker_pids(dask_client)
    assert victim not in after.values()


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_dask_survives_a_worker_that_dies_inside_a_chunk(
    dask_client: Any, tmp_path: Path
) -> None:
    # Deal 7 kills the worker that plays it, once: in the middle of the chunk of deals 6-8.
    # Dask's scheduler gives the lost task to another worker by itself.
    factory = KillOnce(bot_seed(SEED, 7, 0), tmp_path / "killed", spare=os.getpid())
    expected = serial(SlowBot, N)
    before = set(worker_pids(dask_client).values())
    progress = ProgressLog()
    got = play_match(
        factory, RuleBot, N, seed=SEED, chunk_size=CHUNK,
        executor=dask_client.get_executor(), progress=progress,
    )  # fmt: skip
    assert_same_deals(got, expected, N)
    progress.check(N, CHUNK)
    killed = int((tmp_path / "killed").read_text())
    assert killed in before
    dask_client.wait_for_workers(2, timeout=60)
    assert killed not in worker_pids(dask_client).values()


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_dask_killed_worker_errors_are_retried_by_play_match(tmp_path: Path) -> None:
    # With allowed-failures=0 the scheduler gives up on a task at its first dead worker and
    # the future raises KilledWorker: play_match submits the chunk again.
    distributed = pytest.importorskip("distributed")
    import dask  # noqa: PLC0415

    factory = KillOnce(bot_seed(SEED, 4, 0), tmp_path / "killed", spare=os.getpid())
    expected = serial(SlowBot, 12)
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        local_cluster() as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        client.wait_for_workers(2, timeout=60)
        executor = CountingExecutor(client.get_executor())
        progress = ProgressLog()
        got = play_match(
            factory, RuleBot, 12, seed=SEED, chunk_size=CHUNK, executor=executor,
            progress=progress,
        )  # fmt: skip
    assert_same_deals(got, expected, 12)
    progress.check(12, CHUNK)
    assert (tmp_path / "killed").exists()
    # Every chunk was submitted, and the one of deals 3-5 once more. The dead worker may
    # have held the next chunk in its queue too: that one failed and was retried as well.
    submitted = sorted(executor.submitted)
    assert [s for s in submitted if s[2] == 0] == [(0, 3, 0), (3, 6, 0), (6, 9, 0), (9, 12, 0)]
    assert (3, 6, 1) in submitted
    assert all(s[2] <= 1 for s in submitted)


# --- Ray ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    """A local Ray instance of two CPUs, shut down after the module."""
    ray = pytest.importorskip("ray")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")  # no reporting home from tests
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
            configure_logging=False,
        )
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_ray_gives_the_serial_result_deal_for_deal(ray_instance: Any) -> None:
    expected = serial(SlowBot, N)
    progress = ProgressLog()
    with RayExecutor(num_cpus=1) as ray_executor:
        executor = CountingExecutor(ray_executor)
        got = play_match(
            SlowBot, RuleBot, N, seed=SEED, chunk_size=CHUNK, executor=executor,
            progress=progress,
        )  # fmt: skip
    assert_same_deals(got, expected, N)
    progress.check(N, CHUNK)
    assert len(executor.submitted) == N // CHUNK


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_ray_retries_a_task_whose_worker_died(ray_instance: Any, tmp_path: Path) -> None:
    # Ray's own task retries (max_retries, 3 by default) replay the lost chunk.
    factory = KillOnce(bot_seed(SEED, 7, 0), tmp_path / "killed", spare=os.getpid())
    expected = serial(SlowBot, N)
    progress = ProgressLog()
    executor = CountingExecutor(RayExecutor())
    got = play_match(
        factory, RuleBot, N, seed=SEED, chunk_size=CHUNK, executor=executor, progress=progress
    )
    assert_same_deals(got, expected, N)
    progress.check(N, CHUNK)
    assert (tmp_path / "killed").exists()
    assert len(executor.submitted) == N // CHUNK  # Ray retried, not play_match


@pytest.mark.cluster
@pytest.mark.usefixtures("deadline")
def test_ray_worker_crashes_are_retried_by_play_match(ray_instance: Any, tmp_path: Path) -> None:
    # Without Ray's retries the future raises WorkerCrashedError: play_match submits again.
    factory = KillOnce(bot_seed(SEED, 4, 0), tmp_path / "killed", spare=os.getpid())
    expected = serial(SlowBot, 12)
    executor = CountingExecutor(RayExecutor(max_retries=0))
    progress = ProgressLog()
    got = play_match(
        factory, RuleBot, 12, seed=SEED, chunk_size=CHUNK, executor=executor, progress=progress
    )
    assert_same_deals(got, expected, 12)
    progress.check(12, CHUNK)
    assert sorted(executor.submitted) == [(0, 3, 0), (3, 6, 0), (3, 6, 1), (6, 9, 0), (9, 12, 0)]
    # A chunk whose worker dies at every attempt ends the match with a JassError.
    always = KillOnce(bot_seed(SEED, 1, 0), None, spare=os.getpid())
    with pytest.raises(JassError, match=r"deals 0 to 2 .* failed 2 times .*WorkerCrashedError"):
        play_match(
            always, RuleBot, 3, seed=SEED, chunk_size=CHUNK, executor=RayExecutor(max_retries=0),
            retries=1,
        )  # fmt: skip


@pytest.mark.cluster
def test_ray_executor_cancels_and_shuts_down(ray_instance: Any) -> None:
    executor = RayExecutor()
    slow = executor.submit(time.sleep, 30)
    quick = executor.submit(pow, 2, 10)
    assert quick.result(timeout=60) == 1024
    assert slow.cancel()
    assert slow.cancelled()
    executor.shutdown(wait=True)
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.submit(pow, 2, 3)

