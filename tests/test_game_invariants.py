"""Invariants of the table engine over random games (hypothesis picks the deals and the choices).

In every state: all tiles are accounted for, each seat holds the right number of tiles for the
phase, a seat asked to act has a choice, each view shows only its seat's concealed tiles. At the end
of every hand: the score changes sum to zero (penalties included) and follow 第十条一(三), the
record replays to the same state and result. Undo then redo is the identity. With
``false_wins=True``, random false declarations are judged and penalised as 第十四条六 says, and play
goes on.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guobiao.core.context import Wind
from guobiao.core.melds import MeldKind
from guobiao.core.shanten import shanten
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, HandResult, Phase
from guobiao.table.rules import COMPETITION, TableRules
from guobiao.table.settlement import Penalty, PenaltyKind
from test_game import snapshot

NO_FLOWERS = TableRules(flowers=False)
RULES = {"144": COMPETITION, "136": NO_FLOWERS, "mil": TableRules(fan_profile="mil")}

seeds = st.integers(min_value=0, max_value=2**32 - 1)
STATS: Counter[str] = Counter()
CIRCUMSTANCES = {"杠上开花", "抢杠和", "海底捞月", "妙手回春", "和绝张", "花牌"}


DEPTH = float(os.environ.get("GUOBIAO_DEPTH", "1"))  # e.g. 10 for a night's run


def checks(examples: int) -> settings:
    return settings(
        max_examples=max(1, round(examples * DEPTH)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if STATS:
        print(f"\ninvariants: {dict(STATS)}")


# -- players ----------------------------------------------------------------------------------------


def counts_of(game: Game, seat: int) -> list[int]:
    counts = [0] * 34
    for t in game.hand_of(seat).concealed:
        counts[t] += 1
    return counts


def greedy_discard(game: Game, seat: int, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """The discard that leaves the lowest shanten (ties at random)."""
    counts = counts_of(game, seat)
    melds = len(game.hand_of(seat).melds)
    best: list[Action] = []
    low = 99
    for action in legal:
        if action.kind is not ActionKind.DISCARD:
            continue
        assert action.tile is not None
        counts[action.tile] -= 1
        value = shanten(counts, melds)
        counts[action.tile] += 1
        if value < low:
            low, best = value, [action]
        elif value == low:
            best.append(action)
    return rng.choice(best)


def choose(game: Game, seat: int, rng: random.Random, style: str) -> Action:
    """A random legal choice: ``random`` picks uniformly (winning when it can, mostly); ``greedy``
    plays toward ready hands and claims and kongs often, so that games reach wins, kongs, robbed
    kongs and the last tile."""
    legal = game.legal_actions(seat)
    if WIN in legal and rng.random() < 0.95:
        return WIN
    if style == "random":
        return rng.choice(legal)
    special = [a for a in legal if a.kind not in (ActionKind.DISCARD, ActionKind.PASS)]
    special = [a for a in special if a is not WIN and a.kind is not ActionKind.WIN]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    if game.phase is Phase.ACT:
        return greedy_discard(game, seat, legal, rng)
    return PASS if PASS in legal else rng.choice(legal)


# -- invariants -------------------------------------------------------------------------------------


def check_state(game: Game, rng: random.Random) -> None:
    """The invariants of one state, read through the four seats' views (and, for one seat at
    random, the referee's ``hand_of``)."""
    STATS["states"] += 1
    census = game.tile_census()
    assert all(v >= 0 for v in census.values()), census
    assert sum(census.values()) == game.rules.tile_count, census
    over = game.is_over
    result = game.result
    assert over == (result is not None)
    views = [game.view(seat) for seat in range(4)]
    own_melds = [views[seat].melds[seat] for seat in range(4)]
    to_act = game.to_act
    for seat, view in enumerate(views):
        melds = len(own_melds[seat])
        acting = (game.phase is Phase.ACT and game.current == seat) or (
            over and result is not None and result.winner == seat
        )
        assert len(view.hand) == (14 if acting else 13) - 3 * melds, (seat, game.phase)
        assert view.seat == seat and view.phase is game.phase
        assert view.wall_remaining == census["wall"]
        legal = game.legal_actions(seat)
        assert view.legal_actions == legal
        assert bool(legal) == (seat in to_act)
        for other in range(4):  # others' concealed kongs lie face down until the end
            shown = own_melds[other]
            if other != seat and not over:
                shown = tuple(m for m in shown if m.kind is not MeldKind.CONCEALED_KONG)
            assert view.melds[other] == shown
        assert view.flowers == views[0].flowers and view.discards == views[0].discards
        if game.phase in (Phase.RESPOND, Phase.ROB):
            assert view.last_discard is not None
            if legal:
                assert PASS in legal
    seat = rng.randrange(4)
    hand = game.hand_of(seat)
    assert tuple(sorted(hand.concealed)) == views[seat].hand
    assert hand.melds == own_melds[seat]
    assert all(t < 34 for t in hand.concealed)
    assert len(hand.flowers) == views[0].flowers[seat]
    if not over:
        assert to_act, "a hand in play must wait for someone"
    if game.phase is Phase.ACT:
        assert to_act == (game.current,)
        assert any(a.kind is ActionKind.DISCARD for a in game.legal_actions(game.current))


