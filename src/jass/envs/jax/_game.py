"""The transitions of a Schieber game in JAX: deal, shove, choose, play (private).

Each function is pure and works on one :class:`~._state.State`; the environment vmaps them.
They are branch-free (``jnp.where``), since under ``vmap`` both sides of a condition run.
The rules are the engine's, re-implemented on arrays, and each piece names its kernel:

- :func:`legal_cards`: :func:`jass.core.play.legal_mask` (rule book R5.5).
- the trick winner: :func:`jass.core.play.trick_winner` (rule book §6), by the contract's
  win keys.
- :func:`_excluded_by`: :func:`jass.engine.view.excluded_cards`, for one card.
- :func:`_credit` and :func:`_credit_step`: ``credit`` and ``credit_step`` of
  ``jass.engine._crediting`` (rule book §9: the ausmach order, Stöck shown to finish).
- the Weis resolution: :func:`jass.core.weis.resolve_weis` (rule book R7.8-R7.9).
- the end of a hand: :func:`jass.core.scoring.end_after_hand`.

The move-for-move test (``tests/test_jax_env.py``) replays engine games through them.

>>> import jax
>>> from jass import rules
>>> from jass.envs.jax._tables import tables
>>> from jass.envs.jax._weis import device
>>> t = device(tables(rules.SCHIEBER))
>>> s = jax.jit(lambda key: start_game(t, key, _no_deals(), None))(jax.random.key(1))
>>> int(s._phase), int(s._hands.sum()), int(s._trick_len)
(1, 36, 0)
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jass.envs.jax._state import State, once, select
from jass.envs.jax._tables import Tables
from jass.envs.jax._weis import hand_weis

__all__: list[str] = []  # private: read by the environment only

Array = jax.Array
DEAL, CHOOSE, PLAY, OVER = 0, 1, 2, 3  # the order of jass.Phase
STOECK_POINTS = 20  # jass.engine._crediting.STOECK_POINTS, rule book R8.1
_STOECK, _WEIS, _TRICK = 0, 1, 2
_CARDS = np.arange(36)
_SUIT_OF = _CARDS // 9
_SEATS = np.arange(4)
_EARLIER = _CARDS[None, :] < _CARDS[:, None]  # [i, j]: card j comes before card i
_TEAMS = np.arange(2)


def take(table: Any, index: Any) -> Array:
    """``table[index]`` along the first axis, as a one-hot select.

    Under ``vmap`` a gather with a batched index is slow on the CPU; a select and a sum
    over a few rows fuse with the arithmetic around them.
    """
    size = table.shape[0]
    hot = (np.arange(size) == index).reshape((size,) + (1,) * (table.ndim - 1))
    if table.dtype == jnp.bool_:
        picked: Array = (table & hot).any(0)
    else:
        picked = jnp.where(hot, table, 0).sum(0).astype(table.dtype)
    return picked


class Rows(NamedTuple):
    """The rule data of the contract in play, per card (see :func:`rows` and :func:`unpack`)."""

    trumps: Array  # (36,) bool
    buur: Array  # (36,) bool
    points: Array  # (36,)
    strength: Array  # (36,): each card's key in a trick led in its own suit
    info: Array  # (36,): the four packed in one int (see pack_row)


_TRUMP_BIT, _BUUR_BIT, _POINTS_SHIFT = 1 << 6, 1 << 7, 8  # the strength takes bits 0-5


def pack_row(t: Tables, contract: Array) -> Array:
    """Contract ``contract``'s data per card packed in one int (-1 reads as 0).

    Read once, when the contract is named, into ``State._row``: a step then reads one
    row, and a trick's cards one number each (``State._trick_info``), not four tables.
    ``tables`` checks that the strengths fit their 6 bits.
    """
    trumps = jnp.where(t.trump_mask, _TRUMP_BIT, 0)
    buur = jnp.where(t.buur_mask, _BUUR_BIT, 0)
    table = t.strength | trumps | buur | (t.points << _POINTS_SHIFT)  # constant in the env
    return take(table.astype(jnp.int32), jnp.clip(contract, 0, 6))


def unpack(info: Array) -> Rows:
    """The :class:`Rows` of packed card data (any shape; a card that is none reads as 0)."""
    return Rows(
        (info & _TRUMP_BIT) > 0, (info & _BUUR_BIT) > 0, info >> _POINTS_SHIFT, info & 63, info
    )


def rows(t: Tables, contract: Array) -> Rows:
    """The rows of contract ``contract`` (-1 reads as 0; it is read only in the play)."""
    return unpack(pack_row(t, contract))


def above(r: Rows, info: Array) -> Array:
    """For each card of packed data ``info``: the trumps that beat it, every card for a non-trump.

    ``Contract.above``, from the strengths (``tests/test_jax_env_api.py`` checks it).
    """
    card = unpack(info)
    beats = r.trumps[None, :] & (r.strength[None, :] > card.strength[:, None])
    return beats | ~card.trumps[:, None]


def _no_deals() -> Array:
    return jnp.zeros((0, 4, 36), bool)


# --- dealing ----------------------------------------------------------------------------------


def _random_deal(key: Array) -> Array:
    """Four hands of nine cards from a shuffled deck, as (4, 36) bools.

    ``jnp.argsort`` of 36 random numbers, by counting (a sort was two thirds of a step of
    ``episode="game"``, which deals at every step under ``vmap``): the same deals.
    """
    u = jax.random.uniform(key, (36,))
    tie = (u[None, :] == u[:, None]) & _EARLIER
    rank = ((u[None, :] < u[:, None]) | tie).sum(1)  # its place in the (stable) sorted order
    place = jnp.where(rank[:, None] == _CARDS, _CARDS[:, None], 0).sum(0)  # argsort(u)
    return (place // 9)[None, :] == _SEATS[:, None]


def _next_hands(deals: Array, number: Array, key: Array) -> Array:
    """Hand ``number``'s cards: ``deals[number]`` while there is one, else a random deal."""
    dealt = _random_deal(key)
    if deals.shape[0] == 0:
        return dealt
    given = deals[jnp.clip(number, 0, deals.shape[0] - 1)]
    return jnp.where(number < deals.shape[0], given, dealt)


