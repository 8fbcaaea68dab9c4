"""The RL environments (guobiao.env, docs/env.md): PettingZoo AEC and Parallel, the Gymnasium
single-seat wrapper, the action space and the observation."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

from guobiao.core.tiles import TILES
from guobiao.env import spaces
from guobiao.env.aec import GuobiaoAECEnv, env, raw_env
from guobiao.env.gym import SingleSeatEnv
from guobiao.env.observation import OBS_SIZE, observation_bounds
from guobiao.env.parallel import GuobiaoParallelEnv, parallel_env
from guobiao.table.game import Action, ActionKind, Game, IllegalActionError, Phase
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules
from guobiao.table.wall import deal_botzone

VARIANTS = [pytest.param(COMPETITION, id="competition"), pytest.param(BOTZONE, id="botzone")]


# -- the standard checks --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS)
def test_aec_api(rules: TableRules) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(rules, seed=3), num_cycles=3000)


@pytest.mark.parametrize("rules", VARIANTS)
def test_parallel_api(rules: TableRules) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the parallel test warns of nothing
        parallel_api_test(parallel_env(rules, seed=3), num_cycles=3000)


@pytest.mark.parametrize("rules", VARIANTS)
def test_pettingzoo_seed_test(rules: TableRules) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: env(rules), num_cycles=500)


@pytest.mark.parametrize("rules", VARIANTS)
@pytest.mark.parametrize("opponents", ["random", ["fan", "efficiency", "random"]])
def test_gym_check_env(rules: TableRules, opponents: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(SingleSeatEnv(rules, seat=None, opponents=opponents), skip_render_check=True)


def test_gym_registered_id() -> None:
    import gymnasium

    e = gymnasium.make("guobiao/SingleSeat-v0", rules=BOTZONE, seat=2)
    obs, info = e.reset(seed=1)
    assert info["seat"] == 2 and obs["observation"].shape == (OBS_SIZE,)


# -- the action space -----------------------------------------------------------------------------


def test_action_space_layout() -> None:
    assert spaces.N_ACTIONS == 235
    assert (spaces.DISCARD, spaces.CHOW, spaces.PUNG, spaces.KONG) == (0, 34, 97, 131)
    assert (spaces.CONCEALED_KONG, spaces.ADDED_KONG) == (165, 199)
    assert (spaces.WIN_INDEX, spaces.PASS_INDEX) == (233, 234)
    assert spaces.chow_index(0, 0) == 34  # W1W2W3 claiming W1
    assert spaces.chow_index(0, 2) == 36  # W1W2W3 claiming W3
    assert spaces.chow_index(9, 10) == 34 + 3 * 7 + 1  # B1B2B3 claiming B2
    assert spaces.chow_index(24, 26) == 96  # T7T8T9 claiming T9
    assert spaces.describe(36) == "chow W1W2W3 claiming W3"
    assert spaces.describe(97 + 27) == "pung F1"


def test_every_index_round_trips() -> None:
    kinds: dict[ActionKind, int] = {}
    for index in range(spaces.N_ACTIONS):
        action = spaces.index_action(index)
        kinds[action.kind] = kinds.get(action.kind, 0) + 1
        claimed = None
        if action.kind is ActionKind.CHOW:
            assert action.tile is not None
            claimed = int(action.tile) + (index - spaces.CHOW) % 3
        assert spaces.action_index(action, claimed) == index
        # equal actions made anew (as Action.parse makes them) map the same
        assert spaces.action_index(Action.parse(str(action)), claimed) == index
    assert kinds == {
        ActionKind.DISCARD: 34,
        ActionKind.CHOW: 63,
        ActionKind.PUNG: 34,
        ActionKind.KONG: 34,
        ActionKind.CONCEALED_KONG: 34,
        ActionKind.ADDED_KONG: 34,
        ActionKind.WIN: 1,
        ActionKind.PASS: 1,
    }


def test_bad_indices_and_actions() -> None:
    with pytest.raises(ValueError):
        spaces.index_action(235)
    with pytest.raises(ValueError):
        spaces.index_action(-1)
    chow = Action(ActionKind.CHOW, TILES[3])
    with pytest.raises(ValueError):
        spaces.action_index(chow)  # a chow needs the claimed tile
    with pytest.raises(ValueError):
        spaces.action_index(chow, 7)  # not a tile of W4W5W6
    with pytest.raises(ValueError):
        spaces.chow_index(7, 8)  # W8W9 + ? is no chow
    with pytest.raises(ValueError):
        spaces.chow_index(27, 27)  # honours make no chow


# -- the mask is the engine's legal actions --------------------------------------------------------


def _expected(game: Game, seat: int) -> dict[int, Action]:
    claimed = game.view(seat).last_discard
    return {
        spaces.action_index(a, None if claimed is None else int(claimed)): a
        for a in game.legal_actions(seat)
    }


@pytest.mark.parametrize("rules", VARIANTS)
def test_mask_is_the_legal_actions_at_every_step(rules: TableRules) -> None:
    """200 random hands: at every step, every seat's mask is exactly its legal actions; the
    index of each legal action maps back to that action."""
    e = raw_env(rules, seed=11)
    rng = np.random.default_rng(11)
    kinds: set[ActionKind] = set()
    for _ in range(200):
        e.reset()
        game = e.table.game
        while e.agents:
            for seat, agent in enumerate(e.possible_agents):
                if agent not in e.agents:
                    continue
                obs = e.observe(agent)
                mask = obs["action_mask"]
                assert mask.dtype == np.int8 and mask.shape == (spaces.N_ACTIONS,)
                expected = _expected(game, seat)
                assert set(np.flatnonzero(mask).tolist()) == set(expected)
                assert len(expected) == len(game.legal_actions(seat))  # no two share an index
                for index, action in expected.items():
                    assert spaces.index_action(index) == action
                    kinds.add(action.kind)
                assert obs["observation"].shape == (OBS_SIZE,)
                assert e.observation_space(agent).contains(obs)
            agent = e.agent_selection
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            # wins are taken when offered, so hands also end in wins, not only in draws
            if obs["action_mask"][spaces.WIN_INDEX]:
                e.step(spaces.WIN_INDEX)
            else:
                e.step(int(rng.choice(legal)))
    assert {ActionKind.DISCARD, ActionKind.CHOW, ActionKind.PUNG, ActionKind.WIN} <= kinds
    assert ActionKind.PASS in kinds


def test_a_non_acting_seat_has_an_empty_mask() -> None:
    e = raw_env(BOTZONE, seed=1)
    e.reset()
    for agent in e.possible_agents[1:]:  # the dealer acts first
        assert not e.observe(agent)["action_mask"].any()


# -- observations hide what a seat may not see -------------------------------------------------


def _tsumogiri(game: Game, watch: tuple[int, ...], steps: int) -> list[list[np.ndarray]]:
    """Play ``steps`` decisions (discard the drawn tile, pass every claim) and take the
    observations of the ``watch`` seats after each, through the environment's table."""
    e = raw_env(game.rules)
    e.reset()
    table = e.table
    table.game = game  # the board notices the new hand by itself
    table.version += 1
    seen: list[list[np.ndarray]] = []
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act[0]
        view = game.view(seat)
        if view.phase is Phase.ACT:
            assert view.drawn is not None
            table.play(seat, spaces.DISCARD + int(view.drawn))
        else:
            table.play(seat, spaces.PASS_INDEX)
        if game.phase is Phase.ACT:  # compare at the same public moments in both games
            seen.append([table.observe(s)["observation"] for s in watch])
    return seen


