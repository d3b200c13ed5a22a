# Blind conditional-preference cases (issue 14 item 5), written by another engineer than the lexicon's author
# without reading layers/long_term/conditions/lexicon.py or parser.py (only the corpus format, README and
# docs/benchmarks.md). Topics the first corpus does not use: seats, temperatures, lighting, room booking,
# coffee orders, delivery, the language of replies, notification times, payment method, ways of getting
# around, hotel floors. Kept only to regenerate blind_dev.jsonl / blind_test.jsonl (blind_split.py, seed 1405).
#
# Labelling convention (the lexicon's names were not read, so these are the writer's): keys are
# user.preference.<topic>; values and condition values are short words as the user would put them; the
# dimension names what the condition is about. A parser that knows the topic under other names misses the
# strict score; test_conditions_blind.py also reports a structural score (one general + N exceptions, or
# nothing) that does not depend on the names.
SEAT, TEMP, LIGHT, ROOM = "user.preference.seat", "user.preference.temperature", "user.preference.lighting", "user.preference.meeting_room"
COFFEE, DELIVERY, REPLY = "user.preference.coffee", "user.preference.delivery", "user.preference.reply_language"
NOTIFY, PAY, MODE, FLOOR = "user.preference.notifications", "user.preference.payment", "user.preference.transport", "user.preference.hotel_floor"
PARSE = [
    ("Aisle seat for me, except on long-haul flights where I'd rather have the window.",
     [(SEAT, "aisle", None), (SEAT, "window", {"trip": ["long-haul"]})]),
    ("坐高铁我一般要靠窗，但是出差的时候给我订靠过道的，方便进出。",
     [(SEAT, "window", None), (SEAT, "aisle", {"purpose": ["出差"]})]),
    ("Thermostat at 24 normally, but drop it to 20 when I'm working out.",
     [(TEMP, "24", None), (TEMP, "20", {"activity": ["workout"]})]),
    ("空调平时开26度就行，家里有老人来的时候调到28度。",
     [(TEMP, "26", None), (TEMP, "28", {"guests": ["老人"]})]),
    ("Lights bright in general, but keep them dim whenever I'm watching a movie.",
     [(LIGHT, "bright", None), (LIGHT, "dim", {"activity": ["movie"]})]),
    ("读书的时候灯要暖光，其他时候白光就行。",
     [(LIGHT, "white", None), (LIGHT, "warm", {"activity": ["读书"]})]),
    ("Book the small meeting room for my 1:1s, unless more than four people are coming, then the big one.",
     [(ROOM, "small", None), (ROOM, "large", {"attendees": ["more than four"]})]),
    ("订会议室默认订小间，有客户来的话就订大会议室。",
     [(ROOM, "small", None), (ROOM, "large", {"visitors": ["客户"]})]),
    ("My usual is an oat flat white, but after 3pm make it decaf.",
     [(COFFEE, "oat flat white", None), (COFFEE, "decaf", {"time": ["after 3pm"]})]),
    ("咖啡我一般要冰美式，除非是冬天，冬天要热的。",
     [(COFFEE, "冰美式", None), (COFFEE, "热美式", {"season": ["冬天"]})]),
    ("Deliver groceries in the evening, except on Saturdays: mornings are better then.",
     [(DELIVERY, "evening", None), (DELIVERY, "morning", {"day": ["saturday"]})]),
    ("外卖放门口就行，但下雨天请打电话让我下楼拿。",
     [(DELIVERY, "放门口", None), (DELIVERY, "打电话", {"weather": ["下雨"]})]),
    ("Reply in English by default, but if I write to you in Chinese, answer in Chinese.",
     [(REPLY, "en", None), (REPLY, "zh", {"input_language": ["zh"]})]),
    ("回复默认用中文，涉及代码的问题用英文回答。",
     [(REPLY, "zh", None), (REPLY, "en", {"topic": ["代码"]})]),
    ("Don't send me notifications before 9am unless it's something urgent.",
     [(NOTIFY, "not before 9am", None), (NOTIFY, "allowed", {"priority": ["urgent"]})]),
    ("除了快递的通知，晚上八点以后都别给我推送。",
     [(NOTIFY, "not after 8pm", None), (NOTIFY, "allowed", {"type": ["快递"]})]),
    ("Pay with my credit card, but for anything under 50 yuan just use WeChat Pay.",
     [(PAY, "credit card", None), (PAY, "wechat pay", {"amount": ["under 50"]})]),
    ("付款默认用支付宝，出国的时候刷信用卡。",
     [(PAY, "支付宝", None), (PAY, "信用卡", {"location": ["出国"]})]),
    ("I prefer the subway for getting around town, unless I've got luggage, then call a cab.",
     [(MODE, "subway", None), (MODE, "taxi", {"luggage": ["luggage"]})]),
    ("三公里以内就骑车，再远的话坐地铁。",
     [(MODE, "bike", {"distance": ["三公里以内"]}), (MODE, "subway", {"distance": ["三公里以上"]})]),
    ("Walking directions are fine if it's under 15 minutes; otherwise give me the bus route.",
     [(MODE, "bus", None), (MODE, "walk", {"duration": ["under 15 minutes"]})]),
    ("酒店尽量订高楼层，带孩子出去玩的时候订低楼层。",
     [(FLOOR, "high", None), (FLOOR, "low", {"companion": ["孩子"]})]),
    # negatives: one-off requests, questions, hypotheticals, other people, conditions about something else
    ("Can I get an aisle seat on this one?", []),
    ("这次给我订靠窗的吧。", []),
    ("Would it be smarter to pay by card unless the shop is tiny?", []),
    ("如果明天降温，空调是不是要调高一点？", []),
    ("Unless the meeting gets cancelled, I'll be in the big room at 3.", []),
    ("除非堵车，不然我十分钟就到。", []),
    ("My sister always takes the window seat unless she's flying with her kids.", []),
    ("把灯调暗一点", []),
    ("If I were rich I'd only ever fly business class.", []),
    ("下次外卖要是又放门口，我就直接投诉了。", []),
]
A = [(SEAT, "aisle", None), (SEAT, "window", {"trip": ["long-haul"]})]
T = [(TEMP, "24", None), (TEMP, "20", {"activity": ["workout"]})]
L = [(LIGHT, "white", None), (LIGHT, "warm", {"activity": ["reading"]})]
R = [(ROOM, "small", None), (ROOM, "large", {"visitors": ["client"]})]
D = [(DELIVERY, "放门口", None), (DELIVERY, "打电话", {"weather": ["下雨"]})]
Y = [(REPLY, "zh", None), (REPLY, "en", {"topic": ["code"]})]
P = [(PAY, "alipay", None), (PAY, "credit card", {"location": ["abroad"]})]
M = [(MODE, "subway", None), (MODE, "taxi", {"luggage": ["luggage"]})]
F = [(FLOOR, "high", None), (FLOOR, "low", {"companion": ["kids"]})]
# stored: (key, value, condition or None); expect_served: indexes; conflicts: (index, requested)
SERVE = [
    (A, "book me a seat on the long-haul flight to Sydney", {}, [1], []),
    (A, "book the 7am shuttle flight to Shanghai", {}, [0], []),
    (A, "book the Sydney flight, and I want a window seat", {}, [0], [(0, "window")]),
    ([(SEAT, "window", None), (SEAT, "aisle", {"task_type": ["train_booking"]})], "book it", {"task_type": "train_booking"}, [1], []),
    (T, "I'm starting my workout, set the AC", {}, [1], []),
    (T, "turn the air conditioning on", {}, [0], []),
    (T, "set the AC to 18", {}, [0], [(0, "18")]),
    ([(TEMP, "26", None), (TEMP, "28", {"guests": ["老人"]})], "爸妈来住几天，家里老人怕冷，空调帮我设一下", {}, [1], []),
    (L, "I'm reading in bed, turn the lamp on", {}, [1], []),
    (L, "turn on the living room lights", {}, [0], []),
    ([(LIGHT, "白光", None), (LIGHT, "暖光", {"activity": ["看书"]})], "我要看书了，开一下台灯", {}, [1], []),
    (R, "book a room for tomorrow's client demo", {}, [1], []),
    (R, "book a room for my 1:1 with Ana", {}, [0], []),
    ([(COFFEE, "冰美式", None), (COFFEE, "热美式", {"season": ["冬天"]})], "冬天到了，帮我点杯咖啡", {}, [1], []),
    ([(COFFEE, "iced americano", None), (COFFEE, "hot americano", {"season": ["winter"]})], "order my usual coffee", {}, [0], []),
    (D, "下雨了，帮我点个外卖", {}, [1], []),
    (D, "帮我点个外卖，送到家", {}, [0], []),
    (Y, "帮我看看这段 code 为什么报错", {}, [1], []),
    (Y, "帮我写一封请假邮件", {}, [0], []),
    (P, "I'm abroad in Tokyo, pay for the hotel", {}, [1], []),
    (P, "pay the electricity bill with WeChat", {}, [0], [(0, "wechat")]),
    (M, "get me to the station, I have luggage with me", {}, [1], []),
    (M, "how do I get to the museum from here", {}, [0], []),
    (F, "find a hotel in Sanya", {"slots": {"companion": "kids"}}, [1], []),
    (F, "find a hotel in Sanya", {"slots": {"companion": "colleagues"}}, [0], []),
    ([(COFFEE, "oat flat white", None)], "what's the capital of Australia", {}, [], []),
]
