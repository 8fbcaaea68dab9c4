"""The table engine, one procedure rule at a time (第六条五(六), 第七条, 第八条, 第十四条六).

Every situation is dealt from a wall built by :func:`setup`: the test names the tiles that matter
(part of each hand, the live draws, the replacements from the far end, the last tiles of the wall)
and the rest of each hand is filled with "neutral" tiles that make no pair, pung or chow with the
hand's other tiles (nor one a named discard could complete) and keep the hand far from ready. Seats: 0 East (the dealer), 1 South, 2 West,
3 North; ``(s + 1) % 4`` is the next player (下家).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import shanten
from guobiao.core.tiles import TILES, Tile
from guobiao.scoring.fans import Fan
from guobiao.table.game import (
    PASS,
    WIN,
    Action,
    ActionKind,
    Game,
    IllegalActionError,
    Phase,
)
from guobiao.table.play import play_hand
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules
from guobiao.table.settlement import PenaltyKind
from guobiao.table.wall import deal_from

NO_FLOWERS = TableRules(flowers=False)
DICE = (3, 4, 2, 5)

# -- building a deal ------------------------------------------------------------------------------


def tiles(text: str) -> list[int]:
    """``"W1W2 B5"`` -> tile ints (Botzone names, spaces ignored)."""
    text = text.replace(" ", "")
    assert len(text) % 2 == 0, text
    return [int(Tile.parse(text[i : i + 2])) for i in range(0, len(text), 2)]


def names(ts: Iterable[int]) -> str:
    return "".join(str(TILES[t]) for t in ts)


def far_end(n: int) -> list[int]:
    """Live-order positions of the far end, in the order replacements are drawn: the top tile of
    the last stack first (第七条七 「在牌墻最後補進一張牌」)."""
    return [p for k in range(n // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]


def live_wall(
    hands: list[list[int]],
    draws: list[int],
    replacements: list[int],
    tail: list[int],
    fill: list[int],
    n: int,
) -> list[int]:
    """A wall in live order that deals ``hands`` (the dealer's 14 first), then gives ``draws`` to
    the live end, ``replacements`` to the far end and ``tail`` as the last live tiles.

    The deal (第六条五(五)4): three rounds of two stacks (4 tiles) to E, S, W, N; then the dealer's
    jump takes the top tiles of stacks a and c, S a-bottom, W b-top, N b-bottom; live draws go on
    from c-bottom (position 53). ``tail`` assumes exactly ``len(replacements)`` replacements.
    """
    assert [len(h) for h in hands] == [14, 13, 13, 13], [len(h) for h in hands]
    order: list[int | None] = [None] * n
    for r in range(3):
        for seat in range(4):
            order[16 * r + 4 * seat : 16 * r + 4 * seat + 4] = hands[seat][4 * r : 4 * r + 4]
    order[48:53] = [hands[0][12], hands[1][12], hands[2][12], hands[3][12], hands[0][13]]
    order[53 : 53 + len(draws)] = draws
    back = far_end(n)[: len(replacements)]
    for position, tile in zip(back, replacements, strict=True):
        assert order[position] is None, "draws and replacements overlap"
        order[position] = tile
    taken = set(back)
    live = [p for p in range(n) if p not in taken]
    for position, tile in zip(live[len(live) - len(tail) :], tail, strict=True):
        assert order[position] is None, "the tail overlaps the draws"
        order[position] = tile
    rest = iter(fill)
    return [t if t is not None else next(rest) for t in order]


# Neutral tiles: 5, 1, 9 of each suit (one of each knitted group), the honours, then the rest. Never a kind the test names,
# never twice in a hand, at least three ranks from the hand's other tiles of the suit: a neutral
# tile can take part in no pair, pung, kong or chow of its holder.
NEUTRAL_ORDER = tiles("W5B5T5W1B1T1W9B9T9F1F2F3F4J1J2J3W2B2T2W8B8T8W3B3T3W7B7T7W4B4T4W6B6T6")
TERMINALS_AND_HONOURS = {0, 8, 9, 17, 18, 26, *range(27, 34)}


def _fits(candidate: int, hand: list[int], filler: list[int], named: set[int], loose: bool) -> bool:
    """A neutral tile for a hand: a new kind, at most ten terminal or honour kinds among the
    neutral tiles (never near 十三幺), and at least three ranks from the hand's tiles of its suit.
    ``loose`` allows one neighbour within two ranks when no tile that would make a chow of the two
    is a kind the test names (no named discard can then be claimed with it)."""
    if candidate in hand:
        return False
    if candidate in TERMINALS_AND_HONOURS and sum(t in TERMINALS_AND_HONOURS for t in filler) >= 10:
        return False
    if candidate >= 27:
        return True
    suit = candidate // 9
    near = [t for t in hand if t < 27 and t // 9 == suit and abs(t - candidate) < 3]
    if not near:
        return True
    if not loose or len(near) > 1 or near[0] not in filler:
        return False
    low, high = sorted((candidate, near[0]))
    partners = {low + 1} if high - low == 2 else {low - 1, high + 1}
    partners = {t for t in partners if t // 9 == suit and 0 <= t < 27}
    neighbours = [
        t for t in hand if t < 27 and t // 9 == suit and t != near[0] and abs(t - near[0]) < 3
    ]
    return not partners & named and len(neighbours) == 0


def setup(
    E: str = "",
    S: str = "",
    W: str = "",
    N: str = "",
    *,
    draws: str = "",
    replacements: str = "",
    tail: str = "",
    avoid: str = "",
    rules: TableRules = NO_FLOWERS,
    seed: int = 0,
    **game_options: Any,
) -> Game:
    """A game dealt from a controlled wall; the named tiles first in each hand, neutral tiles after.

    ``avoid`` names kinds the neutral filler must not use.
    """
    named = [tiles(x) for x in (E, S, W, N)]
    specified = [*named, tiles(draws), tiles(replacements), tiles(tail), tiles(avoid)]
    named_kinds = {t for part in specified for t in part}
    avoided = set(tiles(avoid))
    n = rules.tile_count
    full = Counter({t: 4 for t in range(34)})
    if rules.flowers:
        full.update({t: 1 for t in range(34, 42)})
    used = Counter(t for part in specified[:7] for t in part)
    assert not used - full, f"more copies than the set holds: {dict(used - full)}"
    hands = []
    for seat, part in enumerate(named):
        size = 14 if seat == 0 else 13
        hand = list(part)
        # Kinds the test names only when the others run out (never ``avoid``, never a kind the
        # hand names: one copy of a named kind can make no pair).
        for loose, any_kind in ((False, False), (False, True), (True, False), (True, True)):
            for candidate in NEUTRAL_ORDER:
                if len(hand) >= size:
                    break
                if used[candidate] >= 4 or candidate in avoided:
                    continue
                if candidate in named_kinds and not any_kind:
                    continue
                if _fits(candidate, hand, hand[len(part) :], named_kinds, loose):
                    hand.append(candidate)
                    used[candidate] += 1
        assert len(hand) == size, f"no neutral filler for seat {seat}: {names(hand)}"
        if size - len(part) >= 5 and max(hand) < 34:  # mostly neutral: far from ready
            counts = [hand.count(t) for t in range(34)]
            assert shanten(counts) >= 2, names(hand)
        hands.append(hand)
    rest = list((full - used).elements())
    plain = [t for t in rest if t < 34]
    random.Random(seed).shuffle(plain)
    fill = plain + [t for t in rest if t >= 34]  # unnamed flowers come last
    order = live_wall(hands, tiles(draws), tiles(replacements), tiles(tail), fill, n)
    assert Counter(order) == full
    game = Game(rules, deal_=deal_from(order, DICE), **game_options)
    NAMED[id(game)] = named_kinds
    return game


NAMED: dict[int, set[int]] = {}  # the kinds each set-up game names, by id


# -- driving a game -------------------------------------------------------------------------------


def act(game: Game, *moves: str) -> Game:
    """Apply moves written ``"<seat> <action>"``, e.g. ``"0 discard W1"``, ``"1 chow W2W3W4"``."""
    for move in moves:
        seat, _, text = move.partition(" ")
        game.act(int(seat), Action.parse(text))
    return game


def discard_any(game: Game, seat: int) -> None:
    """Discard a neutral tile that nobody can claim (each candidate is tried and taken back if
    anyone could claim it)."""
    named = NAMED[id(game)]
    for tile in game.hand_of(seat).concealed:
        if int(tile) in named:
            continue
        game.act(seat, Action(ActionKind.DISCARD, tile))
        if game.phase is not Phase.RESPOND or all(
            game.legal_actions(other) == (PASS,) for other in game.to_act
        ):
            others_pass(game)  # nobody can claim it (with false_wins they are still asked)
            return
        game.undo()
    raise AssertionError(f"seat {seat} has no neutral tile to discard")


def drawn(game: Game, seat: int) -> Tile:
    tile = game.view(seat).drawn
    assert tile is not None, f"seat {seat} did not just draw"
    return tile


def tsumogiri_until(game: Game, done: Callable[[Game], bool], limit: int = 1000) -> None:
    """Play on, every seat discarding what it draws and passing on every claim, until ``done``."""
    for _ in range(limit):
        if done(game):
            return
        assert not game.is_over, "the hand ended first"
        seat = game.to_act[0]
        if game.phase is Phase.ACT:
            game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
        else:
            game.act(seat, PASS)
    raise AssertionError("did not get there")


def others_pass(game: Game) -> None:
    """With false_wins every seat is asked on a discard (it may declare a win): those whose only
    choice is to pass, pass."""
    for seat in game.to_act:
        if game.legal_actions(seat) == (PASS,):
            game.act(seat, PASS)


def last_tile_drawn(game: Game) -> bool:
    return game.wall_remaining == 0 and game.phase is Phase.ACT


def fans(game: Game) -> set[Fan]:
    assert game.result is not None and game.result.fans is not None
    return {f.fan for f in game.result.fans.fans}


def concealed(game: Game, seat: int) -> Counter[int]:
    return Counter(int(t) for t in game.hand_of(seat).concealed)


def kinds(actions: Iterable[Action], kind: ActionKind) -> list[str]:
    return [str(a.tile) for a in actions if a.kind is kind]


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a state."""
    return (
        tuple(game.view(seat) for seat in range(4)),
        tuple(game.hand_of(seat) for seat in range(4)),
        game.to_act,
        game.phase,
        game.wall_remaining,
        tuple(sorted(game.tile_census().items())),
        game.result,
        tuple(game.history),
    )


def discard_win_deltas(winner: int, discarder: int, points: int) -> tuple[int, ...]:
    """第十条一(三)2: each other player pays 底分 8, the discarder also the fan points."""
    out = [-8] * 4
    out[winner] = 24 + points
    out[discarder] = -8 - points
    return tuple(out)


def self_draw_deltas(winner: int, points: int) -> tuple[int, ...]:
    """第十条一(三)1: each other player pays 8 + the fan points."""
    out = [-(8 + points)] * 4
    out[winner] = 3 * (8 + points)
    return tuple(out)


# Hands used below (13 tiles each).
PURE_STRAIGHT_B5 = "W1W2W3W4W5W6W7W8W9 T1T1 B4B6"  # 清龙, waits B5 (坎张)
CHICKEN = "W2W3W4 B6B7B8 T1T2T3 T6T7 F2F2"  # waits T5/T8: 门前清 2 alone on a discard


# == 第六条五(六): flowers at the deal ===============================================================


def test_flowers_at_the_deal_are_replaced_dealer_first_then_south_west_north() -> None:
    """「如手中有花牌，首先由莊家補花。再由南家、西、北家逐補完」: each seat replaces all its flowers
    (a flower drawn as a replacement is replaced again) before the next seat starts, from the far
    end of the wall."""
    game = setup(
        E="H1H2",
        S="H3",
        N="H4",
        replacements="W3 H5 B3 T3 B7",
        rules=COMPETITION,
    )
    east, south, west, north = (game.hand_of(s) for s in range(4))
    assert [str(f) for f in east.flowers] == ["H1", "H2", "H5"]
    assert [str(f) for f in south.flowers] == ["H3"]
    assert list(west.flowers) == []
    assert [str(f) for f in north.flowers] == ["H4"]
    # The dealer took the first three replacements (W3, then H5 for H2, replaced by B3).
    assert concealed(game, 0)[tiles("W3")[0]] == 1
    assert concealed(game, 0)[tiles("B3")[0]] == 1
    assert concealed(game, 1)[tiles("T3")[0]] == 1  # South the fourth
    assert concealed(game, 3)[tiles("B7")[0]] == 1  # North the fifth
    assert [len(game.hand_of(s).concealed) for s in range(4)] == [14, 13, 13, 13]
    assert game.wall_remaining == 144 - 53 - 5
    view = game.view(2)
    assert view.flowers == (3, 1, 0, 1)
    assert game.phase is Phase.ACT and game.current == 0
    assert drawn(game, 0) == TILES[tiles("B3")[0]]  # the dealer's last replacement


def test_a_flower_drawn_in_play_is_shown_and_replaced_from_the_far_end() -> None:
    """第六条五(六) 補花 and 第七条四: a flower drawn in play is exposed and replaced from the far end
    (the top tile of the last stack)."""
    game = setup(E="J1", draws="H1", replacements="B7", rules=COMPETITION)
    act(game, "0 discard J1")
    assert game.phase is Phase.ACT and game.current == 1
    assert drawn(game, 1) == TILES[tiles("B7")[0]]
    assert [str(f) for f in game.hand_of(1).flowers] == ["H1"]
    assert game.view(0).flowers == (0, 1, 0, 0)
    assert game.wall_remaining == 144 - 53 - 2
    assert len(game.hand_of(1).concealed) == 14


@pytest.mark.parametrize(
    ("replacements", "kong_bloom"),
    [("W9", True), ("H1 W9", False), ("H1 H2 W9", False)],
    ids=["kong replacement", "flower after the kong", "two flowers after the kong"],
)
def test_a_win_on_a_kong_replacement_is_kong_bloom_unless_a_flower_came_between(
    replacements: str, kong_bloom: bool
) -> None:
    """Fan 46 杠上开花 「開槓抓進的牌成和牌(不包括補花)」; fan 81 「花牌補花成和計自摸分，不計槓上開花」."""
    game = setup(
        E="J1J1J1J1 W1W2W3W4W5W6W7W8 B5B5",
        replacements=replacements,
        rules=COMPETITION,
    )
    act(game, "0 concealed_kong J1")
    assert game.legal_actions(0)[0] == WIN
    act(game, "0 win")
    got = fans(game)
    assert (Fan.OUT_WITH_REPLACEMENT_TILE in got) is kong_bloom
    assert Fan.SELF_DRAWN not in got or not kong_bloom
    if not kong_bloom:
        assert got & {Fan.SELF_DRAWN, Fan.FULLY_CONCEALED_HAND}
    assert game.result is not None and game.result.self_drawn


def test_a_win_on_a_flower_replacement_in_play_is_self_drawn() -> None:
    """第八条二(二)1: 自摸和 「包括槓上開花、補花和」; fan 81: not 杠上开花."""
    game = setup(
        E="J1",
        S=PURE_STRAIGHT_B5,
        draws="H1",
        replacements="B5",
        rules=COMPETITION,
    )
    act(game, "0 discard J1")
    assert WIN in game.legal_actions(1)
    act(game, "1 win")
    result = game.result
    assert result is not None and result.winner == 1 and result.self_drawn
    got = fans(game)
    assert Fan.OUT_WITH_REPLACEMENT_TILE not in got
    assert Fan.FULLY_CONCEALED_HAND in got  # a concealed hand, self-drawn (自摸 inside 不求人)
    assert Fan.FLOWER_TILES in got
    assert result.fans is not None
    assert result.deltas == self_draw_deltas(1, result.fans.total)


# == 第七条五: chow, only from 上家 ===================================================================


@pytest.mark.parametrize(
    ("discard", "holding", "chows"),
    [
        ("W4", "W2W3W5W6", ["W2", "W3", "W4"]),
        ("W5", "W3W4W6W7", ["W3", "W4", "W5"]),
        ("W1", "W2W3", ["W1"]),
        ("W9", "W7W8", ["W7"]),
        ("B2", "B1B3B4", ["B1", "B2"]),
        ("T8", "T6T7T9", ["T6", "T7"]),
        ("B5", "B4B6", ["B4"]),
        ("T8", "T6T9", []),
        ("F1", "F2F3", []),
        ("J2", "J1J3", []),
    ],
)
def test_chow_only_from_the_previous_player_every_variant(
    discard: str, holding: str, chows: list[str]
) -> None:
    """第七条五 「上家打出牌，與自己手中的牌可以組成一副順子，便可以報吃」: South may chow East's
    discard in every way its tiles allow; West and North, holding the same tiles, may not."""
    game = setup(E=discard, S=holding, W=holding, N=holding)
    act(game, f"0 discard {discard}")
    south = game.legal_actions(1) if game.phase is Phase.RESPOND else ()
    assert kinds(south, ActionKind.CHOW) == chows
    for seat in (2, 3):
        assert not kinds(game.legal_actions(seat), ActionKind.CHOW)
    if not chows:  # nobody could claim it: South drew
        assert game.phase is Phase.ACT and game.current == 1


def test_a_chow_is_exposed_and_the_chower_discards() -> None:
    """第七条四-五: the chow is exposed (the claimed tile recorded, offered by 上家); the player
    then discards without drawing, holding 14 - 3 tiles."""
    game = setup(E="W4", S="W2W3W5W6")
    act(game, "0 discard W4", "1 chow W3W4W5")
    assert game.hand_of(1).melds == (Meld(MeldKind.CHOW, TILES[2], 3, TILES[3]),)
    assert game.phase is Phase.ACT and game.current == 1
    assert game.view(1).drawn is None
    assert len(game.hand_of(1).concealed) == 11
    legal = game.legal_actions(1)
    assert {a.kind for a in legal} == {ActionKind.DISCARD}
    assert game.view(0).discards[0] == ()  # the claimed tile left East's pool


def test_the_chower_may_discard_a_copy_of_the_tile_it_chowed() -> None:
    """第七条四 「允許同時打出吃進的牌」."""
    game = setup(E="W4", S="W2W3W4")
    act(game, "0 discard W4", "1 chow W2W3W4")
    assert Action.parse("discard W4") in game.legal_actions(1)
    act(game, "1 discard W4")
    assert game.view(0).discards[1] == (TILES[3],)


def test_the_next_player_may_pung_or_chow() -> None:
    """第七条五-六: both are offered; 「允許同時吃進(或碰)打出的牌」."""
    game = setup(E="W4", S="W4W4 W5W6")
    act(game, "0 discard W4")
    assert game.legal_actions(1) == (
        Action.parse("pung W4"),
        Action.parse("chow W4W5W6"),
        PASS,
    )


# == 第七条六: pung from anyone ========================================================================


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_pung_from_any_player(seat: int) -> None:
    """第七条六 「有人打出的牌與自己手中的對子相同，便可報碰」: any seat, and the turn passes from
    the punger (seats in between are skipped)."""
    hands = {"E": "J1", "S": "", "W": "", "N": ""}
    hands["SWN"[seat - 1]] = "J1J1"
    game = setup(**hands)
    act(game, "0 discard J1")
    assert game.to_act == (seat,)
    assert game.legal_actions(seat) == (Action.parse("pung J1"), PASS)
    act(game, f"{seat} pung J1")
    assert game.hand_of(seat).melds == (Meld(MeldKind.PUNG, TILES[31], (0 - seat) % 4),)
    assert game.phase is Phase.ACT and game.current == seat
    assert {a.kind for a in game.legal_actions(seat)} == {ActionKind.DISCARD}
    assert len(game.hand_of(seat).concealed) == 11
    discard_any(game, seat)
    assert game.phase is Phase.ACT and game.current == (seat + 1) % 4


# == 第七条七: kongs ===================================================================================


def test_melded_kong_on_a_discard_with_a_concealed_pung() -> None:
    """第七条七(一) 「別人打出一張與手中的暗刻相同的牌，即報槓」; 「報開槓後應即在牌墻最後補進一張牌」."""
    game = setup(E="J1", W="J1J1J1", replacements="B7")
    act(game, "0 discard J1")
    assert game.legal_actions(2) == (Action.parse("pung J1"), Action.parse("kong J1"), PASS)
    act(game, "2 kong J1")
    assert game.hand_of(2).melds == (Meld(MeldKind.KONG, TILES[31], 2),)
    assert game.phase is Phase.ACT and game.current == 2
    assert drawn(game, 2) == TILES[tiles("B7")[0]]  # from the far end
    assert len(game.hand_of(2).concealed) == 11
    assert game.wall_remaining == 136 - 53 - 1
    assert game.view(0).discards[0] == ()


def test_added_kong_on_ones_exposed_pung() -> None:
    """第七条七(一) 「抓進一張與已經碰的刻子牌相同也可報開槓」."""
    game = setup(E="J1", S="J1J1", draws="F1 F2 F3 J1", replacements="B7")
    act(game, "0 discard J1", "1 pung J1")
    discard_any(game, 1)
    for seat in (2, 3, 0):
        game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
    assert drawn(game, 1) == TILES[31]
    assert Action.parse("added_kong J1") in game.legal_actions(1)
    act(game, "1 added_kong J1")
    assert game.hand_of(1).melds == (Meld(MeldKind.KONG, TILES[31], 3),)
    assert game.phase is Phase.ACT and game.current == 1
    assert drawn(game, 1) == TILES[tiles("B7")[0]]


def test_concealed_kong() -> None:
    """第七条七(二) 「自己抓到4張相同的牌，即可報開槓」."""
    game = setup(E="J1J1J1J1", replacements="B7")
    assert Action.parse("concealed_kong J1") in game.legal_actions(0)
    act(game, "0 concealed_kong J1")
    assert game.hand_of(0).melds == (Meld(MeldKind.CONCEALED_KONG, TILES[31]),)
    assert drawn(game, 0) == TILES[tiles("B7")[0]]
    assert len(game.hand_of(0).concealed) == 11


def test_no_kong_right_after_a_chow() -> None:
    """第七条七 「吃牌時，手中有槓牌，不能開槓。只能在下一次自己抓進牌後才能開槓」."""
    game = setup(E="W4", S="W2W3 J1J1J1J1", draws="F1 F2 F3 F4")
    act(game, "0 discard W4", "1 chow W2W3W4")
    assert not kinds(game.legal_actions(1), ActionKind.CONCEALED_KONG)
    discard_any(game, 1)
    for seat in (2, 3, 0):
        game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
    assert game.current == 1
    assert kinds(game.legal_actions(1), ActionKind.CONCEALED_KONG) == ["J1"]


@pytest.mark.parametrize("last", [True, False], ids=["last tile", "earlier tile"])
def test_a_kong_needs_a_replacement_tile(last: bool) -> None:
    """第七条七 「報開槓後應即在牌墻最後補進一張牌」: no kong of any kind once the wall is empty.

    North holds W9W9W9 and draws the fourth; East holds J1J1J1 and North discards the fourth J1.
    """
    if last:
        game = setup(E="J1J1J1", N="W9W9W9 J1", tail="W9")
        tsumogiri_until(game, last_tile_drawn)
        assert game.current == 3 and drawn(game, 3) == TILES[8]
    else:
        game = setup(E="J1J1J1 F1", N="W9W9W9 J1", draws="F2 F3 W9")
        act(game, "0 discard F1")
        for seat in (1, 2):
            game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
    assert concealed(game, 3)[8] == 4
    offered = kinds(game.legal_actions(3), ActionKind.CONCEALED_KONG)
    assert offered == ([] if last else ["W9"])
    act(game, "3 discard J1")
    if last:  # 荒牌: the melded kong (and the pung) are not offered on the last discard
        assert game.is_over and game.result is not None and game.result.is_draw
        assert game.result.deltas == (0, 0, 0, 0)
    else:
        assert game.legal_actions(0) == (
            Action.parse("pung J1"),
            Action.parse("kong J1"),
            PASS,
        )


def test_no_added_kong_on_the_last_tile() -> None:
    """第七条七: the added kong needs a replacement too. South pungs W9 from East and West pungs
    J1 from South, so that South draws the last tile, the fourth W9."""
    game = setup(E="W9", S="W9W9 J1", W="J1J1 F1", tail="W9")
    act(game, "0 discard W9", "1 pung W9", "1 discard J1", "2 pung J1", "2 discard F1")
    tsumogiri_until(game, last_tile_drawn)
    assert game.current == 1 and drawn(game, 1) == TILES[8]
    assert not kinds(game.legal_actions(1), ActionKind.ADDED_KONG)


# == 第七条六-七, 第八条二(三): priority and one winner ===============================================

PRIORITY_N = "B1B2B3B4B5B6B7B8B9 T1T1 W4W6"  # 清龙, waits W5


@pytest.mark.parametrize("order", [(1, 2, 3), (3, 2, 1)], ids=["S first", "N first"])
@pytest.mark.parametrize(
    ("south", "west", "north", "claimer", "kind"),
    [
        ("chow W5W6W7", "pung W5", "win", 3, "win"),
        ("chow W5W6W7", "pung W5", "pass", 2, "pung"),
        ("chow W5W6W7", "pass", "win", 3, "win"),
        ("chow W5W6W7", "pass", "pass", 1, "chow"),
        ("pass", "pung W5", "pass", 2, "pung"),
        ("pass", "pass", "pass", None, None),
    ],
)
def test_claim_priority_win_then_pung_then_chow(
    south: str,
    west: str,
    north: str,
    claimer: int | None,
    kind: str | None,
    order: tuple[int, int, int],
) -> None:
    """第七条六 「“碰”比“吃”優先」, 第七条七 「“槓”比“吃”優先」; a win comes before any claim
    (第八条二(二)2 點和). The order in which the answers arrive does not matter."""
    game = setup(E="W5", S="W6W7", W="W5W5", N=PRIORITY_N)
    act(game, "0 discard W5")
    assert game.to_act == (1, 2, 3)
    assert WIN in game.legal_actions(3)
    answers = {1: south, 2: west, 3: north}
    for seat in order:
        act(game, f"{seat} {answers[seat]}")
    if kind == "win":
        assert game.result is not None and game.result.winner == claimer
        assert game.result.discarder == 0
    elif kind is None:
        assert game.phase is Phase.ACT and game.current == 1 and game.view(1).drawn is not None
    else:
        assert game.phase is Phase.ACT and game.current == claimer
        melds = game.hand_of(claimer).melds
        assert [m.kind.value for m in melds] == [kind]


def test_a_melded_kong_beats_a_chow() -> None:
    """第七条七 「“槓”比“吃”優先」."""
    game = setup(E="W5", S="W6W7", W="W5W5W5", replacements="B9")
    act(game, "0 discard W5", "1 chow W5W6W7", "2 kong W5")
    assert game.hand_of(2).melds == (Meld(MeldKind.KONG, TILES[4], 2),)
    assert game.hand_of(1).melds == ()
    assert game.current == 2 and drawn(game, 2) == TILES[tiles("B9")[0]]


JUE_S = PURE_STRAIGHT_B5
JUE_W = "T1T2T3T4T5T6T7T8T9 F2F2F2 B5"  # 清龙, waits B5 (单钓)
JUE_N = "J1J1J1 J2J2J2 F3F3F3 J3J3 B5B5"  # 小三元 etc., waits J3 or B5


@pytest.mark.parametrize(
    ("declaring", "winner"),
    [({1, 2, 3}, 1), ({2, 3}, 2), ({3}, 3), ({1, 3}, 1), ({1, 2}, 1)],
)
def test_one_winner_the_first_counter_clockwise_from_the_discarder(
    declaring: set[int], winner: int
) -> None:
    """第八条二(三) 「一盤只能有一位和牌者。如有一人以上同時表示和牌時，從打牌者按逆時針方向，
    順序在前者被定為“和牌者”」 (截和)."""
    game = setup(E="B5", S=JUE_S, W=JUE_W, N=JUE_N)
    act(game, "0 discard B5")
    assert all(WIN in game.legal_actions(s) for s in (1, 2, 3))
    for seat in (3, 2, 1):
        act(game, f"{seat} {'win' if seat in declaring else 'pass'}")
    result = game.result
    assert result is not None and result.winner == winner and result.discarder == 0
    assert result.fans is not None
    assert result.deltas == discard_win_deltas(winner, 0, result.fans.total)
    assert sum(result.deltas) == 0


@pytest.mark.parametrize(
    ("declaring", "winner"),
    [({0, 1, 2}, 0), ({1, 2}, 1), ({0, 2}, 0), ({2}, 2)],
)
def test_one_winner_counting_on_past_the_dealer(declaring: set[int], winner: int) -> None:
    """第八条二(三): North discards; counter-clockwise from North comes East, then South, West."""
    game = setup(
        E=f"{PURE_STRAIGHT_B5} F4",
        S=JUE_W,
        W=JUE_N,
        N="B5",
        draws="F1 F1 F1",
    )
    act(game, "0 discard F4")
    for seat in (1, 2):
        game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
    act(game, "3 discard B5")
    assert game.to_act == (0, 1, 2)
    for seat in (2, 1, 0):
        act(game, f"{seat} {'win' if seat in declaring else 'pass'}")
    assert game.result is not None and game.result.winner == winner
    assert game.result.discarder == 3


# == 第八条二(二): the ways of winning ================================================================


def robbing_game() -> Game:
    """South pungs T5 from East, then draws the fourth T5; West waits on T5/T8 with a hand worth
    门前清 2 alone, so that it can win only by robbing the kong."""
    game = robbing_setup()
    act(game, "0 discard T5")
    assert game.to_act == (1,)  # West may not win on a discard: 2 points
    act(game, "1 pung T5")
    discard_any(game, 1)
    for seat in (2, 3, 0):
        game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
    act(game, "1 added_kong T5")
    return game


def test_robbing_an_added_kong() -> None:
    """第八条二(二)2 點和 「包括搶槓和」; fan 47 「和別人自抓開明槓的牌。不計和絕張」: the robbed tile
    is a discard won, the kong goes back to being a pung."""
    game = robbing_game()
    assert game.phase is Phase.ROB and game.to_act == (2,)
    assert game.legal_actions(2) == (WIN, PASS)
    assert game.view(2).last_discard == TILES[22]
    act(game, "2 win")
    result = game.result
    assert result is not None and result.winner == 2 and result.discarder == 1
    got = fans(game)
    assert Fan.ROBBING_THE_KONG in got and Fan.LAST_TILE not in got
    assert game.hand_of(1).melds == (Meld(MeldKind.PUNG, TILES[22], 3),)
    assert result.fans is not None
    assert result.deltas == discard_win_deltas(2, 1, result.fans.total)
    assert sum(game.tile_census().values()) == 136


def test_an_added_kong_not_robbed_draws_its_replacement() -> None:
    game = robbing_game()
    act(game, "2 pass")
    assert game.phase is Phase.ACT and game.current == 1
    assert drawn(game, 1) == TILES[9]
    assert game.hand_of(1).melds == (Meld(MeldKind.KONG, TILES[22], 3),)


def test_a_concealed_kong_cannot_be_robbed() -> None:
    """Fan 47 robs 「自抓開明槓的牌」 only: a concealed kong is not exposed (第七条七(二))."""
    game = setup(E="T5T5T5T5", W="W2W3W4 B6B7B8 T1T2T3 T4T6 F2F2", replacements="B1")
    act(game, "0 concealed_kong T5")
    assert game.phase is Phase.ACT and game.current == 0
    assert drawn(game, 0) == TILES[9]


def test_kong_bloom() -> None:
    """Fan 46 杠上开花: a win on the kong's replacement tile; 「不計自摸」."""
    game = setup(E="J1J1J1J1 W1W2W3W4W5W6W7W8 B5B5", replacements="W9")
    act(game, "0 concealed_kong J1", "0 win")
    got = fans(game)
    assert Fan.OUT_WITH_REPLACEMENT_TILE in got and Fan.SELF_DRAWN not in got


def test_kong_bloom_after_a_melded_kong() -> None:
    game = setup(E="J1", S="J1J1J1 W1W2W3W4W5W6W7W8 B5B5", replacements="W9")
    act(game, "0 discard J1", "1 kong J1")
    assert game.legal_actions(1)[0] == WIN
    act(game, "1 win")
    assert Fan.OUT_WITH_REPLACEMENT_TILE in fans(game)
    assert game.result is not None and game.result.self_drawn


def test_last_tile_claim_and_no_claims_on_the_last_discard() -> None:
    """Fan 45 海底捞月 「和打出的最後一張牌」: East wins North's discard of the last tile. No pung or
    chow is offered on that discard: nothing could follow it (第七条七, 第五条三十)."""
    game = setup(E=f"{CHICKEN} J1", W="T8T8", tail="T8")
    act(game, "0 discard J1")
    tsumogiri_until(game, last_tile_drawn)
    assert game.current == 3 and drawn(game, 3) == TILES[25]
    act(game, "3 discard T8")
    assert game.to_act == (0,)
    assert game.legal_actions(0) == (WIN, PASS)  # no chow T6T7T8 either
    assert game.legal_actions(2) == ()
    act(game, "0 win")
    got = fans(game)
    assert Fan.LAST_TILE_CLAIM in got
    assert game.result is not None and game.result.discarder == 3


def test_exhaustive_draw_when_the_last_discard_is_not_won() -> None:
    """第五条三十 荒牌: the last tile is drawn and its discard not won; no points move."""
    game = setup(E=f"{CHICKEN} J1", W="T8T8", tail="T8")
    act(game, "0 discard J1")
    tsumogiri_until(game, last_tile_drawn)
    act(game, "3 discard T8", "0 pass")
    result = game.result
    assert result is not None and result.is_draw and result.winner is None
    assert result.deltas == (0, 0, 0, 0)
    assert game.to_act == ()
    assert game.wall_remaining == 0
    assert sum(game.tile_census().values()) == 136


def test_last_tile_draw() -> None:
    """Fan 44 妙手回春 「自摸牌墻上最後一張牌和牌。不計自摸」."""
    game = setup(N="B1B2B3 W5W6W7 T4T5T6 B8B9 F4F4", tail="B7")
    tsumogiri_until(game, last_tile_drawn)
    assert game.current == 3 and drawn(game, 3) == TILES[15]
    assert WIN in game.legal_actions(3)
    act(game, "3 win")
    got = fans(game)
    assert Fan.LAST_TILE_DRAW in got and Fan.SELF_DRAWN not in got


def test_the_same_tiles_before_the_last_tile_do_not_win() -> None:
    """Without 妙手回春 the hand of test_last_tile_draw scores 不求人 4 + 1: below 8."""
    game = setup(E="F1", N="B1B2B3 W5W6W7 T4T5T6 B8B9 F4F4", draws="F2 F3 B7")
    act(game, "0 discard F1")
    for seat in (1, 2):
        game.act(seat, Action(ActionKind.DISCARD, drawn(game, seat)))
    assert drawn(game, 3) == TILES[15]
    assert WIN not in game.legal_actions(3)


JUE_WINNER = "W1W2W3W4W5W6W7W8W9 T2T2 B7B8"  # 清龙, waits B6/B9


@pytest.mark.parametrize(
    ("how", "fourth_tile"),
    [("first copy", False), ("pung exposed", True), ("discards", True), ("self-drawn", True)],
)
def test_last_tile_from_the_table(how: str, fourth_tile: bool) -> None:
    """Fan 58 和绝张 「和牌池、桌面已亮明的3張牌所剩的第4張牌」: counted from what is on the table:
    the discard pools and the exposed melds."""
    if how == "first copy":
        game = setup(E="B9", W=JUE_WINNER)
        act(game, "0 discard B9", "2 win")
    elif how == "pung exposed":
        game = setup(E="B9", W=JUE_WINNER, N="B9B9", draws="B9")
        act(game, "0 discard B9", "2 pass", "3 pung B9")
        discard_any(game, 3)
        act(game, "0 discard B9", "2 win")
    elif how == "discards":
        game = setup(E="B9", W=JUE_WINNER, draws="B9 J1 B9 B9")
        act(game, "0 discard B9", "2 pass", "1 discard B9", "2 pass", "2 discard J1")
        act(game, "3 discard B9", "2 pass", "0 discard B9", "2 win")
        assert [len(p) for p in game.view(0).discards] == [1, 1, 1, 1]
    else:
        game = setup(E="B9", W=JUE_WINNER, N="B9B9", draws="J1 J2 B9")
        act(game, "0 discard B9", "2 pass", "3 pung B9")
        discard_any(game, 3)
        act(game, "0 discard J1", "1 discard J2", "2 win")
        assert game.result is not None and game.result.self_drawn
    assert game.result is not None and game.result.winner == 2
    assert (Fan.LAST_TILE in fans(game)) is fourth_tile


def test_a_dealer_dealt_a_complete_hand_wins_it_self_drawn() -> None:
    """第九条 has no 天和 (docs/rules.md §13, §18): the dealer's fourteen dealt tiles, complete, are
    an ordinary self-drawn win; the dealer names as winning tile the one that scores most (here a
    closed or edge wait adds 1 over the jump's last tile)."""
    game = setup(E="W1W2W3W4W5W6W7W8W9 T1T1 B4B5B6")
    assert int(drawn(game, 0)) in (1, 2, 6, 7)  # W2 W3 W7 W8 give 坎张 or 边张 on 123/789
    assert game.legal_actions(0)[0] == WIN
    act(game, "0 win")
    result = game.result
    assert result is not None and result.winner == 0 and result.self_drawn
    assert Fan.PURE_STRAIGHT in fans(game) and Fan.FULLY_CONCEALED_HAND in fans(game)


# == 第五条三十四(二), 第八条: 8 points without flowers ===============================================

SEVEN = "W1W2 W7W8W9 B4B5B6 B6B7B8 B8B8"  # +W3: 门前清 平和 老少副 缺一门 边张 = 7 on a discard


def test_a_win_worth_seven_points_is_not_offered() -> None:
    """第五条三十四(二) 起和分 「和牌必須達到的最低分數(8分)。花牌分不計在起和分內」: South's hand
    is complete with W3 but worth 7 on a discard, so only the chow is offered."""
    game = setup(E="W3", S=SEVEN)
    act(game, "0 discard W3")
    assert game.legal_actions(1) == (Action.parse("chow W1W2W3"), PASS)


def test_the_same_hand_self_drawn_is_worth_nine_and_wins() -> None:
    game = setup(E="J1", S=SEVEN, draws="W3")
    act(game, "0 discard J1")
    assert WIN in game.legal_actions(1)
    act(game, "1 win")
    assert game.result is not None and game.result.fans is not None
    assert game.result.fans.points_without_flowers == 9


def test_flowers_do_not_count_toward_the_eight() -> None:
    """Fan 81 花牌 「不計在起和分內，和牌後才能計分」: three flowers do not lift 7 to 8."""
    game = setup(E="W3", S="H1H2H3 W1W2W7W8W9B4B5B6B6B7", replacements="B8B8B8", rules=COMPETITION)
    assert len(game.hand_of(1).flowers) == 3
    assert concealed(game, 1) == Counter(tiles(SEVEN))
    act(game, "0 discard W3")
    assert WIN not in game.legal_actions(1)


def test_a_win_worth_eight_points_is_offered() -> None:
    game = setup(E="T5", S="W2W3W4W2W3W4B5B6B7T6T7B8B8")  # 门前清 平和 断幺 一般高 喜相逢 = 8
    act(game, "0 discard T5")
    assert WIN in game.legal_actions(1)
    act(game, "1 win")
    assert game.result is not None and game.result.fans is not None
    assert game.result.fans.points_without_flowers == 8
    assert game.result.deltas == discard_win_deltas(1, 0, 8)


# == illegal actions, undo, replays ================================================================


def illegal_states() -> dict[str, Game]:
    start = setup(E="W4 F4", S="W2W3", W="W4W4")
    respond = setup(E="W4 F4", S="W2W3", W="W4W4")
    act(respond, "0 discard W4")
    over = setup(E="B5", S=PURE_STRAIGHT_B5)
    act(over, "0 discard B5", "1 win")
    return {"start": start, "respond": respond, "over": over}


ILLEGAL = [
    ("start", "1 discard W2", "not to act"),
    ("start", "0 discard W2", "not legal"),
    ("start", "0 pass", "not legal"),
    ("start", "0 win", "not legal"),
    ("start", "0 pung W4", "not legal"),
    ("start", "0 chow W2W3W4", "not legal"),
    ("start", "0 concealed_kong W4", "not legal"),
    ("start", "0 added_kong W4", "not legal"),
    ("respond", "2 chow W2W3W4", "not legal"),  # West is not East's 下家
    ("respond", "1 pung W4", "not legal"),  # South has no pair
    ("respond", "1 chow W3W4W5", "not legal"),  # South has no W5
    ("respond", "2 kong W4", "not legal"),  # a pair, not a concealed pung
    ("respond", "1 win", "not legal"),
    ("respond", "1 discard W2", "not legal"),
    ("respond", "3 pass", "not to act"),
    ("respond", "0 discard F4", "not to act"),
    ("over", "2 discard W4", "over"),
    ("over", "0 pass", "over"),
]


@pytest.mark.parametrize(("state", "move", "message"), ILLEGAL)
def test_an_illegal_action_is_rejected_and_changes_nothing(
    state: str, move: str, message: str
) -> None:
    """第七条 and 第八条 allow only what they list: the engine says why, and the state (every
    seat's view, the hands, the history) is exactly as before."""
    game = illegal_states()[state]
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as err:
        act(game, move)
    text = str(err.value)
    assert message in text
    if message == "not legal":
        assert str(Action.parse(move.partition(" ")[2])) in text and "legal:" in text
    assert snapshot(game) == before


def test_unreadable_actions_are_rejected() -> None:
    for text in ("draw W1", "discard", "discard X9", "win W1", "chow"):
        with pytest.raises(ValueError):
            Action.parse(text)


def test_action_text_round_trips() -> None:
    for text in (
        "discard W5",
        "chow W3W4W5",
        "pung F1",
        "kong J3",
        "concealed_kong B2",
        "added_kong T9",
        "win",
        "pass",
    ):
        assert str(Action.parse(text)) == text


def robbing_setup() -> Game:
    return setup(E="T5", S="T5T5", W=CHICKEN, draws="J1 J2 J3 T5", replacements="B1")


def scripted_game() -> tuple[Game, list[str]]:
    """A fresh deal and the moves of a hand with a pung, discards, an added kong and a robbing
    win."""
    game = robbing_game()
    act(game, "2 win")
    return robbing_setup(), [f"{seat} {action}" for seat, action in game.history]


def test_undo_restores_each_previous_state_exactly() -> None:
    game, moves = scripted_game()
    states = [snapshot(game)]
    for move in moves:
        act(game, move)
        states.append(snapshot(game))
    assert game.is_over
    for state in reversed(states[:-1]):
        game.undo()
        assert snapshot(game) == state
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()


def test_undo_then_the_same_action_is_identity() -> None:
    game, moves = scripted_game()
    for move in moves:
        act(game, move)
        after = snapshot(game)
        game.undo()
        act(game, move)
        assert snapshot(game) == after


def json_record(game: Game) -> dict[str, Any]:
    record = json.loads(json.dumps(game.record()))
    assert isinstance(record, dict)
    return record


def test_replay_reproduces_the_state_and_the_result() -> None:
    game, moves = scripted_game()
    act(game, *moves)
    again = Game.replay(json_record(game))
    assert snapshot(again) == snapshot(game)
    assert again.result == game.result
    for seed in range(30):
        game = Game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.act(seat, WIN if WIN in legal else rng.choice(legal))
        again = Game.replay(json_record(game))
        assert snapshot(again) == snapshot(game)
        assert again.result == game.result


def test_replay_of_part_of_a_hand() -> None:
    game, moves = scripted_game()
    act(game, *moves[:5])
    assert snapshot(Game.replay(json_record(game))) == snapshot(game)
    assert Game.replay(json_record(game), actions=False).history == []


def test_a_tampered_action_is_reported() -> None:
    game, moves = scripted_game()
    act(game, *moves)
    record = json_record(game)
    record["actions"][3] = [2, "discard J3"]  # West never held J3
    with pytest.raises(ValueError, match=r"action 4 \(2 discard J3\)"):
        Game.replay(record)
    record = json_record(game)
    record["actions"][1] = [2, "pung T5"]  # the wrong seat
    with pytest.raises(ValueError, match=r"action 2 \(2 pung T5\)"):
        Game.replay(record)
    record = json_record(game)
    record["actions"][0] = [0, "fold"]
    with pytest.raises(ValueError, match=r"action 1 \(0 fold\)"):
        Game.replay(record)


def test_a_tampered_record_header_is_reported() -> None:
    game, moves = scripted_game()
    act(game, *moves)
    record = json_record(game)
    record["version"] = 99
    with pytest.raises(ValueError, match="version"):
        Game.replay(record)
    record = json_record(game)
    record["wall"] = record["wall"][:-1]
    with pytest.raises(ValueError):
        Game.replay(record)
    record = json_record(game)
    wall = record["wall"]
    assert wall[53] == "J1"  # West's first draw, which West then discards
    other = next(p for p in range(60, 130) if wall[p] != "J1")
    wall[53], wall[other] = wall[other], wall[53]
    with pytest.raises(ValueError, match=r"action 4 \(2 discard J1\)"):
        Game.replay(record)


def test_a_wall_that_is_not_a_tile_set_is_reported() -> None:
    """第三条: 4 of each tile (and the 8 flowers): a record with a wall of any other tiles is
    tampered with, even where the changed tiles are never drawn."""
    game = Game(seed=5)
    for _ in range(10):
        seat = game.to_act[0]
        game.act(seat, game.legal_actions(seat)[-1])
    record = json_record(game)
    for position in range(100, 104):
        record["build"][position] = "W1"
    with pytest.raises(ValueError):
        Game.replay(record)


# == the per-seat view ================================================================================


def test_a_view_shows_ones_own_hand_and_only_what_is_exposed() -> None:
    """Each seat sees its own concealed tiles; of the others only melds, discards, flower counts."""
    game = setup(E="W4 F4", S="W2W3", W="W4W4", rules=COMPETITION)
    act(game, "0 discard W4", "1 chow W2W3W4")
    assert game.to_act == (2,)  # West may still pung: the chow waits
    act(game, "2 pass")
    for seat in range(4):
        view = game.view(seat)
        assert view.seat == seat
        assert list(view.hand) == sorted(game.hand_of(seat).concealed)
        assert view.melds == tuple(game.hand_of(s).melds for s in range(4))
        assert view.wall_remaining == game.wall_remaining
        assert view.legal_actions == game.legal_actions(seat)
        assert view.drawn is None
    assert game.view(0).discards == ((), (), (), ())
    assert game.view(2).legal_actions == ()


def test_a_view_does_not_depend_on_the_other_seats_concealed_tiles() -> None:
    """Two deals that differ only in South's concealed tiles look the same to East, West, North."""
    base = Game(COMPETITION, seed=12)
    order = list(base.deal.wall)
    south = [p for p in (4, 5, 6, 7, 20, 21, 22, 23) if order[p] < 34][:3]
    held = {order[p] for p in south}
    deep = [p for p in range(90, 125) if order[p] < 34 and order[p] not in held][:3]
    for a, b in zip(south, deep, strict=True):
        order[a], order[b] = order[b], order[a]
    other = Game(COMPETITION, deal_=deal_from(order, base.deal.dice))
    assert other.view(1) != base.view(1)
    for seat in (0, 2, 3):
        assert other.view(seat) == base.view(seat)


def test_a_concealed_kong_is_face_down_to_the_other_seats() -> None:
    """第七条七(二) 「暗槓應扣放在自己立牌子前。在一家和牌或荒牌時，必須亮明」: until the hand ends,
    the other seats see that East has a concealed kong, not of which tile."""
    views = []
    for kong in ("J1", "J2"):
        game = setup(E=f"{kong * 4}", avoid="J1J2", replacements="B7")
        act(game, f"0 concealed_kong {kong}")
        assert game.view(0).melds[0] == (Meld(MeldKind.CONCEALED_KONG, Tile.parse(kong)),)
        for seat in (1, 2, 3):
            assert game.view(seat).melds[0] == ()
            assert game.view(seat).concealed_kongs == (1, 0, 0, 0)
        views.append([game.view(seat) for seat in (1, 2, 3)])
    assert views[0] == views[1]


def test_a_concealed_kong_is_shown_when_the_hand_ends() -> None:
    game = setup(E="J1J1J1J1", replacements="B7")
    act(game, "0 concealed_kong J1")
    tsumogiri_until(game, lambda g: g.is_over)
    for seat in range(4):
        assert game.view(seat).melds[0] == (Meld(MeldKind.CONCEALED_KONG, TILES[31]),)


class Recorder:
    """An agent that plays at random and keeps every view it was shown."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.name = f"seat {seat}"
        self.seat = seat
        self.rng = rng
        self.views: list[Any] = []

    def choose(self, view: Any) -> Action:
        self.views.append(view)
        legal = view.legal_actions
        return WIN if WIN in legal else self.rng.choice(legal)


def test_play_hand_asks_each_seat_with_its_own_view() -> None:
    rng = random.Random(3)
    agents = [Recorder(seat, rng) for seat in range(4)]
    game = play_hand(agents, NO_FLOWERS, seed=21)
    assert game.is_over
    for agent in agents:
        assert agent.views and all(v.seat == agent.seat and v.legal_actions for v in agent.views)
    assert len(game.history) == sum(len(a.views) for a in agents)


class Cheat:
    name = "cheat"

    def choose(self, view: Any) -> Action:
        return Action.parse("discard J3") if view.phase is Phase.ACT else Action.parse("pung J3")


def test_play_hand_rejects_an_agents_illegal_action() -> None:
    game = setup(E="F4", avoid="J3")
    with pytest.raises(IllegalActionError):
        play_hand([Cheat()] * 4, game=game)


# == 第十四条六: declared wins that are not wins ======================================================


def finish(game: Game) -> None:
    tsumogiri_until(game, lambda g: g.is_over)


def penalty_deltas(seat: int, each: int) -> tuple[int, ...]:
    out = [each] * 4
    out[seat] = -3 * each
    return tuple(out)


@pytest.mark.parametrize(
    ("south", "discard", "kind", "each"),
    [
        (SEVEN, "W3", PenaltyKind.FALSE_WIN, 10),  # 错和: complete, 7 points
        (SEVEN, "B5", PenaltyKind.FALSE_WIN, 10),  # 和错牌: ready, B5 does not complete it
        ("W1W2 W7W8W9 B4B6 B6B7B8 B8B8 F4", "B5", PenaltyKind.FAKE_WIN, 20),  # 诈和: 1 from ready
        ("B4B6", "B5", PenaltyKind.INTENTIONAL_FAKE_WIN, 0),  # 有意诈和: 2+ from ready
    ],
    ids=["错和", "和错牌", "诈和", "有意诈和"],
)
def test_a_false_win_on_a_discard_is_penalised_and_play_goes_on(
    south: str, discard: str, kind: PenaltyKind, each: int
) -> None:
    """第十四条六: 錯和 / 和錯牌 「罰向各家支付10分」 and 停和; 詐和 「罰給各家20分」; 有意詐和 停賽.
    South may chow East's discard, so it is asked, and declares a win instead."""
    game = setup(E=discard, S=south, false_wins=True)
    act(game, f"0 discard {discard}")
    assert 1 in game.to_act and WIN not in game.legal_actions(1)
    act(game, "1 win")
    others_pass(game)
    assert not game.is_over
    assert game.phase is Phase.ACT and game.current == 1  # South passed and drew
    finish(game)
    result = game.result
    assert result is not None
    assert [(p.seat, p.kind, p.amount) for p in result.penalties] == [(1, kind, each)]
    if kind is PenaltyKind.INTENTIONAL_FAKE_WIN:
        assert result.outcome.disqualified == (1,)
    if result.is_draw:
        assert result.deltas == penalty_deltas(1, each)
    assert sum(result.deltas) == 0


def test_a_false_win_bars_the_seat_from_winning_the_hand() -> None:
    """第十四条六(一) 錯和 「停和」: after the false declaration South's real win is not offered."""
    game = setup(E="W3", S=SEVEN, draws="W3", false_wins=True)
    act(game, "0 discard W3", "1 win")
    others_pass(game)
    assert game.current == 1 and drawn(game, 1) == TILES[2]
    assert WIN not in game.legal_actions(1)  # 9 points self-drawn, but barred
    control = setup(E="W3", S=SEVEN, draws="W3", false_wins=True)
    act(control, "0 discard W3", "1 pass")
    others_pass(control)
    assert WIN in control.legal_actions(1)


def test_a_false_self_drawn_win_is_penalised() -> None:
    """第十四条六 on a self-draw (docs/rules.md §15): South draws a tile that does not complete its
    ready hand and declares: 10 to each, and South must still discard."""
    game = setup(E="J1", S=SEVEN, draws="J2", false_wins=True)
    act(game, "0 discard J1")
    others_pass(game)
    act(game, "1 win")
    assert game.phase is Phase.ACT and game.current == 1
    assert WIN not in game.legal_actions(1)
    act(game, "1 discard J2")
    finish(game)
    assert game.result is not None
    assert [(p.kind, p.amount) for p in game.result.penalties] == [(PenaltyKind.FALSE_WIN, 10)]


def test_false_wins_are_illegal_unless_enabled() -> None:
    game = setup(E="W3", S=SEVEN)
    act(game, "0 discard W3")
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        act(game, "1 win")
    assert snapshot(game) == before


def test_a_false_win_declared_after_a_claim_is_judged() -> None:
    """第十四条六: South pungs J1, then declares a win with 11 + 3 tiles that are not complete and
    far from ready: 有意诈和. The engine must judge it (not crash) and play goes on."""
    game = setup(E="J1", S="J1J1", false_wins=True)
    act(game, "0 discard J1")
    for seat in (2, 3):
        act(game, f"{seat} pass")
    act(game, "1 pung J1", "1 win")
    assert game.phase is Phase.ACT and game.current == 1
    discard_any(game, 1)
    finish(game)
    assert game.result is not None
    assert [p.seat for p in game.result.penalties] == [1]


# -- pickling (worker processes, Ray) and copying ---------------------------------------------------


@pytest.mark.parametrize("rules", [COMPETITION, BOTZONE], ids=["competition", "botzone"])
def test_a_game_pickles_and_copies_as_its_deal_and_actions(rules: TableRules) -> None:
    """A pickled game (mid-hand, over, or ended by a forfeit) comes back with the same record,
    views, legal actions and result; so do its results, views, actions, live seats and deal."""
    import copy
    import pickle

    rng = random.Random(4)
    for seed in range(12):
        game = Game(rules, seed)
        stop = rng.randrange(1, 60)
        while not game.is_over and len(game.history) < stop:
            seat = game.to_act[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
        if seed % 3 == 0 and not game.is_over:
            game.forfeit(game.to_act[0], "time-out")
        while seed % 3 == 1 and not game.is_over:
            seat = game.to_act[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
        for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game)):
            assert again is not game
            assert again.record() == game.record()
            assert again.to_act == game.to_act
            for seat in range(4):
                assert again.view(seat) == game.view(seat)
                assert again.legal_actions(seat) == game.legal_actions(seat)
                assert again.live_seat(seat) == game.live_seat(seat)
        things = [game.view(0), *game.legal_actions(game.to_act[0] if game.to_act else 0)]
        things += [game.live_seat(1), game.result, game.deal]
        for thing in things:
            assert pickle.loads(pickle.dumps(thing)) == thing
