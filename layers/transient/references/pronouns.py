"""What referring words allow and what predicates need (zh and en): the features of pronouns and
demonstratives, and the cues in an utterance that only fit some kinds of thing ("调亮" a light, "pause"
something playing). The head nouns and names they are matched against are in lexicon.py."""
from __future__ import annotations

# What a referring word allows (features). `person`: True (must be a person), False (must not), None.
# `gender`: "f" / "m" / "". `plural`: the referent is a group. `place`: must be a place or restaurant.
ZH_PRONOUNS: dict[str, dict] = {
    "她们": {"person": True, "gender": "f", "plural": True}, "他们": {"person": True, "plural": True},
    "它们": {"person": False, "plural": True}, "她": {"person": True, "gender": "f"},
    "他": {"person": True, "gender": "m"}, "它": {"person": False},
    "那里": {"place": True}, "那儿": {"place": True}, "那边": {"place": True}, "这里": {"place": True},
    "这儿": {"place": True}, "那个地方": {"place": True}, "这个地方": {"place": True}, "那地方": {"place": True},
    "老地方": {"place": True, "past": True},
}
EN_PRONOUNS: dict[str, dict] = {
    "she": {"person": True, "gender": "f"}, "her": {"person": True, "gender": "f"},
    "he": {"person": True, "gender": "m"}, "him": {"person": True, "gender": "m"},
    "his": {"person": True, "gender": "m"},
    "it": {"person": False}, "its": {"person": False},
    "they": {"plural": True}, "them": {"plural": True}, "their": {"plural": True},
    "there": {"place": True},
}

