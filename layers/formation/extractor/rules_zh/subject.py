"""Whose fact is it in Chinese: the subject checks and the dropped-subject handling.

Chinese drops the subject freely ("在中石化上班", "每天早上练书法"), so a rule accepts a clause
whose predicate has no subject before it, or 我/本人 (after harmless adverbs and time words);
anyone else before the predicate (我朋友, 同事, 他) means it is not the user's fact. Applied once
for every family by `rules_zh.zh_fact_candidates`."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_zh.family import _PEOPLE_ZH_ALT
from layers.formation.extractor.rules_zh.pets import _PET_ZH_ALT
from layers.formation.extractor.rules_zh.pos import drop_time_words

# Chinese drops a repeated subject: "我是上海人，现在在深圳工作". Later parts that start with a
# predicate inherit 我, but only when the first part's subject is the user alone (not 我女儿).
_PREDICATE_START = re.compile(r"^(?:是|在|也|还|现在|目前|一直|已经|住|喜欢|不喜欢|讨厌|对|有|不吃|吃素|最喜欢|刚|平时|经常|搬)")


_USER_SUBJECT = re.compile(rf"^我(?!的|们|家|(?:{_PEOPLE_ZH_ALT}))")


def expand_dropped_subject(clause: str) -> list[str]:
    parts = [part.strip() for part in re.split(r"[，,]", clause) if part.strip()]
    # "我写的小说主角住在重庆，是个警察": a part that opens with 我 but is about someone else passes nothing on.
    if len(parts) < 2 or not _USER_SUBJECT.match(parts[0]) or _OTHER_OWNER.match(_SEGMENT_LEAD.sub("", parts[0])):
        return [clause]
    return [clause, *("我" + part for part in parts[1:] if _PREDICATE_START.match(part))]


_ZH_ADV = (r"(?:一$|自$|自从|自打|这人|这个人|早晚各|一个人|自己|以后|今后|往后|之后|应该|估计|大概|好像|似乎|多半|(?:被|就)?(?:查出来?|检查出来?|发现|确诊|诊断出?来?)了?(?:自己)?|现在|目前|一直|已经|也|还|平时|其实|刚|刚刚|最近|都|就|本来|真的|确实|正式|终于|早就|偏偏|可|"
           r"上个?月|上周|去年|前年|今年|这周|明年|下个?月|下周|年初|年底|\d{2,4}年|一般|通常|总是|常常|经常|每天|"
           r"马上|即将|快要|打算|准备|计划|要|会|正在|在|是|又|才|目前|暂时|基本上?|主要|从小|从来|一向|向来|前阵子|"
           r"这两年|这几年|这阵子|今天|昨天|明天|后来|然后|所以|因为|不过|但是?|而且|另外|对了|哈哈|嗯|啊|呀|(?i:but|and|so|btw|anyway)\s*|有事|有急事|急事|有啥事|有什么事|有事儿|刚好|正好|准时|按时|固定|定期|雷打不动|"
           r"本科|研究生|硕士|博士|大学|比较|更|最|还是|最好|尽量|只|开始|决定|改|尤其|特别是|先|坚持|直接|从[\u4e00-\u9fffA-Za-z]{1,6}?(?=搬|跳槽|调)|"
           r"[，,、\s]|一直以来|一名|一个|个)")


# 俺/咱/偶 are dialect and typed forms of 我 ("俺是山东人", "偶对花粉过敏").
_ZH_SUBJECT_TAIL = re.compile(rf"(?:^|^人|我的?|俺|咱|偶(?!尔|然|像)|本人|[：:—\-～~!！?？])(?:{_ZH_ADV})*$")


_ZH_OTHER = re.compile(r"他|她|它|朋友|同事|网友|邻居|同学|室友|客户|老板|领导|经理|大爷|大妈|有人|别人|人家|大家|我们|你|"
                       r"爸|妈|哥|姐|弟|妹|老公|老婆|女儿|儿子|孩子|爷爷|奶奶|外婆|外公|男朋友|女朋友|对象|闺蜜|"
                       # relatives and acquaintances who are no role of their own (FACTS.md: other people)
                       r"表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|侄子|侄女|外甥|舅舅|姑姑|阿姨|叔叔|伯伯|婶婶|嫂子|姐夫|妹夫|哥们|姐们|发小|老乡|师兄|师姐|师弟|师妹|导师|"
                       # the people the user teaches, treats, employs or leads ("我的学生", "我手下几个人", "我带的实习生")
                       r"学生|病人|患者|员工|下属|手下|徒弟|实习生|组员|队友|学员|顾客|客人|粉丝")


# Time words and an origin ("从阿里", "从广州") are adverbials: they say when or from where, never who.
_TIME_WORDS = re.compile(rf"每?(?:周|星期|礼拜)[一二三四五六日天末]|{A.ZH_FREQ.pattern}|{A.ZH_DATE.pattern}|{A.ZH_TIME.pattern}|从[\u4e00-\u9fffA-Za-z0-9]{{1,8}}$"
                         r"|(?:(?!朋友|同事|老公|老婆|孩子|爸|妈|哥|姐|弟|妹)[^，,。你他她]){1,10}的话|"
                         # "头疼的时候吃一片布洛芬": when, said by what happens then, unless someone else is named in it.
                         r"(?:^|(?<=[，,]))(?:(?!朋友|同事|老公|老婆|孩子|爸|妈|哥|姐|弟|妹|我)[^，,。你他她]){1,8}的时候|(?:^|(?<=[，,]))(?:请|麻烦|拜托)"
                         # "减肥期间", "工作上的事请发邮件": a span of time or a topic, then the predicate.
                         # "每天坐高铁去上海上班": how the user travels says nothing of who.
                         # "每天早饭前吃一片优甲乐", "在外面吃饭也只找清真馆子": when, in terms of the day's routine.
                         r"|(?:早饭|午饭|晚饭|饭|睡觉|睡|起床|上班|下班|出门|运动|跑步|健身|洗澡)(?:前|后|以后|之前|之后)|空腹"
                         r"|(?:在外面?|出去|出门)(?:吃饭|吃东西)(?:的时候)?"
                         # "边上班边在开放大学读": what the user does meanwhile.
                         r"|边[\u4e00-\u9fff]{1,3}边"
                         # "阳台鱼缸里养了几条孔雀鱼": where something is kept says nothing of who.
                         r"|^(?:阳台|院子|鱼缸|屋里|家里|宿舍|办公室|店里|卧室|客厅|包里|书包里|兜里|口袋里|身上)(?:[\u4e00-\u9fff]{0,3}?(?:里|上))?(?:随时|随身|一直|常年)?$"
                         r"|(?:通勤|坐|乘|搭|开|骑)(?:高铁|地铁|公交|火车|飞机|动车|班车|大巴|轮渡|车|电动车|自行车|摩托车?)|通勤"
                         r"|(?<=每周|每月)有[一二两三四五六七\d]天|[\u4e00-\u9fff]{1,4}期间|(?:^|(?<=[，,]))一[\u4e00-\u9fff]{1,3}(?=就|$)|[^，,。你他她]{1,10}的事情?(?:请|麻烦|就|直接)?|请(?=发|用|打|联系|找|$)")


def zh_user_said(clause: str, start: int, *, allow_we: bool = False) -> bool:
    # Time words are adverbials whichever list names them: jieba tags them (t) beyond the lists above.
    prefix = _TIME_WORDS.sub("", clause[:start])
    if prefix and not _ZH_SUBJECT_TAIL.search(prefix[-12:]):
        prefix = drop_time_words(prefix)
    # "我现在读高二" matched at "在读": the 在 also closes 现在/正在, which belongs to the prefix.
    if clause[start:start + 1] == "在" and re.search(r"[现正还都也就]$", prefix):
        prefix += "在"
    tail = prefix[-12:]
    if allow_we:
        # "我们", "我和老婆": a home or a date the user shares is the user's too.
        tail = re.sub(rf"(?:我|^)(?:和|跟)(?:我的?)?(?:{_PEOPLE_ZH_ALT})(?:\s?[A-Z][a-zA-Z]+)?", "我", tail.replace("我们一家", "我").replace("我们全家", "我").replace("我们家", "我").replace("我们俩", "我").replace("我俩", "我").replace("我们", "我"))
    if _ZH_SUBJECT_TAIL.search(tail):
        # "我朋友说他…" fails; "我老公说我…在华为干" passes (the last subject is 我).
        last_me = tail.rfind("我")
        other = _ZH_OTHER.search(tail[last_me + 1:] if last_me >= 0 else tail)
        return other is None
    return False


_SEGMENT_LEAD = re.compile(rf"^(?:{_ZH_ADV}|每天|每周|周末|早上|晚上|中午|下午|上午)*")


# "隔壁组有个同事在学日语", "我有个同事在学日语": a group or a place that has someone introduces that person
# as the subject of what follows.
_OTHER_OWNER = re.compile(rf"^(?:我(?:的|家的?|有)?(?:[一两三四五俩几]个?)?(?:{_PEOPLE_ZH_ALT})|(?:我|我的|我家|我们家|家里)的?(?:[那这][只条])?(?:{_PET_ZH_ALT})|我(?:朋友|同事|同学|邻居|室友|们小区|们公司(?!是|叫)|们组|们新来的)|我(?:的|带的|教的|手下的?)?(?:学生|病人|患者|员工|下属|手下|徒弟|实习生|组员|学员|顾客|客人|粉丝)|(?:我们)?[\u4e00-\u9fff]{0,3}?(?:班|组|团队|公司|部门|单位|办公室|小区|宿舍|群)(?:里|上)?有(?:个|位|几个)|我有(?:个|位|一个|一位)(?:朋友|同事|同学|邻居|室友|网友)|"
                          rf"(?:{_PEOPLE_ZH_ALT})(?!.*我)|他|她|它|有个(?!(?:双胞胎|亲|小|大)?(?:{_PEOPLE_ZH_ALT}))|有人|听说|朋友|同事|网友|邻居|[^，,我]{{1,12}}?的(?:人|家长|孩子|小孩|男生|女生|人群|朋友)(?!.*我)|(?:楼下|楼上|隔壁|对门|对面)的?邻居|大家|别人|人家|每个人|所有人|人人|谁都|前任|我?(?:表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|侄子|侄女|外甥|舅舅|姑姑|阿姨|叔叔|伯伯|婶婶|嫂子|姐夫|妹夫|哥们|姐们|发小|老乡|师兄|师姐|师弟|师妹|导师)|[A-Z][a-z]+(?:\s|说|的)|"
                          # a story's people: "我写的小说主角住在重庆，是个警察", "剧里的女主是医生"
                          r"(?:我(?:写|在写|看|在看|玩|在玩)的)?[^，,。]{0,8}?(?:小说|电影|电视剧|剧|游戏|故事|漫画|动漫|书|剧本)(?:里|中)?的?"
                          r"(?:主角|女主|男主|主人公|角色|人物|反派|配角|NPC|男一|女一))")


def zh_segments(clause: str) -> list[tuple[str, bool]]:
    """Comma-separated parts with whether each is (still) about the user: Chinese carries the
    subject of "我爸今年刚退休，现在天天去钓鱼" into the second part, so it is the father's habit."""
    out, owner_user = [], True
    for part in re.split(r"(?<=[，,；;])", clause):
        bare = part.strip()
        if not bare:
            continue
        lead = _SEGMENT_LEAD.sub("", bare)
        if "叫我" in lead:
            owner_user = True  # "大家都叫我阿杰，本名张杰": whoever calls, the segments are about me
        elif _OTHER_OWNER.match(lead):
            owner_user = False
        elif lead.startswith(("我", "本人")) or re.match(r"^(?:我|本人)", bare):
            owner_user = True
        out.append((bare.rstrip("，,；;"), owner_user))
    return out
