"""The tile-efficiency bot (牌效)."""

from __future__ import annotations

from collections.abc import Sequence

from guobiao.bots.base import Bot
from guobiao.bots.view import (
    _ADDED_KONG,
    _CHOW,
    _CONCEALED_KONG,
    _DISCARD,
    _KONG,
    _PUNG,
    counts_after_claim,
    counts_after_kong,
    danger,
    hand_counts,
    threats,
    unseen_counts,
)
from guobiao.core.shanten import shanten, useful_tiles
from guobiao.core.tiles import TILES
from guobiao.table.game import Action, ActionKind, Phase, SeatView


class EfficiencyBot(Bot):
    """Tile efficiency: lowest shanten, then most live useful tiles; defends when others look ready.

    ``defend=False`` never folds (every discard then keeps the lowest shanten).
    """

    name = "efficiency"

    def __init__(self, seed: int | None = None, *, defend: bool = True) -> None:
        super().__init__(seed)
        self.defend = defend

    def decide(self, view: SeatView) -> Action:
        counts = hand_counts(view)
        melds = len(view.melds[view.seat])
        unseen = unseen_counts(view, counts)
        if view.phase is not Phase.ACT:
            return self._respond(view, counts, melds, unseen)
        options = self._discards(counts, melds, unseen)
        best_shanten = options[0][0]
        for action in view.legal_actions:  # a kong that keeps the shanten: a free extra draw
            if action.kind in (_CONCEALED_KONG, _ADDED_KONG):
                kong_melds = melds + (action.kind is _CONCEALED_KONG)
                if shanten(counts_after_kong(counts, action), kong_melds) <= best_shanten:
                    return action
        if self.defend and best_shanten >= 2:
            against = threats(view)
            if against:
                seen = [4 - u for u in unseen]
                safest = min(options, key=lambda o: (danger(o[2], view, against, seen), o))
                return Action(_DISCARD, TILES[safest[2]])
        top = [o for o in options if o[:2] == options[0][:2]]
        return Action(_DISCARD, TILES[self.rng.choice(top)[2]])

    @staticmethod
    def _discards(
        counts: list[int], melds: int, unseen: Sequence[int]
    ) -> list[tuple[int, int, int]]:
        """(shanten, -live useful tiles, tile) of every distinct discard, best first.

        Shanten is computed for every candidate (a few table lookups each); the useful tiles only
        for the candidates that reach the lowest shanten.
        """
        by_shanten: list[tuple[int, int]] = []
        for t in range(34):
            if counts[t]:
                counts[t] -= 1
                by_shanten.append((shanten(counts, melds), t))
                counts[t] += 1
        low = min(s for s, _ in by_shanten)
        options: list[tuple[int, int, int]] = []
        for s, t in by_shanten:
            live = 0
            if s == low:
                counts[t] -= 1
                live = sum(unseen[u] for u in useful_tiles(counts, melds))
                counts[t] += 1
            options.append((s, -live, t))
        options.sort()
        return options

    @staticmethod
    def _standing(counts: list[int], melds: int, unseen: Sequence[int]) -> tuple[int, int]:
        """(shanten, -live useful tiles) of a 13-form hand."""
        return shanten(counts, melds), -sum(unseen[u] for u in useful_tiles(counts, melds))

    def _respond(self, view: SeatView, counts: list[int], melds: int, unseen: list[int]) -> Action:
        """Claim when it lowers the shanten, or keeps it with more live useful tiles."""
        tile = view.last_discard
        legal = view.legal_actions
        best: tuple[tuple[int, int], Action] | None = None
        if tile is not None and len(legal) > 1:
            now = self._standing(counts, melds, unseen)
            for action in legal:
                if action.kind not in (_CHOW, _PUNG, _KONG):
                    continue
                after = counts_after_claim(counts, action, tile)
                if action.kind is _KONG:  # 13 tiles left, and a replacement to draw
                    score = self._standing(after, melds + 1, unseen)
                else:
                    top = self._discards(after, melds + 1, unseen)[0]
                    score = (top[0], top[1])
                if score < now and (best is None or score < best[0]):
                    best = (score, action)
        if best is not None:
            return best[1]
        return next(a for a in legal if a.kind is ActionKind.PASS)
