"""``jass play`` as a person plays it: scripted answers at the prompts, the screen checked.

The expected screen contents are written out here by hand (contract words, seat labels, suit
symbols) or taken from the engine's record of the game, never from the display code itself.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import shlex
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jass import Card, Contract, Game, Seat, Suit, find_weis, rules
from jass.bots import RuleBot
from jass.cli.commands import main
from jass.cli.terminal import TerminalGame
from jass.naming import Names
from jass.records import loads

LABEL = {0: "you", 1: "right", 2: "partner", 3: "left"}
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SWISS_RANKS = ("6", "7", "8", "9", "Banner", "Under", "Ober", "König", "Ass")
# SCHIEBER_1000 counts every contract once.
FLAT_WORDS = {
    Contract.trump(Suit.SPADES): "Trumpf Schaufel ×1",
    Contract.trump(Suit.HEARTS): "Trumpf Herz ×1",
    Contract.trump(Suit.DIAMONDS): "Trumpf Ecken ×1",
    Contract.trump(Suit.CLUBS): "Trumpf Kreuz ×1",
    Contract.OBENABE: "Obenabe ×1",
    Contract.UNDENUFE: "Undenufe ×1",
}
# The SWISSLOS pairing: ♠ Schilten, ♥ Rosen, ♦ Eicheln, ♣ Schellen.
SWISS_SUITS = ("Schilten", "Rosen", "Eicheln", "Schellen")
SWISS_WORDS = {
    Contract.trump(Suit.SPADES): "Trumpf Schilten ×1",
    Contract.trump(Suit.HEARTS): "Trumpf Rosen ×1",
    Contract.trump(Suit.DIAMONDS): "Trumpf Eicheln ×1",
    Contract.trump(Suit.CLUBS): "Trumpf Schellen ×1",
    Contract.OBENABE: "Obenabe ×1",
    Contract.UNDENUFE: "Undenufe ×1",
}


def french(card: Card) -> str:
    return "♠♥♦♣"[card.suit] + RANKS[card.rank]


def swiss(card: Card) -> str:
    return f"{SWISS_SUITS[card.suit]} {SWISS_RANKS[card.rank]}"


@dataclass
class Player:
    """Answers the prompts: the scripted answers first, then a simple policy by question."""

    script: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    numbers: Iterator[int] = field(default_factory=lambda: iter(range(10**6)))

    def __call__(self, question: str) -> str:
        self.questions.append(question)
        if len(self.questions) > 5000:
            raise AssertionError("the game asks forever")
        if self.script:
            answer = self.script.pop(0)
            if answer == "EOF":
                raise EOFError
            return answer
        if question.startswith(("Trumpf?", "Your card?")):
            return str(next(self.numbers) % 9 + 1)  # some are refused; one is legal
        if question.startswith("Declare which?"):
            return "all"
        return "n"  # thank now? save the game?


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: Sequence[str],
    player: Callable[[str], str],
) -> tuple[int, str]:
    monkeypatch.setattr("builtins.input", player)
    fast = [] if "--bots" in arguments else ["--bots", "rule"]  # Monte Carlo: see test_cli
    status = main(["play", *fast, *arguments])
    return status, capsys.readouterr().out


def states(game: Game) -> list[Game]:
    """Every state of a recorded game, from the start."""
    current = game.initial_state()
    found = [current]
    for action in game.history:
        current = current.apply(action)
        found.append(current)
    return found


def expected_lines(
    game: Game, card_name: Callable[[Card], str], words: dict[Contract, str]
) -> tuple[set[str], set[str]]:
    """The status lines of every screen seat 0 saw, and every completed trick's line."""
    screens: set[str] = set()
    tricks: set[str] = set()
    for state in states(game):
        hand = state.hand_info
        if state.to_move == Seat(0) and hand is not None and hand.contract is not None:
            chooser = hand.chooser
            assert chooser is not None
            screens.add(
                f"Hand {hand.number + 1} · {words[hand.contract]} · chosen by {LABEL[chooser]}"
            )
            us, them = state.scores
            screens.add(f"Us (you + partner) {us} · Them (right + left) {them} · target 1000")
        for number, trick in enumerate(state.tricks, start=1):
            cards = " · ".join(
                f"{LABEL[(trick.leader + i) % 4]} {card_name(card)}"
                for i, card in enumerate(trick.cards)
            )
            verb = "take" if trick.winner == 0 else "takes"
            tricks.add(f"  trick {number}: {cards} → {LABEL[trick.winner]} {verb} {trick.points}")
    return screens, tricks