def test_another_seats_hidden_tiles_do_not_change_an_observation_botzone() -> None:
    """Two Botzone walls differing only in one tile of seat 1's hand and one deep in seat 2's
    segment: with the same public play, seats 0, 2 and 3 observe exactly the same."""
    wall = list(Game(BOTZONE, 5).deal.wall)
    a, b = 34 + 33, 68  # seat 1's first dealt tile; the last tile seat 2 would draw
    if wall[a] == wall[b]:
        b += 1
    assert wall[a] != wall[b]
    swapped = list(wall)
    swapped[a], swapped[b] = wall[b], wall[a]
    first = _tsumogiri(Game(BOTZONE, deal_=deal_botzone(wall)), (0, 2, 3), 60)
    second = _tsumogiri(Game(BOTZONE, deal_=deal_botzone(swapped)), (0, 2, 3), 60)
    assert len(first) == len(second) > 20
    for x, y in zip(first, second, strict=True):
        for u, v in zip(x, y, strict=True):
            assert np.array_equal(u, v)
    own = _tsumogiri(Game(BOTZONE, deal_=deal_botzone(wall)), (1,), 60)
    own2 = _tsumogiri(Game(BOTZONE, deal_=deal_botzone(swapped)), (1,), 60)
    assert any(not np.array_equal(u[0], v[0]) for u, v in zip(own, own2, strict=True))


