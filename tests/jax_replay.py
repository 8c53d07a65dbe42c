"""Replaying engine games through the JAX environment, for ``tests/test_jax_env.py``.

The engine side plays episodes as :func:`jass.envs.raw_env` does (``weis="auto"``, thanks
off, rewards ``"score"``) with random legal actions from fixed seeds, and records at every
step the seat to act, the action mask and that seat's observation, the rewards, and at the
end the card points, Weis and Stöck. The observations come from
:func:`jass.envs.encode` of the seat's view for one episode in eight and from the
incremental :class:`jass.envs.Encoder` (tested equal to it in ``tests/test_encoding.py``)
for the others, which is faster.

The JAX side replays the same deals and actions in batches through the environment's pure
functions (:func:`jass.envs.jax.env.start` and ``step``) with the rule tables as traced
arguments, so one compiled program serves every rule set, both kinds of episode and the
mutants, whose tables are broken copies.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from jass import Contract, Game, Phase, RuleSet, action_from_index, weis_key
from jass.core.cards import SUIT_MASKS
from jass.envs import Encoder, action_mask, encode
from jass.envs.jax._tables import Tables, tables
from jass.envs.jax._weis import device
from jass.envs.jax.env import start, step
from jass.envs.options import ruleset_for
from jass.envs.rewards import hand_margin

BATCH = 250  # episodes per compiled call
CHUNK = 40  # steps per compiled call: a hand has at most 38
DEALS = 40  # deals per episode the JAX side holds: a random game is shorter
I8 = npt.NDArray[np.int8]


class Episode(NamedTuple):
    """One engine episode: its deals and actions, and what each step showed."""

    deals: npt.NDArray[np.bool_]  # (hands, 4, 36)
    dealer: int
    actions: list[int]
    players: list[int]  # the seat to act before each action and after the last (its actor)
    masks: npt.NDArray[np.bool_]  # (steps + 1, 48)
    observations: I8  # (steps + 1, 678)
    rewards: npt.NDArray[np.float32]  # (steps, 4)
    final: tuple[int, ...]  # card points, Weis, Stöck (by team), scores


def _bits(mask: int) -> list[bool]:
    return [bool(mask >> card & 1) for card in range(36)]


def _mask(game: Game) -> npt.NDArray[np.bool_]:
    mask = action_mask(game).astype(bool)
    mask[44:46] = False  # thanks="off"
    return mask


def _rare(game: Game, counts: Counter[str]) -> None:
    """Count the rare cases of the position before the seat to act plays."""
    contract = game.contract
    trick = game.trick
    if game.phase is not Phase.PLAY or contract is None or not trick or not contract.is_trump:
        return
    seat = game.to_move
    assert seat is not None
    hand = int(game.hands[seat])
    legal = int(game.legal_moves())
    trumps = contract.trump_mask
    led = SUIT_MASKS[trick[0] // 9]
    if led == trumps:
        if hand & trumps == contract.buur and hand != contract.buur:
            counts["lone Buur"] += 1
        return
    if hand & trumps & ~legal and any(1 << card & trumps for card in trick):
        counts["undertrump ban"] += 1
    if hand & trumps == hand:
        counts["only trumps"] += 1


def _hand_end(game: Game, ruleset: RuleSet, counts: Counter[str]) -> None:
    """Count the rare cases of a hand just ended."""
    counts["hands"] += 1
    if 9 in game.tricks_won:
        counts["matches"] += 1
    if game.stoeck is not None:
        counts["Stöck"] += 1
    if game.is_over and len(game.plays) < 36:
        counts["games ending mid-hand"] += 1
    result = game.weis_result
    hand = game.hand_info
    if result is None or result.winner is None or hand is None or hand.contract is None:
        return
    best = sorted(
        (
            max(weis_key(w, seat, hand.contract, hand.forehand, ruleset)[:-1] for w in found)
            for seat, found in enumerate(result.declared)
            if found
        ),
        reverse=True,
    )
    if len(best) > 1 and best[0] == best[1]:
        counts["Weis ties decided by position"] += 1


def play_engine(
    ruleset: RuleSet, seed: int, episode: str, counts: Counter[str], encoder: Encoder | None
) -> Episode:
    """One engine episode with random legal actions from ``seed`` (``raw_env``'s steps)."""
    rng = random.Random(seed)
    game = Game.new(ruleset, seed=seed).deal()
    assert game.hand_info is not None
    dealer = int(game.hand_info.dealer)
    deals = [[_bits(int(cards)) for cards in game.hands]]
    if encoder is not None:
        encoder.reset(game)

    def observe(seat: int) -> I8:
        if encoder is None:
            return encode(game.view(seat))
        seen: I8 = encoder.observation(seat).copy()
        return seen

    assert game.to_move is not None
    players, masks, observations = [int(game.to_move)], [_mask(game)], [observe(game.to_move)]
    actions: list[int] = []
    rewards: list[list[float]] = []
    final: tuple[int, ...] = ()
    while True:
        _rare(game, counts)
        options = np.flatnonzero(masks[-1])
        action = int(options[rng.randrange(len(options))])
        counts["shoves"] += action == 43
        actor = players[-1]
        actions.append(action)
        game = game.apply(action_from_index(action, game))
        if encoder is not None:
            encoder.update(game)
        ended = game.phase is Phase.DEAL or game.is_over
        margin = float(hand_margin(game, "score")) if ended else 0.0
        rewards.append([margin, -margin, margin, -margin])
        if ended:
            _hand_end(game, ruleset, counts)
            final = (*game.hand_points, *(x for pair in game.hand_weis_stoeck for x in pair))
            final += game.scores
        if game.is_over or (ended and episode == "hand"):
            players.append(actor)
            masks.append(np.zeros(48, bool))
            observations.append(observe(actor))
            break
        if ended:
            game = game.deal()
            deals.append([_bits(int(cards)) for cards in game.hands])
            if encoder is not None:
                encoder.update(game)
        assert game.to_move is not None
        players.append(int(game.to_move))
        masks.append(_mask(game))
        observations.append(observe(game.to_move))
    return Episode(
        np.array(deals, bool),
        dealer,
        actions,
        players,
        np.array(masks),
        np.array(observations),
        np.array(rewards, np.float32),
        final,
    )


def engine_episodes(
    ruleset: RuleSet, seeds: range, episode: str, counts: Counter[str]
) -> list[Episode]:
    """Engine episodes from ``seeds``; one in eight observed through ``encode(view)``."""
    ruleset = ruleset_for(ruleset, "auto")
    encoder: Encoder | None = None
    episodes = []
    for seed in seeds:
        use_view = seed % 8 == 0
        if encoder is None and not use_view:
            encoder = Encoder(Game.new(ruleset, seed=seed).deal())
        episodes.append(play_engine(ruleset, seed, episode, counts, None if use_view else encoder))
    return episodes


# --- the JAX side -----------------------------------------------------------------------------


def _run_chunk(t: Tables, game: Any, states: Any, actions: Any) -> tuple[Any, tuple[Any, ...]]:
    def one(state: Any, acts: Any) -> tuple[Any, tuple[Any, ...]]:
        def body(s: Any, a: Any) -> tuple[Any, tuple[Any, ...]]:
            s = step(t, s, a, game, jnp.float32(-1.0))
            out = (s.current_player, s.legal_action_mask, s.observation, s.rewards, s.terminated)
            return s, out

        return jax.lax.scan(body, state, acts)

    return jax.vmap(one)(states, actions)


def _init(t: Tables, deals: Any, dealer: Any) -> Any:
    return jax.vmap(lambda d, k: start(t, jax.random.key(0), d, k))(deals, dealer)


RUN_CHUNK: Callable[..., Any] = jax.jit(_run_chunk)
INIT: Callable[..., Any] = jax.jit(_init)
FINAL_FIELDS = ("_points", "_weis_credit", "_stoeck_credit", "_scores")


def replay(t: Tables, episodes: list[Episode], game: bool) -> list[str]:
    """Replay ``episodes`` through the JAX environment under ``t``: the disagreements."""
    problems: list[str] = []
    flag = jnp.bool_(game)
    for start_at in range(0, len(episodes), BATCH):
        batch = episodes[start_at : start_at + BATCH]
        deals = np.zeros((BATCH, DEALS, 4, 36), bool)
        dealers = np.zeros(BATCH, np.int32)
        steps = max(len(e.actions) for e in batch)
        chunks = -(-steps // CHUNK)
        actions = np.zeros((BATCH, chunks * CHUNK), np.int32)
        for i, e in enumerate(batch):
            assert len(e.deals) <= DEALS
            deals[i, : len(e.deals)] = e.deals
            dealers[i] = e.dealer
            actions[i, : len(e.actions)] = e.actions
        states = INIT(t, deals, dealers)
        outs: list[list[Any]] = [
            [states.current_player[:, None]],
            [states.legal_action_mask[:, None]],
            [states.observation[:, None]],
            [],
            [],
        ]
        for k in range(chunks):
            states, out = RUN_CHUNK(t, flag, states, actions[:, k * CHUNK : (k + 1) * CHUNK])
            for store, part in zip(outs, out, strict=False):
                store.append(part)
        players, masks, observations = (np.concatenate(o, axis=1) for o in outs[:3])
        rewards, terminated = (np.concatenate(o, axis=1) for o in outs[3:])
        finals = np.concatenate([np.asarray(getattr(states, f)) for f in FINAL_FIELDS], axis=1)
        for i, e in enumerate(batch):
            n = len(e.actions)
            where = f"episode {start_at + i}"
            if not (players[i, : n + 1] == e.players).all():
                problems.append(f"{where}: the seat to act")
            if not (masks[i, : n + 1] == e.masks).all():
                problems.append(f"{where}: the mask")
            bad = np.flatnonzero((observations[i, : n + 1] != e.observations).any(axis=1))
            if len(bad):
                problems.append(f"{where}: the observation at step {bad[0]}")
            if not (rewards[i, :n] == e.rewards).all():
                problems.append(f"{where}: the rewards")
            if terminated[i, : n - 1].any() or not terminated[i, n - 1]:
                problems.append(f"{where}: the end")
            if tuple(int(x) for x in finals[i]) != e.final:
                problems.append(f"{where}: the final points {finals[i].tolist()} != {e.final}")
    return problems


def traced_tables(ruleset: RuleSet) -> Tables:
    """The tables of ``ruleset`` as the environment plays it, as arrays."""
    return device(tables(ruleset_for(ruleset, "auto")))


def contracts_named(episodes: list[Episode]) -> Counter[int]:
    """How often each contract was named (a check that the random play covers them)."""
    named: Counter[int] = Counter()
    for e in episodes:
        for action in e.actions:
            if 36 <= action < 36 + len(Contract.all()):
                named[action - 36] += 1
    return named