def test_a_whole_game_through_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    player = Player(["zz", "99"])  # two bad answers first
    status, out = play(
        monkeypatch,
        capsys,
        ["--seed", "3", "--rules", "schieber_1000", "--save", str(record)],
        player,
    )
    assert status == 0
    game = loads(record.read_text(encoding="utf-8"))
    assert game.is_over
    assert "seed 3" in out.splitlines()[0]
    screens, tricks = expected_lines(game, french, FLAT_WORDS)
    assert game.hands_played > 1
    for line in screens | tricks:
        assert line in out, line
    # Every trick of the game is told once, with who played what.
    history = states(game)
    completed = sum(len(b.tricks) > len(a.tricks) for a, b in itertools.pairwise(history))
    assert sum(line.startswith("  trick ") for line in out.splitlines()) == completed
    winner = "you win" if game.winner == 0 else "they win"
    us, them = game.scores
    assert game.result is not None
    hands = game.result.hands_played
    assert f"Game over after {hands} hands: {winner} (us {us}, them {them};" in out
    assert f"Saved the game to {record}" in out
    # The bad answers were refused with a reason.
    assert "'zz' is not a card: type its number, or its name like ♥J, JH or Herz Bube" in out
    assert "choose a card number from 1 to 9, or a card's name" in out


