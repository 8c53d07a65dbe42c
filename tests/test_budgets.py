"""Search budgets are checked where they are given, with the budget and the reason named."""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import pytest

from jass import CardSet, Contract, Game, InvalidInputError
from jass.bots import MonteCarloBot
from jass.solver import Solver, solve

BAD_COUNTS: list[Any] = [0, -1, "x", 2.5, True, math.inf]
BAD_SECONDS: list[Any] = [0, -1, "1", True, math.nan, math.inf]


@pytest.mark.parametrize("samples", BAD_COUNTS)
def test_monte_carlo_refuses_a_bad_sample_count(samples: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^samples must be a positive whole number"):
        MonteCarloBot(samples=samples)


@pytest.mark.parametrize("time_limit", BAD_SECONDS)
def test_monte_carlo_refuses_a_bad_time_limit(time_limit: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^time_limit must be a positive number"):
        MonteCarloBot(samples=2, time_limit=time_limit)


def test_monte_carlo_needs_some_budget() -> None:
    with pytest.raises(InvalidInputError, match="needs a budget"):
        MonteCarloBot(samples=None, time_limit=None)
    assert MonteCarloBot(samples=3, time_limit=None).samples == 3
    assert MonteCarloBot(time_limit=2).time_limit == 2.0


@pytest.mark.parametrize("solve_tricks", [-1, 10, True, "4"])
def test_monte_carlo_refuses_a_bad_solve_depth(solve_tricks: Any) -> None:
    with pytest.raises(InvalidInputError, match="solve_tricks must be 0-9"):
        MonteCarloBot(samples=1, solve_tricks=solve_tricks)


HANDS = [CardSet.parse(h) for h in ("AS", "KS", "6H", "7H")]


@pytest.mark.parametrize("node_limit", BAD_COUNTS)
def test_the_solver_refuses_a_bad_node_limit(node_limit: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^node_limit must be a positive whole number"):
        Solver(Contract.OBENABE).solve(HANDS, 0, tricks=(4, 4), node_limit=node_limit)
    game = Game.new(seed=8).deal().choose("undenufe")
    with pytest.raises(InvalidInputError, match=r"^node_limit"):
        solve(game, node_limit=node_limit)


@pytest.mark.parametrize("time_limit", BAD_SECONDS)
def test_the_solver_refuses_a_bad_time_limit(time_limit: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^time_limit must be a positive number"):
        Solver(Contract.OBENABE).solve(HANDS, 0, tricks=(4, 4), time_limit=time_limit)


def test_a_good_budget_still_solves() -> None:
    found = Solver(Contract.OBENABE).solve(HANDS, 0, tricks=(4, 4), node_limit=5, time_limit=1)
    assert found.points == 20  # AS and KS take 11 + 4, and the last trick's 5


@pytest.mark.slow
def test_simulate_with_no_samples_says_why_instead_of_an_infinite_interval() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jass", "simulate", "--team-a", "montecarlo", "--samples", "0",
         "--deals", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "argument --samples: 0 is less than 1" in done.stderr
    assert "inf" not in done.stdout
