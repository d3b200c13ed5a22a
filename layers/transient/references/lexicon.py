"""Word lists of the offline entity extractor and reference resolver (zh and en).

They name families, not examples: head nouns per entity type, kinship words with their gender, the
pronouns and demonstratives with the features that restrict what they can point to, and the
predicates that only fit some kinds of thing ("调亮" fits a light, "pause" fits something playing).
"""
from __future__ import annotations

# Entity types of the registry (REFERENCES.md next to the corpus explains each).
DEVICE, PLACE, PERSON, PRODUCT, DOCUMENT, ORDER = "device", "place", "person", "product", "document", "order"
RESTAURANT, MEDIA, VEHICLE, EVENT, OTHER = "restaurant", "media", "vehicle", "event", "other"
ENTITY_TYPES = (DEVICE, PLACE, PERSON, PRODUCT, DOCUMENT, ORDER, RESTAURANT, MEDIA, VEHICLE, EVENT, OTHER)
PLACE_LIKE = frozenset({PLACE, RESTAURANT})

# zh head nouns per type, longest first when matched. A head may be preceded by a room or owner
# ("客厅的灯", "卧室空调", "他的猫") and followed by a model number ("小米手环8").
ZH_HEADS: dict[str, list[str]] = {
    DEVICE: [
        "扫地机器人", "扫地机", "拖地机", "机器人", "空气净化器", "净化器", "加湿器", "除湿机", "热水器", "洗衣机",
        "烘干机", "洗碗机", "冰箱", "空调", "风扇", "电风扇", "暖气", "地暖", "新风", "电视机", "电视", "投影仪",
        "窗帘", "百叶窗", "床头灯", "台灯", "吊灯", "落地灯", "灯带", "夜灯", "顶灯", "灯", "摄像头", "监控",
        "门锁", "智能锁", "门铃", "插座", "开关", "路由器", "音箱", "音响", "显示器", "电脑", "笔记本", "平板",
        "手机", "耳机", "手表", "手环", "遥控器", "充电器", "充电宝", "打印机", "电饭煲", "微波炉", "烤箱",
        "吹风机", "电动牙刷", "车库门", "门", "窗户", "热水壶", "水壶", "咖啡机", "相机", "键盘", "鼠标",
    ],
    PRODUCT: [
        "外套", "羽绒服", "大衣", "衬衫", "T恤", "裤子", "裙子", "跑鞋", "鞋子", "鞋", "包", "背包", "书包",
        "保温杯", "杯子", "香薰", "护肤品", "面霜", "口红", "拖把", "床垫", "枕头", "沙发", "桌子", "椅子",
        "瑜伽垫", "玩具", "礼物", "蛋糕", "零食", "咖啡豆", "茶叶", "奶粉", "尿不湿", "纸巾", "电池",
    ],
    DOCUMENT: [
        "周报", "月报", "日报", "报告", "合同", "协议", "报价单", "数据表", "表格", "文档", "文件", "简历", "方案",
        "初稿", "终稿", "手册", "说明书", "发票", "收据", "邮件", "幻灯片", "笔记", "纪要", "清单",
    ],
    ORDER: ["工单", "快递", "包裹", "退款"],
    PLACE: [
        "酒店", "宾馆", "民宿", "公园", "博物馆", "科技馆", "美术馆", "图书馆", "水族馆", "动物园", "游乐园",
        "商场", "超市", "医院", "诊所", "牙科", "机场", "火车站", "高铁站", "车站", "地铁站", "景区", "海滩",
        "银行", "学校", "幼儿园", "健身房", "电影院", "影院", "理发店", "美发店", "4S店", "维修点", "门店",
        "广场", "大厦", "小区", "公司", "岛", "山", "寺", "古镇", "驿站", "会议室", "教室",
    ],
    RESTAURANT: [
        "火锅店", "面馆", "饭店", "饭馆", "餐馆", "菜馆", "川菜馆", "湘菜馆", "粤菜馆", "日料店", "烤肉店", "西餐厅",
        "中餐厅", "自助餐厅", "快餐店", "早餐店", "甜品店", "面包店", "酒吧", "酒馆", "茶餐厅", "奶茶店", "咖啡店", "咖啡馆", "茶馆", "烧烤店", "小吃店",
        "拉面", "小面", "火锅", "烤鸭店",
    ],
    MEDIA: ["歌单", "专辑", "电影", "电视剧", "播客", "有声书", "纪录片", "这首歌", "歌"],
    VEHICLE: ["航班", "高铁", "动车", "火车", "飞机", "汽车", "车", "早班", "晚班", "末班"],
    EVENT: ["家长会", "周会", "例会", "评审", "会议", "聚会", "生日", "考试", "面试", "约会", "预约", "会"],
    OTHER: ["绿萝", "多肉", "盆栽", "植物", "花", "猫", "狗", "宠物", "定时器", "闹钟", "倒计时"],
}