def saved_actions(path: Path) -> list[dict[str, object]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    actions: list[dict[str, object]] = data["actions"]
    return actions


# Seeds found once with the engine: seat 0 is forehand at seed 12 (RuleBot partner) and at
# seed 74 (holding two Dreiblatt); at seed 2 the forehand is the partner, and RuleBot shoves.
FOREHAND, WEIS_SEED, PARTNER_SHOVES = 12, 74, 2


def test_the_seeds_are_what_the_tests_say() -> None:
    assert Game.new(seed=FOREHAND).deal().to_move == Seat(0)
    assert Game.new(seed=WEIS_SEED).deal().to_move == Seat(0)
    dealt = Game.new(seed=PARTNER_SHOVES).deal()
    assert dealt.to_move == Seat(2)
    assert RuleBot(2).choose_action(dealt.view(2)).__class__.__name__ == "Shove"


def test_swiss_mode_shows_no_french_name_in_a_whole_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "swiss.json"
    player = Player(["?", "Rosen Tschau", "Schilte Ass"])
    arguments = ["--swiss", "--seed", "3", "--rules", "schieber_1000", "--save", str(record)]
    status, out = play(monkeypatch, capsys, arguments, player)
    assert status == 0
    game = loads(record.read_text(encoding="utf-8"))
    assert game.is_over
    screens, tricks = expected_lines(game, swiss, SWISS_WORDS)
    for line in screens | tricks:
        assert line in out, line
    assert "'Rosen Tschau' is not a card: type its number, or its name like Rosen Under" in out
    assert "cards: Rosen Under, Eichel 9, Schelle Banner" in out  # the help, in Swiss words
    assert (
        "Schilten (Trumpf)" in out
        or "Rosen (Trumpf)" in out
        or "Eicheln (Trumpf)" in out
        or ("Schellen (Trumpf)" in out or "Obenabe" in out or "Undenufe" in out)
    )
    for french_name in (r"[♠♥♦♣♤♡♢♧]", r"\b(Herz|Schaufel|Ecken|Kreuz|Pik|Karo|Bube|Dame)\b",
                        r"\b(10|[6-9JQKAT])[SHDC]\b", r"TRUMP_|OBENABE|UNDENUFE"):  # fmt: skip
        assert re.search(french_name, out) is None, re.search(french_name, out)


@pytest.mark.parametrize(
    ("pairing", "contract", "words"),
    [
        ("SWISSLOS", "TRUMP_DIAMONDS", "Trumpf Eicheln ×1"),
        ("WIKIPEDIA", "TRUMP_CLUBS", "Trumpf Eicheln ×2"),
        ("PARLETT", "TRUMP_CLUBS", "Trumpf Eicheln ×2"),
    ],
)
def test_a_contract_named_by_a_swiss_suit_follows_the_suit_pairing(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    pairing: str,
    contract: str,
    words: str,
) -> None:
    record = tmp_path / "game.json"
    arguments = ["--swiss", "--seed", str(FOREHAND), "--option", f"suit_pairing={pairing}"]
    status, out = play(
        monkeypatch, capsys, [*arguments, "--save", str(record)], Player(["Eichel", "EOF"])
    )
    assert status == 0
    assert saved_actions(record)[1] == {"choose": contract}
    assert f"  you choose {words}" in out


def test_s_is_never_taken_for_shove_or_for_spades(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # As forehand: "s" is refused, "schiebe" shoves.
    record = tmp_path / "forehand.json"
    status, out = play(
        monkeypatch, capsys, ["--seed", str(FOREHAND), "--save", str(record)],
        Player(["s", "schiebe", "EOF"]),
    )  # fmt: skip
    assert status == 0
    assert "'s' is too short to be sure: type the number, or the whole name" in out
    assert "  you shove to partner" in out
    assert saved_actions(record)[1] == {"shove": True}
    # After the partner shoved: "s" is still refused (it used to choose spades), and shoving
    # again is refused with the rule.
    record = tmp_path / "partner.json"
    status, out = play(
        monkeypatch, capsys, ["--seed", str(PARTNER_SHOVES), "--save", str(record)],
        Player(["s", "schiebe", "Trumpf", "Misère", "9", "obenabe", "EOF"]),
    )  # fmt: skip
    assert status == 0
    assert "  partner shoves to you" in out
    assert "Hand 1 · no trumps yet: partner shoved, you choose" in out
    assert "'s' is too short to be sure" in out
    assert "cannot shove: the choice was already shoved and allow_shove_back is off" in out
    assert "'Trumpf' is not a contract: type the number, or a name" in out
    assert "Misère is not allowed by these rules" in out
    assert "choose a number from 1 to 6" in out  # no shove among the options now
    assert "schiebe (shove" not in out.split("partner shoves to you")[1]
    assert saved_actions(record)[1:3] == [{"shove": True}, {"choose": "OBENABE"}]
    assert "Hand 1 · Obenabe ×3 · chosen by you (partner shoved)" in out


def test_declaring_weis_by_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    arguments = ["--seed", str(WEIS_SEED), "--option", "weis_declaration=MANUAL"]
    answers = ["obenabe", "3", "x", "none", "weis", "2", "weis", "1", "EOF"]
    status, out = play(monkeypatch, capsys, [*arguments, "--save", str(record)], Player(answers))
    assert status == 0
    assert "You may declare Weis: [1] Dreiblatt Kreuz 10–Q (20)  [2] Dreiblatt Herz 7–9 (20)" in out
    assert "'3': give numbers from 1 to 2, all or none" in out
    assert "'x': give numbers from 1 to 2, all or none" in out
    assert "(not declared; 'weis' declares them)" in out
    assert "  you declare Dreiblatt Herz 7–9 (20)" in out
    assert "  you have no Weis to declare now" in out  # declared once: no second time
    assert saved_actions(record)[2] == {"declare": ["7H 8H 9H"]}
    assert "rules SCHIEBER with weis_declaration=MANUAL (target 2500)" in out


@pytest.mark.parametrize(
    "preset", sorted(name for name, preset in rules.PRESETS.items() if preset.weis)
)
def test_weis_are_declared_by_hand_under_every_preset_with_weis(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    preset: str,
) -> None:  # fmt: skip
    manual = rules.PRESETS[preset].evolve(weis_declaration="MANUAL")

    seed = next(
        s for s in range(1000)
        if (g := Game.new(manual, seed=s).deal()).to_move == Seat(0)
        and find_weis(g.hands[0], manual)
    )  # fmt: skip
    record = tmp_path / "game.json"
    arguments = ["--rules", preset, "--seed", str(seed), "--option", "weis_declaration=MANUAL"]
    status, out = play(
        monkeypatch, capsys, [*arguments, "--save", str(record)], Player(["1", "all", "EOF"])
    )
    assert status == 0
    assert "You may declare Weis: [1] " in out
    held = find_weis(Game.new(manual, seed=seed).deal().hands[0], manual)
    assert saved_actions(record)[2] == {"declare": [str(w.cards) for w in held]}


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("weis=maybe", "jass: --option 'weis=maybe': weis is true or false"),
        ("target=abc", "jass: --option 'target=abc': target is a whole number"),
        ("hands=x", "jass: --option 'hands=x': hands is a whole number or none"),
        ("nonsense=1",
         "jass: --option 'nonsense=1': unknown option 'nonsense'; options: suit_pairing,"),
        ("target", "jass: --option 'target': write NAME=VALUE, e.g. target=1000"),
        ("=5", "jass: --option '=5': write NAME=VALUE"),
        ("target=-5",
         "jass: --option: RuleSet option 'target' must be a positive integer, got int -5"),
        ("weis_declaration=SOMETIMES",
         "jass: --option: RuleSet option 'weis_declaration' must be one of WeisDeclaration "
         "AUTO, MANUAL"),
        ("multipliers=1,x",
         "jass: --option 'multipliers=1,x': multipliers is a preset name or six whole numbers"),
        ("multipliers=1,2", "jass: --option: RuleSet option 'multipliers'"),
        ("contracts=hearts,nothing", "jass: --option: RuleSet option 'contracts'"),
        ("first_hand_marker=ZZ", "jass: --option: RuleSet option 'first_hand_marker'"),
    ],
)  # fmt: skip
def test_bad_rule_options_are_refused_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str, message: str
) -> None:
    status, out = play(monkeypatch, capsys, ["--option", option], Player(["EOF"]))
    assert status == 2
    assert out.startswith(message), out
    assert "Hand 1" not in out  # nothing was played