def _hand_fields(t: Tables, hands: Array) -> dict[str, Array]:
    """The fields of a freshly dealt hand (the Weis of each seat found at once)."""
    total, cards, key = jax.vmap(lambda h: hand_weis(t, h))(hands)
    total = jnp.where(t.weis, total, 0)
    cards = cards & t.weis
    key = jnp.where(t.weis, key, -1)
    zero2 = jnp.zeros(2, jnp.int32)
    return {
        "_phase": jnp.int32(CHOOSE),
        "_hands": hands,
        "_played": jnp.zeros((4, 36), bool),
        "_excluded": jnp.zeros((4, 36), bool),
        "_trick": jnp.full(4, -1, jnp.int32),
        "_trick_len": jnp.int32(0),
        "_leader": jnp.int32(-1),
        "_contract": jnp.int32(-1),
        "_chooser": jnp.int32(-1),
        "_shoves": jnp.int32(0),
        "_points": zero2,
        "_tricks_won": zero2,
        "_weis_total": total.astype(jnp.int32),
        "_weis_cards": cards,
        "_weis_key": key.astype(jnp.int32),
        "_weis_done": jnp.zeros((), bool),
        "_weis_winner": jnp.int32(-1),
        "_weis_credit": zero2,
        "_stoeck_seat": jnp.int32(-1),
        "_stoeck_done": jnp.zeros((), bool),
        "_stoeck_credit": zero2,
        "_multiplier": jnp.int32(0),
        "_pair": jnp.zeros(36, bool),
        "_row": jnp.zeros(36, jnp.int32),
        "_trick_info": jnp.zeros(4, jnp.int32),
    }


def start_game(t: Tables, key: Array, deals: Array, dealer: Array | None) -> State:
    """A game with its first hand dealt: from ``deals[0]`` if given, else from ``key``.

    ``dealer`` deals the first hand; ``None`` draws it from ``key``. The public fields are
    left for the environment to fill.
    """
    key, deal_key, dealer_key = jax.random.split(key, 3)
    if dealer is None:
        dealer = jax.random.randint(dealer_key, (), 0, 4)
    dealer = jnp.asarray(dealer, jnp.int32)
    number = jnp.int32(0)
    hands = _next_hands(deals, number, deal_key)
    fields = _hand_fields(t, hands)
    return State(
        current_player=(dealer + 1) & 3,
        legal_action_mask=jnp.zeros(48, bool),
        rewards=jnp.zeros(4, jnp.float32),
        terminated=jnp.zeros((), bool),
        truncated=jnp.zeros((), bool),
        _to_move=(dealer + 1) & 3,
        _dealer=dealer,
        _hand_number=number,
        _scores=jnp.zeros(2, jnp.int32),
        _scores_before=jnp.zeros(2, jnp.int32),
        _deals=deals,
        _key=key,
        _weis_on=jnp.asarray(t.weis, bool),
        **fields,
    )