# Brands and chains commonly named bare, so their type is known without a head noun.
ZH_NAMES: dict[str, str] = {
    "海底捞": RESTAURANT, "西贝": RESTAURANT, "星巴克": RESTAURANT, "瑞幸": RESTAURANT, "喜茶": RESTAURANT,
    "一点点": RESTAURANT, "麦当劳": RESTAURANT, "肯德基": RESTAURANT, "必胜客": RESTAURANT, "凑凑": RESTAURANT,
    "大龙燚": RESTAURANT, "太二": RESTAURANT, "外婆家": RESTAURANT, "蜜雪冰城": RESTAURANT, "奈雪": RESTAURANT,
    "全聚德": RESTAURANT, "真功夫": RESTAURANT, "汉堡王": RESTAURANT, "茶颜悦色": RESTAURANT,
    "北京": PLACE, "上海": PLACE, "广州": PLACE, "深圳": PLACE, "杭州": PLACE, "成都": PLACE, "重庆": PLACE,
    "南京": PLACE, "苏州": PLACE, "西安": PLACE, "武汉": PLACE, "厦门": PLACE, "三亚": PLACE, "青岛": PLACE,
    "大理": PLACE, "丽江": PLACE, "拉萨": PLACE, "天津": PLACE, "长沙": PLACE, "昆明": PLACE, "哈尔滨": PLACE,
    "香港": PLACE, "澳门": PLACE, "台北": PLACE, "东京": PLACE, "京都": PLACE, "大阪": PLACE, "首尔": PLACE,
    "曼谷": PLACE, "新加坡": PLACE, "巴黎": PLACE, "伦敦": PLACE, "纽约": PLACE, "鼓浪屿": PLACE, "外滩": PLACE,
    "国贸": PLACE, "西湖": PLACE, "故宫": PLACE, "长城": PLACE, "迪士尼": PLACE, "环球影城": PLACE,
    "宜家": PLACE, "沃尔玛": PLACE, "山姆": PLACE, "盒马": PLACE, "万达": PLACE,
}

# Brands said in front of a device or product ("小米空气净化器", "戴森HD15吹风机"): part of its name.
ZH_BRANDS = ("小米", "华为", "苹果", "戴森", "美的", "格力", "海尔", "飞利浦", "松下", "索尼", "三星", "科沃斯", "石头",
             "追觅", "九阳", "苏泊尔", "西门子", "博世", "大疆", "罗技", "联想", "荣耀", "新秀丽", "象印", "虎牌", "膳魔师",
             "无印良品", "优衣库", "耐克", "阿迪达斯", "李宁", "安踏", "乐高", "漫步者", "倍思", "绿联", "摩飞", "小熊")

# Rooms and positions that make a device specific ("客厅的灯"); also attribute words of location.
ZH_ROOMS = [
    "客厅", "卧室", "主卧", "次卧", "书房", "厨房", "餐厅", "阳台", "浴室", "卫生间", "洗手间", "玄关", "走廊",
    "儿童房", "车库", "前门", "后门", "大门", "后院", "院子", "门口", "楼上", "楼下", "一楼", "二楼", "办公室",
    "窗边", "床头", "门厅", "地下室", "花园",
]