def test_rule_options_change_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    options = ["target=300", "multipliers=FLAT", "kreuzweis=no", "contracts=hearts, obenabe",
               "allow-shove-back=true", "hands=none", "multipliers=1,1,2,2,3,3"]  # fmt: skip
    arguments = [f"--option={option}" for option in options]
    status, out = play(
        monkeypatch, capsys, [*arguments, "--seed", str(FOREHAND), "--save", str(record)],
        Player(["EOF"]),
    )  # fmt: skip
    assert status == 0
    assert "(target 300)" in out
    assert "  [1] Trumpf Herz ×1\n  [2] Obenabe ×3\n  [3] schiebe" in out  # the last one counts
    changes = json.loads(record.read_text(encoding="utf-8"))["rules"]["changes"]
    assert changes["target"] == 300
    assert changes["kreuzweis"] is False
    assert changes["allow_shove_back"] is True
    assert sorted(changes["contracts"]) == ["OBENABE", "TRUMP_HEARTS"]


def test_thanking_is_explained_and_confirmed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    answers = ["bedanke", "maybe", "n", "thank", "ja"]
    status, out = play(monkeypatch, capsys, ["--seed", "3", "--save", str(record)], Player(answers))
    assert status == 0
    assert "Bedanken: your team says it has reached the target, and the game stops at once." in out
    assert "If your team has reached 2500, you win; if not, you lose, whatever the score." in out
    assert "Your team has 0 of 2500." in out
    assert "please answer y (yes) or n (no)" in out
    assert "  play on" in out
    assert "  your team thanks (bedankt sich): it says it has reached the target" in out
    assert "Game over after 1 hand: they win (us 0, them 0; a team thanked without having" in out
    assert saved_actions(record)[-1] == {"thank": 0}
    game = loads(record.read_text(encoding="utf-8"))
    assert game.winner == 1


