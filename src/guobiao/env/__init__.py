"""Reinforcement-learning environments for guobiao (an adapter: needs the ``rl`` extra, numpy,
Gymnasium and PettingZoo; the core never imports this package). docs/env.md tells how to use them.

- :mod:`guobiao.env.aec`: PettingZoo AEC, the four seats acting one at a time.
- :mod:`guobiao.env.parallel`: PettingZoo Parallel, the claims on a discard decided together.
- :mod:`guobiao.env.gym`: Gymnasium, one seat against three guobiao bots.
- :mod:`guobiao.env.spaces`: the 235 discrete actions, to and from guobiao ``Action``.
- :mod:`guobiao.env.observation`: the 621-value ``int16`` observation of one seat's view.

Every environment plays one hand per episode with ``rules=COMPETITION`` (the 1998 rules, the
default) or ``rules=BOTZONE`` (the Botzone judge), and rewards the settlement at the end.
"""

from __future__ import annotations

from guobiao.env.observation import OBS_SIZE, Board, Encoder, observation_bounds
from guobiao.env.spaces import N_ACTIONS, action_index, chow_index, describe, index_action

__all__ = [
    "N_ACTIONS",
    "OBS_SIZE",
    "Board",
    "Encoder",
    "action_index",
    "chow_index",
    "describe",
    "index_action",
    "observation_bounds",
]