def test_another_seats_hidden_tiles_do_not_change_an_observation_competition() -> None:
    """The same with the 1998 wall: a tile of seat 1's hand swapped with one deep in the wall."""
    for seed in range(50):
        deal = Game(COMPETITION, seed).deal
        hands = [list(h) for h in deal.hands]
        wall = list(deal.wall)
        deep = deal.front + 60
        if all(t < 34 for t in hands[1]) and wall[deep] < 34 and wall[deep] != hands[1][0]:
            break
    hands[1][0], wall[deep] = wall[deep], hands[1][0]
    swapped = dataclasses.replace(deal, hands=tuple(tuple(h) for h in hands), wall=tuple(wall))
    first = _tsumogiri(Game(COMPETITION, deal_=deal), (0, 2, 3), 60)
    second = _tsumogiri(Game(COMPETITION, deal_=swapped), (0, 2, 3), 60)
    assert len(first) == len(second) > 20
    for x, y in zip(first, second, strict=True):
        for u, v in zip(x, y, strict=True):
            assert np.array_equal(u, v)


def test_observation_layout_of_a_fresh_botzone_hand() -> None:
    game = Game(BOTZONE, 9)
    e = raw_env(BOTZONE)
    e.reset(options={"deal": game.deal})
    obs = e.observe("player_0")["observation"]
    view = game.view(0)
    hand = np.zeros(34, dtype=np.int16)
    for t in view.hand:
        hand[t] += 1
    assert np.array_equal(obs[:34], hand)
    assert obs[34 + int(view.drawn or 0)] == 1 and obs[34:68].sum() == 1
    assert obs[68:102].sum() == 0  # nothing to claim
    assert obs[102:374].sum() == 0  # no melds, no discards
    assert np.array_equal(obs[374:408], 4 - hand)
    assert obs[600] == 0 and obs[601] == 0 and obs[602] == 0 and obs[603] == 0
    assert obs[612] == 4 * 21 - 1
    assert list(obs[613:617]) == [20, 21, 21, 21]
    low, high = observation_bounds()
    assert (obs >= low).all() and (obs <= high).all()
    south = e.observe("player_1")["observation"]
    assert south[600] == 1 and south[603] == 3  # East is South's previous player
    assert list(south[613:617]) == [21, 21, 21, 20]


def test_discards_and_melds_are_encoded_in_order() -> None:
    e = raw_env(BOTZONE, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(30):
        e.reset()
        game = e.table.game
        while e.agents:
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            seat = e.possible_agents.index(e.agent_selection)
            view = game.view(seat)
            o = obs["observation"]
            for r in range(4):
                s = (seat + r) % 4
                pool = [t + 1 for t in view.discards[s]][-32:]
                assert list(o[472 + 32 * r : 472 + 32 * r + len(pool)]) == pool
                assert not o[472 + 32 * r + len(pool) : 472 + 32 * (r + 1)].any()
                counts = np.bincount([int(t) for t in view.discards[s]], minlength=34)
                assert np.array_equal(o[238 + 34 * r : 272 + 34 * r], counts)
                melds = view.melds[s]
                for i, meld in enumerate(melds):
                    slot = o[408 + 16 * r + 4 * i : 412 + 16 * r + 4 * i]
                    assert slot[1] == meld.tile + 1
                    assert slot[2] == (meld.offered_by or 0)
                assert not o[408 + 16 * r + 4 * len(melds) : 408 + 16 * (r + 1)].any()
            shown = o[102:374].reshape(8, 34).sum(axis=0)
            assert np.array_equal(o[374:408], 4 - o[:34] - shown)
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))