def test_thanking_where_the_rules_have_none(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = play(
        monkeypatch, capsys, ["--seed", "3", "--rules", "TOURNAMENT_12"], Player(["bedanke", "EOF"])
    )
    assert status == 0
    assert "  cannot thank: the game has a fixed number of hands" in out
    assert "Bedanken:" not in out
    assert "hand 1 of 12" in out


def test_quit_offers_to_save_and_the_record_replays(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    target = tmp_path / "left.json"
    bad = tmp_path / "no" / "such" / "dir.json"
    answers = ["1", "1", "quit", "perhaps", "y", str(bad), str(target)]
    status, out = play(monkeypatch, capsys, ["--seed", "3"], Player(answers))
    assert status == 0
    assert "You leave the table." in out
    assert f"  cannot write {bad}: No such file or directory" in out
    assert f"Saved the game to {target}; replay it with: jass replay {target}" in out
    assert out.rstrip().endswith("bye")
    game = loads(target.read_text(encoding="utf-8"))
    assert [seat for seat, _ in game.plays].count(Seat(0)) == 2  # the two cards played
    assert main(["replay", str(target)]) == 0
    replayed = capsys.readouterr().out
    assert "the record is valid" in replayed
    # The replay tells the same tricks, with seats by number.
    first = game.tricks[0] if game.tricks else None
    assert first is not None
    assert f"  trick 1: seat {int(first.leader)} " in replayed


def test_the_default_file_name_holds_the_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out = play(monkeypatch, capsys, ["--seed", "41"], Player(["q", "y", ""]))
    assert status == 0
    assert (tmp_path / "jass-41.json").is_file()
    assert "Saved the game to jass-41.json" in out


def test_the_seed_is_shown_and_saved_when_none_is_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    status, out = play(monkeypatch, capsys, ["--save", str(record)], Player(["EOF"]))
    assert status == 0
    # play() adds --bots rule, which the hint keeps.
    hint = r"· seed (\d+)\n  \(jass play --seed (\d+) --bots rule deals the same cards again\)"
    found = re.search(hint, out)
    assert found is not None
    assert found[1] == found[2]
    assert json.loads(record.read_text(encoding="utf-8"))["seed"] == int(found[1])


def test_save_into_a_missing_directory_is_refused_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out = play(
        monkeypatch, capsys, ["--save", str(tmp_path / "no" / "x.json")], Player(["EOF"])
    )
    assert status == 2
    assert "does not exist" in out
    assert "Hand 1" not in out


@pytest.mark.parametrize(
    ("arguments", "answers"),
    [
        (["--seed", str(FOREHAND)], ["EOF"]),  # the contract
        (["--seed", str(WEIS_SEED), "--option", "weis_declaration=MANUAL"], ["obenabe", "EOF"]),
        (["--seed", "3"], ["EOF"]),  # a card
        (["--seed", "3"], ["bedanke", "EOF"]),  # the thank's confirmation
        (["--seed", "3"], ["q", "EOF"]),  # save?
        (["--seed", "3"], ["q", "y", "EOF"]),  # the file name
        (["--seed", "3", "--swiss"], ["?", "EOF"]),
    ],
)
def test_end_of_input_at_any_question_ends_the_game_quietly(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    arguments: list[str],
    answers: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out = play(monkeypatch, capsys, arguments, Player(answers))
    assert status == 0
    assert out.rstrip().endswith("bye")
    assert list(tmp_path.iterdir()) == []  # nothing saved unasked


def test_ctrl_c_at_a_question_exits_with_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(question: str) -> str:
        raise KeyboardInterrupt

    status, _ = play(monkeypatch, capsys, ["--seed", "3"], interrupted)
    assert status == 130


def test_answers_from_a_pipe_are_echoed_into_the_transcript(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("7\nq\nn\n"))
    assert main(["play", "--seed", "3", "--bots", "rule"]) == 0
    out = capsys.readouterr().out
    assert "Your card? (number or name; ? for help) 7\n" in out
    assert "Save the game to replay it later? [y/n] n\n" in out


def test_terminal_game_needs_a_bot_for_every_other_seat() -> None:
    with pytest.raises(ValueError, match=r"a bot for every other seat: \[<Seat.S3: 3>\]"):
        TerminalGame(Game.new(seed=1), {1: RuleBot(1), 2: RuleBot(2)})


_ANSWERS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "q",
            "?",
            "bedanke",
            "y",
            "n",
            "weis",
            "schiebe",
            "s",
            "all",
            "none",
            "1 2",
            "0",
            "99",
            "-1",
            "²",
            "9" * 5000,
            "JH",
            "Rosen Under",
            "obenabe",
            "Trumpf",
            "Misère",
            "ja",
            "",
        ]
    ),
    st.integers(min_value=0, max_value=12).map(str),
)