def next_hand(t: Tables, s: State) -> State:
    """The next hand of the game dealt, the deal passed on (``dealer_rotation=ROTATE``)."""
    key, deal_key = jax.random.split(s._key)
    number = s._hand_number + 1
    dealer = (s._dealer + 1) & 3
    hands = _next_hands(s._deals, number, deal_key)
    return dataclasses.replace(
        s,
        _to_move=(dealer + 1) & 3,
        _dealer=dealer,
        _hand_number=number,
        _scores_before=s._scores,
        _key=key,
        **_hand_fields(t, hands),
    )


# --- the rules of card play -------------------------------------------------------------------


def legal_cards(t: Tables, s: State) -> Array:
    """The cards the seat to move may play (36 bools): ``jass.core.play.legal_mask``."""
    hand = take(s._hands, s._to_move)
    r = unpack(s._row)
    pos = s._trick_len
    lead = jnp.clip(s._trick[0], 0, 35)
    led_mask = lead // 9 == _SUIT_OF
    follow = led_mask & hand
    trumps = r.trumps
    held = trumps & hand
    buur = r.buur
    in_trick = pos > _SEATS
    over = held & (above(r, s._trick_info) | ~in_trick[:, None]).all(0)  # R5.3c
    no_trumps = jnp.where(follow.any(), follow, hand)  # R5.2
    trump_led = jnp.where((held & ~buur).any(), held, hand)  # R5.4: the lone Buur
    only_trumps = jnp.where(t.strict_undertrump & over.any(), over, hand)  # R5.3d/e
    plain = jnp.where(
        follow.any(),
        follow | over,  # R5.3a
        jnp.where((held == hand).all(), only_trumps, (~trumps & hand) | over),  # R5.3b
    )
    played_to = jnp.where(
        ~trumps.any(), no_trumps, jnp.where((led_mask & trumps).any(), trump_led, plain)
    )
    return jnp.where(pos == 0, hand, played_to)  # R5.1


def _excluded_by(t: Tables, s: State, card: Array) -> Array:
    """What playing ``card`` tells of its player's hand: ``excluded_cards`` for one card."""
    r = unpack(s._row)
    pos = s._trick_len
    trumps = r.trumps
    led_mask = jnp.clip(s._trick[0], 0, 35) // 9 == _SUIT_OF
    led_trump = (led_mask & trumps).any()
    bit = card == _CARDS
    # The trumps that beat every trump played after the lead so far.
    use = (_SEATS >= 1) & (pos > _SEATS) & unpack(s._trick_info).trumps
    top = (above(r, s._trick_info) | ~use[:, None]).all(0)
    off_suit = (pos > 0) & ~(led_mask & bit).any()
    card_trump = (trumps & bit).any()
    # Neither followed nor trumped: no card of the led suit (on a trump lead, bar the Buur).
    renounce = off_suit & ~card_trump
    news_renounce = jnp.where(led_trump, led_mask & ~r.buur, led_mask)
    # Undertrumped on a plain lead: the hand held trumps only (and none above, if strict).
    under = off_suit & card_trump & ~led_trump & use.any() & ~(top & bit).any()
    news_under = ~trumps | (top & t.strict_undertrump)
    return jnp.where(renounce, news_renounce, news_under & under)


# --- crediting in the ausmach order -----------------------------------------------------------


class Ledger(NamedTuple):
    """What crediting changes: ``jass.engine._crediting.Ledger`` as arrays."""

    scores: Array
    weis_credit: Array
    stoeck_credit: Array
    stoeck_done: Array
    over: Array


def _ledger(s: State) -> Ledger:
    return Ledger(s._scores, s._weis_credit, s._stoeck_credit, s._stoeck_done, jnp.zeros((), bool))


def _credit(
    t: Tables, led: Ledger, kind: int, team: Array, points: Array, mult: Array, do: Array
) -> Ledger:
    """Credit ``points`` (unmultiplied) of ``kind`` to ``team`` if ``do``: ``credit``."""
    do = do & ~led.over
    team = jnp.clip(team, 0, 1)
    amount = points * mult
    before = take(led.scores, team)
    to_team = (team == _TEAMS) & do  # one-hot updates: no scatter under vmap
    scores = led.scores + jnp.where(to_team, amount, 0)
    weis_credit, stoeck_credit, stoeck_done = led.weis_credit, led.stoeck_credit, led.stoeck_done
    if kind == _WEIS:
        weis_credit = weis_credit + jnp.where(to_team, points, 0)
    elif kind == _STOECK:
        stoeck_credit = stoeck_credit + jnp.where(to_team, points, 0)
        stoeck_done = stoeck_done | do
    # end_mode=AUTO: the event that reaches the target ends the game (R9.3).
    reached = (before < t.target) & (before + amount >= t.target)
    over = led.over | (do & t.auto_end & reached)
    # Once: each credit reads the last, and fused into its users the chain ran many times.
    return once(Ledger(scores, weis_credit, stoeck_credit, stoeck_done, over))  # type: ignore[no-any-return]


