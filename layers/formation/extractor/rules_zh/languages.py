"""Languages, with a level (native, fluent, learning, basic)."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import Candidate
from layers.formation.extractor.rules_en.languages import _LANGS
from layers.formation.extractor.rules_zh.common import _zc

_ZH_LANGS = ("英语|英文|法语|法文|德语|德文|日语|日文|韩语|韩文|西班牙语|西语|葡语|意语|俄文|俄语|意大利语|葡萄牙语|阿拉伯语|粤语|广东话|普通话|汉语|中文|"
             "蒙语|维语|闽南语|上海话|四川话|客家话|东北话|台语|潮汕话|温州话|朝鲜语|马来语|泰语|越南语|印尼语|荷兰语|瑞典语|希腊语|"
             "土耳其语|波兰语|手语|维吾尔语|藏语|蒙古语|壮语|哈萨克语|印地语|波斯语|希伯来语|芬兰语|丹麦语|挪威语|捷克语|"
             "匈牙利语|乌克兰语|缅甸语|白话|长沙话|武汉话|南京话|天津话|山东话|河南话|陕西话|湖南话|宁波话|苏州话|杭州话|"
             # the speech of a region or city ("我的母语是闽南话")
             "闽南话|潮州话|福州话|莆田话|重庆话|成都话|北京话|南昌话|合肥话|西安话|青岛话|大连话|贵州话|云南话|江西话|湖北话|"
             "福建话|台湾话|广州话|客家语|吴语|赣语|湘语|晋语")


_ZH_LANG_ANY = rf"(?:{_ZH_LANGS}|{_LANGS})"


_STUDY_CUE = re.compile(r"毕业|大学|学院|本科|研究生|硕士|博士|读研|读博|大[一二三四五]|研[一二三]|专业|系|学校|师范|外国语|外语学院|北外|上外|广外")


def _is_field_of_study(before: str, after: str, clause: str) -> bool:
    """A language named as what one studies or studied, not one the user speaks: its faculty or major after
    it ("中文系", "英语专业", "法语方向"), or read as the major beside a school ("学法语的", "主修日语")."""
    # A level of speaking said anywhere ("法语专业毕业的，现在说得还挺溜", "讲白话，粤语算我母语") makes it a language spoken too.
    if re.search(r"说|讲|流利|溜|母语|[Nn][1-5]|听得懂|能听懂|会话|交流", clause):
        return False
    if re.match(r"(?:系|专业|方向|大学|学院|学系|本科|硕士|博士|研究生)", after):
        return True
    return bool(re.search(r"(?:学|读|念|主修|专业是|学的是|读的是|念的是|学的|读的|念的)$", before) and re.match(r"(?:的|专业|$|[，,。])", after)
                and _STUDY_CUE.search(clause))


def _zb_language_clause(clause: str, following: str = "", *, whole: str = "") -> list[Candidate]:
    """The languages of one part; `following` is the user's next part, which may say the level of
    the last language when it names none of its own; `whole` is the clause the part is of, which may
    say that a language is a field of study."""
    if following and not re.search(_ZH_LANG_ANY, following):
        clause = f"{clause}，{following}"
    if not re.search(r"[ABC][12]|地道|能看懂|能听懂|看懂|听懂|母语|会说|会讲|能说|说得|讲得|在学|学了?|N[1-5]|流利|溜|几句|一点点?|还行|还okay|课|专业|native|fluent|"
                     r"一般|不太地道|标准|长大|日常交流|听得懂|看得懂|零基础|备考|考|level|从小|精通|熟练|六级|四级|雅思|托福|"
                     r"说|讲|凑合|外语|多邻国|入门|背单词|班|能力考|自学|会|没问题|无障碍|工作语言|挺好|比较好|不错|很好|(?i:mother\s*tongue|learning|OK|fine)", clause):
        return []
    out = []
    spans = list(re.finditer(_ZH_LANG_ANY, clause))
    for i, match in enumerate(spans):
        lang = match.group()
        before = clause[spans[i - 1].end() if i else 0:match.start()]
        after = clause[match.end():spans[i + 1].start() if i + 1 < len(spans) else len(clause)]
        # "英语还行，日常交流没问题": the level may be said in the next part when that part names no
        # language of its own.
        pieces = re.split(r"[，,。]", after)
        own = before + "|" + pieces[0]
        after = pieces[0] + ("|" + pieces[1] if len(pieces) > 1 else "")
        before = re.split(r"[，,。]", before)[-1]
        near = before + "|" + after
        level = None
        # Said before the language ("我正在自学德语") or after it ("意大利语刚入门").
        learning = re.search(r"在学|学习|(?i:learning)|报了|课|班|零基础|备考|Duolingo|duolingo|多邻国|在上|能力考|目标|准备|在考|[ABC][12]", near) or \
            re.search(r"学$", before) or re.match(r"^刚?开始学", after)
        if re.search(r"母语|native|(?i:mother\s*tongue)|从小说|从小讲|长大|老家话|家乡话|本地人", near) or (re.search(r"都是母语", clause) and i + 1 < len(spans)):
            level = "native"
        elif learning:
            level = "learning"  # "在准备日语能力考，目标N1": the N1 is the aim, not the level
        elif re.search(r"(?:说|讲)得(?:很|挺|非常|特别|超|相当)?(?:好|不错|地道|标准)|母语级|流利|溜|N1|fluent|精通|熟练|交流没问题|沟通没问题|无障碍|工作语言|[C][12]|不用字幕|专八|同声传译|同传|双语|bilingual|跟母语一样|地道", near):
            level = "fluent"
        elif re.search(r"几句|一点|点儿|一些|入门|皮毛|basic|基础|只会|能听懂|听得懂|看得懂|能看懂|不太会|不太好|不怎么好|能听不会说|[A][12]|一般般|说得一般|半吊子|生疏|忘得差不多|很烂|不咋地|蹩脚|马马虎虎", near):
            level = "basic"
        if re.search(r"都是母语", clause):
            level = "native"
        if re.search(r"没学过|不会|一句都", own):
            continue
        if clause[match.end():match.end() + 1] == "言":
            continue  # "汉语言文学": a discipline that holds a language's name
        if _is_field_of_study(before, clause[match.end():], whole or clause):
            continue  # "学的是英语专业", "中山大学中文系", "从北外毕业，学法语的": a field of study, read by rules_zh.education
        out.append(_zc("user.languages", lang, level=level))
    # "我英语和法语都挺流利的": a level said after languages joined by 和/、 holds for each.
    for first, second in zip(out, out[1:]):
        joined = re.search(rf"{re.escape(first.value)}\s*(?:和|跟|与|、|以及)\s*{re.escape(second.value)}", clause)
        if joined and second.attributes.get("level") and not first.attributes.get("level"):
            first.attributes["level"] = second.attributes["level"]
    return out
