"""Tournament manager (issue 4): seating (``seating``) and rankings (``ranking``)."""

from guobiao.tournament.ranking import (
    Entry,
    PlayerHistory,
    Standing,
    TableResult,
    group_standard_points,
    individual_ranking,
    player_histories,
    team_ranking,
)
from guobiao.tournament.seating import (
    Bound,
    Quality,
    Schedule,
    SessionSeating,
    Table,
    best_possible,
    draw_session_one,
    quality,
    schedule,
)

__all__ = [
    "Bound",
    "Entry",
    "PlayerHistory",
    "Quality",
    "Schedule",
    "SessionSeating",
    "Standing",
    "Table",
    "TableResult",
    "best_possible",
    "draw_session_one",
    "group_standard_points",
    "individual_ranking",
    "player_histories",
    "quality",
    "schedule",
    "team_ranking",
]
