"""Standings and tiebreaks, checked against examples worked by hand from the definitions.

Definitions used (see bot/standings.py):
- points: 1 per opponent ranked below, 1/2 per opponent sharing the place (win 1, draw 1/2, loss 0);
- Buchholz cut-1: sum of opponents' final scores minus the lowest one;
- Sonneborn-Berger: sum over games of (points scored in the game) x (opponent's final score);
- a bye scores 1 in two-player formats and counts as a win over a virtual opponent holding the
  player's own final score.
"""

from __future__ import annotations

import pytest

from bot.tournaments.standings import (
    DUEL_TIEBREAKS,
    TABLE_TIEBREAKS,
    Result,
    StandingsError,
    duel_standings,
    place_points,
    table_bye_points,
    table_standings,
)

W, L, D = (1, 2), (2, 1), (1, 1)  # ranks of (first seat, second seat): first wins, second wins, draw


def by_player(rows):
    return {row.player: row for row in rows}


def test_place_points_table():
    assert place_points((1, 2)) == (1.0, 0.0)
    assert place_points((2, 1)) == (0.0, 1.0)
    assert place_points((1, 1)) == (0.5, 0.5)
    assert place_points((1, 2, 3, 4)) == (3.0, 2.0, 1.0, 0.0)
    assert place_points((2, 1, 1, 4)) == (1.0, 2.5, 2.5, 0.0)
    assert place_points((1, 1, 1)) == (1.0, 1.0, 1.0)
    assert place_points((3, 1, 2, 4, 5)) == (2.0, 4.0, 3.0, 1.0, 0.0)


def test_four_player_swiss_every_value_by_hand():
    # R1: A beats B, C draws D.  R2: A draws C, B beats D.  R3: A beats D, B beats C.
    results = [
        Result(1, ("A", "B"), W),
        Result(1, ("C", "D"), D),
        Result(2, ("A", "C"), D),
        Result(2, ("B", "D"), W),
        Result(3, ("A", "D"), W),
        Result(3, ("B", "C"), W),
    ]
    rows = duel_standings(results)
    assert [r.player for r in rows] == ["A", "B", "C", "D"]
    assert [r.place for r in rows] == [1, 2, 3, 4]
    got = by_player(rows)
    # scores: A 2.5, B 2, C 1, D 0.5
    assert [got[p].points for p in "ABCD"] == [2.5, 2.0, 1.0, 0.5]
    # Buchholz: A 2+1+0.5=3.5, B 2.5+0.5+1=4, C 0.5+2.5+2=5, D 1+2+2.5=5.5; cut-1 drops the lowest
    assert [got[p].buchholz for p in "ABCD"] == [3.5, 4.0, 5.0, 5.5]
    assert [got[p].buchholz_cut1 for p in "ABCD"] == [3.0, 3.5, 4.5, 4.5]
    # SB: A 1*2 + .5*1 + 1*.5 = 3; B 0 + 1*.5 + 1*1 = 1.5; C .5*.5 + .5*2.5 + 0 = 1.5; D .5*1 = .5
    assert [got[p].sonneborn_berger for p in "ABCD"] == [3.0, 1.5, 1.5, 0.5]
    assert all(got[p].head_to_head is None for p in "ABCD")
    assert (got["A"].games, got["A"].wins, got["A"].draws, got["A"].losses) == (3, 2, 1, 0)
    assert rows[0].tiebreak_names == DUEL_TIEBREAKS
    assert rows[0].tiebreaks == (("Buchholz cut-1", 3.0), ("Sonneborn-Berger", 3.0), ("Head-to-head", None))


