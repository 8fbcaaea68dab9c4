"""The strong bot (guobiao.bots.strong): legal, deterministic for its seed, it reads nothing but its
seat's view (the same decisions when every tile it cannot see is changed), it takes legal wins,
it beats random bots by a wide margin; and it is offered where bots are chosen (the levels of
``guobiao play``, the web table's list, ``botzone-bot --bot strong``), the web table running it
off the event loop."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.bots import BOT_KINDS, BOT_LEVELS, BOT_NAMES, LEVEL_OF, FanBot, RandomBot, make_bot
from guobiao.bots.strong import StrongBot, _Search
from guobiao.bots.view import hand_counts, unseen_counts
from guobiao.botzone.protocol import BOTZONE_RULES
from guobiao.cli.app import main as cli_main
from guobiao.cli.terminal import parse_bots
from guobiao.core.context import Wind
from guobiao.server import rooms as rooms_module
from guobiao.server.rooms import Limits, Lobby, Room
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, Phase, SeatView
from guobiao.table.play import play_hand
from guobiao.table.rules import BOTZONE
from guobiao.table.wall import deal_botzone, shuffled_tiles

STATIC = Path(rooms_module.__file__).parent / "static"


def _botzone_game(seed: int) -> Game:
    rng = random.Random(seed)
    wall = shuffled_tiles(rng, flowers=False)
    return Game(BOTZONE, seed, deal_=deal_botzone(wall), round_wind=Wind(rng.randrange(4)))


def _strong_decisions(seed: int, seat: int) -> Iterator[tuple[Game, SeatView]]:
    """Every decision of a strong bot at ``seat`` of a Botzone hand against three fan bots,
    with the game as it stands then."""
    game = _botzone_game(seed)
    bots = [FanBot(seed * 4 + s, rules=BOTZONE_RULES) for s in range(4)]
    bots[seat] = StrongBot(seed, rules=BOTZONE_RULES)
    while not game.is_over:
        s = game.to_act[0]
        view = game.view(s)
        if s == seat:
            yield game, view
        action = bots[s].choose(view)
        assert action in view.legal_actions
        game.act(s, action)


# -- legal, deterministic, seeded ---------------------------------------------------------------


def test_every_choice_is_legal_on_both_walls() -> None:
    decisions = 0
    for seed in range(3):
        for seat in range(4):
            for _ in _strong_decisions(seed, seat):
                decisions += 1  # legality is asserted as the hand is played
    assert decisions > 100
    for seed in range(4):  # the competition wall (flowers, one wall), four strong bots
        bots = [StrongBot(seed * 4 + s) for s in range(4)]
        game = play_hand(bots, seed=seed)
        assert game.is_over


def test_same_seed_same_hand() -> None:
    def history(seed: int) -> list[tuple[int, Action]]:
        bots = [StrongBot(seed + s) for s in range(4)]
        return list(play_hand(bots, seed=11).history)

    assert history(5) == history(5)


# -- it reads only its SeatView ----------------------------------------------------------------


def _same_view_other_tiles(game: Game, seat: int, rng: random.Random) -> Game:
    """The same hand with every tile ``seat`` cannot see shuffled: the other seats' concealed
    tiles and the wall not yet drawn (its own segment included), replayed with the same actions
    (a seat that may now claim where it could not before passes)."""
    wall = list(game.deal.wall)
    left = game.segments_left
    assert left is not None
    hidden: list[int] = []
    for s in range(4):
        hidden.extend(range(34 * s, 34 * s + left[s]))  # not drawn yet
        if s == seat:
            continue
        concealed = list(game.live_seat(s).counts[:34])
        # drawn positions, the latest first: the earliest copies of each kind stay, so each tile
        # the seat showed (discarded, melded) was still drawn before it was shown
        for position in range(34 * s + left[s], 34 * s + 34):
            if concealed[wall[position]]:
                concealed[wall[position]] -= 1
                hidden.append(position)
    tiles = [wall[p] for p in hidden]
    rng.shuffle(tiles)
    for p, t in zip(hidden, tiles, strict=True):
        wall[p] = t
    other = Game(BOTZONE, game.seed, deal_=deal_botzone(wall), round_wind=game.round_wind)
    for s, action in game.history:
        if action == PASS and PASS not in other.legal_actions(s):
            continue  # it had a choice there, not here
        while action not in other.legal_actions(s):  # a choice here it had not there: pass
            extra = next(x for x in other.to_act if PASS in other.legal_actions(x))
            other.act(extra, PASS)
        other.act(s, action)
    while seat not in other.to_act:  # claims the seat could not make there: passed
        other.act(next(x for x in other.to_act if PASS in other.legal_actions(x)), PASS)
    return other


def test_the_same_decisions_when_every_hidden_tile_changes() -> None:
    rng = random.Random(2026)
    compared = differed = 0
    for seed, seat in ((1, 0), (2, 1), (3, 2), (4, 3), (5, 1)):
        for number, (game, view) in enumerate(_strong_decisions(seed, seat)):
            if number % 2:
                continue
            other = _same_view_other_tiles(game, seat, rng)
            assert other.view(seat) == view  # the same view ...
            hidden = [game.hand_of(s) for s in range(4) if s != seat]
            if hidden != [other.hand_of(s) for s in range(4) if s != seat]:
                differed += 1  # ... of a different table
            first = StrongBot(seed, rules=BOTZONE_RULES).choose(view)
            again = StrongBot(seed, rules=BOTZONE_RULES).choose(other.view(seat))
            assert first == again, (seed, seat, number)
            compared += 1
    assert compared >= 40
    assert differed >= compared * 3 // 4


def test_safe_discards_are_an_option_and_the_choices_they_change_are_safer() -> None:
    """``safe=2`` (0 by default: measured weaker) adds the two safest discards to the search once
    some seat seems ready: every choice stays legal, and where it changes the choice, the new
    discard is less likely to feed a ready seat than the one the default bot makes."""
    compared = changed = 0
    for seed, seat in ((1, 0), (2, 1), (3, 2), (4, 3), (6, 0), (7, 2), (8, 1), (9, 3)):
        for _, view in _strong_decisions(seed, seat):
            if view.phase is not Phase.ACT:
                continue
            plain = StrongBot(seed, rules=BOTZONE_RULES).choose(view)
            bot = StrongBot(seed, rules=BOTZONE_RULES, safe=2)
            guarded = bot.choose(view)
            assert guarded in view.legal_actions
            compared += 1
            if guarded != plain and plain.kind is guarded.kind is ActionKind.DISCARD:
                changed += 1
                risk = _Search(bot, view, unseen_counts(view, hand_counts(view))).risk
                assert plain.tile is not None and guarded.tile is not None
                assert risk[guarded.tile] < risk[plain.tile], (seed, seat, plain, guarded)
    assert compared >= 100
    assert changed >= 1, (compared, changed)


# -- wins and strength -------------------------------------------------------------------------


def test_takes_every_legal_win() -> None:
    wins = 0
    for seed in range(40):
        game = _botzone_game(seed)
        bots = [FanBot(seed * 4 + s, rules=BOTZONE_RULES) for s in range(4)]
        while not game.is_over:
            s = game.to_act[0]
            view = game.view(s)
            if WIN in view.legal_actions:
                assert StrongBot(seed, rules=BOTZONE_RULES).choose(view) == WIN
                wins += 1
            game.act(s, bots[s].choose(view))
    assert wins >= 20


def test_beats_random_bots_by_a_wide_margin() -> None:
    """Over 8 fixed deals, the strong bot in each seat against three random bots: random bots
    almost never reach 8 points, so it wins most hands and scores far above zero."""
    scores: list[int] = []
    won = 0
    for deal in range(8):
        for seat in range(4):
            bots: list[StrongBot | RandomBot] = [RandomBot(deal * 4 + s) for s in range(4)]
            bots[seat] = StrongBot(deal)
            result = play_hand(bots, seed=100 + deal).result
            assert result is not None
            scores.append(result.deltas[seat])
            won += result.winner == seat
    assert won >= len(scores) // 2
    assert sum(scores) / len(scores) > 20


# -- where bots are chosen ---------------------------------------------------------------------


def test_strong_is_the_strongest_kind_and_has_a_level() -> None:
    assert BOT_KINDS == ("strong", "fan", "efficiency", "random")
    assert isinstance(make_bot("strong", 1), StrongBot)
    assert BOT_NAMES["strong"].en == "strong"
    assert BOT_LEVELS == {"easy": "efficiency", "normal": "fan", "strong": "strong"}
    assert {LEVEL_OF[kind] for kind in BOT_KINDS} == set(BOT_LEVELS)
    assert all(LEVEL_OF[kind] == level for level, kind in BOT_LEVELS.items())


def test_play_takes_kinds_and_levels() -> None:
    assert parse_bots("strong") == ("strong", "strong", "strong")
    assert parse_bots("easy,normal,strong") == ("efficiency", "fan", "strong")
    assert parse_bots("s,f,random") == ("strong", "fan", "random")
    with pytest.raises(ValueError, match="level"):
        parse_bots("hard")


def test_the_web_pages_offer_every_kind() -> None:
    for page in ("index.html", "room.html"):
        text = (STATIC / page).read_text(encoding="utf-8")
        for kind in BOT_KINDS:
            assert f'<option value="{kind}" data-i18n="botlevel_{kind}"' in text, (page, kind)


def test_botzone_bot_plays_strong() -> None:
    request = '{"requests":["0 1 0"],"responses":[]}\n'
    result = CliRunner().invoke(cli_main, ["botzone-bot", "--bot", "strong"], input=request)
    assert result.exit_code == 0, result.output
    assert '"PASS"' in result.output


# -- the web table thinks off the event loop ---------------------------------------------------


def _strong_room(limits: Limits) -> tuple[Room, Game]:
    """A started room of four strong bots."""
    room = Lobby(limits).create(seed=3, bot_kind="strong")
    room.add_bots("strong")
    room.start(0.0)
    assert room.game is not None
    return room, room.game


def test_a_room_with_strong_bots_polls_without_waiting_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A strong bot's decision runs in a worker thread: :meth:`Room.poll` (which the server
    calls on its event loop) returns while the bot still thinks, and applies its answer later."""
    entered = threading.Event()
    release = threading.Event()
    real = StrongBot.choose

    def slow(self: StrongBot, view: SeatView) -> Action:
        entered.set()
        assert release.wait(10), "never released"
        return real(self, view)

    monkeypatch.setattr(StrongBot, "choose", slow)
    room, game = _strong_room(Limits(bot_delay=0, between_hands=0, claim=0.5))
    room.poll(0.0)  # returns: the dealer's bot thinks in its thread
    assert entered.wait(10)
    assert not release.is_set()
    assert game.history == []  # nothing applied while it thinks
    assert room.next_wake(0.0) == pytest.approx(rooms_module.THINK_POLL)
    release.set()
    t = 0.0
    for _ in range(2000):
        if game.history:
            break
        t += rooms_module.THINK_POLL
        room.poll(t)
        threading.Event().wait(0.005)
    assert game.history, "the bot's answer was applied"
    assert game.history[0][0] == 0


