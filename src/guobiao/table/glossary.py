"""The game's words in 中文 and English: one list for the printed papers (``tournament.reports``)
and the web pages (served as ``/static/glossary.js``), so that a sheet and a page never name a thing
differently. Pure data.

``TERMS`` maps a key to its :class:`Term`; the keys of the penalties are the lower-case names of
``PenaltyKind`` (``false_win``) and of the session deductions (``late``, ``deduction``,
``forfeit``), as the results and the database spell them. ``BOT_NAME`` and ``TABLE_NAME`` are
the names the server gives a bot and a table nobody named (their English); a page recognises
such a name and says it in its own language.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["BOT_NAME", "TABLE_NAME", "TERMS", "WINDS", "Term", "glossary_data"]


class Term(NamedTuple):
    """A term: ``zh`` as the sheets print it, ``en``, and ``short``, an English abbreviation
    for a narrow column (empty: none)."""

    zh: str
    en: str
    short: str = ""

    @property
    def abbr(self) -> str:
        """The English abbreviation, or the English."""
        return self.short or self.en


TERMS: Final[dict[str, Term]] = {
    # the table
    "hand": Term("盘", "Hand"),
    "round": Term("圈风", "Round"),
    "session": Term("局", "Session", "S"),
    "table": Term("桌", "Table"),
    "east": Term("东", "East", "E"),
    "south": Term("南", "South", "S"),
    "west": Term("西", "West", "W"),
    "north": Term("北", "North", "N"),
    "first_seat": Term("首盘座位", "Seat"),
    "dealer": Term("庄", "Dealer", "D"),
    "wall": Term("牌墙", "Wall"),
    "flower": Term("花", "flower"),
    "flowers": Term("花牌", "Flowers"),
    # actions
    "discard": Term("打出", "Discard"),
    "chow": Term("吃", "Chow"),
    "pung": Term("碰", "Pung"),
    "kong": Term("杠", "Kong"),
    "concealed_kong": Term("暗杠", "Concealed kong"),
    "added_kong": Term("加杠", "Added kong"),
    "win": Term("和", "Win"),
    "pass": Term("过", "Pass"),
    # how a hand ends
    "ready": Term("听牌", "Ready"),
    "shanten": Term("向听", "Shanten"),
    "self_drawn": Term("自摸", "Self-drawn"),
    "deal_in": Term("点炮", "Dealt in"),
    "drawn_hand": Term("荒庄", "Drawn hand"),
    "fan": Term("番", "Fan"),
    "total": Term("合计", "Total"),
    "change": Term("得失", "+/−"),
    # scores
    "hands_total": Term("盘分合计", "Hands total"),
    "session_deductions": Term("局内扣分", "Deductions"),
    "session_score": Term("局分", "Match points"),
    "table_rank": Term("名次", "Place"),
    "standard_points": Term("标准分", "Standard points", "Std"),
    "match_points": Term("比赛分", "Total match points", "Match"),
    # penalties (第十三条, 第十四条) and session deductions
    "penalties": Term("罚分", "Penalties"),
    "false_win": Term("错和", "False win"),
    "fake_win": Term("诈和", "False win, not ready"),
    "intentional_fake_win": Term("有意诈和", "Deliberate false win"),
    "wrong_count": Term("相公", "Wrong number of tiles"),
    "violation": Term("违例", "Violation"),
    "warning": Term("警告", "Warning"),
    "late": Term("迟到", "Late"),
    "deduction": Term("扣分", "Deducted"),
    "forfeit": Term("弃权", "Forfeit"),
    "foul": Term("判负", "Lost by a foul"),
    # the papers
    "score_sheet": Term("记分表", "Score sheet"),
    "results_table": Term("比赛成绩统计表", "Results"),
    "individual_ranking": Term("个人名次", "Individual ranking"),
    "team_ranking": Term("团体名次", "Team ranking"),
    "rank": Term("名次", "Rank"),
    "number": Term("编号", "Number", "No."),
    "name": Term("姓名", "Name"),
    "team": Term("队名", "Team"),
    "members": Term("队员", "Members"),
    "captain": Term("队长", "Captain"),
    "substitute": Term("替补", "Substitute", "sub"),
    "stand_in": Term("陪打", "Plays the seat, not ranked", "sub"),
    "notes": Term("备注", "Notes"),
    "player_signature": Term("选手签名", "Signature"),
    "referee_signature": Term("裁判员签名", "Referee"),
    "date": Term("日期", "Date"),
    # seat cards, best hands and fan counts
    "seat_card": Term("座位卡", "Seat card"),
    "not_drawn": Term("未排座", "Not drawn yet"),
    "bye": Term("轮空", "Bye"),
    "absent": Term("缺席", "Absent"),
    "plays_for": Term("代打", "Plays for"),
    "seats_rotate": Term("每圈换位", "Seats change each round"),
    "highlights": Term("最佳牌例与番种统计", "Best hands and fan counts"),
    "best_hands": Term("最高番牌例", "Best hands"),
    "fan_counts": Term("番种统计", "Fan counts"),
    "winner": Term("和牌者", "Winner"),
    "fan_points": Term("番数", "Fan points", "Fan"),
    "fans": Term("番种", "Fans"),
    "times": Term("次数", "Times"),
    "hands_count": Term("盘数", "Hands"),
    "players_count": Term("人数", "Players"),
    "totals_only": Term("只录局分", "Totals only, no hands"),
    "no_fan_list": Term("未列番种", "No fans listed"),
    # the tournament's readings (guobiao.tournament.ranking.Readings, docs/rules.md §19)
    "readings": Term("计分选项", "Readings"),
    "substitute_table": Term("陪打桌", "Table with a stand-in"),
    "team_substitute": Term("团体替补", "Team substitute"),
    "substitute_table_three": Term("三人排名", "three ranked, 4/2/1"),
    "substitute_table_four": Term("四人排名", "four ranked, the stand-in share withheld"),
    "forfeit_score": Term("按局分排名", "ranked by its 0"),
    "forfeit_last": Term("末位", "last place"),
    "team_substitute_not": Term("不计团体", "not for the team"),
    "team_substitute_counts": Term("计入团体", "counts for the team"),
    "bye_none": Term("不计标准分", "no standard points"),
    "bye_average": Term("平均标准分", "the mean of the places"),
}
"""Every term by key."""

WINDS: Final = ("east", "south", "west", "north")
"""The keys of the four winds, East first."""

BOT_NAME: Final = Term("{kind}机器人 {place}", "{kind} bot {place}")
"""A bot's name: its kind (the server writes ``fan``, a page the kind's name) and place (A-D)."""

TABLE_NAME: Final = Term("牌桌 {id}", "Table {id}")
"""A table nobody named: the first four characters of its id."""


def glossary_data() -> dict[str, object]:
    """The glossary as plain data (what ``/static/glossary.js`` gives the pages): ``terms`` (key ->
    ``{zh, en, short}``), ``winds`` and the ``names`` the server makes."""
    return {
        "terms": {key: term._asdict() for key, term in TERMS.items()},
        "winds": list(WINDS),
        "names": {"bot": BOT_NAME._asdict(), "table": TABLE_NAME._asdict()},
    }
