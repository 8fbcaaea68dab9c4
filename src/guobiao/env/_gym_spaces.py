"""The Gymnasium space objects every environment declares: the observation (a ``Dict`` of the
``int16`` vector and the ``int8`` action mask) and the 235 discrete actions.

Apart from :mod:`guobiao.env._table` so that the table, compiled by mypyc in the compiled build
(hatch_build.py), imports no Gymnasium.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from guobiao.env.observation import OBS_SIZE, observation_bounds
from guobiao.env.spaces import N_ACTIONS

__all__ = ["action_space", "observation_space"]


def observation_space() -> spaces.Dict:
    low, high = observation_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, shape=(OBS_SIZE,), dtype=np.int16),
            "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    return spaces.Discrete(N_ACTIONS)