def test_byes_and_buchholz_cut1_decides():
    # five players, three rounds, one bye a round
    results = [
        Result(1, ("P", "Q"), W),
        Result(1, ("R", "S"), W),
        Result.bye(1, "T"),
        Result(2, ("T", "P"), W),
        Result(2, ("Q", "R"), D),
        Result.bye(2, "S"),
        Result(3, ("P", "S"), W),
        Result(3, ("T", "Q"), D),
        Result.bye(3, "R"),
    ]
    got = by_player(duel_standings(results))
    # points: P 1+0+1=2, Q 0+.5+.5=1, R 1+.5+1(bye)=2.5, S 0+1(bye)+0=1, T 1(bye)+1+.5=2.5
    assert {p: got[p].points for p in "PQRST"} == {"P": 2.0, "Q": 1.0, "R": 2.5, "S": 1.0, "T": 2.5}
    # Buchholz (a bye counts the player's own score):
    # P: Q1 T2.5 S1 = 4.5 -> cut 3.5;  Q: P2 R2.5 T2.5 = 7 -> 5;  R: S1 Q1 own2.5 = 4.5 -> 3.5
    # S: R2.5 own1 P2 = 5.5 -> 4.5;     T: own2.5 P2 Q1 = 5.5 -> 4.5
    assert {p: got[p].buchholz_cut1 for p in "PQRST"} == {"P": 3.5, "Q": 5.0, "R": 3.5, "S": 4.5, "T": 4.5}
    # SB: P 1*1 + 0 + 1*1 = 2;  Q 0 + .5*2.5 + .5*2.5 = 2.5;  R 1*1 + .5*1 + 1*2.5 = 4
    #     S 0 + 1*1 + 0 = 1;    T 1*2.5 + 1*2 + .5*1 = 5
    assert {p: got[p].sonneborn_berger for p in "PQRST"} == {"P": 2.0, "Q": 2.5, "R": 4.0, "S": 1.0, "T": 5.0}
    rows = duel_standings(results, ["P", "Q", "R", "S", "T"])
    # T and R share 2.5 points; T's Buchholz cut-1 (4.5) beats R's (3.5).  Q and S: 5 beats 4.5.
    assert [r.player for r in rows] == ["T", "R", "P", "Q", "S"]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]
    assert got["T"].byes == 1 and got["T"].games == 2


def test_sonneborn_berger_decides_when_buchholz_is_level():
    # round robin of four: A beats B, C beats A, A beats D, B beats C, B beats D, C draws D
    results = [
        Result(1, ("A", "B"), W),
        Result(1, ("C", "D"), D),
        Result(2, ("C", "A"), W),
        Result(2, ("B", "D"), W),
        Result(3, ("A", "D"), W),
        Result(3, ("B", "C"), W),
    ]
    rows = duel_standings(results, ["B", "A", "C", "D"])
    got = by_player(rows)
    # A and B: 2 points, Buchholz 2+1.5+.5 = 4 each (cut-1 3.5); SB A = 2 + 0 + .5 = 2.5, B = 0 + 1.5 + .5 = 2
    assert (got["A"].points, got["B"].points) == (2.0, 2.0)
    assert got["A"].buchholz_cut1 == got["B"].buchholz_cut1 == 3.5
    assert (got["A"].sonneborn_berger, got["B"].sonneborn_berger) == (2.5, 2.0)
    assert [r.player for r in rows][:2] == ["A", "B"]
    assert [r.place for r in rows] == [1, 2, 3, 4]


def test_head_to_head_decides_the_last_tie():
    # round robin of four: A beats B, A draws C, D beats A, B beats C, B draws D, D beats C
    results = [
        Result(1, ("A", "B"), W),
        Result(1, ("C", "D"), L),
        Result(2, ("A", "C"), D),
        Result(2, ("B", "D"), D),
        Result(3, ("A", "D"), L),
        Result(3, ("B", "C"), W),
    ]
    rows = duel_standings(results, ["B", "A", "C", "D"])  # B seeded above A
    got = by_player(rows)
    # points: A 1+.5+0 = 1.5, B 0+1+.5 = 1.5, C 0+.5+0 = .5, D 1+.5+1 = 2.5
    assert {p: got[p].points for p in "ABCD"} == {"A": 1.5, "B": 1.5, "C": 0.5, "D": 2.5}
    # A, B: Buchholz 1.5+.5+2.5 = 4.5, cut-1 4; SB A = 1*1.5 + .5*.5 = 1.75, B = 1*.5 + .5*2.5 = 1.75
    assert got["A"].buchholz_cut1 == got["B"].buchholz_cut1 == 4.0
    assert got["A"].sonneborn_berger == got["B"].sonneborn_berger == 1.75
    # A beat B: head-to-head 1 - 0 puts A above B despite the seeding
    assert (got["A"].head_to_head, got["B"].head_to_head) == (1.0, 0.0)
    assert [r.player for r in rows] == ["D", "A", "B", "C"]
    assert [r.place for r in rows] == [1, 2, 3, 4]
    assert got["D"].head_to_head is None