def _credit_step(
    t: Tables,
    led: Ledger,
    events: list[tuple[int, Array, Array, Array]],
    mult: Array,
    stoeck_seat: Array,
) -> Ledger:
    """Credit a scoring step's events, in order: ``credit_step``, Stöck claims included.

    ``events`` are ``(kind, team, points, valid)`` in the ausmach order. Unscored Stöck are
    shown to finish (R9.4): alone when their points finish, before the events; together
    with an event of the holder's team that falls short by no more than them.
    """
    stoeck = STOECK_POINTS * mult
    claiming = t.claim_stoeck & (stoeck_seat >= 0) & ~led.stoeck_done
    claimer = jnp.where(claiming, stoeck_seat & 1, -1)
    active = claimer >= 0
    alone = active & (take(led.scores, claimer) + stoeck >= t.target)
    led = _credit(t, led, _STOECK, claimer, jnp.int32(STOECK_POINTS), mult, alone)
    for kind, team, points, valid in events:
        do = valid & ~alone
        total = take(led.scores, team) + points * mult
        together = do & active & (team == claimer) & (total < t.target)
        together = together & (t.target <= total + stoeck)
        led = _credit(t, led, _STOECK, team, jnp.int32(STOECK_POINTS), mult, together)
        active = active & ~together
        led = _credit(t, led, kind, team, points, mult, do)
    return led


# --- the actions --------------------------------------------------------------------------------


def choose(t: Tables, s: State, action: Array) -> State:
    """Shove (43) or name the contract ``action - 36`` (rule book §4); the forehand leads."""
    shove = action == 43
    contract = jnp.clip(action - 36, 0, 6)
    forehand = (s._dealer + 1) & 3
    pair = take(t.stoeck_pair, contract)
    holds = ((s._hands & pair[None, :]) == pair[None, :]).all(1) & pair.any()
    stoeck_seat = jnp.where(holds.any(), jnp.argmax(holds), -1).astype(jnp.int32)
    mult = take(t.multiplier, contract)
    chosen = dataclasses.replace(
        s,
        _phase=jnp.int32(PLAY),
        _contract=contract.astype(jnp.int32),
        _chooser=s._to_move,
        _leader=forehand,
        _to_move=forehand,
        _stoeck_seat=stoeck_seat,
        _multiplier=mult,
        _pair=pair,
        _row=pack_row(t, contract),
    )
    # Stöck that finish at once (R9.4).
    led = _credit_step(t, _ledger(chosen), [], mult, stoeck_seat)
    chosen = dataclasses.replace(
        _apply_ledger(chosen, led),
        _phase=jnp.where(led.over, OVER, PLAY).astype(jnp.int32),
        _to_move=jnp.where(led.over, -1, forehand).astype(jnp.int32),
    )
    shoved = dataclasses.replace(s, _shoves=s._shoves + 1, _to_move=(s._to_move + 2) & 3)
    return select(shove, shoved, chosen)


def _apply_ledger(s: State, led: Ledger) -> State:
    return dataclasses.replace(
        s,
        _scores=led.scores,
        _weis_credit=led.weis_credit,
        _stoeck_credit=led.stoeck_credit,
        _stoeck_done=led.stoeck_done,
    )


def _resolve_weis(s: State, c: Array) -> tuple[Array, Array, Array]:
    """The seat with the best Weis (-1: none), its team and the team's points (R7.8-R7.9)."""
    forehand = (s._dealer + 1) & 3
    position = 3 - ((_SEATS - forehand) & 3)  # nearer the forehand wins a tie
    key = jnp.where(np.arange(7) == c, s._weis_key, 0).sum(1)
    full = jnp.where(key >= 0, key * 4 + position, -1)
    winner = jnp.argmax(full).astype(jnp.int32)
    has = full.max() >= 0
    team = winner & 1
    points = jnp.where(team == (_SEATS & 1), s._weis_total, 0).sum()
    return jnp.where(has, winner, -1), team, jnp.where(has, points, 0)


#: The fields :func:`play` leaves as they are when it plays no card (-1) at a trick's start.
NO_CARD_KEEPS = frozenset(
    {"_hands", "_played", "_excluded", "_trick", "_points", "_tricks_won", "_weis_done"}
    | {"_weis_winner"}
)