# zh people: kinship and roles, with gender ("f", "m" or "" when the word does not fix it).
ZH_PEOPLE: dict[str, str] = {
    "妈妈": "f", "我妈": "f", "老妈": "f", "母亲": "f", "姐姐": "f", "我姐": "f", "妹妹": "f", "我妹": "f",
    "女儿": "f", "奶奶": "f", "外婆": "f", "姥姥": "f", "老婆": "f", "妻子": "f", "太太": "f", "媳妇": "f",
    "阿姨": "f", "婆婆": "f", "岳母": "f", "侄女": "f", "外甥女": "f", "女朋友": "f", "闺蜜": "f", "孙女": "f",
    "爸爸": "m", "我爸": "m", "老爸": "m", "父亲": "m", "哥哥": "m", "我哥": "m", "弟弟": "m", "我弟": "m",
    "儿子": "m", "爷爷": "m", "外公": "m", "姥爷": "m", "老公": "m", "丈夫": "m", "叔叔": "m", "舅舅": "m",
    "伯伯": "m", "公公": "m", "岳父": "m", "侄子": "m", "外甥": "m", "男朋友": "m", "孙子": "m",
    "同事": "", "老板": "", "领导": "", "客户": "", "朋友": "", "邻居": "", "室友": "", "同学": "", "医生": "",
    "老师": "", "孩子": "", "宝宝": "", "父母": "", "爸妈": "", "家人": "", "快递员": "", "师傅": "",
}
ZH_TITLES = ["老师", "经理", "总监", "主任", "医生", "大夫", "律师", "教授", "师傅", "阿姨", "叔叔", "先生", "女士",
             "小姐", "总", "姐", "哥"]
ZH_TITLE_GENDER = {"阿姨": "f", "女士": "f", "小姐": "f", "姐": "f", "叔叔": "m", "先生": "m", "哥": "m"}
ZH_SURNAMES = set(
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜"
    "戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎易常武乔贺赖龚文")

# More everyday nouns per type, kept apart so the lists above stay readable.
_ZH_MORE = {
    DEVICE: ["音箱", "智能音箱", "电视盒子", "投影", "扫描仪", "无人机", "游戏机", "烟雾报警器", "报警器", "传感器",
             "空气炸锅", "咖啡机", "破壁机", "料理机", "电磁炉", "燃气灶", "油烟机", "浴霸", "马桶", "晾衣架",
             "智能门锁", "猫眼", "平板电脑", "笔记本电脑", "台式机", "手柄", "充电桩", "电动车", "自行车"],
    PRODUCT: ["毛衣", "卫衣", "牛仔裤", "靴子", "凉鞋", "拖鞋", "雨伞", "行李箱", "钱包", "皮带", "围巾", "帽子",
              "手套", "墨镜", "项链", "戒指", "手链", "耳环", "洗发水", "防晒霜", "维生素", "锅", "刀", "帐篷",
              "睡袋", "婴儿车", "安全座椅", "书架", "毯子", "毛巾", "被子", "床单", "蜡烛", "花瓶", "相框", "吉他",
              "钢琴", "书", "小说", "登机箱", "积木", "课本", "手机壳", "数据线", "套餐", "酒", "红酒", "月饼", "水果"],
    DOCUMENT: ["发言稿", "讲稿", "论文", "文章", "申请表", "表单", "行程单", "菜谱", "食谱", "剧本", "会议纪要",
               "周计划", "预算表", "报表", "账单", "说明", "附件", "截图", "照片", "视频"],
    MEDIA: ["单曲", "节目", "综艺", "动画片", "音乐", "电台"],
    EVENT: ["婚礼", "葬礼", "演唱会", "音乐会", "比赛", "球赛", "排练", "训练", "课", "培训", "讲座", "体检",
            "手术", "疫苗", "复诊", "家长会", "年会", "团建", "饭局", "派对"],
    OTHER: ["仓鼠", "兔子", "鹦鹉", "乌龟", "金鱼", "小狗", "小猫", "盆栽", "发财树", "仙人掌"],
    PLACE: ["车站", "码头", "停车场", "加油站", "药店", "宠物店", "花店", "书店", "便利店", "菜市场", "游泳馆",
            "体育馆", "球场", "植物园", "海洋馆", "寺庙", "教堂", "景点", "度假村", "营地", "社区", "村", "镇"],
    RESTAURANT: ["烧烤", "自助餐", "串串", "麻辣烫", "奶茶", "咖啡厅", "披萨店", "汉堡店", "牛排馆", "寿司店"],
}
for _kind, _words in _ZH_MORE.items():
    ZH_HEADS[_kind] = ZH_HEADS[_kind] + [w for w in _words if w not in ZH_HEADS[_kind]]