def expected_deltas(result: HandResult, rules: TableRules) -> list[int]:
    """第十条一(三): 底分 8 from each other player; self-drawn, each also pays the fan points
    (flowers included); on a discard, the discarder alone. Then the penalties (第十条一(二)3)."""
    out = [0, 0, 0, 0]
    if result.winner is not None:
        assert result.fans is not None
        assert result.fans.points_without_flowers >= rules.minimum
        points = result.fans.total
        for seat in range(4):
            if seat == result.winner:
                continue
            pays = rules.base + (points if result.discarder in (None, seat) else 0)
            out[seat] -= pays
            out[result.winner] += pays
    for penalty in result.penalties:
        for seat, delta in enumerate(penalty.deltas()):
            out[seat] += delta
    return out


def check_end(game: Game) -> None:
    STATS["games"] += 1
    result = game.result
    assert result is not None
    STATS["draws" if result.is_draw else "self-drawn" if result.self_drawn else "discard wins"] += 1
    if result.fans is not None:
        for fan in result.fans.fans:
            if fan.fan.zh in CIRCUMSTANCES:
                STATS[fan.fan.zh] += 1
    assert sum(result.deltas) == 0, result.deltas
    assert list(result.deltas) == expected_deltas(result, game.rules)
    if result.is_draw:
        assert game.wall_remaining == 0
    record = json.loads(json.dumps(game.record()))
    again = Game.replay(record)
    assert snapshot(again) == snapshot(game)
    assert again.result == result
    STATS["replays"] += 1


def undo_redo(game: Game) -> None:
    """Undo then redo the last action: the identity."""
    after = snapshot(game)
    seat, action = game.history[-1]
    game.undo()
    game.act(seat, action)
    assert snapshot(game) == after
    STATS["undo-redo"] += 1


def tiles_out(game: Game) -> Counter[int]:
    """Every tile drawn so far: concealed, in melds, in the discard pools, flowers (read from the
    engine's own records, which ``hand_of`` and the views are built from: check_state compares
    those with each other)."""
    out: Counter[int] = Counter()
    for seat in range(4):
        st = game.live_seat(seat)
        for t, n in enumerate(st.counts[:34]):
            if n:
                out[t] += n
        out.update(int(t) for m in st.melds for t in m.tiles)
        out.update(st.flowers)
        out.update(st.river)
    return out


def act(game: Game, seat: int, action: Action) -> None:
    """Apply an action; every tile must still be out at most once (第三条: one set of tiles)."""
    game.act(seat, action)
    out = tiles_out(game)
    assert max(out.values()) <= 4 and all(out[f] <= 1 for f in range(34, 42)), out


def play(game: Game, rng: random.Random, style: str, undo_rate: float = 0.03) -> None:
    check_state(game, rng)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        act(game, seat, choose(game, seat, rng, style))
        check_state(game, rng)
        if rng.random() < undo_rate:
            undo_redo(game)
    check_end(game)


@checks(1000)
@given(
    seed=seeds,
    style=st.sampled_from(["random", "greedy", "greedy"]),
    rules=st.sampled_from(sorted(RULES)),
    round_wind=st.sampled_from(list(Wind)),
)
def test_random_games_keep_every_invariant(
    seed: int, style: str, rules: str, round_wind: Wind
) -> None:
    game = Game(RULES[rules], seed, round_wind=round_wind)
    play(game, random.Random(seed ^ 0x5EED), style)


