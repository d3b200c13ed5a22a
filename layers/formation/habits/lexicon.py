"""The words a routine request is made of, in zh and en: verbs (mapped to one canonical action) and the
objects of a smart home, media and daily routines (mapped to one canonical object), so that "播放白噪音",
"放点白噪声", "来点白噪音吧" and "play some white noise" are one request.

An object the lexicon does not know is kept as the words the user said (cleaned), so a habit about
"my meditation playlist" still forms; only the known ones are merged across languages and synonyms.
"""
from __future__ import annotations

# Canonical actions. `on`/`off` are refined per object class below (curtains open, media play).
PLAY, TURN_ON, TURN_OFF, OPEN, CLOSE, RAISE, LOWER, SET, CHECK, STOP = (
    "play", "turn_on", "turn_off", "open", "close", "raise", "lower", "set", "check", "stop")

# Surface verb → canonical action. Longer forms first where one contains another (the reader tries the
# longest match at each position).
VERBS_ZH: dict[str, str] = {
    "播放": PLAY, "播一下": PLAY, "播": PLAY, "放一下": PLAY, "放一首": PLAY, "放首": PLAY, "放点": PLAY, "放些": PLAY,
    "来点": PLAY, "来一首": PLAY, "来首": PLAY, "听听": PLAY, "听一下": PLAY, "我想听": PLAY, "想听": PLAY, "放": PLAY,
    "打开": TURN_ON, "开启": TURN_ON, "启动": TURN_ON, "开一下": TURN_ON, "开": TURN_ON,
    "拉开": OPEN,
    "关闭": TURN_OFF, "关掉": TURN_OFF, "关上": TURN_OFF, "关一下": TURN_OFF, "关": TURN_OFF,
    "拉上": CLOSE, "合上": CLOSE,
    "调高": RAISE, "调大": RAISE, "调亮": RAISE, "调暖": RAISE, "升高": RAISE, "加大": RAISE,
    "调低": LOWER, "调小": LOWER, "调暗": LOWER, "降低": LOWER, "减小": LOWER,
    "设置": SET, "设定": SET, "设为": SET, "调到": SET, "定一个": SET, "定个": SET, "定": SET,
    "查一下": CHECK, "查查": CHECK, "查": CHECK, "看看": CHECK, "看一下": CHECK, "报一下": CHECK,
    "停止": STOP, "暂停": STOP, "停掉": STOP, "停": STOP,
}
# 把-construction: 把 <object> <verb> (把窗帘拉开, 把灯关了, 把音量调小).
BA_VERBS_ZH: dict[str, str] = {
    "拉开": OPEN, "打开": TURN_ON, "开开": TURN_ON, "开了": TURN_ON, "开一下": TURN_ON, "开": TURN_ON,
    "拉上": CLOSE, "合上": CLOSE, "关掉": TURN_OFF, "关了": TURN_OFF, "关上": TURN_OFF, "关一下": TURN_OFF,
    "关": TURN_OFF, "调高": RAISE, "调大": RAISE, "调亮": RAISE, "调低": LOWER, "调小": LOWER, "调暗": LOWER,
    "放出来": PLAY, "放一下": PLAY, "播一下": PLAY, "停了": STOP, "停掉": STOP,
}
VERBS_EN: dict[str, str] = {
    "turn on": TURN_ON, "switch on": TURN_ON, "power on": TURN_ON, "start": TURN_ON,
    "turn off": TURN_OFF, "switch off": TURN_OFF, "power off": TURN_OFF, "shut off": TURN_OFF,
    "turn up": RAISE, "raise": RAISE, "increase": RAISE, "brighten": RAISE,
    "turn down": LOWER, "lower": LOWER, "decrease": LOWER, "dim": LOWER,
    "play": PLAY, "put on": PLAY, "listen to": PLAY,
    "open": OPEN, "draw open": OPEN, "pull open": OPEN, "close": CLOSE, "shut": CLOSE, "draw": CLOSE,
    "set": SET, "check": CHECK, "read me": CHECK, "tell me": CHECK, "show me": CHECK, "give me": CHECK,
    "stop": STOP, "pause": STOP,
}
# "turn the lights on", "switch the fan off": the particle after the object.
EN_PARTICLE_VERBS: dict[str, dict[str, str]] = {
    "turn": {"on": TURN_ON, "off": TURN_OFF, "up": RAISE, "down": LOWER},
    "switch": {"on": TURN_ON, "off": TURN_OFF},
    "put": {"on": PLAY},
}

NEGATIONS_ZH = ("不要", "别", "不用", "不想", "没有", "没", "不再", "不")
NEGATIONS_EN = ("don't", "do not", "dont", "never", "no need to", "stop asking", "not ")
# Asking about a thing is not doing it: "白噪音是什么", "how do I open the curtains".
QUESTIONS_ZH = ("是什么", "什么是", "怎么", "为什么", "为啥", "咋", "啥意思", "如何", "有没有", "吗", "多少钱", "好不好", "哪个")
QUESTIONS_EN = ("what is", "what's a", "how do", "how to", "why ", "which ", "is it", "does ", "can you explain")