# en head nouns per type (singular; a trailing s is stripped before lookup).
EN_HEADS: dict[str, set[str]] = {
    DEVICE: {"light", "lights", "lamp", "bulb", "thermostat", "ac", "heater", "fan", "tv", "television",
             "blinds", "blind", "curtain", "curtains", "vacuum", "camera", "cam", "doorbell", "lock", "door",
             "plug", "outlet", "switch", "router", "speaker", "monitor", "laptop", "computer", "phone", "tablet",
             "earbuds", "headphones", "watch", "charger", "adapter", "printer", "kettle", "toaster", "oven",
             "microwave", "dishwasher", "washer", "dryer", "fridge", "refrigerator", "purifier", "humidifier",
             "sprinkler", "garage", "mouse", "keyboard", "console", "projector", "e-reader", "kindle", "ipad",
             "iphone", "macbook", "pixel", "machine"},
    PRODUCT: {"backpack", "jacket", "coat", "shirt", "shoes", "sneakers", "dress", "bag", "mat", "rug", "sofa",
              "couch", "chair", "table", "desk", "mattress", "pillow", "mug", "bottle", "cup", "book", "gift",
              "item", "items", "battery", "batteries", "paper", "case", "bike", "stroller", "toy", "perfume",
              "cream", "serum", "coffee", "tea", "model", "version"},
    DOCUMENT: {"report", "contract", "nda", "deck", "doc", "document", "spreadsheet", "sheet", "brief",
               "handbook", "manual", "invoice", "receipt", "lease", "draft", "memo", "proposal", "slides",
               "file", "presentation", "agenda", "resume", "cv", "pdf", "email", "letter", "notes",
               "form", "policy", "outline", "essay", "chapter", "statement"},
    ORDER: {"order", "ticket", "claim", "refund", "return", "shipment", "package", "parcel", "request", "replacement",
            "exchange",
            "subscription", "booking", "reservation"},
    PLACE: {"hotel", "inn", "motel", "hostel", "cabin", "cabins", "resort", "airbnb", "rental", "park", "museum",
            "aquarium", "zoo", "mall", "store", "shop", "market", "supermarket", "hospital", "clinic", "dentist",
            "airport", "station", "beach", "island", "lake", "canyon", "gym", "cinema", "theater", "theatre",
            "salon", "spa", "library", "school", "office", "bank", "garage", "center", "centre", "square",
            "city", "town", "village", "neighborhood", "apartment", "house", "venue", "pharmacy", "care", "room",
            "bedroom", "bathroom"},
    RESTAURANT: {"restaurant", "cafe", "café", "bistro", "diner", "bar", "pub", "pizzeria", "bakery",
                 "steakhouse", "taqueria", "brewery", "teahouse", "eatery", "cafeteria", "coffeehouse"},
    MEDIA: {"song", "album", "playlist", "movie", "film", "show", "episode", "podcast", "audiobook",
            "soundtrack", "track", "video", "series", "documentary"},
    VEHICLE: {"car", "truck", "suv", "van", "flight", "train", "bus", "ferry", "motorcycle", "scooter"},
    EVENT: {"meeting", "appointment", "call", "interview", "party", "reunion", "wedding", "class", "lesson",
            "session", "dinner", "lunch", "conference", "webinar", "standup", "review", "birthday", "trip",
            "concert", "game", "exam", "checkup", "haircut", "massage", "cleaning", "visit", "repair", "fitting"},
    OTHER: {"plant", "cat", "dog", "puppy", "kitten", "pet", "timer", "alarm", "fish"},
}
_EN_MORE = {
    DEVICE: {"soundbar", "modem", "scanner", "drone", "detector", "sensor", "opener", "fryer", "maker", "espresso",
             "stove", "hood", "smartwatch", "headset", "controller", "webcam", "doorlock", "bulbs", "lamps",
             "air-conditioner", "conditioner", "dehumidifier", "radiator", "boiler", "purifier", "roomba", "echo",
             "alexa", "nest", "airpods", "earphones", "speakers", "tv's"},
    PRODUCT: {"sweater", "hoodie", "jeans", "boots", "sandals", "umbrella", "suitcase", "luggage", "wallet", "belt",
              "scarf", "hat", "gloves", "sunglasses", "necklace", "bracelet", "earrings", "lipstick", "shampoo",
              "sunscreen", "vitamins", "blender", "mixer", "pan", "knife", "tent", "blanket", "towel", "sheets",
              "duvet", "candle", "cable", "protector", "lego", "vase", "frame", "guitar", "piano", "novel", "textbook", "jersey", "dress",
              "skirt", "pants", "shorts", "socks", "wine", "cake", "flowers", "bouquet", "toys", "gift card"},
    DOCUMENT: {"transcript", "syllabus", "itinerary", "application", "thesis", "article", "newsletter", "roadmap",
               "plan", "checklist",
               "script", "recipe", "deck", "slideshow", "photo", "photos", "picture", "screenshot",
               "attachment", "worksheet", "questionnaire", "survey", "quote", "estimate", "bill"},
    MEDIA: {"trailer", "radio", "audiobook", "mixtape", "vinyl"},
    VEHICLE: {"ride", "uber", "lyft", "cab", "taxi", "cruise", "jeep", "sedan", "minivan", "tesla", "rental car"},
    EVENT: {"funeral", "shower", "recital", "match", "practice", "rehearsal", "workshop", "surgery", "vaccination",
            "playdate", "sleepover", "ceremony", "graduation", "anniversary", "consultation", "tour",
            "tasting", "screening"},
    OTHER: {"hamster", "rabbit", "bunny", "bird", "parrot", "turtle", "goldfish", "succulent", "cactus",
            "countdown", "stopwatch", "fern", "orchid", "fig", "ficus", "monstera", "bonsai", "pothos", "ivy", "aloe",
            "basil", "palm"},
    PLACE: {"pharmacy", "bakery", "florist", "bookstore", "post office", "gas station", "parking", "pier",
            "harbor", "campground", "campsite", "trail", "temple", "church", "cathedral", "castle", "tower",
            "stadium", "arena", "court", "pool", "spa", "studio", "venue", "gallery", "theatre", "resort",
            "lodge", "villa", "condo", "bnb", "vet", "salon", "barbershop", "dealership", "warehouse"},
    RESTAURANT: {"cafe", "coffeeshop", "pizzeria", "buffet", "deli", "bakery", "noodle shop", "bbq", "boba"},
}
for _kind, _words in _EN_MORE.items():
    EN_HEADS[_kind] = EN_HEADS[_kind] | {w for w in _words if " " not in w}

