"""A researcher's day with the environments and the Botzone bot (docs/env.md, docs/botzone.md):
copies made mid-hand play on as the original, what a caller hands an environment is checked with a
clear error (a float or out-of-range action, a step after the end or before the start, a numpy
seed, a deal, the rules, the seat), the Parallel environment renders, and a Botzone upload runs
without the command line's packages."""

from __future__ import annotations

import copy
import io
import pickle
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from guobiao.env.aec import GuobiaoAECEnv, env  # noqa: E402
from guobiao.env.gym import SingleSeatEnv  # noqa: E402
from guobiao.env.parallel import GuobiaoParallelEnv, parallel_env  # noqa: E402
from guobiao.table.game import IllegalActionError  # noqa: E402
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RULES = [COMPETITION, BOTZONE]
IDS = ["competition", "botzone"]
COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "deepcopy": copy.deepcopy,
}


def _policy(obs: dict[str, Any]) -> int:
    """A deterministic legal choice (the middle of the legal indices: claims, not only passes)."""
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[len(legal) // 2])


def _first_legal(e: GuobiaoAECEnv) -> int:
    obs, *_ = e.last()
    return int(np.flatnonzero(obs["action_mask"])[0])


# -- copies made mid-hand ----------------------------------------------------------------------


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_an_aec_copy_made_mid_hand_plays_on_as_the_original(how: str, rules: TableRules) -> None:
    """The masks were numpy arrays over the table's bytearrays, which a copy separated: the copy
    kept showing the masks of the moment it was made, and refused the legal actions."""
    for seed in (4, 8):
        e = env(rules=rules, seed=seed)
        e.reset(seed=seed)
        for _ in range(20):
            e.step(_policy(e.last()[0]))
        twin = COPIES[how](e)
        steps = 0
        for agent in e.agent_iter():
            assert twin.agent_selection == agent
            obs, reward, terminated, truncated, info = e.last()
            obs2, reward2, terminated2, truncated2, info2 = twin.last()
            assert (obs["observation"] == obs2["observation"]).all(), steps
            assert (obs["action_mask"] == obs2["action_mask"]).all(), steps
            assert (reward, terminated, truncated, info) == (
                reward2,
                terminated2,
                truncated2,
                info2,
            )
            action = None if terminated or truncated else _policy(obs)
            e.step(action)
            twin.step(action)
            steps += 1
        assert steps > 10 and not twin.agents
        e.reset()
        twin.reset()
        assert twin.hand_seed == e.hand_seed  # the generator of hand seeds went along


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_a_parallel_copy_made_mid_hand_plays_on_as_the_original(
    how: str, rules: TableRules
) -> None:
    e = parallel_env(rules=rules, seed=4)
    observations, _ = e.reset(seed=4)
    for _ in range(12):
        acting = {a: _policy(o) for a, o in observations.items() if o["action_mask"].any()}
        observations, *_ = e.step(acting)
    twin = COPIES[how](e)
    while e.agents:
        acting = {a: _policy(o) for a, o in observations.items() if o["action_mask"].any()}
        observations, rewards, terminations, _, _ = e.step(acting)
        observations2, rewards2, terminations2, _, _ = twin.step(acting)
        for agent, obs in observations.items():
            assert (obs["observation"] == observations2[agent]["observation"]).all()
            assert (obs["action_mask"] == observations2[agent]["action_mask"]).all()
        assert (rewards, terminations) == (rewards2, terminations2)
    assert not twin.agents


@pytest.mark.parametrize("how", COPIES)
def test_a_single_seat_copy_made_mid_hand_plays_on_as_the_original(how: str) -> None:
    e = SingleSeatEnv(BOTZONE, seat=None, opponents=["efficiency", "fan", "random"], seed=4)
    obs, _ = e.reset(seed=4)
    for _ in range(4):
        obs, *_ = e.step(_policy(obs))
    twin = COPIES[how](e)
    assert (twin.action_masks() == e.action_masks()).all()
    done = False
    while not done:
        action = _policy(obs)
        obs, reward, done, _, _ = e.step(action)
        obs2, reward2, done2, _, _ = twin.step(action)
        assert (obs["observation"] == obs2["observation"]).all()
        assert (obs["action_mask"] == obs2["action_mask"]).all()
        assert (reward, done) == (reward2, done2)


# -- actions that are no index of the action space -------------------------------------------


BAD_TYPES = [2.0, 2.5, np.float64(3.0), "3", True, [2], np.array([2]), None]


@pytest.mark.parametrize("action", BAD_TYPES, ids=repr)
def test_an_aec_action_that_is_no_integer_is_refused(action: Any) -> None:
    """A float was truncated (2.5 played index 2), a string parsed, True played index 1."""
    e = env(seed=1)
    e.reset(seed=1)
    if action is None:  # None is for agents that are done
        with pytest.raises(ValueError, match="must act"):
            e.step(action)
        return
    with pytest.raises(TypeError, match="an action is an integer index 0-234"):
        e.step(action)
    assert e.table.game.history == []  # nothing was played


@pytest.mark.parametrize("action", BAD_TYPES, ids=repr)
def test_a_parallel_action_that_is_no_integer_is_refused(action: Any) -> None:
    for illegal_action in ("raise", "forfeit"):
        e = parallel_env(seed=1, illegal_action=illegal_action)
        e.reset(seed=1)
        with pytest.raises(TypeError, match="an action is an integer index 0-234"):
            e.step(dict.fromkeys(e.agents, action))
        assert e.table.game.history == [] and not e.table.game.is_over


@pytest.mark.parametrize("action", BAD_TYPES, ids=repr)
def test_a_single_seat_action_that_is_no_integer_is_refused(action: Any) -> None:
    """A float forfeited the hand (or, with "raise", was named as another index); a string or
    None failed inside int()."""
    e = SingleSeatEnv(seed=1)
    with pytest.raises(TypeError, match="an action is an integer index 0-234"):
        e.step(action)
    assert not e.table.game.is_over


@pytest.mark.parametrize("action", [-1, 235, 10**30, np.int64(-1), np.int64(235)], ids=repr)
def test_an_index_outside_the_space_raises_even_where_illegal_actions_forfeit(action: Any) -> None:
    """-1 or 235 is a bug in the caller, not a move: it forfeited the hand (-30) like one."""
    aec = env(seed=1, illegal_action="forfeit")
    aec.reset(seed=1)
    with pytest.raises(ValueError, match=r"outside the action space Discrete\(235\)"):
        aec.step(action)
    par = parallel_env(seed=1, illegal_action="forfeit")
    par.reset(seed=1)
    with pytest.raises(ValueError, match=r"outside the action space"):
        par.step(dict.fromkeys(par.agents, action))
    gym = SingleSeatEnv(seed=1)  # illegal_action="forfeit" by default
    with pytest.raises(ValueError, match=r"outside the action space"):
        gym.step(action)
    for game in (aec.table.game, par.table.game, gym.table.game):
        assert not game.is_over


def test_numpy_integers_still_play() -> None:
    e = env(seed=1)
    e.reset(seed=1)
    index = _first_legal(e)
    e.step(np.int64(index))
    e.step(np.array(_first_legal(e), dtype=np.int32))
    assert len(e.table.game.history) == 2
    gym = SingleSeatEnv(seed=1, illegal_action="raise")
    mask = gym.action_masks()
    with pytest.raises(IllegalActionError):  # an integer index that is not legal: as before
        gym.step(np.int64(np.flatnonzero(~mask)[0]))
    gym.step(np.int64(np.flatnonzero(mask)[0]))


# -- before the start, after the end ------------------------------------------------------------


def test_aec_step_and_last_after_every_agent_is_done_say_reset() -> None:
    """They raised KeyError: 'player_0' from inside the environment."""
    e = env(seed=3)
    e.reset(seed=3)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []
    for call in (lambda: e.step(None), lambda: e.step(0), e.last):
        with pytest.raises(ValueError, match=r"the hand is over .*reset\(\) for the next one"):
            call()
    e.reset()
    assert e.agents and e.last()[0] is not None


def test_single_seat_step_before_reset_raises() -> None:
    """Without a seed, the constructor deals nothing: step played a placeholder hand with no
    bots (a KeyError inside, or a forfeit of a hand never dealt)."""
    e = SingleSeatEnv()
    with pytest.raises(ValueError, match=r"reset\(\) before the first step"):
        e.step(0)
    e.reset(seed=2)
    e.step(int(np.flatnonzero(e.action_masks())[0]))


def test_aec_step_and_last_before_reset_say_reset() -> None:
    """Before the first reset() the AEC environment played a placeholder hand, the deal of seed
    0 whatever the constructor's seed: the same hand in every environment of a vector."""
    e = env(seed=7)
    for call in (lambda: e.step(0), e.last, lambda: e.last(observe=False)):
        with pytest.raises(ValueError, match=r"reset\(\) before the first step"):
            call()
    assert list(e.agent_iter(max_iter=1)) == ["player_0"]  # the iterator is there; last() says
    e.reset()
    e.step(_first_legal(e))
    assert e.hand_seed is not None and len(e.table.game.history) == 1


def test_parallel_step_before_reset_says_so() -> None:
    with pytest.raises(ValueError, match=r"reset\(\) before the first step"):
        parallel_env(seed=1).step({"player_0": 0})


# -- what the constructors and reset take -------------------------------------------------------


def test_numpy_integer_seeds_are_seeds() -> None:
    """A seed from a numpy generator or seed sequence: random.Random refused it (TypeError)."""
    a, b = env(), env(seed=np.int64(3))
    a.reset(seed=np.int64(3))
    b.reset()
    c = env(seed=3)
    c.reset(seed=3)
    assert a.hand_seed == c.hand_seed
    p, q = parallel_env(), parallel_env()
    p.reset(seed=np.uint32(5))
    q.reset(seed=5)
    assert p.hand_seed == q.hand_seed
    g, h = SingleSeatEnv(), SingleSeatEnv()
    obs_g, _ = g.reset(seed=np.int64(7))
    obs_h, _ = h.reset(seed=7)
    assert (obs_g["observation"] == obs_h["observation"]).all()
    with pytest.raises(TypeError, match="seed must be an integer"):
        env().reset(seed=2.5)  # type: ignore[arg-type]


def test_a_deal_option_must_be_a_deal() -> None:
    """A string reached the engine: AttributeError: 'str' object has no attribute 'layout'."""
    with pytest.raises(TypeError, match=r"options\['deal'\] must be a guobiao.table.wall.Deal"):
        env().reset(options={"deal": "W1 W2 W3"})
    with pytest.raises(TypeError, match=r"options\['deal'\]"):
        parallel_env().reset(options={"deal": [1, 2, 3]})
    e = env()
    e.reset(options={"options": 1})  # other keys are ignored (PettingZoo's API test sends one)


def test_single_seat_refuses_a_deal_it_would_ignore() -> None:
    """reset(options={"deal": ...}) dealt a random hand instead, silently."""
    from guobiao.table.wall import deal_botzone

    deal = deal_botzone(list(range(34)) * 4)
    with pytest.raises(ValueError, match="plays no given deal"):
        SingleSeatEnv(BOTZONE).reset(seed=1, options={"deal": deal})


@pytest.mark.parametrize("make", [env, parallel_env, SingleSeatEnv])
def test_the_rules_must_be_table_rules(make: Callable[..., Any]) -> None:
    """rules="botzone" failed inside the wall with AttributeError: 'str' has no 'flowers'."""
    with pytest.raises(TypeError, match="rules must be a TableRules"):
        make(rules="botzone")


@pytest.mark.parametrize("seat", [1.0, "1", True])
def test_the_single_seat_must_be_an_integer(seat: Any) -> None:
    """seat=1.0 was taken (1.0 in range(4)); the first observation then failed indexing."""
    with pytest.raises(ValueError, match="seat must be 0-3 or None"):
        SingleSeatEnv(seat=seat)
    assert SingleSeatEnv(seat=np.int64(2), seed=1).seat == 2


# -- render ---------------------------------------------------------------------------------


def test_the_parallel_environment_renders_ansi() -> None:
    """Parallel had no render mode: render() raised a bare NotImplementedError."""
    e = parallel_env(seed=1, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and text.startswith("phase act, to act [0], wall ")
    assert len(text.splitlines()) == 5 and "player_3: " in text
    assert parallel_env(seed=1).render() is None
    assert "ansi" in GuobiaoParallelEnv.metadata["render_modes"]
    with pytest.raises(ValueError, match="render_mode"):
        parallel_env(render_mode="human")
    aec = env(seed=1, render_mode="ansi")
    aec.reset(seed=1)
    assert aec.render() == text  # the same deal, the same text


# -- the Botzone bot -------------------------------------------------------------------------


def _doc_main() -> str:
    """The ``__main__.py`` docs/botzone.md gives for an upload."""
    text = (ROOT / "docs" / "botzone.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```py\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def test_the_documented_botzone_upload_runs_without_site_packages(tmp_path: Path) -> None:
    """The doc told to call guobiao.cli.main, which imports click: on Botzone (no click, no
    rich) the bot died on its first turn. The zip runs with `python -S` (no site-packages)."""
    main = _doc_main()
    assert "guobiao.cli" not in main
    bot = tmp_path / "bot.zip"
    with zipfile.ZipFile(bot, "w") as z:
        z.writestr("__main__.py", main)
        for path in sorted((ROOT / "src" / "guobiao").rglob("*.py")):
            z.write(path, str(path.relative_to(ROOT / "src")))
    turns = [
        '{"requests":["0 1 0"],"responses":[]}',
        '"1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 B5 T7 T8"',
        '"3 0 DRAW"',
        '"3 0 PLAY J1"',
        '"2 F1"',
    ]
    run = subprocess.run(
        [sys.executable, "-S", "-I", str(bot)],
        input="\n".join(turns) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    keep = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
    answers = [line for line in run.stdout.splitlines() if line != keep]
    assert run.stdout.count(keep) == 5
    assert answers[:4] == ['{"response": "PASS"}'] * 4
    assert answers[4].startswith('{"response": "PLAY ')
    bad = subprocess.run(
        [sys.executable, "-S", "-I", str(bot)],
        input="hello\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: 'hello': the first line must be JSON")


def test_serve_answers_like_the_command() -> None:
    from guobiao.botzone.protocol import serve

    out, err = io.StringIO(), io.StringIO()
    assert serve("fan", stdin=io.StringIO("1\n0 1 0\n"), stdout=out, stderr=err) == 0
    assert out.getvalue() == "PASS\n" and err.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    request = '{"requests":["0 9 0"],"responses":[]}\n'
    assert serve("random", stdin=io.StringIO(request), stdout=out, stderr=err) == 2
    assert out.getvalue() == "" and err.getvalue() == "error: '0 9 0': seat must be 0-3, not '9'\n"


def test_the_bot_skips_a_byte_order_mark() -> None:
    """A request file saved by a Windows editor starts with U+FEFF: it was 'not JSON'."""
    from guobiao.bots import make_bot
    from guobiao.botzone.protocol import run

    for text, answer in (
        ('\ufeff{"requests":["0 1 0"],"responses":[]}\n', '{"response": "PASS"}\n'),
        ("\ufeff1\n0 1 0\n", "PASS\n"),
    ):
        out = io.StringIO()
        run(make_bot("fan", 1), io.StringIO(text), out)
        assert out.getvalue() == answer


def test_the_single_seat_default_opponents_give_rewards_to_learn_from() -> None:
    """The default opponents were random bots, which almost never reach the 8-point minimum: a
    random agent's 20 hands of seeds 0-19 were all drawn, reward 0 (no learning signal out of
    the box). Now they are efficiency bots, who win hands."""
    e = SingleSeatEnv(BOTZONE, seat=0)
    assert e.kinds == ["efficiency"] * 3
    rewards = []
    for seed in range(20):
        obs, _ = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        reward = 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _, info = e.step(action)
        assert reward == info["result"]["deltas"][0]
        rewards.append(reward)
    assert sum(1 for r in rewards if r < 0) >= 5, rewards