# -- 第十四条六: false declarations -------------------------------------------------------------------


def expected_penalty(game: Game, seat: int, rules: TableRules) -> Penalty | None:
    """How 第十四条六 judges a win ``seat`` declares now that the engine would not offer; None when
    there is no tile the declaration is about (right after a claim).

    With the declared tile the hand complete but not a valid win (below 8, or the seat has lost the
    right to win): 错和; the hand before the tile ready: 和错牌 (both 10 to each other player);
    one tile from ready: 诈和 (20 to each); further: 有意诈和 (disqualified).
    """
    view = game.view(seat)
    counts = counts_of(game, seat)
    melds = len(game.hand_of(seat).melds)
    if game.phase is Phase.ACT:
        tile = view.drawn
        if tile is None:
            return None
        counts[tile] -= 1
    else:
        tile = view.last_discard
        assert tile is not None
    before = shanten(counts, melds)
    counts[tile] += 1
    complete = shanten(counts, melds) == -1
    if complete or before == 0:
        return Penalty(seat, PenaltyKind.FALSE_WIN, rules.false_win_penalty)
    if before == 1:
        return Penalty(seat, PenaltyKind.FAKE_WIN, rules.fake_win_penalty)
    return Penalty(seat, PenaltyKind.INTENTIONAL_FAKE_WIN, 0)


@checks(300)
@given(
    seed=seeds,
    style=st.sampled_from(["random", "greedy"]),
    rate=st.sampled_from([0.02, 0.1, 0.3]),
    amounts=st.sampled_from([(10, 20), (5, 40)]),
)
def test_false_wins_are_penalised_and_play_goes_on(
    seed: int, style: str, rate: float, amounts: tuple[int, int]
) -> None:
    """第十四条六: 錯和 and 和錯牌 pay 10 to each other player, 詐和 20 to each, 有意詐和 is
    disqualified; every one of them loses the right to win this hand (停和); play goes on."""
    rules = TableRules(
        flowers=seed % 2 == 0, false_win_penalty=amounts[0], fake_win_penalty=amounts[1]
    )
    game = Game(rules, seed, false_wins=True)
    rng = random.Random(seed ^ 0xFA15E)
    expected: list[Penalty] = []
    barred: set[int] = set()
    check_state(game, rng)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        penalty = expected_penalty(game, seat, rules) if WIN not in legal else None
        if penalty is not None and rng.random() < rate:
            phase = game.phase
            act(game, seat, WIN)
            STATS[f"false wins: {penalty.kind.value}"] += 1
            expected.append(penalty)
            barred.add(seat)
            # On one's own turn the declarer must still discard; on a discard it has passed (the
            # hand may then end by another's win or the wall running out, never by this win).
            if phase is Phase.ACT:
                assert game.phase is Phase.ACT and game.to_act == (seat,)
                assert WIN not in game.legal_actions(seat)
            elif game.phase is phase:  # the same claim window: the declarer has passed
                assert seat not in game.to_act
        else:
            act(game, seat, choose(game, seat, rng, style))
        check_state(game, rng)
        for s in barred:  # 停和: no win is offered again
            assert WIN not in game.legal_actions(s)
        if rng.random() < 0.02:
            undo_redo(game)
    result = game.result
    assert result is not None
    assert result.winner not in barred
    assert list(result.penalties) == expected
    disqualified = sorted({p.seat for p in expected if p.kind is PenaltyKind.INTENTIONAL_FAKE_WIN})
    assert list(result.outcome.disqualified) == disqualified
    check_end(game)


# -- every tile exactly once ------------------------------------------------------------------------


def test_every_tile_is_drawn_exactly_once_by_the_end_of_an_exhaustive_draw() -> None:
    """第五条三十 荒牌 comes after all 144 tiles are drawn: the tiles then out are the whole set."""
    full = Counter({t: 4 for t in range(34)}) + Counter(range(34, 42))
    for seed in range(200):
        game = Game(COMPETITION, seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            game.act(seat, choose(game, seat, rng, "random"))
            assert max(tiles_out(game).values(), default=0) <= 4 or game.is_over
        assert game.result is not None
        if game.result.is_draw:
            assert tiles_out(game) == full, f"seed {seed}"