EN_PEOPLE: dict[str, str] = {
    "mom": "f", "mother": "f", "mum": "f", "grandma": "f", "grandmother": "f", "wife": "f", "sister": "f",
    "daughter": "f", "aunt": "f", "niece": "f", "girlfriend": "f", "granddaughter": "f",
    "dad": "m", "father": "m", "grandpa": "m", "grandfather": "m", "husband": "m", "brother": "m", "son": "m",
    "uncle": "m", "nephew": "m", "boyfriend": "m", "grandson": "m",
    "boss": "", "manager": "", "neighbor": "", "neighbour": "", "colleague": "", "coworker": "", "friend": "",
    "cousin": "", "doctor": "", "teacher": "", "client": "", "customer": "", "roommate": "", "partner": "",
    "kid": "", "child": "", "baby": "", "landlord": "", "tutor": "", "nanny": "", "plumber": "",
    "parents": "", "kids": "", "children": "", "grandparents": "", "twins": "",
}
EN_PERSON_TITLES = {"aunt": "f", "uncle": "m", "cousin": "", "dr": "", "dr.": "", "mr": "m", "mr.": "m",
                    "mrs": "f", "mrs.": "f", "ms": "f", "ms.": "f", "grandma": "f", "grandpa": "m"}

# Common given names with their usual gender, so a bare name is a person ("Send the report to Raj").
EN_FEMALE_NAMES = set("""
anna emma olivia ava mia sophia isabella amelia harper evelyn abigail emily ella elizabeth sofia avery scarlett
grace chloe victoria riley aria lily aubrey zoey hannah layla nora zoe leah hazel violet aurora savannah audrey
brooklyn bella claire skylar lucy paisley anna caroline nova genesis emilia kennedy maya willow kinsley naomi
sarah allison gabriella madelyn cora eva serenity autumn hailey gianna valentina eliana quinn nevaeh ivy sadie
piper lydia alexa josephine julia delilah arianna vivian kaylee sophie brielle madeline hadley ruby jenna ellen
carol beth linda susan karen nancy lisa betty margaret sandra ashley kimberly donna michelle dorothy laura
rebecca sharon cynthia kathleen amy angela helen deborah rachel melissa jessica jennifer mary patricia barbara
priya aisha fatima mei yuki sakura ling jing li na ana maria lucia elena rosa carmen megan kate katie amanda
stephanie nicole heather tiffany rose alice jane diana monica rita tina wendy yvonne zara nina lena
""".split())
EN_MALE_NAMES = set("""
liam noah oliver elijah james william benjamin lucas henry theodore jack levi alexander jackson mateo daniel
michael mason sebastian ethan logan owen samuel jacob asher aiden john joseph wyatt david leo luke julian hudson
grayson matthew ezra gabriel carter isaac jayden luca anthony dylan lincoln thomas maverick elias josiah charles
caleb christopher ezekiel miles jaxon isaiah andrew joshua nathan nolan adrian cameron santiago eli aaron ryan
angel cooper waylon easton kai christian landon colton roman axel brooks jonathan robert jameson ian everett
greyson wesley jeremiah hunter leonardo jose bennett silas nicholas parker beau weston connor
carson dominic xavier jaxson jace emmett adam declan rowan micah kayden gael river ryder kingston damian sawyer
luka evan vincent legend myles harrison august bryson amir giovanni chase diego milo jasper omar kevin mike
jason tom tim bob steve richard mark paul george kenneth brian edward ronald timothy jeffrey gary eric stephen
larry justin scott brandon frank gregory raymond patrick jerry dennis walter peter harold douglas henry carl
arthur roger keith jeremy terry lawrence sean albert joe bruce willie gabe raj ravi arjun rahul wei hiroshi
kenji ahmed ali hassan carlos juan luis pedro marco ben sam max alex chris nick dan matt rob
""".split())