def play(t: Tables, s: State, card: Array) -> State:
    """Play ``card`` for the seat to move: Stöck, the trick, the Weis, the end of the hand.

    ``card`` -1 plays none: at a trick's start it leaves the fields of ``NO_CARD_KEEPS``
    as they are, so a step of the choice merges only the small fields (see ``env._move``).
    """
    seat = jnp.clip(s._to_move, 0, 3)
    c = jnp.clip(s._contract, 0, 6)
    r = unpack(s._row)
    mult = s._multiplier
    bit = card == _CARDS  # all False for no card
    hand_left = take(s._hands, seat) & ~bit
    mover = (seat == _SEATS)[:, None]
    hands = s._hands & ~(mover & bit[None, :])
    played = s._played | (mover & bit[None, :])
    excluded = s._excluded | (mover & _excluded_by(t, s, card)[None, :])
    pos = s._trick_len
    trick = jnp.where(pos == _SEATS, card, s._trick)
    trick_info = jnp.where(pos == _SEATS, jnp.where(bit, r.info, 0).sum(), s._trick_info)
    # Stöck: scored with the second of trump King and Queen (R8.1).
    pair = s._pair
    stoeck = (seat == s._stoeck_seat) & (pair & bit).any() & ~(hand_left & pair).any()
    stoeck = stoeck & ~s._stoeck_done
    # credit_step of a Stöck event claims nothing: plain crediting.
    led = _credit(t, _ledger(s), _STOECK, seat & 1, jnp.int32(STOECK_POINTS), mult, stoeck)
    stoeck_over = led.over
    complete = (pos == 3) & ~stoeck_over
    # The trick: its winner, its points, the Weis after trick 1.
    cards = unpack(trick_info)
    strength = cards.strength
    led_suit = jnp.clip(trick[0], 0, 35) // 9
    keys = jnp.where(cards.trumps | (trick // 9 == led_suit), strength, -1)
    winner = (s._leader + jnp.argmax(keys)) & 3
    team = winner & 1
    taken = cards.points.sum()
    tricks_won = s._tricks_won + ((team == _TEAMS) & complete)
    completed = tricks_won.sum()
    last = completed == 9
    declaring = (s._dealer + 1) & 1
    bonus = jnp.where(team == declaring, take(t.match_bonus, c), take(t.counter_match_bonus, c))
    trick_points = (
        taken + jnp.where(last, 5, 0) + jnp.where(last & (tricks_won[team] == 9), bonus, 0)
    )
    trick_event = (_TRICK, team ^ take(t.credit_swap, c), trick_points, complete)
    first = complete & (completed == 1)
    found, weis_team, weis_points = _resolve_weis(s, c)
    weis_due = first & (found >= 0) & t.weis
    # The ausmach order Stöck, Weis, Stich (the only one the tables accept).
    events = [(_WEIS, weis_team, weis_points, weis_due), trick_event]
    weis_winner = jnp.where(first & t.weis, found, s._weis_winner)
    led = _credit_step(t, led, events, mult, s._stoeck_seat)
    over = led.over
    points = s._points + jnp.where((team == _TEAMS) & complete, taken + jnp.where(last, 5, 0), 0)
    # The end of the hand: a game of fixed length, or END_OF_HAND (end_after_hand).
    hand_done = complete & last & ~over
    scores = led.scores
    past = t.end_of_hand & (scores.max() >= t.target) & (scores[0] != scores[1])
    ends = jnp.where(t.hands > 0, s._hand_number + 1 >= t.hands, past)
    phase = jnp.where(over | (hand_done & ends), OVER, jnp.where(hand_done, DEAL, PLAY)).astype(
        jnp.int32
    )
    in_play = phase == PLAY
    to_move = jnp.where(in_play, jnp.where(complete, winner, (seat + 1) & 3), -1)
    leader = jnp.where(complete, jnp.where(hand_done, -1, winner), s._leader)
    return dataclasses.replace(
        _apply_ledger(s, led),
        _phase=phase,
        _to_move=to_move.astype(jnp.int32),
        _hands=hands,
        _played=played,
        _excluded=excluded,
        _trick=jnp.where(complete, -1, trick),
        _trick_info=jnp.where(complete, 0, trick_info),
        _trick_len=jnp.where(complete, 0, pos + 1).astype(jnp.int32),
        _leader=leader.astype(jnp.int32),
        _points=points,
        _tricks_won=tricks_won,
        _weis_done=s._weis_done | (first & t.weis),
        _weis_winner=weis_winner,
    )
