"""Colours players can tell apart, with any kind of colour vision, on Discord's dark and light themes.

Distances are CIEDE-like CAM02-UCS delta E (``colorspacious``) after simulating full (severity 100)
protanopia, deuteranopia and tritanopia.  Hedgehog with more than five players seats both sets, so
all ten piece colours are checked together, with the highlight and the board background.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE
from PIL import Image, ImageDraw

from renderers import combat, render_game
from renderers.pyramids import (
    BACKGROUND,
    BORDER,
    COLOURS,
    DIE_FACE,
    HIGHLIGHT,
    LAST_OUTER,
    MIN_CVD_DISTANCE,
    TEXT,
    draw_die,
    draw_pyramid_side,
)

VISION = [None, "protanomaly", "deuteranomaly", "tritanomaly"]
DISCORD_DARK, DISCORD_LIGHT = (0x31, 0x33, 0x38), (0xFF, 0xFF, 0xFF)


def _seen(rgb: tuple[int, int, int], cvd: str | None) -> np.ndarray:
    colour = np.array(rgb, dtype=float) / 255
    if cvd is None:
        return colour
    simulated = cspace_convert(colour, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1")
    return np.clip(simulated, 0, 1)


def distance(a: tuple[int, int, int], b: tuple[int, int, int], cvd: str | None) -> float:
    """CAM02-UCS delta E between ``a`` and ``b`` as seen with ``cvd`` (None: typical vision)."""
    return float(deltaE(_seen(a, cvd), _seen(b, cvd), input_space="sRGB1", uniform_space="CAM02-UCS"))


@pytest.mark.parametrize("cvd", VISION)
def test_piece_colours_highlight_and_background_stay_apart(cvd):
    named = {**COLOURS, "highlight": HIGHLIGHT, "background": BACKGROUND}
    worst = min((distance(a, b, cvd), x, y) for (x, a), (y, b) in itertools.combinations(named.items(), 2))
    assert worst[0] >= MIN_CVD_DISTANCE, worst


@pytest.mark.parametrize("cvd", VISION)
def test_highlight_is_no_players_colour(cvd):
    for letter, colour in COLOURS.items():
        assert distance(HIGHLIGHT, colour, cvd) >= 15, letter
        assert distance(LAST_OUTER, colour, cvd) >= 20, letter
    assert distance(HIGHLIGHT, TEXT, cvd) >= 15


def test_red_reads_as_red_not_orange():
    lch = cspace_convert(np.array(COLOURS["R"]) / 255, "sRGB1", "CIELCh")
    assert lch[2] < 45 or lch[2] > 350  # hue angle of a red, not an orange (~60)
    assert distance(COLOURS["R"], COLOURS["O"], None) >= 20
    assert COLOURS["R"] == (0xD6, 0x27, 0x28)


def test_white_and_clear_carry_marks_as_well_as_colour():
    pictures = {}
    for letter in "WX":
        image = Image.new("RGB", (80, 90), BACKGROUND)
        draw_pyramid_side(ImageDraw.Draw(image), 40, 85, 3, letter, 40)
        pictures[letter] = {c for _, c in image.getcolors(4096)}
    assert any(sum(c) < 150 for c in pictures["W"])  # the dark dot on white
    assert len(pictures["X"] - {BACKGROUND}) > len(pictures["W"] - {BACKGROUND}) - 2  # hatching on clear
    assert pictures["W"] != pictures["X"]


def test_null_die_shows_the_null_symbol_not_a_blank():
    for face in ("null", "0", ""):  # an empty face, once drawn blank, is the null too
        null = Image.new("RGB", (60, 60), BACKGROUND)
        draw_die(ImageDraw.Draw(null), (5, 5), 50, face)
        row = [null.getpixel((x, 30)) for x in range(18, 43)]
        assert sum(1 for c in row if sum(c) < 200) >= 3  # the ring and the slash cross the middle row
        assert null.getpixel((30, 30)) != DIE_FACE  # the slash runs through the centre
        assert null.getpixel((12, 12)) == DIE_FACE  # inside the die's corner: blank face round the symbol


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("theme", [DISCORD_DARK, DISCORD_LIGHT])
def test_picture_edge_stands_out_on_both_discord_themes(theme):
    # the border or the background just inside it contrasts at least 3:1 with the theme
    assert max(contrast(BORDER, theme), contrast(BACKGROUND, theme)) >= 3
    import io

    state = combat.RULES.new_game(2, {}, random.Random(0))
    image = Image.open(io.BytesIO(render_game("combat", state))).convert("RGB")
    assert image.getpixel((0, 0)) == BORDER and image.getpixel((image.width - 1, image.height - 1)) == BORDER


LOOK_ALIKE = 20.0  # CAM02-UCS: suits closer than this, under some colour vision, need another cue on the coin


@pytest.mark.parametrize("players", [2, 3, 4])
def test_treasure_coin_numbers_take_the_ink_of_higher_contrast_and_tell_look_alike_suits_apart(players):
    """The number on a coin is in the light or the dark ink, whichever contrasts more (WCAG) with the coin.

    With four players green and blue coins are 11.7 apart under tritanopia; by that rule blue takes light
    ink (4.2:1) and green dark (4.7:1), so their numbers tell the suits apart where the colours do not.
    """
    from games.treasure import SIDES, geometry
    from renderers.treasure import NUMBER_INKS, number_ink

    suits = [SIDES[side].letter for side in geometry(players).sides]
    for letter in suits:
        fill = COLOURS[letter]
        ink = number_ink(fill)
        assert contrast(ink, fill) == max(contrast(other, fill) for other in NUMBER_INKS), letter
        assert contrast(ink, fill) >= 4, (letter, contrast(ink, fill))
    for x, y in itertools.combinations(suits, 2):
        closest = min(distance(COLOURS[x], COLOURS[y], cvd) for cvd in VISION)
        if closest < LOOK_ALIKE:
            assert number_ink(COLOURS[x]) != number_ink(COLOURS[y]), (x, y, round(closest, 1))


def test_blue_coins_number_in_light_ink_and_green_in_dark():
    from renderers.treasure import number_ink

    assert sum(number_ink(COLOURS["B"])) > 3 * 200 and sum(number_ink(COLOURS["G"])) < 3 * 60