# Words that end a restaurant's name without being a head noun on their own ("Blue Ribbon Sushi").
EN_RESTAURANT_NAME_ENDS = {"sushi", "ramen", "pizza", "grill", "kitchen", "noodle", "noodles", "bbq", "taco",
                           "tacos", "burger", "burgers", "dumpling", "dumplings", "thai", "pho", "curry", "café",
                           "cafe", "bistro", "diner", "tavern", "eatery", "trattoria", "osteria", "cantina"}

# Calendar words (en), one list for the extractor (a month is no name) and the resolver (dates compared,
# "last Friday" as a visit before).
EN_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
             "november", "december")
EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
EN_CALENDAR_ABBREVIATIONS = ("mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "jan", "feb",
                             "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
EN_HOLIDAYS = ("christmas", "thanksgiving", "easter", "halloween", "memorial", "labor", "independence")
# What "last" is said with when it dates a visit ("last time", "last summer", "last Friday").
EN_LAST_PERIODS = ("time", "week", "month", "year", "summer", "winter", "spring", "fall", "autumn", "weekend", "night",
                   "trip", "visit", *EN_WEEKDAYS)
EN_LAST_PERIOD = r"last\s+(?:" + "|".join(EN_LAST_PERIODS) + r")"

# Somewhere gone to, stayed at, booked or ordered from: said before the name ("上个月去的 Shake Shack",
# "we went to Zuni") or in the clause that named it (what makes it the place of "上次那家").
ZH_VISIT_VERBS = ("去过", "去的", "去了", "到过", "吃过", "住过", "住的", "玩过", "订了", "订过", "订的", "预订", "点过", "点了")
EN_VISIT_VERBS = ("went to", "been to", "stayed at", "ate at", "visited", "ordered from", "booked", "reserved")
# Times before now that make "那家" one visited before ("上次那家", "以前那家").
ZH_PAST_TIMES = ("上次", "上回", "上个月", "上周", "去年", "以前", "之前", "那次", "那天", "昨天")

# Comparatives: the cues, what they measure in what was said of each entity (a price, a size, a weight, a
# date, a time of day, a duration; None: the first number said with it) and which end they pick.
COMPARATIVES: list[tuple[tuple[str, ...], str | None, str]] = [
    (("cheaper", "cheapest", "便宜", "实惠", "less expensive"), "price", "min"),
    (("pricier", "priciest", "expensive", "贵"), "price", "max"),
    (("lighter", "lightest", "轻"), "weight", "min"), (("heavier", "heaviest", "重"), "weight", "max"),
    (("bigger", "biggest", "larger", "largest", "大"), "size", "max"),
    (("smaller", "smallest", "小"), "size", "min"),
    (("earlier", "earliest", "early", "更早", "早一点", "早的", "先"), "date", "min"),
    (("later", "late", "更晚", "晚一点", "晚的", "后买", "后订", "后来"), "date", "max"),
    (("earlier", "earliest", "early", "更早", "早一点", "早的", "先"), "time", "min"),
    (("later", "late", "更晚", "晚一点", "晚的", "后买", "后订", "后来"), "time", "max"),
    (("faster", "fastest", "quicker", "quickest", "sooner", "快"), "duration", "min"),
    (("slower", "slowest"), "duration", "max"),
    # How far: "5 minutes away", "离你300米", "1.2 miles".
    (("closer", "closest", "nearer", "nearest", "近"), "distance", "min"),
    (("farther", "farthest", "further", "furthest", "远"), "distance", "max"),
    (("older", "oldest", "longer", "longest", "more powerful", "more experienced", "higher", "highest", "长"), None,
     "max"),
    (("younger", "youngest", "shorter", "shortest", "lower", "lowest", "短"), None, "min"),
]
# Comparatives with no measure read from what was said; like the measured ones, "the quieter hotel" is a
# definite that picks among things already named.
EN_COMPARATIVES_UNMEASURED = ("newer", "newest", "nicer", "nicest", "quieter", "quietest", "busier", "busiest")
EN_COMPARATIVE_WORDS = tuple(sorted(
    {cue for cues, _, _ in COMPARATIVES for cue in cues
     if cue.isascii() and " " not in cue and cue.endswith(("er", "est"))} | set(EN_COMPARATIVES_UNMEASURED),
    key=lambda w: (-len(w), w)))

# Cities, regions and sights named bare in English (a name among them is a place, and an area: somewhere with
# weather, not somewhere with opening hours).
EN_CITIES = frozenset("""
austin boston denver seattle chicago houston dallas miami atlanta phoenix portland vegas orlando nashville
york francisco angeles diego jose washington philadelphia detroit minneapolis honolulu anchorage monterey
kyoto tokyo osaka paris london rome madrid barcelona berlin amsterdam lisbon dublin prague vienna sydney
melbourne toronto vancouver montreal mexico bangkok singapore seoul beijing shanghai dubai istanbul bali
hawaii tahoe yosemite zion bryce arches yellowstone napa sedona asakusa shibuya hokkaido florence venice
""".split())
# Names of ZH_NAMES that are venues (a chain, a park with gates) rather than areas.
ZH_VENUE_NAMES = frozenset({"宜家", "沃尔玛", "山姆", "盒马", "万达", "故宫", "迪士尼", "环球影城", "国贸"})
ZH_AREAS = frozenset(name for name, kind in ZH_NAMES.items() if kind == PLACE and name not in ZH_VENUE_NAMES)
# Said of a place habitually gone to: "the usual place", "常去的那家", "老地方".
ZH_HABITUAL = ("经常去", "常去", "平时去", "总去", "老去")
EN_HABITUAL_ATTRIBUTES = ("usual", "regular", "favorite", "favourite")
