"""Players' names are shown as they wrote them: markdown in a display name is never drawn as markdown."""

from __future__ import annotations

from tests.discord.helpers import embed_of, field

STAR = "*star*"
SHOWN = "\\*star\\*"  # what Discord receives: the asterisks shown, not italics


async def test_a_name_with_markdown_is_shown_as_written_in_the_lobby_the_board_and_the_result(table):
    star = table.guild.add_member(table.env.create_user(STAR))
    bob = table.members[1]
    opened = await star.slash(table.channel, "hedgehog new", players=2)
    assert opened.response.content == f"{SHOWN} opened a game of Der Marsigelwettkampf."
    assert field(opened.response.embeds[0], "Players") == f"1. {SHOWN} (1/2)"
    await bob.slash(table.channel, "hedgehog join")
    status = await bob.slash(table.channel, "game status")
    assert field(embed_of(status), "Players").startswith(f"1. {SHOWN}, 2. bob")
    await star.slash(table.channel, "hedgehog start")
    resigned = await star.slash(table.channel, "game resign")
    board = embed_of(resigned)
    assert f"{SHOWN} resigns" in board.description, board.description
    result = field(board, "Result")
    assert result is not None and "**bob wins!**" in result and f"{SHOWN} (" in result
    history = await bob.slash(table.channel, "game history")
    assert f"— {SHOWN} resigns" in history.response.embeds[0].description
    listing = (await history.response.attachments[0].read()).decode()
    assert f"Players: 1. {STAR}, 2. bob" in listing  # a text file: the name exactly as written


async def test_the_abort_note_shows_the_name_as_written(table):
    star = table.guild.add_member(table.env.create_user(STAR))
    await star.slash(table.channel, "hedgehog new", players=2)
    await table.members[1].slash(table.channel, "hedgehog join")
    aborted = await star.slash(table.channel, "game abort")
    assert f"was aborted by {SHOWN};" in aborted.response.content