# Canonical object → (zh label, en label, zh surface forms, en surface forms).
OBJECTS: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {
    "white_noise": ("白噪音", "white noise", ("白噪音", "白噪声", "白噪"), ("white noise", "white-noise")),
    "rain_sounds": ("雨声", "rain sounds", ("雨声", "下雨声"), ("rain sounds", "rain sound", "rain noise")),
    "news": ("新闻", "the news", ("新闻", "早间新闻", "新闻联播", "今日新闻"), ("news", "news briefing", "headlines")),
    "music": ("音乐", "music", ("音乐", "歌", "歌曲"), ("music", "some songs", "songs")),
    "podcast": ("播客", "a podcast", ("播客",), ("podcast", "podcasts")),
    "radio": ("电台", "the radio", ("电台", "广播", "收音机"), ("radio",)),
    "audiobook": ("有声书", "the audiobook", ("有声书", "听书"), ("audiobook", "audio book")),
    "curtains": ("窗帘", "the curtains", ("窗帘", "窗纱", "百叶窗"), ("curtains", "curtain", "blinds", "drapes")),
    "window": ("窗户", "the window", ("窗户", "窗"), ("window", "windows")),
    "lights": ("灯", "the lights", ("灯光", "电灯", "台灯", "吊灯", "灯"), ("lights", "light", "lamp", "lamps")),
    "air_conditioner": ("空调", "the air conditioner", ("空调", "冷气"), ("air conditioner", "air conditioning",
                                                                           "ac", "a/c", "aircon")),
    "heater": ("暖气", "the heater", ("暖气", "取暖器", "地暖", "暖风"), ("heater", "heating")),
    "fan": ("风扇", "the fan", ("风扇", "电扇"), ("fan",)),
    "humidifier": ("加湿器", "the humidifier", ("加湿器",), ("humidifier",)),
    "purifier": ("空气净化器", "the air purifier", ("空气净化器", "净化器"), ("air purifier", "purifier")),
    "tv": ("电视", "the TV", ("电视", "电视机"), ("tv", "television", "telly")),
    "coffee_machine": ("咖啡机", "the coffee machine", ("咖啡机",), ("coffee machine", "coffee maker")),
    "kettle": ("热水壶", "the kettle", ("热水壶", "烧水壶", "电水壶"), ("kettle",)),
    "water_heater": ("热水器", "the water heater", ("热水器",), ("water heater", "boiler")),
    "robot_vacuum": ("扫地机器人", "the robot vacuum", ("扫地机器人", "扫地机", "扫地"), ("robot vacuum", "vacuum",
                                                                                  "roomba")),
    "alarm": ("闹钟", "an alarm", ("闹钟",), ("alarm", "alarm clock")),
    "weather": ("天气", "the weather", ("天气", "天气预报"), ("weather", "forecast", "weather forecast")),
    "traffic": ("路况", "the traffic", ("路况", "交通"), ("traffic",)),
    "volume": ("音量", "the volume", ("音量", "声音"), ("volume",)),
    "temperature": ("温度", "the temperature", ("温度",), ("temperature", "thermostat")),
    "brightness": ("亮度", "the brightness", ("亮度",), ("brightness",)),
    "schedule": ("日程", "my schedule", ("日程", "日程安排", "行程"), ("schedule", "calendar", "agenda")),
    "door_lock": ("门锁", "the door lock", ("门锁", "大门"), ("door lock", "front door")),
}

# Objects that open and close rather than switch (开窗帘 opens; 开灯 switches on).
OPENABLE = {"curtains", "window", "door_lock"}
# Objects that play and stop (打开新闻 = play the news).
MEDIA = {"white_noise", "rain_sounds", "news", "music", "podcast", "radio", "audiobook"}
# Objects that are read out rather than switched (看看天气, 打开日程 = check).
READABLE = {"weather", "traffic", "schedule"}

# Canonical action → (zh verb, en verb in the third person) for a habit's sentence.
ACTION_LABELS: dict[str, tuple[str, str]] = {
    PLAY: ("播放", "plays"), TURN_ON: ("打开", "turns on"), TURN_OFF: ("关闭", "turns off"), OPEN: ("打开", "opens"),
    CLOSE: ("关上", "closes"), RAISE: ("调高", "turns up"), LOWER: ("调低", "turns down"), SET: ("设置", "sets"),
    CHECK: ("查看", "checks"), STOP: ("停止", "stops"),
}

# Words around a request that carry no meaning for it.
FILLERS_ZH = ("请", "帮我", "帮忙", "麻烦", "给我", "替我", "能不能", "可以", "可不可以", "你", "一下", "一点", "点儿",
              "些", "吧", "呀", "啊", "呢", "哦", "嘛", "了", "的", "个", "把", "那个", "这个", "现在", "马上", "再",
              "它", "他", "她", "这", "那")
FILLERS_EN = ("please", "could you", "can you", "would you", "will you", "hey", "ok", "okay", "now", "for me",
              "again", "just", "kindly", "the", "a", "an", "some", "my", "our", "on", "off", "up", "down",
              # a pronoun is not an object of its own ("play it"): what it stands for is working memory's question
              "it", "this", "that", "them", "these", "those", "one")
