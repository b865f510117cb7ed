"""Players who type their moves with `/<game> move`: what the command accepts (every form the rules pages
show, docs/rules/*.md, Notation), the suggestions offer too, first; their labels end on a whole word."""

from __future__ import annotations

import random
import re
from typing import Any

from games.combat import RULES as COMBAT
from games.hedgehog import RULES as HEDGEHOG
from games.treasure import RULES as TREASURE
from games.whist import RULES as WHIST
from tests.discord.helpers import accepted, board_now, next_actor, notation, refusal, started_game


async def state_of(table: Any) -> Any:
    game = await table.env.bot.service.store.live_game(table.channel.id)
    assert game is not None
    return table.env.bot.service.state_of(game)


async def suggest(member: Any, table: Any, game: str, typed: str) -> list[str]:
    return [notation(c) for c in await member.autocomplete(table.channel, f"{game} move", "notation", typed)]


async def to_phase(table: Any, game: str, wanted: Any, seed: int, limit: int = 1500) -> tuple[Any, Any]:
    """Play random suggestions until the player to act is in a phase ``wanted`` accepts (a callable of state)."""
    rng = random.Random(seed)
    for _ in range(limit):
        actor, kind = next_actor(board_now(table), table.members)
        assert actor is not None, "the game ended first"
        if kind == "roll":
            assert accepted(await actor.slash(table.channel, f"{game} roll"))
            continue
        state = await state_of(table)
        if wanted(state):
            return actor, state
        choices = await actor.autocomplete(table.channel, f"{game} move", "notation", "")
        result = await actor.slash(table.channel, f"{game} move", notation=rng.choice(choices)["value"])
        assert accepted(result), result.response.content
    raise AssertionError("no such phase came")


# --------------------------------------------------------------------------- Martian Combat


async def test_combat_step_typed_with_a_space_as_the_rules_show_is_suggested(table):
    """A step typed `R1 c1 c2` ("also `c1 c2`")."""
    await started_game(table, "combat", 2)
    actor, _ = next_actor(board_now(table), table.members)
    step = next(n for n in await suggest(actor, table, "combat", "") if re.fullmatch(r"[RY][123] \w\d-\w\d", n))
    piece, squares = step.split(" ")
    spaced = f"{piece} {squares.replace('-', ' ')}"  # "R1 c1 c2"
    offered = await suggest(actor, table, "combat", spaced)
    played = await actor.slash(table.channel, "combat move", notation=spaced)
    assert accepted(played), played.response.content  # the command takes it: it is legal
    assert step in offered, (spaced, offered)


async def test_combat_attack_typed_as_the_rules_show_is_suggested(table):
    """An attack typed `attack b3`, and `pass` for declining it."""
    await started_game(table, "combat", 2)
    actor, state = await to_phase(table, "combat", lambda s: s.phase.value == "attack", seed=1)
    attacks = [n for n in await suggest(actor, table, "combat", "") if "x" in n]
    target = attacks[0].split("x")[1]
    assert COMBAT.format_move(state, COMBAT.parse_move(state, f"attack {target}")) == attacks[0]
    assert COMBAT.format_move(state, COMBAT.parse_move(state, "pass")) == "no attack"
    by_word = await suggest(actor, table, "combat", f"attack {target}")
    declining = await suggest(actor, table, "combat", "pass")
    assert attacks[0] in by_word, (f"attack {target}", by_word)
    assert "no attack" in declining, ("pass", declining)


async def test_combat_piece_size_letter_typed_as_the_rules_show_is_suggested(table):
    """A piece named by its size letter, `l c1-b1`."""
    await started_game(table, "combat", 2)
    actor, _ = next_actor(board_now(table), table.members)
    state = await state_of(table)
    step = next(n for n in await suggest(actor, table, "combat", "") if re.fullmatch(r"[RY]3 \w\d-\w\d", n))
    squares = step.split(" ")[1]
    assert COMBAT.format_move(state, COMBAT.parse_move(state, f"l {squares}")) == step  # the engine reads it
    assert step in await suggest(actor, table, "combat", f"3 {squares}")
    offered = await suggest(actor, table, "combat", f"l {squares}")
    assert step in offered, (f"l {squares}", offered)


async def test_combat_hop_typed_by_its_target_as_the_rules_show_is_suggested(table):
    """A hop typed by its target, `hop e4`."""
    await started_game(table, "combat", 2)
    actor, state = await to_phase(
        table,
        "combat",
        lambda s: (
            s.phase.value == "hop" and any(COMBAT.format_move(s, m).startswith("hop ") for m in COMBAT.legal_moves(s))
        ),
        seed=3,
        limit=3000,
    )
    hops = [n for n in await suggest(actor, table, "combat", "") if n.startswith("hop ")]
    target = hops[0][-2:]
    assert COMBAT.format_move(state, COMBAT.parse_move(state, f"hop {target}")) in hops  # the engine reads it
    offered = await suggest(actor, table, "combat", f"hop {target}")
    assert any(n.endswith(target) for n in offered), (f"hop {target}", offered)


# --------------------------------------------------------------------------- Treasure Hunt


