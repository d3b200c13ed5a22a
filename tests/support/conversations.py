"""A mixed zh/en booking conversation shared by the short-term and transient tests."""

CONVERSATION = [
    ("user", "你好，我想订一张下周三从北京到上海的机票。"),
    ("assistant", "好的，请问您希望上午还是下午出发？"),
    ("user", "Morning, please. I prefer a window seat."),
    ("assistant", "Noted: morning flight, window seat. 还需要托运行李吗？"),
    ("user", "不需要，只有一个登机箱。"),
    ("assistant", "明白。Do you have a preferred airline?"),
    ("user", "China Eastern if possible, 我有他们的会员卡。"),
    ("assistant", "好的，我会优先查找东方航空的航班。"),
    ("user", "顺便问一下，上海下周三的天气怎么样？"),
    ("assistant", "Let me check the weather for Shanghai next Wednesday."),
    ("tool", "Shanghai, Wed: light rain, 12-17°C, wind NE 3."),
    ("assistant", "上海下周三小雨，气温12到17度，建议带伞。"),
    ("user", "OK. 另外我对花生过敏，航班餐请帮我备注。"),
    ("assistant", "已记录：花生过敏，会在订票时备注特殊餐食。"),
    ("user", "Great, thanks. What time does the earliest flight leave?"),
    ("assistant", "最早的东航航班是 07:30 从首都机场起飞。"),
    ("user", "That's too early. Anything around 9?"),
    ("assistant", "There is MU5102 at 09:00 from PEK, arriving 11:15 at SHA."),
    ("user", "就订这个吧。"),
    ("assistant", "好的，请确认乘机人姓名和证件信息。"),
    ("user", "乘机人是我本人，信息和上次一样。"),
    ("assistant", "Understood, I will reuse the passenger profile on file."),
    ("user", "价格是多少？"),
    ("assistant", "经济舱含税 1,280 元。Shall I proceed with payment?"),
    ("user", "Yes, use the card ending in 4421."),
    ("assistant", "支付已提交，正在出票。"),
    ("tool", "ticket issued: MU5102 PEK-SHA seat 32A"),
    ("assistant", "出票成功！座位 32A，靠窗。"),
    ("user", "太好了，谢谢！"),
    ("assistant", "不客气，祝您旅途愉快。Have a nice trip!"),
]


def conversation_turns(prefix: str = "c"):
    return [{"role": role, "content": content, "client_id": f"{prefix}-{index}",
             **({"tool_name": "weather" if "weather" in content.lower() or "Shanghai, Wed" in content else "booking"}
                if role == "tool" else {})}
            for index, (role, content) in enumerate(CONVERSATION)]
