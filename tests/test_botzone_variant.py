"""The Botzone variant (docs/rules.md §20): ``rules.BOTZONE`` played by the engine.

Scenarios are dealt from a 136-tile wall string built by :func:`botzone_wall`: the test names each
seat's hand (the rest filled with neutral tiles), the draws of each seat from its own segment, and
any other positions; the other tiles fill the rest, tiles of the named kinds as late as possible.

Seat i's segment is positions 34i..34i+33: it is dealt 34i+33 down to 34i+21, and its k-th draw
(k from 0) is position 34i+20-k; its last possible draw is 34i. Seats: 0 East (the dealer), 1 South,
2 West, 3 North; ``(s + 1) % 4`` is the next player (下家).

Expected scores come from the Botzone formulas with F the fan points (no flowers in 136 tiles):
self-drawn, the winner gets 3·(8+F) and each other seat pays 8+F; on a discard the winner gets
24+F, the discarder pays 8+F and the other two pay 8; a foul (wrong win, illegal action, time-out)
ends the hand at -30 for the offender and +10 for each other seat.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from guobiao.core.melds import MeldKind
from guobiao.core.shanten import shanten
from guobiao.core.tiles import TILES, Tile
from guobiao.scoring.fans import Fan
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, IllegalActionError, Phase
from guobiao.table.rules import BOTZONE, COMPETITION, WALL_BUILDS, Rules, TableRules
from guobiao.table.settlement import PenaltyKind
from guobiao.table.wall import SEGMENT, SegmentWall, deal, deal_botzone, shuffled_tiles

# -- building a Botzone wall ------------------------------------------------------------------


def tiles(text: str) -> list[int]:
    """``"W1W2 B5"`` -> tile ints (Botzone names, spaces ignored)."""
    text = text.replace(" ", "")
    assert len(text) % 2 == 0, text
    return [int(Tile.parse(text[i : i + 2])) for i in range(0, len(text), 2)]


def draw_position(seat: int, k: int) -> int:
    """The wall position of seat's k-th draw (0-based) from its own segment."""
    return SEGMENT * seat + SEGMENT - 14 - k