def test_cycle_shares_the_place():
    # A beats B, B beats C, C beats A, everybody beats D
    results = [
        Result(1, ("A", "B"), W),
        Result(1, ("C", "D"), W),
        Result(2, ("B", "C"), W),
        Result(2, ("A", "D"), W),
        Result(3, ("C", "A"), W),
        Result(3, ("B", "D"), W),
    ]
    rows = duel_standings(results, ["C", "B", "A", "D"])
    assert [r.place for r in rows] == [1, 1, 1, 4]
    assert [r.player for r in rows] == ["C", "B", "A", "D"]  # seeding order within the shared place
    assert all(r.head_to_head == 1.0 for r in rows[:3])


def test_head_to_head_needs_every_pair_to_have_met():
    # X beats Y, W beats Z, Z beats X, Y beats W: all level on everything, X and W never met
    results = [
        Result(1, ("X", "Y"), W),
        Result(1, ("W", "Z"), W),
        Result(2, ("Z", "X"), W),
        Result(2, ("Y", "W"), W),
    ]
    rows = duel_standings(results, ["X", "Y", "Z", "W"])
    assert [r.place for r in rows] == [1, 1, 1, 1]
    assert all(r.head_to_head is None for r in rows)
    assert all((r.points, r.buchholz_cut1, r.sonneborn_berger) == (1.0, 1.0, 1.0) for r in rows)


def test_players_without_results_and_forfeits():
    results = [Result(1, ("A", "B"), W), Result(1, ("C", "D"), (2, 2), points=(0, 0))]  # double forfeit
    rows = duel_standings(results, ["A", "B", "C", "D", "E"])
    got = by_player(rows)
    assert got["E"].points == 0 and got["E"].games == 0 and got["E"].buchholz_cut1 == 0
    assert got["C"].points == 0 and got["D"].points == 0
    assert got["C"].losses == 1
    assert rows[0].player == "A"


def test_bye_points_can_be_set_explicitly():
    rows = duel_standings([Result.bye(1, "A", points=0.5), Result(1, ("B", "C"), D)])
    assert by_player(rows)["A"].points == 0.5


def test_bad_results_are_refused():
    with pytest.raises(StandingsError):
        Result(1, ("A", "A"), W)
    with pytest.raises(StandingsError):
        Result(1, ("A", "B"), (1,))
    with pytest.raises(StandingsError):
        Result(0, ("A", "B"), W)
    with pytest.raises(StandingsError):
        Result(1, ("A", "B"), (0, 1))
    with pytest.raises(StandingsError):
        Result(1, (), ())
    with pytest.raises(StandingsError):
        duel_standings([Result(1, ("A", "B", "C"), (1, 2, 3))])
    with pytest.raises(StandingsError, match="two results in round 1"):
        duel_standings([Result(1, ("A", "B"), W), Result(1, ("A", "C"), W)])


TABLE_RESULTS = [
    Result(1, ("A", "B", "C"), (1, 2, 3)),
    Result(1, ("D", "E", "F", "G"), (2, 1, 1, 4)),
    Result(2, ("A", "E", "G"), (3, 1, 2)),
    Result(2, ("B", "C", "D", "F"), (1, 1, 1, 1)),
]


