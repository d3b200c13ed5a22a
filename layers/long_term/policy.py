"""The long-term layer's policy numbers for one tenant, read through memoryhub/core/policy.py: code
defaults overridden by global permanent entries `policy.long_term.<field>` (e.g.
`policy.long_term.min_score` = 0.25 or `policy.long_term.decay_alpha_days` = {"event": 60}).
Dict-valued fields merge key by key over the defaults; a value of the wrong type is ignored (logged)
rather than breaking every search of the tenant.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from layers.long_term.importance import IMPORTANCE_BY_KEY_FAMILY
from memoryhub.core.policy import policy_read, setting


def _default_alpha() -> dict[str, float]:
    # Days for recency exp(-age/α) to fall to 1/e: stable traits last, one-off events fade.
    return {"preference": 365.0, "fact": 730.0, "event": 120.0, "episode": 60.0}


def _default_scene_weights() -> dict[str, dict[str, float]]:
    return {
        "recommendation": {"preference": 1.0, "fact": 0.8, "event": 0.6, "episode": 0.5},
        "scheduling": {"event": 1.0, "fact": 0.8, "preference": 0.7, "episode": 0.6},
        "support": {"episode": 1.0, "event": 0.9, "fact": 0.9, "preference": 0.6},
    }


def _default_single_valued() -> list[str]:
    return [
        "user.name", "user.home_city", "user.birthday", "user.timezone", "user.language",
        "user.occupation", "user.employer", "user.email_preference", "user.diet",
        # one at a time too: where the user works (beside where they live), how old, where they are from
        "user.work_city", "user.age", "user.hometown",
        # a habit's pattern changes by supersession (layers/formation/habits/)
        "habit.*",
        # one value per preference and condition: a variant is replaced by its own condition's next value
        # (layers/long_term/conditions/condition.py), the general preference and other exceptions stay
        "user.preference.*",
    ]


def _default_scene_cues() -> dict[str, list[str]]:
    # Words that name a scene in zh and en (a Latin cue matches words starting with it). The scene with
    # the most hits wins; one hit is enough. Chosen as families of ordinary wording, not from single queries.
    return {
        "dining": ["dinner", "lunch", "breakfast", "brunch", "restaurant", "eat", "food", "meal", "takeaway",
                   "takeout", "take-out", "delivery", "cook", "recipe", "snack", "cafe", "café", "coffee shop",
                   "bar", "pub", "cuisine", "dish", "menu", "buffet", "barbecue", "bbq", "picnic",
                   "ramen", "noodle", "pizza", "burger", "sushi", "steak", "salad", "soup", "sandwich", "beer",
                   "cocktail", "吃", "饭", "餐", "菜", "外卖", "茶楼", "早茶", "零食", "小吃", "馆子", "食", "夜宵",
                   "宵夜", "火锅", "面条", "喝酒", "喝两", "喝一杯", "啤酒", "白酒", "红酒",
                   # food packed or grilled: a school lunch is not a trip's packing, skewers are a meal
                   "school lunch", "packed lunch", "lunchbox", "lunch box", "便当", "带饭", "撸串", "烧烤", "烤串",
                   "烤肉",
                   # the evening meal by its other names: tea in Britain and Ireland, a date night out
                   "for tea", "date night",
                   # a table booked or reserved is a meal out
                   "book a table", "book us a table", "table for", "reservation", "reserve a", "订座", "订位", "订桌",
                   "订个位"],
        "travel": ["flight", "fly", "airport", "trip", "train ticket", "train to", "trains", "ticket",
                   "hotel", "travel", "bus to", "pack for", "vacation", "holiday", "itinerary", "journey",
                   "book a car", "campervan", "road trip", "visa", "机票", "航班", "飞", "车票", "高铁", "火车",
                   "酒店", "住处", "旅行", "旅游", "出差", "订票", "看票", "行程", "出行", "签证", "过年回",
                   # a train or coach asked by its service number
                   "车次", "班次"],
        "medical": ["sick", "pain", "hurt", "ache", "doctor", "medicine", "medication", "pill", "tablet",
                    "drug", "symptom", "hospital", "fever", "cough", "dentist", "surgery", "prescription",
                    "what can i take", "should i take", "wheez", "headache", "pharmac", "drugstore", "chemist",
                    "药店", "药房", "migraine", "sore", "injur",
                    "药", "医生", "医院", "疼", "痛", "病", "发烧", "咳", "不舒服", "难受", "手术", "体检",
                    "复查", "看病", "过敏", "感冒", "失眠", "睡不着",
                    # taking medicine is said with 吃 (吃药, 该吃什么药), which alone would read as a meal
                    "吃药", "什么药", "服药", "药片", "pollen", "hay fever", "sneez", "rash", "itch",
                    "花粉", "鼻炎", "打喷嚏", "起疹子", "痒",
                    # teeth, blood pressure and dizziness
                    "dental", "teeth", "tooth", "dizzy", "blood pressure", "牙", "血压", "头晕",
                    # a remedy offered or asked about: what a doctor puts one on, a supplement, an infection
                    "put me on", "putting me on", "safe to take", "ok to take", "okay to take", "antibiotic",
                    "infection", "urgent care", "supplement", "herbal", "vitamin", "dose", "dosage",
                    "side effect", "antidepress", "感染", "抗生素", "保健品", "维生素", "副作用", "剂量"],
        "weather": ["weather", "rain", "umbrella", "snow", "forecast", "temperature", "sunny", "storm",
                    "天气", "下雨", "雨伞", "带伞", "下雪", "气温", "降温",
                    "pour", "drizzl", "windy", "冷不冷", "热不热", "刮风", "雾霾"],
        "shopping": ["buy", "gift", "present for", "shop", "order a", "purchase", "deal on", "under $",
                     "买", "礼物", "送什么", "购物", "下单", "订个蛋糕"],
        "scheduling": ["schedule", "calendar", "free on", "busy", "available", "appointment", "what time",
                       "plans for", "when is", "when's", "when are", "deadline", "due",
                       "安排", "有空", "什么时候", "几点", "日程", "约", "截止", "到期"],
        "entertainment": ["watch", "movie", "film", "music", "song", "play some", "concert", "show",
                          "game", "fun", "电影", "音乐", "歌", "演唱会", "玩", "节目",
                          # something to listen to: a podcast, an audiobook, the radio, whatever is 听的
                          "listen", "podcast", "audiobook", "radio", "听的", "听点", "能听", "播客", "有声书", "电台"],
    }


def _default_pastime_kinds() -> dict[str, list[str]]:
    # What a like or dislike is about when it is a pastime, by kind: its words (genres, shows, games, sports)
    # name no request, yet "something to watch tonight?" asks for the screen ones and "周末有什么好玩的" for any.
    return {
        "screen": ["drama", "series", "sitcom", "anime", "cartoon", "documentar", "comed", "thriller", "horror",
                   "romcom", "rom-com", "sci-fi", "fantasy", "western", "crime", "film", "movie", "tv", "show",
                   "剧", "综艺", "动漫", "动画", "纪录片", "喜剧", "电影", "片"],
        "music": ["jazz", "rock", "hip hop", "k-pop", "classical", "opera", "band", "album", "music", "song", "singer",
                  "concert", "karaoke", "歌", "音乐", "唱", "京剧", "戏曲", "演唱会",
                  # what one listens to that is no music: talk, stories read aloud, crosstalk
                  "podcast", "audiobook", "radio", "播客", "有声书", "电台", "评书", "相声"],
        "reading": ["novel", "book", "reading", "comic", "manga", "mystery", "mysteries", "poetry", "小说", "书",
                    "漫画", "诗"],
        "outing": ["board game", "video game", "puzzle", "chess", "escape room", "bowling", "hiking", "hike", "climb",
                   "boulder", "fishing", "camping", "cycling", "skat", "ski", "surf", "golf", "tennis", "basketball",
                   "football", "soccer", "badminton", "photograph", "painting", "knit", "woodwork", "garden", "dance",
                   "dancing", "museum", "gallery", "theatre", "theater", "musical", "stand-up", "游戏", "桌游",
                   "剧本杀", "密室", "舞", "戏", "展", "画", "爬山", "徒步", "钓鱼", "露营", "骑行", "滑雪", "冲浪",
                   "羽毛球", "篮球", "足球", "网球", "乒乓", "象棋", "围棋", "摄影", "养花", "相声", "脱口秀"],
    }


def _default_pastime_query_cues() -> dict[str, list[str]]:
    # The kind of pastime a request asks for by its words; "any" is an open request for something to do.
    return {
        "screen": ["watch", "film", "movie", "tv", "series", "episode", "binge", "netflix", "看剧", "追剧", "电影",
                   "节目", "综艺", "看点什么", "片子"],
        "music": ["music", "song", "listen", "playlist", "concert", "gig", "album", "歌", "音乐", "听点", "演唱会",
                  "听的", "能听", "podcast", "audiobook", "播客", "有声书"],
        "reading": ["book", "read", "novel", "看书", "小说", "读点", "本书"],
        "any": ["fun", "things to do", "something to do", "bored", "entertain", "好玩", "玩什么", "去哪玩", "乐子", "消遣",
                "无聊", "打发时间"],
    }


def _default_scene_prototypes() -> dict[str, list[str]]:
    # How people ask for each scene, zh and en, written as ordinary requests (never copied from the relevance
    # corpus): a query no cue word names takes the scene of its nearest prototype by the embedder's cosine,
    # when that prototype is a scene's and is at least `scene_prototype_min_cosine` close
    # (layers/long_term/selectors/scenes.py). `none` holds questions that need no scene (facts about the user
    # and their people, general knowledge), so a personal or general question is not pulled into a scene.
    return {
        "dining": ["where should we eat tonight", "recommend a restaurant", "what should I cook for dinner",
                   "order some food delivery", "find a place for lunch", "a good cafe nearby", "what can I eat",
                   "recipe ideas for the weekend", "drinks after work", "今晚吃什么", "推荐一家餐厅", "叫个外卖",
                   "做什么菜好", "找个地方吃饭", "周末去哪喝一杯", "早餐吃点什么"],
        "travel": ["book a flight", "find me a hotel", "plan a trip", "train tickets to the city",
                   "what should I pack for the trip", "rent a car for the holiday", "how do I get to the airport",
                   "book a seat on the plane", "帮我订机票", "订个酒店", "帮我买火车票", "出差要带什么", "安排一下旅行",
                   "坐高铁去", "回老家的车票"],
        "medical": ["I feel sick", "can I take this medicine", "my back hurts", "should I see a doctor",
                    "I have a headache", "what can I take for a cold", "book a dentist appointment",
                    "is this safe while pregnant", "我头疼", "该吃什么药", "要不要去医院", "身体不舒服", "感冒了怎么办",
                    "去看医生", "体检要注意什么",
                    "the doctor wants to put me on antibiotics, is that ok", "is this supplement safe with my pills",
                    "医生要给我开抗生素，可以吗", "这个保健品我能吃吗"],
        "shopping": ["buy a gift for my friend", "what should I get her for her birthday", "order a new phone",
                     "shopping list", "find a good deal on shoes", "what present should I buy", "reorder supplies",
                     "给他买个礼物", "送什么礼物好", "帮我下单", "买双鞋", "网上买个东西", "生日礼物买什么"],
        "scheduling": ["am I free on Thursday", "what's on my calendar", "when is my appointment",
                       "schedule a meeting", "what time do I need to be there", "when is it due",
                       "do I have anything next week", "周四有空吗", "下周有什么安排", "几点开会", "什么时候到期",
                       "帮我约个时间"],
        "entertainment": ["what should I watch", "recommend a movie", "play some music", "what should I do this weekend",
                          "fun things to do", "a good book to read", "concert tickets", "a game to play", "推荐个电影",
                          "放首歌", "周末去哪玩", "有什么好看的剧", "推荐本书", "找点乐子"],
        "weather": ["will it rain tomorrow", "what's the weather like", "do I need an umbrella", "how cold is it today",
                    "明天下雨吗", "今天天气怎么样", "要带伞吗", "明天冷不冷"],
        "none": ["what is the capital of France", "how do you boil an egg", "explain how photosynthesis works",
                 "convert miles to km", "who won the world cup", "tell me a joke", "what's my wife's name",
                 "where do I live", "who is my boss", "what do I do for work", "when is my brother's birthday",
                 "how many kids do I have", "remind me where I put my keys", "what's my dog's name",
                 "fix the leaking tap", "how do I reset my router", "法国的首都是哪里", "讲个笑话", "我老婆叫什么",
                 "我住在哪", "我是做什么工作的", "光合作用是什么", "我有几个孩子", "我的猫叫什么",
                 # jobs around the house, and the day's news and markets
                 "ideas for a DIY project", "how do I organise the garage", "redecorate the living room",
                 "how is the stock market doing", "what's in the news today", "家里装修有什么建议", "怎么收拾车库",
                 "股票涨了吗", "今天有什么新闻", "汇率是多少"],
    }


def _default_scene_keys() -> dict[str, dict[str, float]]:
    # What each scene needs to know (tests/layers/long_term/corpora/RELEVANCE.md, "indirect needs"):
    # key pattern -> relevance the key alone earns. 0.5 clears the default cutoff of a fresh, confirmed
    # memory; lower weights only add to a text match.
    return {
        "dining": {"user.diet": 0.9, "user.allergies": 0.9, "user.food_restrictions": 0.9, "user.dislikes": 0.6,
                   "user.health_conditions": 0.2},
        "travel": {"user.home_city": 0.25, "user.plan": 0.25, "user.travel*": 0.7, "user.seat*": 0.7},
        "medical": {"user.health_conditions": 0.9, "user.allergies": 0.28, "user.medication*": 0.9},
        "weather": {"user.home_city": 0.9},
        "shopping": {"user.likes": 0.2},
        "scheduling": {"user.plan": 0.15},
        "entertainment": {"user.likes": 0.25},
    }


def _default_scene_content_cues() -> dict[str, list[str]]:
    # Words in a memory's text that make it matter to the scene whatever its key (a dietary condition for
    # a meal, a seat or airline preference for a flight, a doctor's instruction for a medical question).
    return {
        "dining": ["budget", "broke", "预算", "没钱", "手头紧", "省着", "money is tight", "money's tight", "saving up", "diet", "salt", "sugar", "caffeine", "decaf", "diabet", "cholesterol", "blood pressure", "gout",
                   "coeliac", "celiac", "gluten", "lactose", "dairy", "pregnan", "vegetarian", "vegan", "allerg",
                   "halal", "kosher", "low-carb", "keto", "spicy", "糖尿病", "血压", "血脂", "血糖", "胆固醇",
                   "痛风", "怀孕", "乳糖", "忌口", "吃素", "素食", "过敏", "少盐", "少油", "不吃", "辣", "胃",
                   "alcohol", "gastritis", "反酸", "胃炎",
                   # what a doctor limits by its marker: uric acid and purines, kidney stones
                   "uric", "purine", "kidney stone", "尿酸", "嘌呤", "结石"],
        "travel": ["budget", "broke", "cheap", "afford", "预算", "没钱", "手头紧", "省着", "money is tight", "money's tight", "saving up", "省钱", "seat", "aisle", "window", "airline", "frequent flyer", "miles", "lounge", "fear of flying",
                   "afraid of flying", "motion sick", "靠窗", "过道", "航空", "里程", "晕车", "晕机", "怕坐飞机",
                   "高铁", "卧铺",
                   # a carrier or a way to travel preferred: an airline by its kind ("Air France", "British
                   # Airways": any word from "air"), the train over flying (said with what follows or before it,
                   # as a content cue has no word end: "train" alone would read a training; "坐动车", not 电动车)
                   "air", "train to", "train over", "by train", "rail", "火车", "坐动车",
                   # how one travels: luggage, loyalty status, what one can drive, mobility, pregnancy
                   "luggage", "baggage", "carry-on", "check a bag", "checking bags", "elite", "mvp", "platinum",
                   "loyalty", "automatics", "stick shift", "only drive", "driving licen", "wheelchair", "stairs",
                   "elevator", "pregnan", "due date", "weeks now", "行李", "托运", "会员", "金卡", "白金", "积分",
                   "自动挡", "手动挡", "驾照", "轮椅", "电梯", "楼梯", "怀孕", "预产期"],
        # a stated budget constrains what to buy, book or order (RELEVANCE.md, "indirect needs")
        "shopping": ["budget", "broke", "cheap", "afford", "money", "stipend", "预算", "没钱", "手头紧", "省着", "money is tight", "money's tight", "saving up", "省钱", "便宜"],
        "medical": ["doctor", "physio", "medication", "medicine", "prescri", "mg", "pill", "tablet", "inhaler",
                    "drug", "penicillin", "aspirin", "ibuprofen", "sulfa", "codeine", "latex", "pregnan",
                    "医生", "医嘱", "药", "复查", "处方", "青霉素", "阿司匹林", "头孢", "怀孕"],
    }


def _default_scene_content_weights() -> dict[str, float]:
    return {"dining": 0.35, "travel": 0.5, "medical": 0.4, "shopping": 0.35}


def _default_person_topics() -> list[str]:
    # A question about another person ("我哥住哪儿？") is not about the user's own city, job or name.
    return ["spouse", "partner", "son", "daughter", "children", "brother", "sister", "parents", "boss",
            "grandchildren", "grandparents", "relatives"]


def _default_self_topics() -> list[str]:
    return ["home_city", "hometown", "workplace", "work", "name", "education", "contact", "languages"]


def _default_topic_cues() -> dict[str, list[str]]:
    # What a question asks for, by the words people use for it (zh and en).
    return {
        "home_city": ["where do i live", "where i live", "live now", "my city", "my address", "住哪",
                      "住在哪", "哪个城市", "住哪儿", "家在哪"],
        "local": ["near me", "nearby", "near home", "close to home", "around here", "in town",
                  "spot", "restaurant", "place", "takeaway", "takeout", "delivery", "go for dinner",
                  "eat out", "bar", "附近", "周边", "找个", "推荐个地方", "订个", "餐厅", "去哪", "外卖", "出去吃",
                  # food brought to the door, and an outing to find (a city's to know)
                  "book a table", "book us a table", "table for", "reservation", "订座", "订位", "订桌",
                  "order dinner", "order food", "order us", "order some food", "order in", "点外卖", "点餐",
                  "something fun", "anything fun", "things to do", "好玩",
                  # an outing happens somewhere: shows, trails, parks, museums
                  "trail", "concert", "exhibition", "museum", "gallery", "theater", "theatre", "opera", "演出", "展览",
                  "演唱会", "博物馆", "公园", "爬山", "戏"],
        "hometown": ["grow up", "grew up", "originally", "hometown", "where am i from", "where i'm from",
                     "老家", "家乡", "哪里人", "哪儿人", "回家过年", "flights home", "fly home"],
        # a ticket home for the holidays goes to the hometown (a need, not a question about the user; a cue
        # joined by + needs every part)
        "trip_home": ["回家+票", "回+过年+票", "回+春节+票", "home for+flight", "home for+train",
                      "home for+ticket", "home for+bus", "home for+fly", "home for+drive"],
        # where one works (the employer) and what one does (occupation and employer)
        "workplace": ["where do i work", "where i work", "work at", "employer", "company", "office", "哪家公司",
                      "在哪上班", "在哪里上班", "在哪儿上班", "在哪工作", "在哪里工作", "哪个单位", "公司", "单位",
                      "在哪打工", "哪打工", "在哪儿打工"],
        "work": ["my job", "what do i do", "for a living", "occupation", "career", "profession", "i work as",
                 "做什么工作", "什么工作", "干什么的", "做什么的", "职业", "干哪行"],
        "name": ["my name", "who am i", "我叫什么", "我的名字"],
        "spouse": ["wife", "husband", "spouse", "hubby", "missus", "other half", "in-law", "in law", "老婆", "妻子", "太太", "媳妇", "老公",
                   "丈夫", "爱人", "我先生", "我家先生", "岳父", "岳母", "公公", "婆婆",
                   # said without the word: the one at home, the other half, the spouse's parents
                   "better half", "我家那位", "我们家那位", "那口子", "另一半", "丈母娘", "老丈人"],
        "partner": ["partner", "girlfriend", "boyfriend", "fiance", "伴侣", "女朋友", "男朋友", "女友",
                    "男友", "对象", "未婚",
                    # the in-laws are a partner's parents as much as a spouse's
                    "in-law", "in law"],
        "son": ["son", "儿子"],
        "daughter": ["daughter", "女儿", "闺女"],
        "children": ["kid", "child", "孩子", "小孩"],
        "grandchildren": ["grandson", "granddaughter", "grandkid", "grandchild", "grandchildren", "孙子", "孙女",
                          "外孙"],
        "grandparents": ["grandma", "grandmother", "grandpa", "grandfather", "granny", "nana", "奶奶", "外婆",
                         "姥姥", "爷爷", "外公", "姥爷"],
        "relatives": ["niece", "nephew", "cousin", "uncle", "aunt", "godson", "goddaughter", "侄子", "侄女", "外甥",
                      "表哥", "表姐", "表弟", "表妹", "堂哥", "堂姐", "堂弟", "堂妹", "叔叔", "舅舅", "姑姑", "阿姨",
                      "舅妈", "伯伯"],
        "brother": ["brother", "哥", "弟"],
        "sister": ["sister", "姐", "妹"],
        # a transport booking leaves from home
        "departure": ["flight", "fly to", "fly down", "fly home", "train ticket", "train to", "trains to", "train time",
                      "bus to", "a bus", "drive to", "road trip", "机票", "车票", "高铁票", "火车票", "看看票",
                      "订票", "航班", "飞", "的票", "买票", "抢票", "张票", "车次", "班次"],
        "parents": ["mother", "father", "mom", "mum", "dad", "parent", "妈", "爸", "父母", "母亲", "父亲"],
        # going to see one's parents goes where they live, most often the hometown (RELEVANCE.md, "travel")
        "visit_parents": ["see my parents", "visit my parents", "see my mom", "see my mum", "see my dad",
                          "visit my mom", "visit my mum", "visit my dad", "see the folks", "visit the folks",
                          "看爸妈", "看我爸", "看我妈", "看父母", "看望父母", "回家看"],
        "boss": ["boss", "manager", "supervisor", "老板", "领导", "上司", "经理",
                 # the one the user answers to at work, said by the relation
                 "report to", "reporting to", "answer to", "上级", "直属", "管我的"],
        "pets": ["pet", "cat", "dog", "puppy", "kitten", "animals", "breed", "宠物", "猫", "狗", "品种"],
        # someone to mind the pets (while the user is away): the pets, and where they are
        "pet_care": ["pet sitter", "pet-sit", "pet sit", "dog walker", "dog sitter", "cat sitter", "kennel",
                     "look after+animal", "look after+pet", "look after+dog", "look after+cat", "feed+cat",
                     "照顾+宠物", "照顾+猫", "照顾+狗", "帮我照顾", "喂猫", "遛狗", "寄养"],
        # the extractor's other keys about the user (layers/formation/extractor/): what they studied, how to
        # reach them, the languages they speak, their anniversary
        "education": ["my major", "i study", "i studied", "my degree", "university", "college", "my school",
                      "graduate", "专业", "学的什么", "学什么的", "读的什么", "哪个大学", "哪所大学", "毕业", "学历"],
        "contact": ["contact me", "reach me", "get hold of me", "get in touch with me", "my email", "my phone",
                    "联系我", "联系方式", "怎么联系", "找我"],
        "languages": ["language", "do i speak", "i speak", "语言", "会说", "外语", "说什么话"],
        "anniversary": ["anniversary", "纪念日"],
        # whether a slot is free, whatever the plan in it (a dinner, a film, a meeting)
        "slot": ["can i fit", "can i do", "can i make it", "am i free", "free on", "clash", "conflict",
                 "能约", "有空", "冲突", "时间上",
                 # "can I … on the 24th / tomorrow / this week": asking for a day
                 "can i+on the", "can i+tonight", "can i+tomorrow", "can i+this week", "can i+next week",
                 "can i+weekend", "那天+有空", "那天能"],
        "allergy": ["allerg", "过敏"],
        "diet_avoid": ["avoid eating", "can't eat", "cannot eat", "should i avoid", "food should i avoid",
                       "not eat", "diet", "vegetarian", "vegan", "不能吃", "忌口", "吃素", "素食", "饮食"],
        "health": ["health", "condition", "my medication", "my medicine", "血压", "血糖", "身体"],
        "plans": ["trip", "my plan", "plans", "i'm going to", "we're going to", "am i going to", "next month", "next week", "计划", "打算", "要去",
                  "那趟", "旅行"],
        # physical activity: conditions that limit it, and the activities one likes
        "activity": ["trail", "hike", "hiking", "running", "my run", "a run", "marathon", "gym", "exercise", "workout", "sport", "climb",
                     "swim", "yoga", "pilates", "爬山", "徒步", "跑步", "运动", "健身", "锻炼", "游泳"],
        # a drink asks what conditions and medicines allow it ("wine" left out: wine stains, wine regions)
        "alcohol": ["alcohol", "beer", "booze", "get drunk", "喝酒", "喝两", "喝一杯", "啤酒", "白酒"],
        "likes": ["i like", "i'd like", "i love", "favourite", "favorite", "hobby", "hobbies", "我喜欢", "爱好"],
    }


def _default_topic_keys() -> dict[str, dict[str, float]]:
    return {
        "home_city": {"user.home_city": 0.9},
        "local": {"user.home_city": 0.6},
        "hometown": {"user.hometown": 0.9},
        "workplace": {"user.employer": 0.8, "user.work_city": 0.5},
        "work": {"user.occupation": 0.8, "user.employer": 0.8},
        "name": {"user.name": 0.9},
        "spouse": {"user.relationship.wife": 0.8, "user.relationship.husband": 0.8,
                   "user.relationship.spouse": 0.8},
        "partner": {"user.relationship.partner": 0.8, "user.relationship.girlfriend": 0.8,
                    "user.relationship.boyfriend": 0.8, "user.relationship.fianc*": 0.8},
        "son": {"user.relationship.*son": 0.7},
        "daughter": {"user.relationship.*daughter": 0.7},
        "children": {"user.relationship.son": 0.7, "user.relationship.daughter": 0.7,
                     "user.relationship.*child*": 0.7},
        "brother": {"user.relationship.*brother": 0.7},
        "grandchildren": {"user.relationship.grand*": 0.7},
        "grandparents": {"user.relationship.grand*": 0.7},
        "relatives": {"user.relationship.niece": 0.7, "user.relationship.nephew": 0.7,
                      "user.relationship.cousin": 0.7, "user.relationship.uncle": 0.7, "user.relationship.aunt": 0.7},
        "sister": {"user.relationship.*sister": 0.7},
        "departure": {"user.home_city": 0.8},
        "parents": {"user.relationship.mother": 0.7, "user.relationship.father": 0.7},
        "visit_parents": {"user.hometown": 0.6},
        "trip_home": {"user.hometown": 0.8},
        "pet_care": {"user.pet*": 0.8, "user.home_city": 0.6},
        "boss": {"user.relationship.boss": 0.9, "user.relationship.manager": 0.9},
        "pets": {"user.pet*": 0.8},
        "allergy": {"user.allergies": 0.9},
        "diet_avoid": {"user.diet": 0.9, "user.allergies": 0.9, "user.food_restrictions": 0.9,
                       "user.health_conditions": 0.5},
        "education": {"user.education": 0.8},
        "contact": {"user.contact_preference": 0.8},
        "languages": {"user.languages": 0.8},
        "anniversary": {"user.anniversary": 0.8},
        # a recurring commitment may fall in the asked slot: under the cut alone, a shared word or day lifts it
        "slot": {"user.habits": 0.25, "habit.*": 0.25},
        "health": {"user.health_conditions": 0.8, "user.medication*": 0.8},
        "plans": {"user.plan": 0.6},
        "activity": {"user.health_conditions": 0.5, "user.likes": 0.2},
        "alcohol": {"user.health_conditions": 0.6, "user.medication*": 0.6},
        "likes": {"user.likes": 0.5},
    }


def _default_question_forms() -> dict[str, list[str]]:
    # What kind of answer a question wants, by its question words (zh and en), whatever else it says:
    # "which city do I live in?", "where am I based?", "我现在在哪儿住？" all ask a place. Each form can be
    # answered by the keys `form_keys` lists, and only those whose meaning the query also names
    # (`key_lexicon`), so "where" alone asks nothing.
    return {
        "where": ["where", "which city", "what city", "which town", "what town", "which country",
                  "what country", "neighborhood", "neighbourhood", "what area", "which area", "what part of",
                  "which part of", "what district", "which district", "哪里", "哪儿", "哪个城市", "哪座城市",
                  "哪个地方", "什么地方", "在哪", "住哪", "哪的", "哪人", "哪个区", "哪一带", "哪片"],
        "who": ["who", "whom", "谁"],
        "when": ["when", "what date", "what day", "which day", "什么时候", "哪天", "哪一天", "几号", "几月",
                 "啥时候"],
        # the hour of something done again and again: "what time do I usually get my coffee?", "我几点上课？"
        # (no key of its own: a habit is named by what it is, so the second stage lifts a habit the question
        # shares a word with, `rerank_time_form_keys`)
        "what_time": ["what time", "when", "usually", "normally", "typically", "how often", "几点", "什么时间",
                      "通常", "一般", "平时", "多久一次"],
        "how_old": ["how old", "what age", "多大", "几岁", "多少岁", "年纪", "岁数", "年龄"],
        # the way of something ("how should the surgery get in touch with me?", "医院怎么联系我"): no key of its own
        "how": ["how", "怎么", "怎样", "如何"],
        "what": ["what", "which", "什么", "啥", "干嘛", "哪行", "哪家", "哪个"],
    }


def _default_key_lexicon() -> dict[str, list[str]]:
    # What a key means, as the words a question uses for it (zh and en): a memory under the key answers a
    # question that names its meaning in a form the key can answer, whatever its own text says ("User is
    # from Leeds." for "where was I born?"). Matched like cue words (a Latin word starts with it, a Chinese
    # one is a substring).
    return {
        "user.home_city": ["live", "living", "based", "reside", "my home", "home for", "home is", "address", "住",
                           "居住", "我家", "家在", "do i stay"],
        "user.hometown": ["from", "grow up", "grew up", "raised", "born", "hometown", "native", "老家", "家乡",
                          "哪里人", "哪儿人", "哪的人", "哪人", "出生", "长大", "籍贯"],
        "user.work_city": ["work", "job", "office", "上班", "工作", "办公"],
        "user.employer": ["work", "job", "employ", "company", "firm", "office", "organisation", "organization",
                          "上班", "公司", "单位", "工作", "高就", "就职", "任职", "哪家", "打工"],
        "user.occupation": ["job", "work", "for a living", "profession", "occupation", "career", "line of",
                            "role", "title", "position", "工作", "职业", "干什么", "做什么", "干嘛", "干啥",
                            "做啥", "哪行", "行业", "职位", "岗位", "头衔", "职务", "打工"],
        "user.age": ["old", "age", "多大", "几岁", "多少岁", "年纪", "岁数", "年龄"],
        "user.birthday": ["birthday", "born", "birth", "生日", "出生"],
    }


def _default_form_keys() -> dict[str, dict[str, float]]:
    # form -> key pattern -> relevance, earned when the query's form and the key's meaning (`key_lexicon`) both
    # fire. A question about another person (a person topic) reads no form: its keys are the person's.
    return {
        "where": {"user.home_city": 0.8, "user.hometown": 0.8, "user.work_city": 0.6, "user.employer": 0.6},
        "who": {"user.employer": 0.6},
        "when": {"user.birthday": 0.8},
        "how_old": {"user.age": 0.8, "user.birthday": 0.6},
        "what": {"user.occupation": 0.6, "user.employer": 0.5},
    }


def _default_implied_topics() -> dict[str, list[str]]:
    # topic -> the sets of topics (joined by +, as a joint cue) that together imply it, read in this order once the
    # cue and shape topics are in (layers/long_term/selectors/scenes.py). A ticket with a parent or grandparent in
    # the request ("flights to see mom for her 70th", "买张回去看我奶奶的票"), or for a holiday (the `holiday`
    # topic, `holiday_words`), goes where they live, most often the hometown (RELEVANCE.md, "travel"); a hotel or
    # a day out for them is no ticket. Someone to mind the pets is wanted while the user is away: the trips say when.
    return {"visit_parents": ["departure+parents", "departure+grandparents", "departure+holiday"],
            "plans": ["pet_care"]}


def _default_shape_topics() -> dict[str, str]:
    # A need said by its shape (the patterns stay in code, layers/long_term/selectors/scenes.py `SHAPES`) -> the
    # topic it asks what of: somewhere near the user and a meal one treats people to ask what `local` asks (the
    # home city), a travel request naming a way to travel what `departure` asks. An empty topic turns a shape off.
    return {"near_user": "local", "treat_to_meal": "local", "transport": "departure"}


def _default_shape_scenes() -> dict[str, str]:
    # the scene a shape reads in only (a shape not listed reads in any): a coach or a ferry is a trip's in the
    # travel scene, "take my parents out for dinner" a meal's
    return {"treat_to_meal": "dining", "transport": "travel"}


def _default_holiday_words() -> list[str]:
    # A public or school holiday named in a transport booking that names neither a place nor another person to
    # see reads as the `holiday` topic ("flights for the Diwali trip", "国庆的火车票"), which `implied_topics` sends
    # home. Latin words from a word start, Chinese anywhere.
    return ["christmas", "xmas", "thanksgiving", "easter", "diwali", "deepavali", "eid", "hanukkah", "passover",
            "chinese new year", "lunar new year", "cny", "new year", "holidays", "half term", "half-term",
            "spring break", "summer break", "winter break", "春节", "过年", "新年", "元旦", "五一", "劳动节", "国庆",
            "中秋", "端午", "清明", "寒假", "暑假", "假期", "放假", "长假", "小长假"]


def _default_ending_keys() -> dict[str, str]:
    # a memory under the first key ends the current one under the second that names the same thing: "I left
    # Google" (former employer Google) retires "User works at Google." as a new employer would
    return {"user.former_employer": "user.employer"}


def _ladder_sorted(ladder: list) -> list:
    if not all(len(row) == 2 and row[0] is not None for row in ladder):
        raise ValueError("a list of [importance, days|null]")
    return sorted(ladder, key=lambda row: -float(row[0]))


def _default_ttl_ladder() -> list[list[float | None]]:
    # [minimum importance, days to live or None for never]; first match wins (docs/architecture.md, "Forgetting").
    return [[0.9, None], [0.7, 90.0], [0.4, 30.0], [0.0, 7.0]]


@dataclass(frozen=True)
class Policy:
    SECTION: ClassVar[str] = "long_term"

    decay_alpha_days: dict[str, float] = setting(default_factory=_default_alpha, low=1e-6, merge=True)
    scene_weights: dict[str, dict[str, float]] = setting(default_factory=_default_scene_weights, low=0.0, merge=True)
    min_score: float = setting(0.3, low=0.0, high=1.0)
    single_valued_keys: list[str] = setting(default_factory=_default_single_valued)
    ending_keys: dict[str, str] = setting(default_factory=_default_ending_keys)
    ttl_ladder: list[list[float | None]] = setting(default_factory=_default_ttl_ladder, low=0.0,
                                                   normalise=_ladder_sorted)
    # Negative feedbacks that halve a memory's weight (and halve it again at twice as many).
    negative_feedback_threshold: int = setting(3, low=1)
    negative_feedback_factor: float = setting(0.5, low=0.0, high=1.0)
    # Calibration of each retrieval path onto [0, 1] (fixed curves, never min-max per query):
    # keyword relevance = 1 - exp(-(bm25 / query idf mass) / keyword_scale) (see selectors.search);
    # vector relevance = clip((cos - lo) / (hi - lo)). USE v3 on the relevance dev corpus
    # (tests/layers/long_term/corpora): relevant (query, memory) pairs have median cosine 0.22 (p75 0.35),
    # irrelevant ones p95 0.18, p99 0.27. lo/hi chosen on that dev part and LoCoMo dev together: 0.15/0.5
    # gave dev P 0.66 R 0.76 but LoCoMo hybrid R@10 0.697; 0.2/0.6 P 0.73 R 0.75 and R@10 0.718; 0.25/0.75
    # (the earlier default) R@10 0.717 and, measured before the later topic fixes, dev R 0.67. Re-fitted once the
    # second stage's taste and other-key factors had bought precision back (docs/benchmarks.md, "Retrieval
    # (issue 12)"): 0.15/0.6 dev P 0.772 R 0.815 -> 0.747/0.831 and LoCoMo dev hybrid R@10 0.738 -> 0.740
    # (in-process, USE); 0.15/0.55 0.742/0.841 but R@10 0.732.
    keyword_scale: float = setting(1.0, low=1e-6)
    vector_cosine_low: float = setting(0.15, low=-1.0, high=1.0)
    vector_cosine_high: float = setting(0.6, low=-1.0, high=1.0)
    # Hybrid: where the keyword path matched it leads, and the dense path closes this share of the
    # remaining gap; where it did not match, dense relevance counts times `vector_only_share`.
    # (LoCoMo dev, in-process: BM25 alone Recall@10 0.646, this fusion 0.675; equal weights drag it down.)
    hybrid_vector_share: float = setting(0.5, low=0.0, high=1.0)
    vector_only_share: float = setting(1.0, low=0.0, high=1.0)
    # A memory next to a match in the same source session (adjacent turns) gains a share of the match's
    # relevance (LoCoMo dev: hybrid Recall@10 0.675 -> 0.717 at 0.5): `context_neighbour_share` for the turn
    # before a match, `context_neighbour_after_share` for the turn after it (the reply to the words a question
    # matched is most often its answer), `context_neighbour_far_share` two turns away either side (the same
    # speaker's next or previous line). Fitted on LoCoMo dev in-process, leave-one-conversation-out
    # (docs/benchmarks.md, "Retrieval (issue 12)", round 6): 0.5 / 0.5 / 0 gave R@5 0.672 R@10 0.756, 0.5 / 0.7 /
    # 0.2 0.684 / 0.766 (held-out R@10 0.760); 0.4 / 0.6 0.677 / 0.757, 0.6 / 0.4 0.654 / 0.744.
    context_neighbour_share: float = setting(0.5, low=0.0, high=1.0)
    context_neighbour_after_share: float = setting(0.7, low=0.0, high=1.0)
    context_neighbour_far_share: float = setting(0.2, low=0.0, high=1.0)
    # Second stage (layers/long_term/selectors/rerank.py): the first stage's best `rerank_pool` are re-scored
    # with evidence the first stage does not weigh, each closing a share of the remaining relevance gap:
    # a person, place or organisation the query names is the memory's subject (its provenance speaker or
    # subject), and the share of the query's concepts the memory covers. Shares fitted on the LoCoMo dev
    # split (the subject share by leave-one-conversation-out) and the relevance dev part together
    # (docs/benchmarks.md, "Retrieval (issue 12)"); `rerank` false serves the first stage alone.
    rerank: bool = setting(True)
    rerank_pool: int = setting(30, low=1, high=100)
    rerank_subject_share: float = setting(0.3, low=0.0, high=1.0)
    # ... and of the lines of the person the query names, the ones that speak of themselves: the share of the
    # line's personal pronouns that are first person (I, my, we, 我, 我们) against second (you, your, 你, 您)
    # closes this share of the gap (none: half). "John: I started a weekend yoga class" answers "what exercises
    # has John done?"; "John: Yeah, Maria, keep it up!" is about Maria.
    rerank_first_person_share: float = setting(0.1, low=0.0, high=1.0)
    # ... and the ones that report something that happened to them: a first-person past-tense verb ("I went",
    # "we adopted") or a past time ("last week", "yesterday", 昨天, 上周) closes this share of the gap. What a person
    # did, where they went and when are told as such reports; acknowledgements and advice are not.
    rerank_event_share: float = setting(0.15, low=0.0, high=1.0)
    # a memory naming the person the query means by a role, through the user's relationship facts
    rerank_person_share: float = setting(0.1, low=0.0, high=1.0)
    # ... and when the query asks something about that person other than their name ("where does my daughter
    # live?", "我老公什么时候做手术？"): a memory naming them is then most likely the answer, while for "what's
    # my wife called?" the relationship fact is the answer and a line that only names her is not
    # (tests/layers/long_term/corpora/RELEVANCE.md, rules 1 and 2). The name question by `name_question_cues`.
    rerank_person_answer_share: float = setting(0.2, low=0.0, high=1.0)
    # In these scenes the people a request names come along ("晚上带孩子出去吃点啥", "dinner with my mum"): what of
    # theirs matters is what the scene's own keys and content cues read (an allergy, a diet), so a memory that
    # only names them keeps `rerank_person_share`.
    person_companion_scenes: list[str] = setting(default_factory=lambda: ["dining"])
    name_question_cues: list[str] = setting(default_factory=lambda: [
        "name", "called", "who is", "who's", "whos", "叫什么", "叫啥", "名字", "是谁", "哪位"])
    rerank_coverage_share: float = setting(0.1, low=0.0, high=1.0)
    # A taste (a like or dislike, `taste_keys`) bears on the scene it is about: one whose text the scene's own
    # cue words name ("User likes Korean food" for a dinner) closes `rerank_taste_fit_share` of the gap; one
    # about another scene ("User dislikes horror movies" for a dinner) keeps `rerank_taste_misfit_factor`
    # of its relevance (selectors/rerank.py).
    taste_keys: list[str] = setting(default_factory=lambda: ["user.likes*", "user.dislikes*"])
    rerank_taste_fit_share: float = setting(0.3, low=0.0, high=1.0)
    # A like or dislike of a pastime (`pastime_kinds`: "User likes K-dramas", "用户喜欢钓鱼") fits a request for that
    # kind of pastime (`pastime_query_cues`: "something to watch tonight?"; "any": "周末有什么好玩的") as a taste
    # the scene's cue words name does, unless the request names a pastime itself ("周末去哪钓鱼好": then the other
    # pastimes are not what it asks). Only ever a fit, never a misfit (a pastime can be a gift).
    pastime_kinds: dict[str, list[str]] = setting(default_factory=_default_pastime_kinds, merge=True)
    pastime_query_cues: dict[str, list[str]] = setting(default_factory=_default_pastime_query_cues, merge=True)
    rerank_taste_misfit_factor: float = setting(0.3, low=0.0, high=1.0)
    # An allergy bears on the scenes its allergen belongs to: one naming a medicine or something in the air
    # (`allergen_medical_cues`) is medical's, any other (a food) dining's. Between those two scenes, one about
    # the other keeps `rerank_taste_misfit_factor` of its relevance, unless a topic of the query asks for
    # allergies ("what am I allergic to?"); other scenes (a gift, a visit) leave it alone.
    allergy_keys: list[str] = setting(default_factory=lambda: ["user.allergies*"])
    allergen_medical_cues: list[str] = setting(default_factory=lambda: [
        "drug", "medicine", "medication", "penicillin", "sulfa", "sulpha", "aspirin", "ibuprofen", "codeine",
        "antibiotic", "amoxicillin", "latex", "pollen", "dust", "mite", "mould", "mold", "bee sting", "wasp",
        "hay fever", "cat", "dog", "fur", "药", "青霉素", "头孢", "阿司匹林", "磺胺", "抗生素", "布洛芬", "乳胶",
        "花粉", "尘螨", "螨", "霉菌", "猫毛", "狗毛", "动物毛", "蜂"])
    # An allergy that shares a concept with the request (keywords.py `CARRIED_WORDS`: flowers carry pollen, a cat its
    # dander) constrains it whatever the scene, and closes this share of the gap (RELEVANCE.md, "gifts").
    rerank_allergen_share: float = setting(0.3, low=0.0, high=1.0)
    # A transport booking (these topics) to see a person the query means by a role: a line naming that person and a
    # place is where the trip goes (RELEVANCE.md, "travel") and closes this share beside the person share.
    rerank_destination_topics: list[str] = setting(default_factory=lambda: ["departure"])
    rerank_destination_share: float = setting(0.2, low=0.0, high=1.0)
    # A keyed fact the query's topic did not ask for, matched by one query word only ("User works as a
    # developer." for "where do I work?"), keeps this share of its relevance.
    rerank_other_key_factor: float = setting(0.4, low=0.0, high=1.0)
    # A fact the query supplies itself: a scene that needs a place (`scenes_needing_place`) whose query names
    # one ("weather in Chicago") does not need the home city, which keeps this share of its relevance.
    rerank_supplied_factor: float = setting(0.4, low=0.0, high=1.0)
    # Of two memories under a key the query asks for (at `rerank_detail_min_key_weight` or more), the one
    # stating fewer details (bracketed items: a pet's age and breed) scores at most
    # `rerank_detail_order_factor` of the fuller one: "用户的狗叫旺财（3岁，柯基）。" before "用户养了狗。"
    rerank_detail_order_factor: float = setting(0.98, low=0.0, high=1.0)
    rerank_detail_min_key_weight: float = setting(0.5, low=0.0, high=1.0)
    # An episode's span keeps the assistant's question it answers ("（回答：今天过得怎么样？）",
    # layers/formation/spans.py): a memory the query's concepts match only in those kept words, not in the
    # user's own, keeps `rerank_kept_question_factor` of its relevance when the kept question is small talk
    # for the query: it shares none of the query's topical words, only words any chat question holds
    # (`rerank_kept_question_generic_words`: when, how it went). A weather question is not answered by a day
    # that was asked "how was today?"; "where did I study?" is answered by "Purdue, class of 2016" asked
    # "where did you study?", and "how was my weekend?" (no topical word of its own) by "how was your weekend?".
    rerank_kept_question_factor: float = setting(0.4, low=0.0, high=1.0)
    rerank_kept_question_generic_words: list[str] = setting(default_factory=lambda: [
        "today", "tonight", "tomorrow", "yesterday", "day", "days", "week", "weekend", "month", "year", "morning",
        "afternoon", "evening", "night", "lately", "recently", "last", "next", "time", "ago", "go", "going", "went",
        "been", "doing", "done", "feel", "feeling", "things", "life", "new", "everything", "up", "holiday",
        "今天", "昨天", "明天", "今晚", "今早", "最近", "近来", "这周", "上周", "下周", "本周", "周末", "这几天", "天天",
        "早上", "上午", "中午", "下午", "晚上", "现在", "过得", "怎么样", "么样", "怎样", "如何", "还好", "好吗", "忙",
        "感觉", "一切", "假期"])
    # A question for the hour or the habit of something ("when's my lesson?", "我一般几点喝咖啡", the question forms
    # `rerank_time_forms`) is answered by the habit it shares a word with: such a memory under these keys closes
    # `rerank_time_form_share` of the gap (a habit the question shares no word with is not lifted: a key
    # weight for every habit put the gym over the cut for "how often do I swim?").
    rerank_time_forms: list[str] = setting(default_factory=lambda: ["what_time", "when"])
    rerank_time_form_keys: list[str] = setting(default_factory=lambda: ["habit.*", "user.habits"])
    rerank_time_form_share: float = setting(0.3, low=0.0, high=1.0)
    # A question whether a slot is free ("can I take a call on Saturday morning?") is answered by a memory naming
    # the same weekday (selectors/days.py): such a memory closes this share of the gap (selectors/rerank.py).
    rerank_slot_share: float = setting(0.3, low=0.0, high=1.0)
    slot_question_cues: list[str] = setting(default_factory=lambda: [
        "can i", "could i", "can we", "could we", "am i free", "are we free", "is it ok", "ok to", "能不能", "能", "可以",
        "行不行", "方便"])
    # With an LLM endpoint configured (memoryhub/providers/llm.py), the offline stage's best `rerank_llm_pool`
    # are judged by the model (layers/long_term/selectors/rerank_llm.py); past the time limit, or on any
    # invalid reply, the offline stage is served.
    rerank_llm: bool = setting(True)
    rerank_llm_pool: int = setting(10, low=1, high=50)
    rerank_llm_timeout_seconds: float = setting(3.0, low=0.1, high=60.0)
    # Context: memories this important (allergies, health, identity: the ones that never expire) join
    # the user profile even when the query does not mention them; a restaurant question must still
    # see the peanut allergy. At most `core_profile_limit` of them, after the query's own matches.
    core_profile_min_importance: float = setting(0.9, low=0.0, high=1.0)
    core_profile_limit: int = setting(3, low=0)
    # Scene awareness and the question -> memory key bridge (layers/long_term/selectors/scenes.py).
    scene_cues: dict[str, list[str]] = setting(default_factory=_default_scene_cues, merge=True)
    scene_keys: dict[str, dict[str, float]] = setting(default_factory=_default_scene_keys, low=0.0, high=1.0,
                                                      merge=True)
    topic_cues: dict[str, list[str]] = setting(default_factory=_default_topic_cues, merge=True)
    # Short topic cues that count only as the whole word (or its plural), not as the start of a longer one: a
    # Latin cue matches from a word's start (scenes._cue_branch), so "son" read "song" and "Songkran" as the son,
    # "kid" a kidney, "mum" Mumbai, "mom" a moment, "pet" petrol, "cat" a category or Cathay, "opera" an
    # operation, "bar" a barbecue, "trail" a trailer. A longer form that is a cue of its own list still counts.
    whole_word_cues: list[str] = setting(default_factory=lambda: [
        "son", "kid", "mum", "mom", "dad", "pet", "cat", "dog", "nana", "boss", "aunt", "opera", "bar", "spot",
        "trail", "trip", "office"])
    topic_keys: dict[str, dict[str, float]] = setting(default_factory=_default_topic_keys, low=0.0, high=1.0,
                                                      merge=True)
    # The question's form (where, who, when, how old, what) and the meaning of a key it names, together a key
    # prior (layers/long_term/selectors/scenes.py).
    question_forms: dict[str, list[str]] = setting(default_factory=_default_question_forms, merge=True)
    key_lexicon: dict[str, list[str]] = setting(default_factory=_default_key_lexicon, merge=True)
    form_keys: dict[str, dict[str, float]] = setting(default_factory=_default_form_keys, low=0.0, high=1.0,
                                                     merge=True)
    # the words by which a question is about the user (whole words in Latin letters, substrings in Chinese):
    # a form reads the user's own keys only then ("where is the station?" asks no home city)
    self_reference_words: list[str] = setting(default_factory=lambda: [
        "i", "i'm", "im", "i've", "i'd", "me", "my", "mine", "myself", "我"])
    # Topics that, asked as a question (a `question_forms` form other than a time), ask their own key and not the
    # scene's other needs: "我对什么过敏？" asks the allergies, not every condition and medicine a medical question
    # would need (selectors/scenes.py).
    fact_question_topics: list[str] = setting(default_factory=lambda: ["allergy"])
    fact_question_forms: list[str] = setting(default_factory=lambda: ["what", "who", "where"])
    # ... and topics asked in a form of their own: how to reach the user is asked with "how" ("how should the
    # surgery get in touch with me?", "牙医诊所怎么联系我比较好"), and asks the contact preference, not the medical
    # scene's conditions; "how bad is my allergy?" stays a medical question.
    fact_question_topic_forms: dict[str, list[str]] = setting(default_factory=lambda: {"contact": ["how"]},
                                                              merge=True)
    # A query no cue word names takes the scene of its nearest prototype sentence (by the embedder's cosine)
    # when that prototype is a scene's and at least this close; `scene_prototype_min_cosine` 1 turns it off.
    scene_prototypes: dict[str, list[str]] = setting(default_factory=_default_scene_prototypes, merge=True)
    scene_prototype_min_cosine: float = setting(0.5, low=0.0, high=1.0)
    scene_content_cues: dict[str, list[str]] = setting(default_factory=_default_scene_content_cues, merge=True)
    scene_content_weights: dict[str, float] = setting(default_factory=_default_scene_content_weights, low=0.0,
                                                      high=1.0, merge=True)
    person_topics: list[str] = setting(default_factory=_default_person_topics)
    # A scene's keys about the user's own self, which a question about another person (a person topic) does not
    # need: a medical question about the partner or a child is about their health, not the user's conditions.
    scene_self_keys: dict[str, list[str]] = setting(default_factory=lambda: {
        "medical": ["user.health_conditions", "user.allergies", "user.medication*"]}, merge=True)
    self_topics: list[str] = setting(default_factory=_default_self_topics)
    # Topics about someone else than a person topic names, who may be the one a scene's need is for: a pet's
    # cough is the pet's health ("狗狗一直咳嗽怎么办"), so the scene's self keys stay out as for a person topic.
    other_subject_topics: list[str] = setting(default_factory=lambda: ["pets"])
    # Topics that ask whether a time is free whatever happens in it: the scene the activity names (a dinner, a
    # film) brings none of its keys or content cues then.
    slot_topics: list[str] = setting(default_factory=lambda: ["slot"])
    # Scenes whose keys are dropped when the query names a place itself ("weather in Chicago").
    scenes_needing_place: list[str] = setting(default_factory=lambda: ["weather"])
    # Scenes whose cues name the arranging of a thing (an appointment, a booking) rather than the thing arranged: on
    # equal cue hits, a request that asks no time (`rerank_time_forms`) reads the thing's scene, whose needs it has
    # ("what should I tell the dentist before my appointment" is medical); "when's the trip?" stays scheduling.
    arranging_scenes: list[str] = setting(default_factory=lambda: ["scheduling"])
    # Topics read from a need's shape, the scene a shape needs, and topics implied by others together
    # (`_default_shape_topics`, `_default_implied_topics`); the holiday words that read as the `holiday` topic.
    shape_topics: dict[str, str] = setting(default_factory=_default_shape_topics, merge=True)
    shape_scenes: dict[str, str] = setting(default_factory=_default_shape_scenes, merge=True)
    implied_topics: dict[str, list[str]] = setting(default_factory=_default_implied_topics, merge=True)
    holiday_words: list[str] = setting(default_factory=_default_holiday_words)
    # A question where the user lives now (a self topic asking `user.home_city` at 0.8 or more) is also answered by
    # a move under way ("User plans: moving to Seattle in the fall.", "下个月搬去深圳"): a memory whose words hold a
    # move cue earns `move_weight`, which clears the cut alone, as a scene's content cue does (RELEVANCE.md rule 4).
    move_cues: list[str] = setting(default_factory=lambda: [
        "moving", "move to", "move back", "relocat", "搬家", "搬到", "搬去", "搬回"])
    move_weight: float = setting(0.5, low=0.0, high=1.0)
    # Importance of a memory written without one, by memory_key family (layers/long_term/importance.py).
    importance_by_key: dict[str, float] = setting(default_factory=lambda: dict(IMPORTANCE_BY_KEY_FAMILY), low=0.0,
                                                  high=1.0, merge=True)

    def is_single_valued(self, memory_key: str | None) -> bool:
        """An entry ending in `*` names a key family (`habit.*`: one current pattern per habit key)."""
        if not memory_key:
            return False
        return any(memory_key == key or (key.endswith("*") and memory_key.startswith(key[:-1]))
                   for key in self.single_valued_keys)

    def ttl_days(self, importance: float) -> float | None:
        for minimum, days in self.ttl_ladder:
            if importance >= float(minimum):
                return None if days is None else float(days)
        return None

    def scene_weight(self, task_type: str | None, kind: str) -> float:
        if not task_type:
            return 1.0
        return float(self.scene_weights.get(task_type, {}).get(kind, 1.0))


def tenant_policy(tenant_id: int) -> Policy:
    """The policy for `tenant_id`: defaults overridden by approved global `policy.long_term.*` entries."""
    return policy_read(Policy, tenant_id)


@dataclass(frozen=True)
class LargeOwnersPolicy:
    SECTION: ClassVar[str] = "large_owners"

    # an owner with this many active memories gets its own indexes; below keep_memories they are dropped
    # (the gap keeps an owner near the threshold from rebuilding them at every run)
    min_memories: int = setting(20000, low=1)
    keep_memories: int = setting(10000, low=1)
    # nearest rows by the HNSW index, and the least search list it keeps (hnsw.ef_search, raised to
    # vector_candidates per statement up to pgvector's 1,000). Measured at 50k (docs/benchmarks.md, "Import and
    # large owners, second round"): with the graph built at ef_construction 200 and the scene arm, 400 nearest
    # held 0.98-1.0 of the exact top 10 (1,000 before, when the candidates' own BM25 statistics cost more
    # recall than the candidates missed)
    vector_candidates: int = setting(400, low=10, high=5000)
    ef_search: int = setting(400, low=10, high=1000)
    # rows holding a pair of query concepts or one (a share per arm) through the owner's GIN index, and the nearest
    # rows the query's scene cues lift (selectors/large_owners.py)
    keyword_candidates: int = setting(400, low=0, high=5000)


def large_owner_policy(tenant_id: int) -> LargeOwnersPolicy:
    """The large-owner path's numbers for `tenant_id` (`policy.large_owners.<field>`; selectors/large_owners.py)."""
    return policy_read(LargeOwnersPolicy, tenant_id)