def test_a_claim_window_ends_on_time_while_a_strong_bot_thinks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Waiting for a bot that may claim would tell the table that it may: the window closes at
    its end, and a bot still thinking then passes, as a person who does not answer does."""
    release = threading.Event()
    real = StrongBot.choose
    asked: list[int] = []  # seats asked to answer a claim window

    def slow_in_windows(self: StrongBot, view: SeatView) -> Action:
        if view.phase is not Phase.ACT:  # a claim: think past the window's end
            asked.append(view.seat)
            release.wait(10)
        return real(self, view)

    monkeypatch.setattr(StrongBot, "choose", slow_in_windows)
    # no person at the table: a window lasts a bot's pause
    room, game = _strong_room(Limits(bot_delay=0.3, between_hands=0, claim=0.5))
    t = 0.0
    opened_at = closed_at = None
    try:
        for _ in range(2000):  # until a window in which a bot was asked has closed
            room.poll(t)
            if room.window is not None and opened_at is None:
                opened_at = t
            if opened_at is not None and room.window is None:
                if asked:
                    closed_at = t
                    break
                opened_at = None  # nobody could claim in that one
            t += 0.05
            threading.Event().wait(0.001)
        assert asked, "no claim window was met"
        assert opened_at is not None and closed_at is not None
        assert closed_at - opened_at <= 0.3 + 0.05 + 1e-9  # its 0.3 s, one poll step at most
        assert not release.is_set()  # the bots were still thinking when it closed
        # the window's discard is the last one; every bot asked in it passed
        last = max(i for i, (_, a) in enumerate(game.history) if a.kind is ActionKind.DISCARD)
        answers = dict(game.history[last + 1 :])
        assert {answers.get(seat) for seat in asked} == {PASS}
    finally:
        release.set()
