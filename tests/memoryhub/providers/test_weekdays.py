"""The one weekday reader (memoryhub/providers/weekdays.py) the extractor's attribute and the search's slot
feature share."""
from __future__ import annotations

import pytest

from memoryhub.providers.weekdays import weekdays


@pytest.mark.parametrize("text, expected", [
    ("gym on Mondays and Wednesdays", ["mon", "wed"]),
    ("Tue/Thu at 7", ["tue", "thu"]),
    ("Thurs night is poker", ["thu"]),
    ("drinks tue?", ["tue"]),
    ("monday to friday", ["mon", "tue", "wed", "thu", "fri"]),
    ("weekends are for hiking", ["sat", "sun"]),
    ("每周一三五跑步", ["mon", "wed", "fri"]),
    ("周一到周五都是地铁通勤", ["mon", "tue", "wed", "thu", "fri"]),
    ("周二和周四晚上", ["tue", "thu"]),
    ("礼拜天去教堂", ["sun"]),
    ("工作日早上", ["mon", "tue", "wed", "thu", "fri"]),
])
def test_days_said(text, expected):
    assert weekdays(text) == expected


# A numeral after 周 that counts something, and words that only look like a day, name none.
@pytest.mark.parametrize("text", ["一周三次", "每周一个小时", "三周年", "we sat down", "the sun was out", "I got married on a wed"])
def test_no_day_said(text):
    assert weekdays(text) is None
