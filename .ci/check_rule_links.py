"""Check the built HTML docs: every rule number cited in prose is a link to the rule book.

Usage: ``python .ci/check_rule_links.py docs/_build/html``. Reads every page but the rule
book itself, and fails when a citation such as "rule book R5.5" or "§7" stands in running
text outside a link (code, headings and literal blocks are not prose), or when there are
hardly any links at all (the transform in docs/conf.py stopped working).
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

CITATION = re.compile(r"(?<![\w.#-])(R\d+\.\d+[a-z]?|§\s?\d+)(?![\w.]*\w)")
#: Where a rule number is not a citation in prose.
SKIP = {"a", "code", "pre", "h1", "h2", "h3", "h4", "script", "style", "title", "dt", "span.pre"}


class Page(HTMLParser):
    """Collects the unlinked citations of one page and counts its links into the rule book."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.unlinked: list[str] = []
        self.links = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the open element, and count a link into the rule book."""
        if tag in {"br", "img", "meta", "link", "input", "hr"}:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.open.append("span.pre" if tag == "span" and "pre" in classes else tag)
        if tag == "a" and (dict(attrs).get("href") or "").startswith("rulebook.html#"):
            self.links += 1

    def handle_endtag(self, tag: str) -> None:
        """Close the element (and any left open inside it)."""
        while self.open:
            if self.open.pop() in {tag, f"{tag}.pre"}:
                break

    def handle_data(self, data: str) -> None:
        """Note the citations of running text."""
        if not SKIP.intersection(self.open):
            self.unlinked += [m.group(1) for m in CITATION.finditer(data)]


def main(html: Path) -> int:
    """Print the unlinked citations per page; 1 if there are any."""
    problems, links = [], 0
    for path in sorted(html.glob("*.html")):
        if path.name in {"rulebook.html", "genindex.html", "search.html"}:
            continue
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        links += page.links
        problems += [f"{path.name}: {number} is not a link" for number in page.unlinked]
    if links < 100:
        problems.append(f"only {links} links into the rule book")
    print("\n".join(problems) or f"rule citations: {links} links, none unlinked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