async def test_treasure_arrangement_typed_with_coin_names_as_the_rules_show_is_suggested(table):
    """An arrangement typed with the coins' names, `null ace 2 3 4 5`, with the verb or without."""
    await started_game(table, "treasure", 2)
    first, _ = next_actor(board_now(table), table.members)
    seen = {}
    for typed in ("arrange null ace 2 3 4 5", "null ace 2 3 4 5"):
        arranged = [notation(c) for c in await first.autocomplete(table.channel, "treasure arrange", "order", typed)]
        seen[typed] = (arranged[:1], (await suggest(first, table, "treasure", typed))[:1])
    sent = await first.slash(table.channel, "treasure arrange", order="null ace 2 3 4 5")
    assert accepted(sent), sent.response.content  # the command takes it
    assert all(pair == (["arrange 012345"], ["arrange 012345"]) for pair in seen.values()), seen


async def test_treasure_capture_typed_with_a_dash_is_suggested(table):
    """A capture typed with a dash ("`-` and `x` are both accepted")."""
    await started_game(table, "treasure", 2)
    actor, state = await to_phase(
        table,
        "treasure",
        lambda s: s.phase.value == "move" and any("x" in TREASURE.format_move(s, m) for m in TREASURE.legal_moves(s)),
        seed=2,
    )
    capture = next(n for n in await suggest(actor, table, "treasure", "") if "x" in n)
    dashed = capture.replace("x", "-")
    assert TREASURE.format_move(state, TREASURE.parse_move(state, dashed)) == capture  # the engine reads it
    for typed in (dashed, dashed.split(":")[1]):
        offered = await suggest(actor, table, "treasure", typed)
        assert capture in offered, (typed, offered)


# --------------------------------------------------------------------------- Martian Whist


async def test_whist_moves_typed_in_the_other_accepted_orders_are_suggested(table):
    """A draft pick typed tree first, `take c R1`."""
    await started_game(table, "whist", 2)
    actor, state = await to_phase(table, "whist", lambda s: True, seed=1)
    take = (await suggest(actor, table, "whist", ""))[0]  # "take G1 a"
    _, piece, tree = take.split(" ")
    assert WHIST.format_move(state, WHIST.parse_move(state, f"take {tree} {piece}")) == take
    offered = await suggest(actor, table, "whist", f"take {tree} {piece}")
    assert take in offered, (f"take {tree} {piece}", offered)


async def test_whist_tree_typed_small_first_is_suggested(table):
    """A tree typed small first ("pieces in any order")."""
    await started_game(table, "whist", 2)
    actor, state = await to_phase(table, "whist", lambda s: s.phase.value == "tricks", seed=1)
    tree = (await suggest(actor, table, "whist", ""))[0]  # "play K3 K2 K1"
    reverse = " ".join(reversed(tree.split(" ")[1:]))
    assert WHIST.format_move(state, WHIST.parse_move(state, reverse)) == tree  # the engine reads it
    offered = await suggest(actor, table, "whist", reverse)
    assert tree in offered, (reverse, offered)


# --------------------------------------------------------------------------- Der Marsigelwettkampf


async def test_hedgehog_step_typed_with_a_typographic_minus_is_suggested(table):
    """A step typed with a phone's minus sign (U+2212, U+2013)."""
    await started_game(table, "hedgehog", 3)
    actor, state = await to_phase(
        table, "hedgehog", lambda s: any("-" in HEDGEHOG.format_move(s, m) for m in HEDGEHOG.legal_moves(s)), seed=5
    )
    step = next(n for n in await suggest(actor, table, "hedgehog", "") if "-" in n)
    for minus in ("\u2212", "\u2013"):
        typed = step.replace("-", minus)
        assert HEDGEHOG.format_move(state, HEDGEHOG.parse_move(state, typed)) == step  # the engine reads it
        offered = await suggest(actor, table, "hedgehog", typed)
        assert step in offered, (typed, offered)


# --------------------------------------------------------------------------- stale choices, labels


async def test_hedgehog_stale_suggestion_in_a_multi_step_turn_is_refused_and_plays_nothing(table):
    await started_game(table, "hedgehog", 3)
    actor, state = await to_phase(table, "hedgehog", lambda s: len(HEDGEHOG.legal_moves(s)) > 3 and not s.moved, seed=7)
    before = await actor.autocomplete(table.channel, "hedgehog move", "notation", "")
    first = await actor.slash(table.channel, "hedgehog move", notation=before[0]["value"])
    assert accepted(first)
    after = await state_of(table)
    if after.current == state.current:  # still this player's turn
        again = await actor.slash(table.channel, "hedgehog move", notation=before[-1]["value"])
        assert refusal(again).startswith("The board changed"), again.response.content
        assert (await state_of(table)) == after


LABEL_CUT = re.compile(r"\w$")


async def test_suggestion_labels_are_not_cut_in_the_middle_of_a_word(table):
    """Discord shows 100 characters of a suggestion: a longer label is shortened at a word, with "…"."""
    await started_game(table, "hedgehog", 3)
    actor, _ = next_actor(board_now(table), table.members)
    assert accepted(await actor.slash(table.channel, "hedgehog roll"))
    names = [c["name"] for c in await actor.autocomplete(table.channel, "hedgehog move", "notation", "")]
    cut = [name for name in names if len(name) == 100 and not name.endswith(("…", ".", ")"))]
    assert not cut, cut[:3]
