"""Contact preferences: channels and constraints."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_zh.common import _zc
from layers.formation.extractor.text import tidy_value

_CHANNELS_ZH = (r"邮件|邮箱|email|e-mail|短信|打电话|电话|手机|微信|QQ|钉钉|飞书|企业微信|LINE|Line|WhatsApp|Telegram|Slack|Teams|"
                r"面对面|留言|语音|视频|私信|文字|打字|calendar invite|push|iMessage|座机|固话|QQ邮箱|公司邮箱|工作邮箱|LinkedIn|领英|Skype|DM|dm")


def _zb_contact(m, clause):
    # "打电话我一般不接", "微信我基本不看": a channel refused right after it is none the user prefers.
    if re.match(r"(?:我)?(?:一般|基本上?|从来|都|很少|几乎|通常|平时)?(?:不|没|很少|从不)(?:接|回|看|用|听)", m.string[m.end():]):
        return []
    # "别给我打电话" and "别打电话" are one constraint: who is called goes without saying.
    value = re.sub(r"(?<=[别要勿])(?:给我|跟我|和我)|(?<=打)我(?=电话)", "", tidy_value(m.group("v")))
    # "晚上九点以后就别联系我了": the constraint without its particles and its object.
    value = re.sub(r"就(?=别|不要)|(?<=联系|打扰)我$|(?<=找)我$|(?<=消息)给我$", "", value)
    return [_zc("user.contact_preference", value)] if value else []


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "微信回得快", "我 email 回得比较快": the channel the user answers quickly on.
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})(?:消息|上)?(?:我)?(?:一般|基本)?回得(?:比较|最|很|挺|特别|更)?快"), _zb_contact),
    # "先发个消息再打电话", "call 我之前先 text 一下": a message first, before any call.
    (re.compile(r"先(?:发个?|发一下|(?i:text|message|dm))?(?P<v>消息|微信|短信|邮件|留言|(?i:text|message|dm))?(?:一下)?再(?:打电话|打给我|打|(?i:call))"),
     lambda m, c: [_zc("user.contact_preference", "先发" + (m.group("v") or "消息"))]),
    (re.compile(rf"(?:打电话|(?i:call))(?:给我|我)?(?:之前|前)[，,]?先(?:发个?)?(?P<v>(?i:text|message|dm)|消息|微信|短信|留言|{_CHANNELS_ZH})"), _zb_contact),
    # "电话的话下午比较方便": the hours a channel suits the user.
    (re.compile(rf"(?:{_CHANNELS_ZH}|电话)的话[，,]?(?P<v>上午|下午|晚上|中午|白天|周末|工作日|[\d一二三四五六七八九十]+点(?:以后|之后|前|以前)?)(?:比较|最|更)?(?:方便|好|合适)"), _zb_contact),
    # "微信上联系我最快", "通过邮件跟我联系", "消息我一定回", "我习惯看邮件": the channel on which the user is reached or answers.
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})(?:上|里)?(?:联系我|找我|call我|叫我)(?:最快|最方便|就行|就好|比较快|比较方便|最靠谱)"), _zb_contact),
    (re.compile(rf"(?:请|麻烦)?(?:通过|用|走)(?P<v>{_CHANNELS_ZH})(?:跟我|和我|与我|同我)(?:联系|沟通|交流)"), _zb_contact),
    (re.compile(rf"(?P<v>{_CHANNELS_ZH}|消息)(?:的话)?我(?:一定|都会?|必|肯定|基本都|秒|马上)回"), _zb_contact),
    (re.compile(rf"(?:习惯|喜欢|常|经常|比较常|主要)看(?P<v>{_CHANNELS_ZH})"), _zb_contact),
    # "工作日联系我", "白天找我": when the user is to be reached, said at the head of a part.
    (re.compile(r"(?:^|(?<=[，,]))(?:请|麻烦)?(?:在)?(?P<v>工作日|白天|上班时间|工作时间|上午|下午)(?:联系|找|打电话给|打给)我"), _zb_contact),
    # "周末不回消息", "晚上一般不看微信": when the user does not answer, as said.
    (re.compile(rf"(?P<v>(?:周末|晚上|夜里|节假日|休息日|下班后|上班时间|工作时间|[\u4e00-\u9fff\d]{{1,4}}点(?:以后|之后|后))(?:我)?(?:一般|基本|都|通常|一概|一律)?不(?:回|看|接)(?:消息|微信|电话|邮件|短信|{_CHANNELS_ZH}))"), _zb_contact),
    # "邮件我就好", "微信我吧" (code-switched "email 我就好"): the channel used as the verb of reaching the user.
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})我(?:就好|就行|就可以|吧|哈)"), _zb_contact),
    # "下午三点以后再联系我", "晚上再打电话给我吧": when the user is to be reached, as said.
    (re.compile(r"(?P<v>(?:上午|下午|中午|晚上|早上|傍晚|周末|工作日|下班后|[\u4e00-\u9fff\d]{1,6}点(?:以后|之后|以前|之前|前|后))[^，,。]{0,3}?再(?:联系|找|打电话给|打给|发消息给|打)我)"), _zb_contact),
    # "找我最快是飞书", "找我直接飞书", "联系我的话走邮件": the channel named as the way to reach the user.
    (re.compile(rf"(?:找我|联系我|联系本人|跟我联系|找本人)(?:的话)?[，,]?(?:最快|最方便|最好|直接|就|请|一般|统一|一律)*(?:是|用|走|上|发)?(?P<v>{_CHANNELS_ZH})(?!比|不|没)"), _zb_contact),
    # "短信吧，app推送我全关了", "邮件哈": a channel offered alone at the head of a part.
    (re.compile(rf"^(?:还是|就|发|用)?(?P<v>{_CHANNELS_ZH})(?:吧|哈|呗|就行|就好|就可以)(?=$|[，,。!！~～])"), _zb_contact),
    # "公事一律走邮件", "工作上统一用钉钉": a kind of matter, then the one channel for it.
    (re.compile(rf"(?:公事|私事|工作|正事|急事|小事|有事|工作上的?事?|其他事?|别的事?)(?:一律|统一|都|全部|一般|基本|只)(?:走|用|发|打)?(?P<v>{_CHANNELS_ZH})"), _zb_contact),
    # "钉钉上@我比较快", "微信上戳我就行": the channel where a mention or a nudge reaches the user.
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})(?:上|里)?(?:@|艾特|戳|叫|喊|私聊|ping|cue)我"), _zb_contact),
    # "上班时间别发微信", "晚上别打语音": a time, then a channel refused in it (the constraint as said).
    (re.compile(rf"(?P<v>(?:上班时间|工作时间|上课时间|开会时|晚上|夜里|早上|中午|周末|工作日|节假日|[\u4e00-\u9fff\d]{{1,6}}点(?:以后|之后|以前|之前|前|后))[^，,。]{{0,4}}?(?:别|不要|请勿|请不要)(?:给我)?(?:发|打)(?:{_CHANNELS_ZH}))"), _zb_contact),
    (re.compile(r"(?P<v>(?:(?:中午|下午|上午|凌晨|夜里)?[\u4e00-\u9fff\d]{1,6}点到[\u4e00-\u9fff\d]{1,6}点|中午|午休时间|晚上|早上|周末|工作时间|上班时间|[\u4e00-\u9fff\d]{1,6}点(?:以后|之后|以前|之前|前|后))[^，,。]{0,6}?(?:别|不要|请勿)(?:给我|跟我)?(?:打电话|打扰我?|发(?:[\u4e00-\u9fff]{0,3})?消息|联系我?|找我))"), _zb_contact),
    (re.compile(r"(?P<v>(?:别|不要|请勿|请不要)在?[^，,。]{1,10}?(?:之?前|之?后|以后|以前|期间)(?:给我)?(?:打电话|打扰我?|发消息|联系我?|找我))"), _zb_contact),
    (re.compile(r"(?P<v>(?:(?:晚上|早上|中午|周末|工作时间|上班时间)?[\u4e00-\u9fff\d]{0,6}点(?:以?后|之后|以?前|之前))?(?:别|不要|请勿|请不要)(?:给我|跟我)?打(?:我)?(?:的)?电话)"), _zb_contact),
    # "微信语音就行", "留言就好": a channel that will do.
    (re.compile(rf"(?:^|[，,]|(?<=我))(?P<v>(?:微信)?(?:{_CHANNELS_ZH}))(?:就行|就好|就可以|最方便|最快|比较方便)"), _zb_contact),
    (re.compile(rf"(?<![别不要勿看用])(?:用|发|走|找我用|联系我用|用的是|打)(?P<v>{_CHANNELS_ZH})(?:比较方便|比较好|联系|沟通|吧|就行|就好|给我|找我)?"), _zb_contact),
    (re.compile(rf"(?i:(?P<v>{_CHANNELS_ZH}))上?(?:说|聊|找我|联系|沟通)(?:就行|就好|吧|比较好|最好|方便|最快|最方便)"), _zb_contact),
    (re.compile(rf"(?:喜欢|习惯|更喜欢|偏好|(?i:prefer)\s*)(?:用)?(?P<v>{_CHANNELS_ZH})(?:聊|沟通|联系|交流)?"), _zb_contact),
    # "不太接phone call": the channel the user seldom answers, as said (a stranger's call refused is no preference).
    (re.compile(r"(?P<v>不太接(?:电话|(?i:phone\s*calls?|calls?))|不接(?i:phone\s*calls?|calls?))"), _zb_contact),
    # "晚上八点以后就offline了": when the user is not reachable.
    (re.compile(r"(?P<v>(?:晚上|夜里|周末|下班后|[\u4e00-\u9fff\d]{1,4}点)(?:以后|之后|后)?)就?(?P<w>(?i:offline)|下线|不在线|关机|不看手机)"),
     lambda m, c: [_zc("user.contact_preference", m.group("v") + " " + m.group("w") if m.group("w").isascii() else m.group("v") + m.group("w"))]),
    (re.compile(rf"(?:联系我|找我)(?:的话)?(?:请|就|可以|最好)?用(?P<v>{_CHANNELS_ZH})"), _zb_contact),
    # "我上班时间不方便接电话": when the user cannot be reached, as said.
    (re.compile(r"(?P<v>(?:上班时间|工作时间|开会时|晚上|早上|白天|周末)[^，,。]{0,4}?不方便(?:接电话|接|回消息|打电话))"), _zb_contact),
    (re.compile(r"(?:不急的|其他的?|有事)(?P<v>留言)"), _zb_contact),
    (re.compile(r"^(?P<v>打电话|发邮件|发短信|发微信)吧"), _zb_contact),
    (re.compile(r"钉我"), lambda m, c: [_zc("user.contact_preference", "钉钉")]),
    # "工作日我只回邮件", "私人号只用微信": the one channel the user answers on.
    (re.compile(rf"只(?:能|会)?(?:回|看|用|接|认|上)(?P<v>{_CHANNELS_ZH}|消息)"), _zb_contact),
    # "不要在晚上打电话给我", "别在上班时间找我": a time of day, then the contact refused in it.
    (re.compile(r"(?P<v>(?:别|不要|请勿|请不要)在(?:晚上|早上|中午|周末|上班时间|工作时间|半夜|夜里|午休时间?|休息日|节假日)(?:给我)?(?:打电话|打扰我?|发消息|发微信|联系我?|找我))"), _zb_contact),
    # "短信或者微信都可以": each channel of a list that will do.
    (re.compile(rf"(?P<v>(?:{_CHANNELS_ZH})(?:(?:或者|或是|或|还是|和|、|跟|/)(?:{_CHANNELS_ZH}))+)(?:都|也)(?:可以|行|ok|OK|没问题)"),
     lambda m, c: [_zc("user.contact_preference", v) for v in re.split(r"或者|或是|或|还是|和|、|跟|/", m.group("v")) if v]),
    # "找我的话钉钉最快", "联系我，微信最方便": the channel that reaches the user best.
    (re.compile(rf"(?:的话|找我|联系我)[，,]?(?P<v>{_CHANNELS_ZH})(?:最快|最方便|最靠谱|最好)"), _zb_contact),
    # "邮件会及时看", "微信我秒回": the channel the user answers promptly.
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})(?:我)?(?:会|都|一般|基本)?(?:及时|随时|马上|秒|第一时间)(?:看|回|处理)"), _zb_contact),
    # "语音我听不了，麻烦打字": the channel asked for, alone at the end of a part.
    (re.compile(r"(?:麻烦|请|还是)(?P<v>打字|发文字|发消息|发邮件|发微信|发短信|留言)(?:吧|哈|谢谢)?$"), _zb_contact),
    # "这段时间别打扰", "这个点别找我": a constraint on a time said in the part before.
    (re.compile(r"(?P<v>(?:这段时间|这个时间段?|这个点|那段时间|这时候)(?:请)?(?:别|不要|勿)(?:打扰|联系|找)我?)"), _zb_contact),
    # "提醒的话一天汇总一次就行", "通知每天发一次就好": how often the user wants to be told.
    (re.compile(r"^(?:提醒|通知|推送)(?:我)?(?:的话)?[，,]?(?P<v>(?:一天|每天|一周|每周|一小时|每小时)[^，,。]{1,8}?)就(?:行|好|可以)"), _zb_contact),
    # "有事ping我Slack": the channel after the verb of reaching.
    (re.compile(rf"(?i)(?:ping|call|戳|找|联系|滴滴)我(?:的)?(?P<v>{_CHANNELS_ZH})(?=$|[，,。]|就|吧)"), _zb_contact),
    # "工作的事发我邮箱，私事微信": a kind of matter, then its channel alone.
    (re.compile(rf"(?:^|[，,])(?:私事|工作的事|工作上的事|急事|有事|有啥事|有什么事|其他的?事?|别的事?|生活上的事|不急的?事?|平时)(?:发|用|打)?(?P<v>{_CHANNELS_ZH})(?=$|[，,。!！]|就好|就行|就可以|吧|找我|联系)"), _zb_contact),
    # "十点以后的消息我一概不回", "周末的电话基本不接": when the user does not answer, as said.
    (re.compile(r"(?P<v>(?:晚上|夜里|周末|上班时间|工作时间|[\u4e00-\u9fff\d]{1,4}点)(?:以后|之后|以前|之前|后|前)?)的?(?:消息|微信|电话|短信|邮件)(?:我)?(?:一概|一律|基本|都|通常|一般)?不(?:回|接|看)"), _zb_contact),
    (re.compile(rf"(?P<v>(?:别|不要)发(?:{_CHANNELS_ZH}))"), _zb_contact),
    (re.compile(r"(?:请)?在(?P<v>工作日|周末|白天|上班时间|工作时间)(?:联系|找|打电话给)我"), _zb_contact),
    (re.compile(rf"(?P<v>{_CHANNELS_ZH})(?:是|为)(?:首选|第一选择)|首选(?P<w>{_CHANNELS_ZH})"), lambda m, c: [_zc("user.contact_preference", m.group("v") or m.group("w"))]),
    (re.compile(r"(?:直接|就)?(?P<v>打电话|发短信|发邮件|发微信)给我"), _zb_contact),
    (re.compile(r"(?i)(?P<v>slack|teams|telegram|whatsapp|微信|qq|飞书|call|ping)我(?=$|[，,。]|就|吧)"), _zb_contact),
    # "能打字就别发语音": the channel preferred over the one refused.
    (re.compile(rf"能(?P<v>打字|发消息|发文字|发邮件|{_CHANNELS_ZH})就(?:别|不要|尽量不)"), _zb_contact),
    (re.compile(rf"用(?P<v>{_CHANNELS_ZH})(?:通知|告诉|提醒|联系|回复)我"), _zb_contact),
    (re.compile(rf"(?:有事|有急事)(?P<v>{_CHANNELS_ZH})(?:说|聊|联系|找我)"), _zb_contact),
    (re.compile(rf"^(?P<v>{_CHANNELS_ZH})(?:联系|沟通|交流)(?:吧|就好|就行|最好)?$"), _zb_contact),
    (re.compile(rf"(?P<v>{_CHANNELS_ZH}|消息)(?:联系我|找我|call我|跟我联系|和我联系|沟通)"), _zb_contact),
    (re.compile(rf"(?:发我|发到我的?|打我的?)(?:公司|工作|私人|个人|单位)?(?P<v>{_CHANNELS_ZH})"), _zb_contact),
    (re.compile(rf"(?:发|用|打)(?P<v>{_CHANNELS_ZH}|消息)(?:就行|就好|就可以|吧|比较好|最好|方便)"), _zb_contact),
    (re.compile(r"(?P<v>(?:晚上|早上|周末|工作时间|上班时间|[\u4e00-\u9fff\d]{1,6}点以后|[\u4e00-\u9fff\d]{1,6}点之后)[^，,。]{0,6}?(?:别|不要|不要给我)(?:打电话|打扰我?|发消息|联系我?|找我))"), _zb_contact),
    (re.compile(r"(?P<v>有急事[^，,。]{0,4}打[^，,。]{0,4}手机|急事打手机)"), lambda m, c: [_zc("user.contact_preference", "急事打手机")]),
    (re.compile(r"(?:不急的|其他的?)(?P<v>留言)"), _zb_contact),
    (re.compile(r"请用(?P<v>中文|英文|英语|普通话)(?:跟我|和我)?(?:沟通|交流|回复|聊)"), _zb_contact),
    # "最好下午联系我", "尽量工作日找我": when the user is best reached.
    (re.compile(r"(?:最好|尽量|请|麻烦)(?:在)?(?P<v>上午|下午|中午|晚上|白天|工作日|周末|[\u4e00-\u9fff\d]{1,4}点(?:以后|之后|以前|之前|前|后))(?:再)?(?:联系|找|打给|打电话给|call)我"), _zb_contact),
    # "消息比电话靠谱", "邮件比微信方便": the channel preferred in a comparison.
    (re.compile(rf"(?P<v>{_CHANNELS_ZH}|消息)比(?:{_CHANNELS_ZH}|消息)(?:更|还)?(?:靠谱|方便|好|快|管用)"), _zb_contact),
    # "打电话之前先微信问我一下", "有变动短信通知我": the channel the user is told through.
    (re.compile(rf"(?:先|就|直接)?(?P<v>{_CHANNELS_ZH})(?:问|告诉|通知|提醒|说)(?:我|一声)"), _zb_contact),
    # "…，打字吧", "留言就好": a channel said alone in a part of its own.
    (re.compile(r"^(?:还是|就)?(?P<v>打字|发消息|发文字|发微信|发邮件|留言|文字)(?:吧|就行|就好|就可以)?$"), _zb_contact),
    (re.compile(r"(?:提醒的话|提醒我的话)[^，,。]*?(?:在|用)?(?P<v>前一天晚上|短信|邮件|微信|电话)"), lambda m, c: [_zc("user.contact_preference", m.group("v") + ("提醒" if m.group("v") == "前一天晚上" else ""))]),
]
