"""Our legal cards against the real jass-kit 2.0.5's, at every position of many random hands.

jass-kit plays seeded random hands in its own environment (``kit_scripts/kit_positions.py``);
here each position is read with :func:`jass.records.from_jasskit` and our
``legal_moves()`` must equal jass-kit's ``get_valid_cards``, but for one known difference,
jass-kit's issue #10 (R5.6): with two trumps in the trick, its undertrump ban compares against
the one that is lower in the natural order (``lowest_trump_played`` in its
``rule_schieber.py``), not against the highest trump in the trick (R5.3c).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jass import CardSet, InvalidInputError, rules
from jass.records import from_jasskit
from tests import kitenv
from tests.kitenv import ISSUE_10, issue_10_extra, kit_card

HANDS = 200
SEED = 10


def test_issue_10_shape_matches_the_rule_books_example() -> None:
    # R5.6: 7D, 6C, AC with clubs trump; jass-kit allows KC, lower than AC.
    state = {
        "trump": 3, "currentPlayer": 0,
        "tricks": [{"cards": ["D7", "C6", "CA"]}],
        "player": [{"hand": ["CK", "CJ", "C7", "D6", "H6"]}, {}, {}, {}],
    }  # fmt: skip
    assert issue_10_extra(state) == {"CK", "C7"}
    assert issue_10_extra({**state, "trump": 4}) == set()
    assert issue_10_extra({**state, "player": [{"hand": ["CK", "CJ"]}, {}, {}, {}]}) == set()


@pytest.mark.jasskit
def test_our_legal_cards_equal_jasskits_but_for_issue_10(kit_python: Path) -> None:
    hands = kitenv.run_script(kit_python, "kit_positions.py", HANDS, SEED)
    assert len(hands) == HANDS
    compared = issue_10_positions = issue_10_played = 0
    for number, positions in enumerate(hands):
        assert len(positions) == 36
        for index, position in enumerate(positions):
            state = position["state"]
            where = f"hand {number}, card {index}: {state}"
            game = from_jasskit(state, rules.JASSKIT)
            theirs = CardSet(kit_card(card) for card in position["valid"])
            extra = CardSet(kit_card(card) for card in issue_10_extra(state))
            assert game.legal_moves() | extra == theirs, f"not only the {ISSUE_10}; {where}"
            assert not game.legal_moves() & extra, where
            compared += 1
            if extra:
                issue_10_positions += 1
            if kit_card(position["played"]) in extra:
                # jass-kit undertrumped; from_jasskit refuses the rest of this hand.
                issue_10_played += 1
                after = positions[index + 1]["state"] if index < 35 else None
                if after is not None:
                    with pytest.raises(InvalidInputError, match="undertrump"):
                        from_jasskit(after, rules.JASSKIT)
                break
    print(
        f"\n{compared} positions of {HANDS} jass-kit hands compared; {issue_10_positions} had "
        f"the issue #10 shape, in {issue_10_played} hands jass-kit undertrumped so and the "
        f"rest of the hand was not compared"
    )
    assert compared > 30 * HANDS
    assert issue_10_positions >= 3, f"the run met too few positions of the {ISSUE_10}"
    assert issue_10_played >= 1, "no hand had jass-kit's issue #10 undertrump played"
