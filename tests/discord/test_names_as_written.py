"""Names are shown as written: markdown in a player's display name or a tournament's name is never drawn."""

from __future__ import annotations

from tests.discord.helpers import accepted, embed_of, field, next_actor, refusal

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
    assert f"Players: 1. {STAR} (left), 2. bob" in listing  # a text file: the name exactly as written; resigned


async def test_the_abort_note_shows_the_name_as_written(table):
    star = table.guild.add_member(table.env.create_user(STAR))
    await star.slash(table.channel, "hedgehog new", players=2)
    await table.members[1].slash(table.channel, "hedgehog join")
    aborted = await star.slash(table.channel, "game abort")
    assert f"was aborted by {SHOWN};" in aborted.response.content


async def _started(table):
    star = table.guild.add_member(table.env.create_user(STAR))
    bob = table.members[1]
    await star.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    started = await star.slash(table.channel, "hedgehog start")
    return star, bob, started


# ------------------------------------------------------------------ /rating (cogs/ratings.py)


async def test_rating_refusal_shows_the_name_as_written(table):
    star = table.guild.add_member(table.env.create_user(STAR))
    nobody = await star.slash(table.channel, "rating")
    assert refusal(nobody) == f"{SHOWN} has no rated games on this server yet."


async def test_rating_title_shows_the_name_as_written(table):
    star, _bob, _ = await _started(table)
    assert field(embed_of(await star.slash(table.channel, "game resign")), "Result")
    mine = embed_of(await star.slash(table.channel, "rating"))
    assert mine.title == f"{SHOWN} — rating", mine.title


async def test_rating_recent_results_show_the_opponent_as_written(table):
    star, bob, _ = await _started(table)
    assert field(embed_of(await star.slash(table.channel, "game resign")), "Result")
    recent = field(embed_of(await bob.slash(table.channel, "rating")), "Recent results")
    assert f"vs {SHOWN}:" in recent, recent


# ------------------------------------------------------------------ refusals carrying a name (bot/session)


async def test_not_your_turn_refusal_shows_the_name_as_written(table):
    star, bob, started = await _started(table)
    actor, kind = next_actor(started, [star, bob])
    assert actor is star and kind == "roll"  # the creator opens with these dice
    tried = await bob.slash(table.channel, "hedgehog roll")
    assert refusal(tried) == f"It is not your turn: {SHOWN} is to move.", refusal(tried)


async def test_handover_refusal_shows_the_name_as_written(table):
    star, bob, _ = await _started(table)
    refused = await bob.slash(table.channel, "game bot", player=str(star.id))
    text = refusal(refused)
    assert "is still playing" in text, text
    assert text.startswith(f"{SHOWN} is still playing"), text


# ------------------------------------------------------------------ a tournament's name, typed by its organiser


async def test_a_tournament_name_with_markdown_is_shown_as_typed(table, club):
    olga, members = club
    created = await olga.slash(table.channel, "tournament create", name="*Cup*", game="hedgehog", format="swiss")
    assert not created.ephemeral, created.response.content
    assert "\\*Cup\\*" in created.response.content, created.response.content
    assert embed_of(created).title == "\\*Cup\\* (#1)", embed_of(created).title
    joined = await members[1].slash(table.channel, "tournament join")
    assert "joins \\*Cup\\*" in joined.response.content, joined.response.content


async def test_a_refusal_naming_a_tournament_escapes_its_name_once(table, club):
    olga, members = club
    alice = members[0]
    created = await olga.slash(
        table.channel, "tournament create", name="Spring_Cup", game="hedgehog", format="swiss", start="2h", checkin=60
    )
    assert accepted(created), created.response.content
    await alice.slash(table.channel, "tournament join")
    too_early = await alice.slash(table.channel, "tournament checkin")
    text = refusal(too_early)
    assert text.startswith("Check-in for Spring\\_Cup opens <t:"), text


async def test_a_name_in_backticks_never_becomes_code_in_a_refusal(table):
    # in a refusal only the typed input it quotes is in backticks: a name's backticks are shown as ˋ
    ticked = table.guild.add_member(table.env.create_user("`star`"))
    bob = table.members[1]
    await ticked.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    started = await ticked.slash(table.channel, "hedgehog start")
    actor, _kind = next_actor(started, [ticked, bob])
    assert actor is ticked
    tried = await bob.slash(table.channel, "hedgehog roll")
    assert refusal(tried) == "It is not your turn: ˋstarˋ is to move."


RLO = "\u202e"  # right-to-left override: the text after it, to the end of its paragraph, is drawn backwards
DIRECTION_MARKS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def public_texts(table) -> list[str]:
    """Every public message's content, embed description and field values in the table's channel."""
    out = []
    for message in table.channel.history():
        out.append(message.content or "")
        for embed in message.embeds:
            out.append(embed.description or "")
            out.extend(str(f.value) for f in embed.fields)
    return out


async def test_a_direction_override_in_a_name_never_turns_the_bots_words_backwards(table):
    evil = table.guild.add_member(table.env.create_user("evil"), nick=RLO + "live")
    bob = table.members[1]
    await evil.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    await evil.slash(table.channel, "hedgehog start")
    await bob.slash(table.channel, "game resign")
    said = public_texts(table)
    assert any("live wins" in text for text in said)  # the name is shown, without the mark
    assert not [text for text in said if any(mark in text for mark in DIRECTION_MARKS)]


async def test_a_direction_override_in_a_tournament_name_never_turns_the_bots_words_backwards(table, club):
    olga, _members = club
    await olga.slash(table.channel, "tournament create", name=RLO + "puc", game="hedgehog", format="swiss")
    said = public_texts(table)
    assert any("puc" in text for text in said)
    assert not [text for text in said if any(mark in text for mark in DIRECTION_MARKS)]


async def test_a_direction_override_never_reaches_a_thread_title(table, club):
    # a thread's title is shown as written: the marks are left out there too
    olga, members = club
    await olga.slash(table.channel, "tournament create", name=RLO + "puc", game="hedgehog", format="swiss")
    for member in members[:2]:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    evil = table.guild.add_member(table.env.create_user("evil"), nick=RLO + "live")
    await evil.slash(table.channel, "hedgehog new", players=2, thread=True)
    titles = [thread.name for thread in table.channel.threads]
    assert len(titles) == 2 and any(t.startswith("puc · R1 · ") for t in titles)
    assert any(t.endswith("— live") for t in titles)
    assert not [t for t in titles if any(mark in t for mark in DIRECTION_MARKS)]