# -- rewards, determinism -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS)
def test_rewards_are_the_settlement(rules: TableRules) -> None:
    e = raw_env(rules, seed=8)
    rng = np.random.default_rng(8)
    wins = 0
    for _ in range(60):
        e.reset()
        totals = dict.fromkeys(e.possible_agents, 0.0)
        while e.agents:
            agent = e.agent_selection
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            assert not truncated
            if terminated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            if mask[spaces.WIN_INDEX]:
                e.step(spaces.WIN_INDEX)
            else:
                e.step(int(rng.choice(np.flatnonzero(mask))))
        result = e.table.game.result
        assert result is not None and not result.penalties
        assert [totals[a] for a in e.possible_agents] == list(result.deltas)
        assert sum(result.deltas) == 0
        wins += result.winner is not None
    assert wins > 0  # random players seldom reach 8 points


@pytest.mark.parametrize("rules", VARIANTS)
def test_parallel_rewards_are_the_settlement(rules: TableRules) -> None:
    e = parallel_env(rules, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20):
        observations, _ = e.reset()
        rewards: dict[str, float] = {}
        while e.agents:
            actions = {}
            for agent, obs in observations.items():
                legal = np.flatnonzero(obs["action_mask"])
                if len(legal):
                    actions[agent] = int(rng.choice(legal))
            observations, rewards, terminations, _, infos = e.step(actions)
        result = e.table.game.result
        assert result is not None
        assert [rewards[a] for a in e.possible_agents] == list(result.deltas)
        assert infos["player_0"]["result"]["deltas"] == list(result.deltas)
        assert all(terminations.values())


def _episode(e: GuobiaoAECEnv, seed: int, policy_seed: int) -> list[Any]:
    e.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace: list[Any] = [e.table.game.deal.wall]
    while e.agents:
        obs, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((e.agent_selection, action, obs["observation"].tobytes()))
        e.step(action)
    result = e.table.game.result
    assert result is not None
    trace.append(result.summary())
    return trace


@pytest.mark.parametrize("rules", VARIANTS)
def test_seeded_episodes_repeat(rules: TableRules) -> None:
    a = _episode(raw_env(rules), 21, 5)
    assert _episode(raw_env(rules), 21, 5) == a
    e = raw_env(rules)
    _episode(e, 3, 1)
    assert _episode(e, 21, 5) == a  # reset(seed=...) starts over, whatever came before
    assert _episode(e, 22, 5)[0] != a[0]  # another seed, another deal
    # reset() without a seed goes on from the seed given to the constructor
    x, y = raw_env(rules, seed=4), raw_env(rules, seed=4)
    for _ in range(3):
        x.reset()
        y.reset()
        assert x.table.game.deal == y.table.game.deal


def test_parallel_seeded_episodes_repeat() -> None:
    def run(seed: int) -> list[Any]:
        e = parallel_env(BOTZONE)
        observations, _ = e.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace: list[Any] = []
        while e.agents:
            actions = {}
            for agent, obs in observations.items():
                legal = np.flatnonzero(obs["action_mask"])
                if len(legal):
                    actions[agent] = int(rng.choice(legal))
            trace.append(sorted(actions.items()))
            observations, *_ = e.step(actions)
        return trace

    assert run(6) == run(6)
    assert run(6) != run(7)


# -- acting ---------------------------------------------------------------------------------------