@settings(max_examples=60)
@given(
    st.lists(_ANSWERS, max_size=40),
    st.integers(min_value=0, max_value=200),
    st.booleans(),
    st.sampled_from([None, "SWISSLOS", "PARLETT"]),
)
def test_any_answers_end_in_a_game_or_a_quiet_exit(
    answers: list[str], seed: int, manual: bool, pairing: str | None
) -> None:
    ruleset = rules.SCHIEBER.evolve(weis_declaration="MANUAL" if manual else "AUTO")
    out = io.StringIO()
    player = Player(list(answers))
    player.script.append("EOF")
    # An answer may be taken as the file to save to: the game runs in a directory of its own.
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            game = TerminalGame(
                Game.new(ruleset, seed=seed),
                {seat: RuleBot(seat) for seat in (1, 2, 3)},
                names=Names(pairing),
                ask=player,
                out=out,
            ).run()
        finally:
            os.chdir(here)
    text = out.getvalue()
    assert game.is_over or text.rstrip().endswith("bye")
    assert "Traceback" not in text


# --- the rerun hint, Enter alone, the pause after a hand ----------------------------------


def _hint(out: str) -> str:
    found = re.search(r"\n  \((jass play .*) deals the same cards again\)\n", out)
    assert found is not None, out[:600]
    return found[1]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            ["--seed", "63", "--swiss", "--option", "weis_declaration=MANUAL"],
            "jass play --seed 63 --bots rule --swiss --option weis_declaration=MANUAL",
        ),
        (
            ["--rules", "SCHIEBER_1000", "--seed", "5", "--option", "contracts=hearts obenabe",
             "--option", "target=800", "--color", "never"],
            "jass play --seed 5 --rules SCHIEBER_1000 --bots rule "
            "--option 'contracts=hearts obenabe' --option target=800",
        ),
    ],
)  # fmt: skip
def test_the_rerun_hint_keeps_the_options(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    expected: str,
) -> None:
    status, out = play(monkeypatch, capsys, arguments, Player(["q", "n"]))
    assert status == 0
    assert _hint(out) == expected
    # The hint, run, starts the same game: same header line.
    again = shlex.split(expected)
    assert again[:2] == ["jass", "play"]
    status, rerun = play(monkeypatch, capsys, again[2:], Player(["q", "n"]))
    assert status == 0
    assert rerun.splitlines()[0] == out.splitlines()[0]
    assert _hint(rerun) == expected


def test_enter_alone_asks_again_without_an_error() -> None:
    player = Player(["", "", "1", "", "", "q", "n"])  # Enter twice at Trumpf? and at the card
    out = io.StringIO()
    game = Game.new(seed=FOREHAND)
    TerminalGame(game, {s: RuleBot(s) for s in (1, 2, 3)}, ask=player, out=out).run()
    asked = [q.split("?")[0] for q in player.questions]
    assert asked[:3] == ["Trumpf"] * 3
    assert asked[3:6] == ["Your card"] * 3
    assert "is not a" not in out.getvalue()
    assert "choose a" not in out.getvalue()


class _Pauser(Player):
    """Answers like Player, and notes the screen each time it is asked to press Enter."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.seen_at_pause: list[str] = []

    def __call__(self, question: str) -> str:
        if question.startswith("Press Enter"):
            self.seen_at_pause.append(self.out.getvalue())
            return ""
        return super().__call__(question)


@pytest.mark.parametrize("pause", [True, False])
def test_the_score_of_a_hand_waits_for_enter(pause: bool) -> None:
    out = io.StringIO()
    player = _Pauser(out)
    bots = {s: RuleBot(s) for s in (1, 2, 3)}
    game = Game.new(rules.SCHIEBER_1000, seed=3)
    game = TerminalGame(game, bots, ask=player, out=out, pause=pause).run()
    assert game.is_over
    assert game.result is not None
    hands = game.result.hands_played
    assert hands > 1
    if not pause:
        assert player.seen_at_pause == []
        return
    # Once after every hand but the last, with that hand's score the last thing on screen.
    assert len(player.seen_at_pause) == hands - 1
    for number, screen in enumerate(player.seen_at_pause, start=1):
        assert f"Hand {number} score:" in screen
        assert f"Hand {number + 1} ·" not in screen
        assert screen.rstrip().splitlines()[-1].startswith("  this hand us +")
