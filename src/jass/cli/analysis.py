"""``jass analyze``: the double-dummy analysis of a saved game, as a table and a picture.

For every card played, with all hands known, the exact solver gives the best card(s) and the
points the card played gave away (:func:`jass.solver.analyze`). ``--svg`` draws the key
positions (the costliest plays) with every hand open.

>>> import jass, tempfile, pathlib
>>> from jass.bots import RuleBot, play_hand
>>> g = play_hand(jass.Game.new(jass.rules.JASSKIT, seed=2).deal(), [RuleBot()] * 4)
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "g.json").write_text(jass.records.dumps(g), encoding="utf-8")
>>> text = analyze_file(folder / "g.json", folder / "key.svg", first_trick=6)
>>> text.splitlines()[0], (folder / "key.svg").read_text().startswith("<svg")
('hand trick seat card  makes  lost  best', True)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from jass.records import loads
from jass.search.worlds import Analysis, analyze_game
from jass.svg import table

__all__ = ["analyze_file", "key_positions_svg"]


def analyze_file(
    path: Path, svg: Path | None = None, backend: str = "auto", first_trick: int = 0,
    threads: int | None = None,
) -> str:  # fmt: skip
    """Analyze the game record at ``path``; write the key positions to ``svg`` if given.

    ``threads`` threads analyze the hands (by default every usable core on the native core):
    one a hand at once, and those the hands leave over split each hand's card values.

    >>> import jass, tempfile
    >>> from pathlib import Path
    >>> from jass.bots import RuleBot, play_hand
    >>> g = play_hand(jass.Game.new(jass.rules.JASSKIT, seed=2).deal(), [RuleBot()] * 4)
    >>> path = Path(tempfile.mkdtemp()) / "game.json"
    >>> _ = path.write_text(jass.records.dumps(g), encoding="utf-8")
    >>> analyze_file(path, first_trick=8).splitlines()[0]
    'hand trick seat card  makes  lost  best'
    """
    game = loads(Path(path).read_text(encoding="utf-8"))
    analysis = analyze_game(game, backend, first_trick, threads)
    if svg is not None:
        Path(svg).write_text(key_positions_svg(game, analysis), encoding="utf-8")
    return analysis.text()


def key_positions_svg(game: object, analysis: Analysis, count: int = 3) -> str:
    """One SVG picture: the position before each key play, all hands open, with a caption.

    >>> import jass
    >>> from jass.bots import RuleBot, play_hand
    >>> from jass.search.worlds import analyze_game
    >>> g = play_hand(jass.Game.new(jass.rules.JASSKIT, seed=2).deal(), [RuleBot()] * 4)
    >>> key_positions_svg(g, analyze_game(g, first_trick=7)).startswith("<svg")
    True
    """
    from jass.engine.game import Game  # noqa: PLC0415

    assert isinstance(game, Game)  # noqa: S101
    setup = game.setup
    current = Game.new(
        game.ruleset, seed=game.seed, scores=setup.scores, dealer=setup.dealer,
        hands_played=setup.hands_played,
    )  # fmt: skip
    wanted = {p.action: p for p in analysis.key_plays(count)}
    parts: list[str] = []
    offset, width = 0.0, 760.0
    for index, action in enumerate(game.history):
        play = wanted.get(index)
        if play is not None:
            best = " ".join(str(c) for c in play.best)
            caption = (
                f"hand {play.hand}, trick {play.trick + 1}: seat {play.seat} played {play.card}, "
                f"best {best}, {play.lost} points given away"
            )
            picture = str(table(current, open_cards=True))
            size = re.search(r'width="([\d.]+)"[^>]*height="([\d.]+)"', picture)
            w, h = (float(size.group(1)), float(size.group(2))) if size else (760.0, 560.0)
            parts.append(
                f'<text x="8" y="{offset + 20:g}" font-family="sans-serif" font-size="16">'
                f"{json.dumps(caption)[1:-1]}</text>"
            )
            parts.append(picture.replace("<svg ", f'<svg x="0" y="{offset + 28:g}" ', 1))
            offset += h + 36
            width = max(width, w)
        current = current.apply(action)
    if not parts:
        parts.append('<text x="8" y="20" font-family="sans-serif">no card gave points away</text>')
        offset = 30
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{offset:g}" '
        f'viewBox="0 0 {width:g} {offset:g}">' + "".join(parts) + "</svg>\n"
    )