# Predicates that restrict the referent: a cue in the utterance → the words one of the referent's
# name must contain (any of), or the types it must have.
ZH_PREDICATES: list[tuple[tuple[str, ...], dict]] = [
    (("拉上", "拉开", "关上", "合上", "打开一半", "开一半"), {"heads": ("窗帘", "门", "窗", "百叶", "curtain", "blind", "shade", "door")}),
    (("解锁", "开锁", "上锁", "锁上", "锁门", "反锁"), {"heads": ("锁", "门", "lock", "door")}),
    (("调亮", "调暗", "亮度", "亮一点", "暗一点", "开灯", "关灯", "暖光", "冷光", "白光", "色温", "灯光"),
     {"heads": ("灯", "light", "lamp", "bulb", "hue")}),
    # What only one kind of machine has or does: its mist, its footage, its suction, its volume.
    (("雾量", "加湿", "湿度"), {"heads": ("加湿器", "humidifier", "除湿", "dehumidifier")}),
    (("回放", "录像", "监控画面", "画面"), {"heads": ("摄像头", "监控", "猫眼", "门铃", "camera", "cam", "doorbell")}),
    (("吸力", "尘盒"), {"heads": ("扫地", "吸尘器", "机器人", "vacuum", "roomba"), "types": ("product",)}),
    (("音量", "大声", "小声"), {"heads": ("音箱", "音响", "电视", "耳机", "speaker", "tv", "soundbar"),
                              "types": ("media",)}),
    (("扫完", "扫地", "拖地", "拖完", "回充"), {"heads": ("扫地", "机器人", "扫地机", "拖地机", "roomba", "vacuum", "robot")}),
    (("温度", "度", "制冷", "制热", "风速"), {"heads": ("空调", "暖气", "地暖", "热水器", "风扇", "冰箱", "thermostat", "heater", "fan")}),
    (("放完", "暂停", "下一首", "歌词", "收藏", "单曲循环", "播放"), {"types": ("media",)}),
    (("充电", "电量", "重启", "关机", "开机"), {"types": ("device", "product")}),
    # A part of it is asked about: a machine or a thing, not a song or a person.
    (("水箱", "滤网", "滤芯", "电池", "屏幕", "按键", "噪音", "耗电", "保修"), {"types": ("device", "product")}),
    (("浇水", "浇一次", "浇点", "喂", "不吃"), {"types": ("other",)}),
    # Money coming back: a refund or an order, not the meeting moved since.
    (("到账", "退款", "退钱", "返现"), {"types": ("order",)}),
    (("几点到", "晚点", "登机", "改签", "起飞"), {"types": ("vehicle",)}),
    # Printed, signed, stamped: only paper (a song can be shared or sent, not printed).
    (("打印", "签字", "签名", "盖章", "复印"), {"types": ("document",)}),
    (("导出", "抄送", "共享", "发给", "提纲", "页"), {"types": ("document", "media", "order")}),
    # Said of a place: when it opens, whether there is a seat, how to get there.
    (("几点关门", "几点开门", "营业", "关门", "开门", "排队", "有位", "订位", "停车", "地址", "人均", "菜单", "包间"),
     {"types": ("place", "restaurant"), "venue": True}),
    (("怎么走",), {"types": ("place", "restaurant")}),
    (("改到", "推迟", "提前到", "延期", "改期"), {"types": ("event", "vehicle", "order")}),
    # Booking or staying somewhere: a lodging or a restaurant, not the aquarium inside the hotel.
    (("订", "预订", "入住", "住"), {"heads": ("酒店", "宾馆", "民宿", "客栈"), "types": ("restaurant",)}),
    # Said of an area (a city, a district): its weather, its time; read only for place references (scoring.py).
    (("天气", "气温", "下雨", "下雪", "冷不冷", "热不热", "时差", "好吃的", "好玩的", "到那边", "到那里", "到那儿",
      "住哪"), {"area": True}),
]
EN_PREDICATES: list[tuple[tuple[str, ...], dict]] = [
    (("brighten", "dim ", "brightness", "warm white", "warm light", "color temperature", "colour temperature"),
     {"heads": ("light", "lamp", "bulb", "灯")}),
    (("mist", "humidity"), {"heads": ("humidifier", "加湿器")}),
    (("footage", "playback", "recording", "live view"), {"heads": ("camera", "cam", "doorbell", "摄像头")}),
    (("suction", "dustbin"), {"heads": ("vacuum", "roomba", "robot", "扫地"), "types": ("product",)}),
    (("volume",), {"heads": ("speaker", "tv", "soundbar", "headphones", "earbuds", "音箱"), "types": ("media",)}),
    (("refund", "tracking", "shipped", "delivered", "in transit"), {"types": ("order", "product")}),
    (("degrees", "warmer", "cooler", "temperature", "°"), {"heads": ("thermostat", "ac", "a/c", "heater",
                                                                       "air conditioner", "fan", "oven")}),
    (("unlock", "lock it"), {"heads": ("lock", "door")}),
    (("pause", "skip", "playlist", "lyrics", "replay", "rewind"), {"types": ("media",)}),
    (("sign it", "export", "print", "rename", "proofread", "who wrote", "pages", "sign"),
     {"types": ("document",)}),
    (("delayed", "take off", "boarding", "land", "depart"), {"types": ("vehicle",)}),
    (("water it", "water the", "water them", "repot", "feed"), {"types": ("other",)}),
    (("charge it", "recharge", "reboot", "restart", "firmware", "pair"), {"types": ("device", "product")}),
    # Switched on or off: a machine, something playing, a timer or an alarm.
    (("turn it on", "turn it off", "switch it on", "switch it off", "turn them on", "turn them off"),
     {"types": ("device", "product", "media", "other"), "switched": True}),
    (("water tank", "filter", "battery", "screen", "warranty", "noise level"), {"types": ("device", "product")}),
    # Only someone (a person, a shop, a restaurant) writes, calls or answers: "Did they email me a receipt?"
    (("email me", "emailed me", "text me", "texted me", "call me back", "called me", "replied", "reply to me",
      "get back to me", "got back to me", "told me", "confirm my", "confirmed my"),
     {"types": ("person", "place", "restaurant"), "agent": True}),
    (("pick them up", "pick him up", "pick her up", "tell them", "ask them", "call them", "text them",
      "email them", "invite them", "meet them", "thank them"), {"types": ("person",)}),
    (("drive",), {"types": ("vehicle",)}),
    # Said of a venue (a business with hours, tables, an address), not of a city or a district.
    (("pet friendly", "pet-friendly", "open late", "does it close", "it close", "closes", "open on", "opens at",
      "is it open", "parking", "reservations", "wifi", "wait time", "address", "dress code",
      "vegetarian options", "get a table", "a table", "happy hour", "menu", "takeout", "take-out"),
     {"types": ("place", "restaurant"), "venue": True}),
    (("how far",), {"types": ("place", "restaurant")}),
    # How long a process takes: a request, an order, a trip, a machine's cycle; not the goods it is about.
    (("how long will it take", "how long does it take", "how long will that take"),
     {"types": ("order", "event", "vehicle", "device")}),
    (("move it", "reschedule", "postpone", "push it", "cancel it", "push back"), {"types": ("event", "vehicle",
                                                                                         "order")}),
    (("close it", "open it", "shut it", "close them", "open them", "shut them"),
     {"heads": ("door", "blind", "curtain", "window", "garage", "gate", "shade", "valve"), "types": ("document",)}),
    (("book ", "stay at", "stay there", "reserve", "has rooms", "have rooms", "vacancy", "vacancies", "check-in",
      "check in"), {"heads": ("hotel", "inn", "cabin", "resort", "motel", "airbnb",
                                                               "rental", "hostel"),
                    # a table, an appointment or a repair, a flight or a train is booked too; a shop is not
                    "types": ("restaurant", "event", "vehicle")}),
    (("weather", "forecast", "rain there", "snow there", "time zone", "timezone", "humid", "how cold", "how hot",
      "hot there", "cold there", "warm there", "it hot", "it cold", "area to stay", "where to stay", "things to do",
      "to do there", "there to do", "there from", "drive there", "fly there"), {"area": True}),
]