def test_an_illegal_index_raises_or_forfeits() -> None:
    e = raw_env(BOTZONE, seed=1)
    e.reset()
    mask = e.observe("player_0")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.agent_selection == "player_0"  # nothing changed
    f = raw_env(BOTZONE, seed=1, illegal_action="forfeit")
    f.reset()
    f.step(illegal)
    assert all(f.terminations.values())
    assert f.rewards == {"player_0": -30.0, "player_1": 10.0, "player_2": 10.0, "player_3": 10.0}
    with pytest.raises(ValueError):
        raw_env(illegal_action="ignore")


def test_parallel_needs_every_acting_seat() -> None:
    e = parallel_env(BOTZONE, seed=1)
    e.reset()
    with pytest.raises(ValueError, match="player_0 must act"):
        e.step({"player_1": 0})


def test_aec_asks_claimants_in_seat_order_from_the_discarder() -> None:
    e = raw_env(BOTZONE, seed=13)
    rng = np.random.default_rng(0)
    asked = 0
    for _ in range(40):
        e.reset()
        game = e.table.game
        while e.agents:
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            if game.phase is Phase.RESPOND and len(game.to_act) > 1:
                order = [(s - game.current) % 4 for s in game.to_act]
                assert order == sorted(order)
                assert e.agent_selection == f"player_{game.to_act[0]}"
                asked += 1
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert asked > 10


# -- the gym wrapper ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS)
def test_gym_episode_ends_with_the_agents_settlement(rules: TableRules) -> None:
    e = SingleSeatEnv(rules, seat=None, opponents="efficiency")
    rng = np.random.default_rng(3)
    seats = set()
    for episode in range(12):
        obs, info = e.reset(seed=episode)
        seat = info["seat"]
        seats.add(seat)
        done = False
        total = 0.0
        while not done:
            mask = obs["action_mask"]
            assert np.array_equal(mask, e.action_masks().astype(np.int8))
            assert mask.any()  # the agent is only asked when it has a choice
            action = (
                spaces.WIN_INDEX if mask[spaces.WIN_INDEX] else rng.choice(np.flatnonzero(mask))
            )
            obs, reward, done, truncated, info = e.step(int(action))
            assert not truncated
            total += reward
            if not done:
                assert reward == 0
        result = e.table.game.result
        assert result is not None
        assert total == result.deltas[seat] == info["result"]["deltas"][seat]
    assert len(seats) > 1


def test_gym_illegal_action_forfeits_by_default() -> None:
    e = SingleSeatEnv(BOTZONE, seat=0)
    obs, _ = e.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = e.step(illegal)
    assert done and reward == -30.0
    assert info["result"]["forfeit"] == {"seat": 0, "reason": "illegal action"}
    strict = SingleSeatEnv(BOTZONE, seat=0, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_gym_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        SingleSeatEnv(seat=4)
    with pytest.raises(ValueError):
        SingleSeatEnv(opponents=["random", "fan"])
    with pytest.raises(ValueError):
        SingleSeatEnv(opponents="genius")


def test_the_core_does_not_load_numpy_or_the_rl_packages() -> None:
    code = (
        "import sys, guobiao, guobiao.table.game, guobiao.table.play, guobiao.bots, guobiao.table.rules\n"
        "bad = {'numpy', 'gymnasium', 'pettingzoo', 'guobiao.env'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_parallel_env_class_is_exported() -> None:
    assert isinstance(parallel_env(), GuobiaoParallelEnv)


@pytest.mark.parametrize("make", [raw_env, parallel_env], ids=["aec", "parallel"])
def test_a_negative_seed_is_refused_not_taken_for_its_opposite(make: Any) -> None:
    """random.Random(-5) is random.Random(5): ``reset(seed=-5)`` dealt seed 5's hand. A negative
    seed is refused, in the constructor and in ``reset``, as Gymnasium refuses one."""
    with pytest.raises(ValueError, match="0 or more"):
        make(seed=-5)
    e = make()
    with pytest.raises(ValueError, match="0 or more"):
        e.reset(seed=-5)
    e.reset(seed=0)  # 0 is a seed
