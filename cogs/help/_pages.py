"""The rules pages the bot shows, read from the installed package and made fit for an embed.

The pages are ``docs/rules/<game>.md``; the package ships them (``cogs/help/pages``), so a plain
``pip install .`` shows the same text.  Discord does not draw markdown tables in embeds: rows become
bullet lines.  Text is cut only between paragraphs, never inside a sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

EMBED_TEXT = 4_000  # under Discord's 4,096 characters of an embed description
MESSAGE_TEXT = 5_600  # under Discord's 6,000 characters across a message's embeds, titles included
LIST_ITEM = re.compile(r"^([-*•]|\d+\.)\s")
TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}")

# The section buttons and the headings of each page they gather (first words of a ``## `` heading),
# tried in this order so that a heading belongs to one button only.
SECTIONS: dict[str, tuple[str, ...]] = {
    "notation": ("notation", "moves and notation", "buttons under the board"),
    "winning": ("winning", "captures and scoring", "the end", "scoring", "leaving"),
    "setup": ("the board", "board", "players", "setup", "setting out", "pieces and variants", "trees and nests"),
    "turn": ("a turn", "turns", "movement", "actions", "combat", "how coins move", "stage", "capture"),
}
SECTION_TITLES = {"setup": "Setup", "turn": "A turn", "winning": "Winning", "notation": "Notation"}


@dataclass(frozen=True)
class Section:
    """One ``## `` section of a rules page."""

    heading: str
    body: str


def page(game: str) -> str:
    """The whole rules page of ``game`` as shipped with the bot ('' when there is none)."""
    if not re.fullmatch(r"[a-z]{1,20}", game):
        return ""
    source = resources.files("cogs.help.pages").joinpath(f"{game}.md")
    try:
        return source.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return ""


def sections(game: str) -> list[Section]:
    """The ``## `` sections of ``game``'s page, in order (sub-headings stay inside their section)."""
    found: list[Section] = []
    heading = ""
    body: list[str] = []
    for line in page(game).splitlines():
        if line.startswith("## "):
            if heading and body:
                found.append(Section(heading, "\n".join(body).strip()))
            heading, body = line[3:].strip(), []
        elif heading:
            body.append(line)
    if heading and body:
        found.append(Section(heading, "\n".join(body).strip()))
    return [s for s in found if s.body]


def section_text(game: str, key: str) -> str:
    """The text behind a section button (``setup``, ``turn``, ``winning``, ``notation``), message-ready:
    ``section_pages`` splits it into embeds."""
    parts = [f"**{s.heading}**\n{plain(s.body)}" for s in sections(game) if section_of(s.heading) == key]
    return fit("\n\n".join(parts), MESSAGE_TEXT, "The full page, attached to the first answer, says more.")


def section_pages(game: str, key: str) -> list[str]:
    """``section_text`` as embed descriptions, split between paragraphs: a long section (Martian
    Combat's turn) runs on into a second embed of the same answer instead of being cut."""
    pages: list[str] = []
    current = ""
    for paragraph in section_text(game, key).split("\n\n"):
        joined = f"{current}\n\n{paragraph}" if current else paragraph
        if len(joined) > EMBED_TEXT and current:
            pages.append(current)
            joined = paragraph
        current = joined
    return [*pages, current] if current else pages


def table_row(header: list[str], cells: list[str]) -> str:
    """A table row as one bullet line: ``• `pass`: end your turn`` or, past two columns, named cells."""
    if len(cells) <= 2:
        first, rest = cells[0], cells[1:]
        return f"• {first}: {rest[0]}" if rest and rest[0] else f"• {first}"
    named = [f"*{name.lower()}* {cell}" if name else cell for name, cell in zip(header, cells, strict=False) if cell]
    return "• " + " · ".join(named)


def section_of(heading: str) -> str | None:
    """The section button a page heading belongs to, if any."""
    lowered = heading.lower()
    return next((key for key, words in SECTIONS.items() if lowered.startswith(words)), None)


def plain(markdown: str) -> str:
    """``markdown`` as Discord draws it in an embed: tables become bullet lines, headings bold."""
    lines: list[str] = []
    header: list[str] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if TABLE_RULE.match(stripped):
                continue
            if not header:
                header = cells
                continue
            lines.append(table_row(header, cells))
            continue
        header = []
        if stripped.startswith("#"):
            lines.append(f"**{stripped.lstrip('#').strip()}**")
        else:
            lines.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(reflow(lines))).strip()


def reflow(lines: list[str]) -> list[str]:
    """Join the hard-wrapped lines of each paragraph or list item, so a phone wraps them itself."""
    out: list[str] = []
    fenced = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        starts_item = bool(LIST_ITEM.match(stripped)) or stripped.startswith("**")
        if fenced or not stripped or starts_item or not out or not out[-1].strip() or out[-1].startswith("```"):
            out.append(line if fenced else line.rstrip())
        else:
            out[-1] = out[-1].rstrip() + " " + stripped
    return out


def fit(text: str, limit: int, more: str) -> str:
    """``text`` cut at the last paragraph (or else line) break that fits ``limit``, then ``more``."""
    if len(text) <= limit:
        return text
    room = limit - len(more) - 2
    cut = text.rfind("\n\n", 0, room)
    if cut < room // 2:
        cut = text.rfind("\n", 0, room)
    if cut <= 0:
        cut = text.rfind(". ", 0, room) + 1
    return text[: max(cut, 0)].rstrip() + "\n\n" + more