def botzone_wall(
    hands: dict[int, str],
    draws: dict[int, str] | None = None,
    at: dict[int, str] | None = None,
    seed: int = 0,
) -> list[int]:
    """A 136-tile Botzone wall: ``hands`` (part of each seat's 13, the rest neutral filler),
    ``draws`` (each seat's draws from its segment, in order), ``at`` (any other positions)."""
    draws = draws or {}
    at = at or {}
    full = Counter({t: 4 for t in range(34)})
    wall: list[int | None] = [None] * (4 * SEGMENT)
    named: set[int] = set()
    for text in [*hands.values(), *draws.values(), *at.values()]:
        named.update(tiles(text))
    used: Counter[int] = Counter()
    for seat, text in draws.items():
        for k, t in enumerate(tiles(text)):
            wall[draw_position(seat, k)] = t
            used[t] += 1
    for position, text in at.items():
        (t,) = tiles(text)
        assert wall[position] is None
        wall[position] = t
        used[t] += 1
    for seat in range(4):
        hand = tiles(hands.get(seat, ""))
        used.update(hand)
    rng = random.Random(seed)
    for seat in range(4):
        part = tiles(hands.get(seat, ""))
        # neutral filler: kinds named nowhere, one of each, the hand kept two tiles or more from
        # ready (any shape) unless the test names most of it
        pool = [t for t in range(34) if t not in named and used[t] < full[t] and t not in part]
        for _ in range(1000):
            rng.shuffle(pool)
            hand = part + pool[: 13 - len(part)]
            counts = [hand.count(t) for t in range(34)]
            if len(part) >= 8 or shanten(counts) >= 2:
                break
        else:
            raise AssertionError(f"no neutral filler for seat {seat}")
        used.update(hand[len(part) :])
        for k, t in enumerate(hand):  # dealt from the end of the segment
            wall[SEGMENT * seat + SEGMENT - 1 - k] = t
    assert all(used[t] <= 4 for t in used), used
    rest = list((full - used).elements())
    plain = [t for t in rest if t not in named]
    random.Random(seed).shuffle(plain)
    fill = plain + [t for t in rest if t in named]  # named kinds are drawn last
    # free positions in the order they would be drawn: draw k of seats 0-3, then k + 1 ...
    free = sorted(
        (p for p in range(4 * SEGMENT) if wall[p] is None),
        key=lambda p: (SEGMENT - 14 - p % SEGMENT, p // SEGMENT),
    )
    for p, t in zip(free, fill, strict=True):
        wall[p] = t
    out = [t for t in wall if t is not None]
    assert len(out) == 136 and Counter(out) == full
    return out


NARROW = replace(BOTZONE, lenient_kongs=False)  # the 1998 reading of kongs on Botzone's wall


def game_of(wall: list[int], rules: TableRules = BOTZONE, *, false_wins: bool = False) -> Game:
    return Game(rules, deal_=deal_botzone(wall), false_wins=false_wins)


# -- driving a game ---------------------------------------------------------------------------


def discard_drawn(game: Game) -> None:
    """The player to act discards the tile it just drew (摸切)."""
    seat = game.current
    view = game.view(seat)
    assert view.phase is Phase.ACT and view.drawn is not None
    game.act(seat, Action(ActionKind.DISCARD, view.drawn))


def pass_all(game: Game) -> None:
    while game.phase in (Phase.RESPOND, Phase.ROB) and game.to_act:
        game.act(game.to_act[0], PASS)


def turn(game: Game) -> None:
    """Draw-and-discard by the current player, every claim passed."""
    discard_drawn(game)
    pass_all(game)


def fan_names(game: Game) -> set[Fan]:
    result = game.result
    assert result is not None and result.fans is not None
    return {f.fan for f in result.fans.fans}


def self_drawn_deltas(winner: int, points: int) -> tuple[int, ...]:
    return tuple(3 * (8 + points) if s == winner else -(8 + points) for s in range(4))


def discard_deltas(winner: int, discarder: int, points: int) -> tuple[int, ...]:
    def one(s: int) -> int:
        if s == winner:
            return 24 + points
        return -(8 + points) if s == discarder else -8

    return tuple(one(s) for s in range(4))


def foul_deltas(offender: int) -> tuple[int, ...]:
    return tuple(-30 if s == offender else 10 for s in range(4))


# -- the rules object -------------------------------------------------------------------------


def test_botzone_rules_are_one_table_rules() -> None:
    assert Rules is TableRules
    assert isinstance(BOTZONE, TableRules)
    assert "botzone" in WALL_BUILDS
    assert BOTZONE.tile_count == 136 and not BOTZONE.flowers
    assert (BOTZONE.minimum, BOTZONE.base) == (8, 8)
    assert BOTZONE.wrong_win == "end_hand" and BOTZONE.forfeit_payment == 10
    assert BOTZONE.lenient_kongs and not COMPETITION.lenient_kongs
    assert COMPETITION.wrong_win == "penalty" and COMPETITION.wall_build == "dice"
    with pytest.raises(ValueError, match="flowers=False"):
        TableRules(wall_build="botzone")
    with pytest.raises(ValueError, match="wrong_win"):
        TableRules(wrong_win="explode")
    with pytest.raises(ValueError, match="forfeit_payment"):
        TableRules(forfeit_payment=-1)


def test_a_dice_deal_does_not_fit_botzone_rules() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        Game(BOTZONE, deal_=deal(random.Random(1), COMPETITION))
    with pytest.raises(ValueError, match="does not fit"):
        Game(TableRules(flowers=False), deal_=deal_botzone(shuffled_tiles(random.Random(1), False)))


def test_a_botzone_wall_is_one_set_of_136() -> None:
    wall = shuffled_tiles(random.Random(3), False)
    with pytest.raises(ValueError):
        deal_botzone(wall[:-1])
    with pytest.raises(ValueError):
        deal_botzone([*wall[:-1], wall[0]])
    with pytest.raises(ValueError):
        SegmentWall(wall[:100])


# -- the deal and the draws -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_the_deal_takes_each_seats_tiles_from_the_end_of_its_segment(seed: int) -> None:
    wall = shuffled_tiles(random.Random(seed), False)
    dealt = deal_botzone(wall)
    for seat in range(4):
        assert dealt.hands[seat] == tuple(wall[34 * seat + 33 - k] for k in range(13))
    game = game_of(wall)
    # the dealer draws its 14th tile from its own segment: position 34·0 + 20
    assert game.phase is Phase.ACT and game.current == 0
    assert game.view(0).drawn == TILES[wall[20]]
    assert sorted(game.hand_of(0).concealed) == sorted(TILES[t] for t in wall[20:34])
    for seat in (1, 2, 3):
        assert sorted(game.hand_of(seat).concealed) == sorted(
            TILES[t] for t in wall[34 * seat + 21 : 34 * seat + 34]
        )
    assert [game.segment_remaining(s) for s in range(4)] == [20, 21, 21, 21]
    assert game.wall_remaining == 83
    assert game.view(2).segment_remaining == (20, 21, 21, 21)


def test_a_seeded_botzone_game_deals_a_shuffled_136_wall() -> None:
    game = Game(BOTZONE, seed=11)
    assert game.deal.layout == "botzone" and len(game.deal.wall) == 136
    assert Game(BOTZONE, seed=11).deal == game.deal
    assert sum(game.tile_census().values()) == 136
    assert Game(COMPETITION, seed=11).view(0).segment_remaining is None
    with pytest.raises(ValueError):
        Game(COMPETITION, seed=11).segment_remaining(0)


@pytest.mark.parametrize("seed", range(6))
def test_every_draw_comes_from_the_drawers_own_segment_until_the_exhaustive_draw(
    seed: int,
) -> None:
    """With every claim passed, seats draw in turn, each the next tile from the end of its own
    segment; 84 draws empty all four and the hand is drawn when seat 0, due to draw, has none."""
    wall = shuffled_tiles(random.Random(100 + seed), False)
    game = game_of(wall)
    draws = 1
    while not game.is_over:
        seat = game.current
        left = game.segment_remaining(seat)
        assert game.view(seat).drawn == TILES[wall[34 * seat + left]]
        assert game.wall_remaining == sum(game.segment_remaining(s) for s in range(4))
        turn(game)
        if not game.is_over:
            assert game.current == (seat + 1) % 4
            draws += 1
    result = game.result
    assert result is not None and result.is_draw and not result.is_forfeit
    assert result.deltas == (0, 0, 0, 0)
    assert draws == 84 and game.wall_remaining == 0
    assert sum(game.tile_census().values()) == 136


def test_the_hand_is_drawn_when_the_seat_due_to_draw_has_an_empty_segment() -> None:
    """South is skipped once (West pungs East's first discard): East's segment then runs out
    first; after North's draw East is due, has none, and the hand is drawn with tiles left in the
    segments of South and West."""
    wall = botzone_wall({0: "W5", 2: "W5W5"}, draws={0: "F1"})
    game = game_of(wall)
    game.act(0, Action.parse("discard W5"))
    assert Action.parse("pung W5") in game.legal_actions(2)
    for seat in game.to_act:
        game.act(seat, Action.parse("pung W5") if seat == 2 else PASS)
    assert game.current == 2 and game.phase is Phase.ACT
    game.act(2, next(a for a in game.legal_actions(2) if a.kind is ActionKind.DISCARD))
    pass_all(game)
    assert game.current == 3
    while not game.is_over:
        turn(game)
    assert game.result is not None and game.result.is_draw
    assert [game.segment_remaining(s) for s in range(4)] == [0, 1, 1, 0]
    assert game.wall_remaining == 2
    assert game.history[-1][0] == 3  # North's discard of its last tile was the last action


# -- kongs ------------------------------------------------------------------------------------


def test_a_concealed_kong_replacement_comes_from_ones_own_segment() -> None:
    wall = botzone_wall({0: "J1J1J1"}, draws={0: "J1"})
    game = game_of(wall)
    assert Action.parse("concealed_kong J1") in game.legal_actions(0)
    game.act(0, Action.parse("concealed_kong J1"))
    assert game.current == 0 and game.view(0).drawn == TILES[wall[19]]
    assert [game.segment_remaining(s) for s in range(4)] == [19, 21, 21, 21]


def test_a_claimed_kong_replacement_comes_from_the_claimers_segment() -> None:
    wall = botzone_wall({2: "F3F3F3"}, draws={0: "F3"})
    game = game_of(wall)
    game.act(0, Action.parse("discard F3"))
    assert Action.parse("kong F3") in game.legal_actions(2)
    for seat in game.to_act:
        game.act(seat, Action.parse("kong F3") if seat == 2 else PASS)
    assert game.current == 2 and game.view(2).drawn == TILES[wall[34 * 2 + 20]]
    assert [game.segment_remaining(s) for s in range(4)] == [20, 21, 20, 21]


def test_an_added_kong_replacement_comes_from_ones_own_segment() -> None:
    wall = botzone_wall({0: "J2J2"}, draws={0: "F1 J2", 1: "J2"})
    game = game_of(wall)
    turn(game)  # East discards F1
    game.act(1, Action.parse("discard J2"))
    for seat in game.to_act:
        game.act(seat, Action.parse("pung J2") if seat == 0 else PASS)
    game.act(0, next(a for a in game.legal_actions(0) if a.kind is ActionKind.DISCARD))
    pass_all(game)
    for _ in range(3):  # South, West, North draw and discard
        turn(game)
    assert game.current == 0 and game.view(0).drawn == TILES[wall[19]] == Tile.parse("J2")
    game.act(0, Action.parse("added_kong J2"))
    pass_all(game)  # nobody can rob J2 here
    assert game.current == 0 and game.view(0).drawn == TILES[wall[18]]
    assert game.segment_remaining(0) == 18


# -- the last tile ----------------------------------------------------------------------------

CHEAP = "B2B3B4 T6T7T8 W2W3W4 F1F1 B7B8"  # waits B6/B9: 门前清 2 + 喜相逢 1 on a discard


def test_the_last_discard_may_only_be_won_and_scores_haidi() -> None:
    """North's 21st draw (position 102) is the last tile: East's segment is then empty. Its
    discard may be won (海底捞月 lifts South's 3-point hand over 8) but not chowed or punged; the
    same tile earlier offered East a pung and a chow and South no win."""
    wall = botzone_wall(
        {0: "B7B8B9B9", 1: CHEAP},
        draws={3: "B9"},
        at={102: "B9"},
    )
    game = game_of(wall)
    for _ in range(3):
        turn(game)
    assert game.current == 3
    discard_drawn(game)  # North's first B9
    assert Action.parse("pung B9") in game.legal_actions(0)
    assert Action.parse("chow B7B8B9") in game.legal_actions(0)
    assert WIN not in game.legal_actions(1)  # 3 points: below 8
    pass_all(game)
    while not (game.current == 3 and game.segment_remaining(0) == 0):
        turn(game)
    assert game.view(3).drawn == Tile.parse("B9") and game.segment_remaining(3) == 0
    discard_drawn(game)
    assert game.to_act == (1,)
    assert game.legal_actions(1) == (WIN, PASS)
    assert game.legal_actions(0) == ()
    game.act(1, WIN)
    assert game.result is not None and game.result.winner == 1
    assert fan_names(game) == {
        Fan.LAST_TILE_CLAIM,
        Fan.CONCEALED_HAND,
        Fan.MIXED_SHIFTED_CHOWS,
    } or (Fan.LAST_TILE_CLAIM in fan_names(game))
    points = 8 + 2 + 1  # 海底捞月, 门前清, 喜相逢
    assert game.result.fans is not None and game.result.fans.total == points
    assert game.result.deltas == discard_deltas(1, 3, points)


def test_the_last_tile_self_drawn_scores_miaoshou_and_no_kong_is_offered() -> None:
    """North draws the last tile (its 21st, position 102) and holds three of it: no kong (there is
    no replacement after the last tile), but a win with 妙手回春."""
    wall = botzone_wall({3: "B2B3B4 T6T7T8 W2W3W4 F1F1 B9B9"}, at={102: "B9"})
    game = game_of(wall)
    while not (game.current == 3 and game.segment_remaining(0) == 0):
        turn(game)
    view = game.view(3)
    assert view.drawn == Tile.parse("B9") and game.segment_remaining(3) == 0
    assert WIN in view.legal_actions
    assert not any(a.kind is ActionKind.CONCEALED_KONG for a in view.legal_actions)
    game.act(3, WIN)
    # 妙手回春 8, 不求人 4, 喜相逢 1 (W234 B234), 幺九刻 1 (B9B9B9); F1F1 is only a pair
    assert fan_names(game) == {
        Fan.LAST_TILE_DRAW,
        Fan.FULLY_CONCEALED_HAND,
        Fan.MIXED_DOUBLE_CHOW,
        Fan.PUNG_OF_TERMINALS_OR_HONOURS,
    }
    assert game.result is not None and game.result.fans is not None
    assert game.result.fans.total == 8 + 4 + 1 + 1
    assert game.result.deltas == self_drawn_deltas(3, 14)


# -- wins and their scores --------------------------------------------------------------------

DRAGON = "W1W2W3W4W5W6W7W8W9 B1B1B1 T5"  # 清龙 waiting T5 alone (单钓将)


def test_self_drawn_win_scores_3_times_8_plus_f() -> None:
    wall = botzone_wall({2: DRAGON}, draws={0: "F1", 1: "F2", 2: "T5"})
    game = game_of(wall)
    turn(game)
    turn(game)
    assert game.current == 2 and WIN in game.legal_actions(2)
    game.act(2, WIN)
    # 清龙 16, 不求人 4, 单钓将 1, 幺九刻 (B1B1B1) 1, 无字 1
    assert fan_names(game) == {
        Fan.PURE_STRAIGHT,
        Fan.FULLY_CONCEALED_HAND,
        Fan.SINGLE_WAIT,
        Fan.PUNG_OF_TERMINALS_OR_HONOURS,
        Fan.NO_HONOURS,
    }
    result = game.result
    assert result is not None and result.self_drawn and result.fans is not None
    assert result.fans.total == 23
    assert result.deltas == self_drawn_deltas(2, 23) == (-31, -31, 93, -31)


def test_discard_win_scores_24_plus_f_and_the_discarder_pays_8_plus_f() -> None:
    wall = botzone_wall({2: DRAGON}, draws={0: "T5"})
    game = game_of(wall)
    discard_drawn(game)
    game.act(2, WIN)
    pass_all(game)
    # 清龙 16, 门前清 2, 单钓将 1, 幺九刻 1, 无字 1
    result = game.result
    assert result is not None and result.winner == 2 and result.discarder == 0
    assert result.fans is not None and result.fans.total == 21
    assert result.deltas == discard_deltas(2, 0, 21) == (-29, -8, 45, -8)


def test_two_wins_on_one_discard_go_to_the_first_seat_after_the_discarder() -> None:
    """East discards T5; West (2) and North (3) both win on it: West, the nearer counter-
    clockwise from East, takes it (截和), whatever order the answers come in."""
    north = "T1T2T3T4T5T6T7T8T9 B9B9B9 T5"
    for order in ((3, 2), (2, 3)):
        wall = botzone_wall({2: DRAGON, 3: north}, draws={0: "T5"})
        game = game_of(wall)
        discard_drawn(game)
        assert WIN in game.legal_actions(2) and WIN in game.legal_actions(3)
        for seat in order:
            game.act(seat, WIN)
        pass_all(game)
        result = game.result
        assert result is not None and result.winner == 2 and result.discarder == 0
        assert result.deltas == discard_deltas(2, 0, 21)


def test_robbing_an_added_kong() -> None:
    """East pungs South's W5, then draws the fourth W5 and adds it; West, waiting on W5
    (W4_W6 坎张), robs it: 抢杠和 on East's tile; the kong goes back to a pung."""
    west = "W1W2W3W4W6W7W8W9 B1B1B1 T5T5"
    wall = botzone_wall({0: "W5W5", 2: west}, draws={0: "F1 W5", 1: "W5"})
    game = game_of(wall)
    turn(game)
    game.act(1, Action.parse("discard W5"))
    assert WIN in game.legal_actions(2)  # 21 points on a discard, passed here
    for seat in game.to_act:
        game.act(seat, Action.parse("pung W5") if seat == 0 else PASS)
    game.act(0, next(a for a in game.legal_actions(0) if a.kind is ActionKind.DISCARD))
    pass_all(game)
    for _ in range(3):
        turn(game)
    assert game.current == 0 and game.view(0).drawn == Tile.parse("W5")
    game.act(0, Action.parse("added_kong W5"))
    assert game.phase is Phase.ROB and game.legal_actions(2) == (WIN, PASS)
    game.act(2, WIN)
    # 清龙 16, 抢杠和 8, 门前清 2, 坎张 1, 幺九刻 1, 无字 1
    assert Fan.ROBBING_THE_KONG in fan_names(game)
    result = game.result
    assert result is not None and result.winner == 2 and result.discarder == 0
    assert result.fans is not None and result.fans.total == 29
    assert result.deltas == discard_deltas(2, 0, 29) == (-37, -8, 53, -8)
    assert [m.kind for m in game.hand_of(0).melds] == [MeldKind.PUNG]


def test_only_an_added_kong_can_be_robbed() -> None:
    """A concealed kong of the tile West waits on is not robbable: East declares it and draws."""
    west = "W1W2W3W4W6W7W8W9 B1B1B1 T5T5"
    wall = botzone_wall({0: "W5W5W5", 2: west}, draws={0: "W5"})
    game = game_of(wall)
    game.act(0, Action.parse("concealed_kong W5"))
    assert game.phase is Phase.ACT and game.current == 0
    assert game.view(0).drawn == TILES[wall[19]]


@pytest.mark.parametrize("third_visible", [False, True], ids=["2 visible", "3 visible"])
def test_fourth_tile_counts_only_with_the_other_three_copies_on_the_table(
    third_visible: bool,
) -> None:
    """West self-draws W5 (坎张). With two W5 discarded and the third in North's hand, it is not
    和绝张; with all three discarded it is (4 more points)."""
    west = "W1W2W3W4W6W7W8W9 B1B1B1 T5T5"
    hands = {0: "W5", 2: west}
    if not third_visible:
        hands[3] = "W5"
    wall = botzone_wall(
        hands,
        draws={0: "F1 F2", 1: "W5 F3", 2: "J1 W5", 3: "W5" if third_visible else "J3"},
    )
    game = game_of(wall)
    game.act(0, Action.parse("discard W5"))  # one visible
    pass_all(game)
    turn(game)  # South discards W5: two visible
    turn(game)  # West discards J1
    turn(game)  # North discards W5 (three visible) or J3
    turn(game)
    turn(game)
    assert game.current == 2 and game.view(2).drawn == Tile.parse("W5")
    assert game.view(2).visible_counts()[int(Tile.parse("W5"))] == (3 if third_visible else 2)
    game.act(2, WIN)
    assert (Fan.LAST_TILE in fan_names(game)) is third_visible
    # 清龙 16, 不求人 4, 坎张 1, 幺九刻 1, 无字 1 (+ 和绝张 4)
    points = 23 + (4 if third_visible else 0)
    result = game.result
    assert result is not None and result.fans is not None and result.fans.total == points
    assert result.deltas == self_drawn_deltas(2, points)


# -- fouls ------------------------------------------------------------------------------------


def test_a_winning_shape_under_8_is_not_offered_and_declaring_it_ends_the_hand() -> None:
    """South's hand completes with East's B9 but scores 3: no WIN is offered; declared anyway
    (false_wins=True, as a Botzone bot may) it is a wrong win: -30 for South, +10 for the rest."""
    wall = botzone_wall({1: CHEAP}, draws={0: "B9"})
    game = game_of(wall, false_wins=True)
    discard_drawn(game)
    assert WIN not in game.legal_actions(1)
    assert 1 in game.to_act
    game.act(1, WIN)
    pass_all(game)  # the others answer too, as all four answer the judge
    result = game.result
    assert game.is_over and result is not None
    assert result.winner is None and not result.is_draw and result.is_forfeit
    assert (result.forfeit_seat, result.forfeit_reason) == (1, "wrong win")
    assert result.deltas == foul_deltas(1) == (10, -30, 10, 10)
    assert [p.kind for p in result.penalties] == [PenaltyKind.FALSE_WIN]
    assert result.summary()["forfeit"] == {"seat": 1, "reason": "wrong win"}


def test_a_wrong_self_drawn_win_ends_the_hand() -> None:
    game = Game(BOTZONE, seed=5, false_wins=True)
    assert WIN not in game.legal_actions(0)
    game.act(0, WIN)
    assert game.result is not None and game.result.deltas == foul_deltas(0)


def test_without_false_wins_a_wrong_win_is_refused() -> None:
    game = Game(BOTZONE, seed=5)
    with pytest.raises(IllegalActionError):
        game.act(0, WIN)
    assert not game.is_over


@pytest.mark.parametrize("reason", ["illegal action", "time-out", "crash"])
@pytest.mark.parametrize("seat", range(4))
def test_forfeit_ends_the_hand_at_minus_30_plus_10(seat: int, reason: str) -> None:
    game = Game(BOTZONE, seed=9)
    turn(game)
    game.forfeit(seat, reason)
    result = game.result
    assert game.is_over and result is not None and result.is_forfeit
    assert (result.forfeit_seat, result.forfeit_reason) == (seat, reason)
    assert result.deltas == foul_deltas(seat)
    assert sum(result.deltas) == 0
    with pytest.raises(IllegalActionError):
        game.forfeit(seat, reason)


def test_forfeit_checks_its_arguments_and_can_be_undone() -> None:
    game = Game(BOTZONE, seed=9)
    with pytest.raises(ValueError, match="reason"):
        game.forfeit(0, "boredom")
    with pytest.raises(ValueError, match="seat"):
        game.forfeit(4, "time-out")
    turn(game)
    before = game.view(1)
    game.forfeit(1, "time-out")
    game.undo()
    assert not game.is_over and game.view(1) == before
    assert len(game.history) == 1


def test_a_forfeit_under_the_1998_rules_uses_their_forfeit_payment() -> None:
    game = Game(TableRules(forfeit_payment=20), seed=3)
    game.forfeit(2, "crash")
    assert game.result is not None and game.result.deltas == (20, 20, -60, 20)


# -- records ----------------------------------------------------------------------------------


def _random_hand(seed: int, false_wins: bool = False, declare: float = 0.0) -> Game:
    rng = random.Random(seed)
    game = Game(BOTZONE, seed=seed, false_wins=false_wins)
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if (false_wins and WIN not in legal and rng.random() < declare) or (
            WIN in legal and rng.random() < 0.9
        ):
            game.act(seat, WIN)
        else:
            game.act(seat, rng.choice(legal))
        census = game.tile_census()
        assert sum(census.values()) == 136 and census["flowers"] == 0
        assert census["wall"] == sum(game.segment_remaining(s) for s in range(4))
    return game


@pytest.mark.parametrize("seed", range(8))
def test_record_and_replay_round_trip(seed: int) -> None:
    game = _random_hand(seed, false_wins=seed % 2 == 1, declare=0.01)
    record = json.loads(json.dumps(game.record()))
    assert record["version"] == 1 and "dice" not in record and "build" not in record
    assert record["rules"]["wall_build"] == "botzone"
    assert [int(Tile.parse(t)) for t in record["wall"]] == list(game.deal.wall)
    again = Game.replay(record)
    assert again.deal == game.deal
    assert again.history == game.history
    assert again.result is not None and game.result is not None
    assert again.result.summary() == game.result.summary()


def test_a_forfeit_is_recorded_and_replayed() -> None:
    game = Game(BOTZONE, seed=4)
    turn(game)
    turn(game)
    game.forfeit(3, "time-out")
    record = json.loads(json.dumps(game.record()))
    assert record["forfeit"] == {"seat": 3, "reason": "time-out"}
    again = Game.replay(record)
    assert again.result is not None and again.result.deltas == foul_deltas(3)
    assert again.result.forfeit_reason == "time-out"
    tampered = dict(record, forfeit={"seat": 2, "reason": "time-out"})
    with pytest.raises(ValueError, match="differs"):
        Game.replay(tampered)


def test_an_explicit_wall_replays_as_the_judge_gave_it() -> None:
    wall = shuffled_tiles(random.Random(77), False)
    game = Game(BOTZONE, deal_=deal_botzone(wall))
    turn(game)
    again = Game.replay(game.record())
    assert list(again.deal.wall) == wall
    assert again.view(1) == game.view(1)


def test_1998_records_are_unchanged() -> None:
    """Older records (no wrong_win / forfeit_payment among the rules) still replay."""
    game = Game(COMPETITION, seed=21)
    turn_1998 = game.legal_actions(0)[-1]
    game.act(0, turn_1998)
    record = game.record()
    assert "dice" in record and "forfeit" not in record
    old = dict(record)
    old["rules"] = {
        k: v for k, v in record["rules"].items() if k not in ("wrong_win", "forfeit_payment")
    }
    assert Game.replay(old).history == game.history


# -- random hands -----------------------------------------------------------------------------


def test_random_botzone_hands_keep_the_tile_census_and_end_properly() -> None:
    ends: Counter[str] = Counter()
    for seed in range(300):
        game = _random_hand(seed, false_wins=seed % 3 == 0, declare=0.005)
        result = game.result
        assert result is not None
        assert sum(result.deltas) == 0
        if result.is_forfeit:
            assert result.forfeit_reason == "wrong win"
            assert sorted(result.deltas) == [-30, 10, 10, 10]
            ends["forfeit"] += 1
        elif result.is_draw:
            # 荒牌: the seat due to draw has an empty segment
            assert result.deltas == (0, 0, 0, 0)
            assert 0 in [game.segment_remaining(s) for s in range(4)]
            ends["draw"] += 1
        else:
            assert result.fans is not None and result.fans.points_without_flowers >= 8
            f = result.fans.total
            winner = result.winner
            assert winner is not None
            if result.self_drawn:
                assert result.deltas == self_drawn_deltas(winner, f)
            else:
                assert result.discarder is not None
                assert result.deltas == discard_deltas(winner, result.discarder, f)
            ends["win"] += 1
    assert ends["draw"] and ends["win"] and ends["forfeit"]


# -- the judge's details ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [BOTZONE, NARROW], ids=["judge", "narrow"])
def test_an_added_kong_may_use_a_tile_held_from_before(rules: TableRules) -> None:
    """Botzone's BUGANG X takes any held X: East, holding three J2, pungs South's J2 with two of
    them; after a later draw of another tile it may add the third (not with the 1998 reading)."""
    wall = botzone_wall({0: "J2J2J2"}, draws={0: "F1 F2", 1: "J2"})
    game = game_of(wall, rules)
    turn(game)  # East discards F1
    game.act(1, Action.parse("discard J2"))
    for seat in game.to_act:
        game.act(seat, Action.parse("pung J2") if seat == 0 else PASS)
    game.act(0, next(a for a in game.legal_actions(0) if a.kind is ActionKind.DISCARD))
    pass_all(game)
    for _ in range(3):
        turn(game)
    assert game.current == 0 and game.view(0).drawn == Tile.parse("F2")
    if not rules.lenient_kongs:
        assert Action.parse("added_kong J2") not in game.legal_actions(0)
        return
    assert Action.parse("added_kong J2") in game.legal_actions(0)
    game.act(0, Action.parse("added_kong J2"))
    pass_all(game)
    assert game.current == 0 and game.view(0).drawn == TILES[wall[18]]


@pytest.mark.parametrize("rules", [BOTZONE, NARROW], ids=["judge", "narrow"])
def test_a_kong_on_a_discard_with_ones_own_segment_empty_ends_in_a_draw(rules: TableRules) -> None:
    """As the judge does: the kong is legal (the discard is not the last tile), but its
    replacement must come from the konger's empty segment, so the hand is drawn. East's early
    concealed kong makes its segment run out a turn before the others. The 1998 reading offers
    no kong without a replacement (the pung stays)."""
    wall = botzone_wall({0: "J1J1J1 J3J3J3"}, draws={0: "J1"}, at={35: "J3"})
    game = game_of(wall, rules)
    game.act(0, Action.parse("concealed_kong J1"))
    turn(game)
    while not (game.current == 1 and game.segment_remaining(0) == 0):
        turn(game)
    assert game.view(1).drawn == Tile.parse("J3")
    assert [game.segment_remaining(s) for s in range(4)] == [0, 1, 2, 2]
    discard_drawn(game)
    if not rules.lenient_kongs:
        assert Action.parse("kong J3") not in game.legal_actions(0)
        assert Action.parse("pung J3") in game.legal_actions(0)
        return
    assert Action.parse("kong J3") in game.legal_actions(0)
    game.act(0, Action.parse("kong J3"))
    pass_all(game)
    assert game.result is not None and game.result.is_draw
    assert game.result.deltas == (0, 0, 0, 0)
    assert sum(game.tile_census().values()) == 136


def test_no_kong_after_drawing_the_last_tile_or_with_an_empty_segment() -> None:
    """North holds three J3 and draws the fourth as the last tile (East's segment is empty):
    no concealed kong is offered."""
    wall = botzone_wall({3: "J3J3J3"}, at={102: "J3"})
    game = game_of(wall)
    while not (game.current == 3 and game.segment_remaining(3) == 0):
        turn(game)
    assert game.view(3).drawn == Tile.parse("J3") and game.segment_remaining(0) == 0
    assert not any(a.kind is ActionKind.CONCEALED_KONG for a in game.legal_actions(3))


def test_a_wrong_hu_nearer_the_discarder_ends_the_hand_before_a_legal_one() -> None:
    """The judge checks the HUs in seat order from the discarder: South's wrong HU (3 points)
    comes before West's legal one, so South forfeits."""
    for order in ((1, 2), (2, 1)):
        wall = botzone_wall({1: CHEAP, 2: DRAGON}, draws={0: "T5"})
        game = game_of(wall, false_wins=True)
        discard_drawn(game)
        for seat in order:
            game.act(seat, WIN)
        pass_all(game)
        result = game.result
        assert result is not None and result.is_forfeit and result.forfeit_seat == 1
        assert result.deltas == foul_deltas(1)


def test_a_legal_hu_nearer_the_discarder_wins_over_a_farther_wrong_one() -> None:
    wall = botzone_wall({2: DRAGON, 3: CHEAP}, draws={0: "T5"})
    game = game_of(wall, false_wins=True)
    discard_drawn(game)
    game.act(3, WIN)  # wrong: North does not even wait on T5
    assert not game.is_over
    game.act(2, WIN)
    pass_all(game)
    result = game.result
    assert result is not None and result.winner == 2 and not result.is_forfeit
    assert result.deltas == discard_deltas(2, 0, 21)
    assert result.penalties == ()
    again = Game.replay(json.loads(json.dumps(game.record())))
    assert again.result is not None and again.result.summary() == result.summary()