def test_table_standings_by_hand():
    rows = table_standings(TABLE_RESULTS)
    got = by_player(rows)
    # R1: A2 B1 C0 | D1 E2.5 F2.5 G0.   R2: A0 E2 G1 | B1.5 C1.5 D1.5 F1.5
    assert {p: got[p].points for p in "ABCDEFG"} == {
        "A": 2.0,
        "B": 2.5,
        "C": 1.5,
        "D": 2.5,
        "E": 4.5,
        "F": 4.0,
        "G": 1.0,
    }
    # Buchholz = sum over games of the mean final score of the table's opponents
    # D: (4.5+4+1)/3 + (2.5+1.5+4)/3 = 19/6 + 16/6 = 35/6;  B: (2+1.5)/2 + (1.5+2.5+4)/3 = 7/4 + 8/3 = 53/12
    assert got["D"].buchholz == pytest.approx(35 / 6)
    assert got["B"].buchholz == pytest.approx(53 / 12)
    # A: (2.5+1.5)/2 + (4.5+1)/2 = 4.75;  G: (2.5+4.5+4)/3 + (2+4.5)/2 = 83/12
    assert got["A"].buchholz == pytest.approx(4.75)
    assert got["G"].buchholz == pytest.approx(83 / 12)
    # D and B share 2.5 points; D's Buchholz is higher
    assert [r.player for r in rows] == ["E", "F", "D", "B", "A", "C", "G"]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert rows[0].tiebreak_names == TABLE_TIEBREAKS
    assert rows[0].tiebreaks == (("Buchholz", pytest.approx(4.0)),)
    assert rows[0].buchholz_cut1 is None and rows[0].sonneborn_berger is None
    assert (got["E"].wins, got["F"].draws, got["B"].draws) == (1, 2, 1)


def test_table_bye_is_worth_a_mean_seat():
    # tables of 3 and 4 in both rounds: mean seat points (3*1 + 4*1.5) / 7 = 9/7
    assert table_bye_points([3, 4]) == pytest.approx(9 / 7)
    assert table_bye_points([4, 4]) == 1.5
    results = [*TABLE_RESULTS, Result.bye(1, "H"), Result.bye(2, "H")]
    got = by_player(table_standings(results))
    assert got["H"].points == pytest.approx(18 / 7)
    assert got["H"].buchholz == pytest.approx(2 * 18 / 7)  # each bye adds the player's own score
    assert got["H"].byes == 2 and got["H"].games == 0
    assert got["D"].points == 2.5  # nobody else changes


def test_at_a_table_with_computer_players_only_first_place_at_the_whole_table_wins():
    """Bots are not in the standings, but they sit at the table: the best person behind a bot lost,
    a person sharing first place with a bot drew, and their points are those of the whole table."""
    from bot.tournaments.results import result_of

    beaten = result_of(1, [7, 8, -1], [2, 3, 1], None)  # a bot won, 7 second, 8 third
    level = result_of(2, [7, -1, 8], [1, 1, 3], None)  # 7 shares first place with a bot
    ahead = result_of(3, [8, 7, -1], [1, 3, 2], None)  # 8 beats the bot and 7
    rows = by_player(table_standings([beaten, level, ahead]))
    assert (rows[7].wins, rows[7].draws, rows[7].losses) == (0, 1, 2)
    assert (rows[8].wins, rows[8].draws, rows[8].losses) == (1, 0, 2)
    assert rows[7].points == 1 + 1.5 + 0 and rows[8].points == 0 + 0 + 2
    # given no points, a result with computer players scores the whole table's places too
    assert by_player(table_standings([Result(1, (7, 8), (2, 3), unranked=(1,))]))[7].points == 1


def test_table_ties_share_the_place():
    rows = table_standings([Result(1, ("A", "B", "C"), (1, 1, 3))], ["B", "A", "C"])
    assert [(r.player, r.place, r.points) for r in rows] == [("B", 1, 1.5), ("A", 1, 1.5), ("C", 3, 0.0)]


def test_a_game_against_computer_players_counts_as_a_game_played_but_scores_as_the_bye():
    """A person alone with bots: their bye is played, so it is one of their games; its points are
    those of their place at that table, and no win, draw or loss against a ranked player."""
    from bot.tournaments.results import result_of

    bot_table = result_of(1, [7, -1, -2], [2, 1, 3], None)  # 7 came second, between two bots
    assert bot_table.is_bye and bot_table.played and bot_table.points == (1.0,)
    people = Result(2, (7, 8), W)
    rest = Result.bye(3, 8)
    rows = by_player(duel_standings([bot_table, people, rest]))
    assert (rows[7].games, rows[7].wins, rows[7].draws, rows[7].losses, rows[7].byes) == (2, 1, 0, 0, 1)
    assert rows[7].points == 2.0
    assert (rows[8].games, rows[8].wins, rows[8].losses, rows[8].byes) == (1, 0, 1, 1)  # a rest is no game
