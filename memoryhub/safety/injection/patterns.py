"""Word classes and clause helpers more than one family's rules are built from.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re
from functools import lru_cache

from memoryhub.safety.injection.prefilter import Literals, needed_literals


def _c(pattern: str) -> re.Pattern:
    return re.compile(pattern)


class AnyOf:
    """Whether any of `patterns` matches somewhere in a text, in at most one scan of one alternation.

    The alternation matches exactly where one of its patterns would (each wrapped as a non-capturing group,
    group names dropped), so a rule asking "does any of these match" gets the same answer from one pass
    over the text instead of one pass per pattern: the detector runs on every write, turn and imported line.
    Before that pass, the literals each pattern cannot match without (prefilter.py) are looked up in the
    text, found for all instances at once in one scan: a text holding none of them is not scanned at all, a
    text holding the literals of a few patterns is searched for those, and otherwise the alternation of all
    the patterns that need literals is scanned once. Patterns that need no literal (character
    runs such as base64) are searched each on its own, where the engine skips ahead to their first character,
    which it cannot do inside a mixed alternation.
    With `gate=True` it guards a rule whose every way of saying yes needs one of `patterns` to match: a text
    none of them matches skips the rule. The pattern lists stay the rules' table; this only reads them.
    """

    __slots__ = ("patterns", "gate", "_needs", "_by_literal", "_free", "_scan")
    _instances: list["AnyOf"] = []
    _literals: Literals | None = None
    _ONE_BY_ONE = 3  # up to this many chosen patterns are searched each on its own, more as the alternation

    def __init__(self, *patterns: re.Pattern | list[re.Pattern] | tuple[re.Pattern, ...], gate: bool = False):
        self.patterns = tuple(p for item in patterns for p in (item if isinstance(item, (list, tuple)) else (item,)))
        self.gate = gate
        self._scan = None  # the alternation, compiled when first needed (a process that never reads pays nothing)
        AnyOf._instances.append(self)
        AnyOf._literals = None  # the shared table is read again, with this instance's literals

    def _read_needs(self) -> frozenset[str]:
        needs = [needed_literals(p) for p in self.patterns]
        self._free = tuple(p.search for p, n in zip(self.patterns, needs) if n is None)
        self._by_literal: dict[str, frozenset[int]] = {}
        for i, n in enumerate(needs):
            for lit in n or ():
                self._by_literal[lit] = self._by_literal.get(lit, frozenset()) | {i}
        self._needs = frozenset(self._by_literal)
        return self._needs

    def __call__(self, text: str) -> bool:
        table = AnyOf._literals or AnyOf._read_table()
        for search in self._free:
            if search(text) is not None:
                return True
        if not self._needs:
            return False
        chosen: set[int] = set()
        for lit in self._needs.intersection(table.present(text)):
            chosen |= self._by_literal[lit]
        if len(chosen) <= self._ONE_BY_ONE:
            return any(self.patterns[i].search(text) is not None for i in chosen)
        if self._scan is None:
            self._scan = _alternation([self.patterns[i] for i in sorted({i for s in self._by_literal.values() for i in s})]).search
        return self._scan(text) is not None

    @classmethod
    def _read_table(cls) -> Literals:
        cls._literals = Literals([instance._read_needs() for instance in cls._instances])
        return cls._literals


def _alternation(patterns) -> re.Pattern:
    return re.compile("|".join(f"(?:{_UNNAMED.sub('(?:', p.pattern)})" for p in patterns))


_UNNAMED = re.compile(r"\(\?P<\w+>")


# ---------------------------------------------------------------- word classes (English, folded)
_W = r"[\w'’-]+"


_AI = r"(?:ai|a\.i\.|assistant|assistants|model|models|llm|llms|chatbot|chatbots|bot|bots|agent|agents|gpt|copilot|language\s+model)"


_RECIPIENT_OPEN = (r"(?:anyone|anybody|everyone|everybody|whoever|any\s*one|any\s+(?:app|third|person|user|caller|company|service|website|"
                   r"site|stranger|requester)|callers|requesters|visitors|partners|advertisers|companies|vendors|apps|websites|"
                   r"marketers|brokers|all\s+(?:apps|callers|requesters)|third[- ]part(?:y|ies)|other\s+users|others|strangers|"
                   r"her|him|them\s+when|people\s+who\s+ask)")


_SHARE_OPEN = _c(rf"\b(?:shar\w*|send\w*|sent|giv\w*|gave|tell\w*|told|show\w*|forward\w*|disclos\w*|reveal\w*|hand\w*\s+over|"
                 rf"provid\w*|read\w*\s+out|releas\w*|expos\w*|leak\w*|pass\w*\s+on|hand|post\w*)\b[^.;\n]{{0,60}}?\b(?:to|with)\s+(?:\w+\s+)?"
                 rf"{_RECIPIENT_OPEN}\b")


# ------------------------------------------------------------------------- payload word classes
_PAYLOAD_EN = [
    # deceive the people the assistant talks to
    _c(r"\b(?:tell|inform|warn|notify|convince|persuade|assure|advise|remind|instruct)\s+(?:the\s+|all\s+|every\s+|any\s+|our\s+)?"
       r"(?:users?|customers?|clients?|people|viewers|readers|visitors|everyone|everybody|them|the\s+person|applicants?|"
       r"callers?|shoppers|patients|buyers|subscribers)\b"),
    _c(r"\b(?:say|claim|state|mention|assert|confirm|pretend)\s+(?:to\s+\w+\s+)?(?:that\s+)?(?:the|this|it|our|its|there|he|she|they)\b"),
    # credentials and codes
    _c(r"\b(?:ask|request|prompt|collect|get|obtain|demand|require|solicit|harvest|phish)\s+(?:\w+\s+){0,4}?(?:for\s+)?(?:\w+\s+){0,2}?"
       r"(?:passwords?|passcodes?|pins?|2fa|two-factor|otp|one-time|verification\s+codes?|security\s+codes?|credit\s+cards?|"
       r"card\s+(?:numbers?|details)|cvv|ssn|social\s+security|bank\s+(?:details|account|login)|login|credentials|seed\s+phrase|"
       r"recovery\s+phrase|private\s+keys?|id\s+numbers?)"),
    _c(r"\b(?:enter|type|provide|submit|re-?enter|confirm|send|post|share|give|leave|reply\s+with)\s+(?:\w+\s+){0,2}?"
       r"(?:their|your|the|his|her)\s+(?:\w+\s+)?(?:passwords?|pins?|2fa|verification\s+codes?|credit\s+cards?|card\s+numbers?|"
       r"e-?mails?|e-?mail\s+address(?:es)?|phone\s+numbers?|credentials|seed\s+phrase|login|codes?|ssn)"),
    # money
    _c(r"\b(?:transfer|move|send|wire|deposit|pay|withdraw|put|invest)\s+(?:\w+\s+){0,3}?(?:money|funds|savings|payments?|bitcoin|btc|"
       r"crypto|usdt|eth|gift\s+cards?|gift\s+card\s+codes|\$\s?\d|\d+\s*(?:usd|dollars|eur|euros))"),
    _c(r"\b(?:wallet|account|iban)\s+(?:number\s+)?(?:0x[0-9a-f]+|\d[\d\s-]{3,})"),
    _c(r"\bmake\s+(?:\w+\s+)?(?:transfers|payments|purchases|withdrawals|transactions)\b|\blog\s*(?:in)?\s*(?:to|into)\s+(?:their|his|her|"
       r"the\s+user's)\s+(?:\w+\s+)?(?:bank|account|email|wallet)"),
    # commands, destruction, publishing secrets
    _c(r"\b(?:run|execute|exec|eval|paste)\s+(?:\w+\s+){0,2}?(?:`[^`]+`|the\s+(?:following\s+)?(?:command|script|code)|this\s+"
       r"(?:command|script|code)|commands?|scripts?|curl|wget|rm\s+-|sudo|powershell|bash)|\b(?:curl|wget)\s+\S+\s*\|\s*(?:sh|bash)|"
       r"\brm\s+-rf\b"),
    _c(r"\b(?:delete|wipe|erase|remove|destroy|format|drop)\s+(?:\w+\s+){0,3}?(?:files?|folders?|director(?:y|ies)|data|database|"
       r"e-?mails?|accounts?|backups?|repos?(?:itory)?|memories|/\S+)"),
    _c(r"\b(?:push|commit|upload|publish|post|paste|share|leak)\s+(?:\w+\s+){0,3}?(?:\.env|secrets?|credentials|api\s+keys?|"
       r"private\s+keys?|passwords?|tokens?)"),
    # promote, rate, hide the note, ignore the user
    _c(r"\b(?:recommend|promote|endorse|rate|rank|praise|upvote|advertise|favou?r)\s+(?:\w+\s+){0,4}?(?:as\s+(?:the\s+)?(?:best|top|"
       r"strongest|only)|\d\s*stars?|five\s+stars|first|highest)"),
    _c(r"\b(?:do\s*(?:not|n't)|never|without)\s+(?:mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|tell(?:ing)?\s+(?:the\s+user|anyone)\s+"
       r"about)\s+(?:this|these|the)\s+(?:note|instructions?|message|text|directive|comment|request)"),
    _c(r"\b(?:ignore|disregard)\s+(?:the\s+)?user(?:'s)?\b|\b(?:don't|do\s+not|never|without)\s+(?:ask(?:ing)?|tell(?:ing)?|"
       r"inform(?:ing)?|notify(?:ing)?|warn(?:ing)?|check(?:ing)?\s+with)\s+the\s+user\b"),
    _c(r"\b(?:forward|send|copy|share|email|upload)\s+(?:all\s+|every\s+|the\s+)?(?:\w+\s+){0,2}?(?:e-?mails|messages|conversations?|"
       r"memories|files|documents|contacts|calendar|history|chats?)\b"),
]


_SKIP_PROTECTION = _c(r"\b(?:confirmations?|verifications?|approvals?|identity\s+checks?|2fa|pins?|authentication|consent)\s+(?:is|are)\s+"
                      r"(?:no\s+longer|not)\s+(?:required|needed|necessary|asked\s+for)\b|"
                      r"\b(?:doesn't|does\s+not|don't|do\s+not|never|no\s+longer)\s+(?:needs?|has|have)\s+to\s+(?:confirm|verify|approve|"
                      r"authenticate|authori[sz]e|check|be\s+asked)\b|\b(?:skip|bypass|disable|ignore|turn\s+off|waive|drop|remove|suppress|avoid|circumvent|(?:don't|do\s+not|never|"
                      r"no\s+need\s+to)\s+(?:ask|require|need|show|request|wait)|no\s+need\s+for|stop\s+asking)\s+(?:\w+\s+){0,3}?"
                      r"(?:confirmations?|confirm(?:ing)?|2fa|two-factor|verification|approvals?|authentication|permission|consent|review\w*|"
                      r"screening|vetting|"
                      r"safety|security\s+checks?|warnings?|guidelines|checks?|moderation|content\s+filter\w*|filters?)|\bwithout\s+"
                      r"(?:\w+\s+)?(?:asking|confirmation|confirming|checking|approval|verification|permission|consent|verifying|warnings?|telling|"
                      r"review|reviews|checks|oversight|"
                      r"notice|notifying)|"
                      r"\b(?:no|without|doesn't\s+want|does\s+not\s+want|don't\s+(?:give|show|add)|never\s+(?:give|show|add))\s+(?:any\s+)?"
                      r"(?:more\s+)?(?:safety|security)\s+(?:warnings?|checks?|filters?|guidelines|rules|measures|restrictions|prompts?)")


_LIFT_RESTRICTIONS = _c(r"\bexempt\s+from\s+(?:\w+\s+){0,2}?(?:polic\w+|rules|restrictions|filters|moderation|guidelines|safety)|"
                        r"\b(?:safety|security|content|moderation|refusal)\s+(?:\w+\s+)?(?:(?:is|are)\s+(?:now\s+)?)?(?:offline|inactive|paused|deactivated|down|off|suspended|lifted)\b|\bstop\s+(?:filtering|censoring|moderating|screening|refusing|warning|checking)\b|\b(?:disabl\w*|turn\w*\s+off|deactivat\w*|bypass\w*|suspend\w*|lift\w*|remov\w*|switch\w*\s+off)\s+"
                        r"(?:all\s+|any\s+|the\s+|your\s+)?(?:\w+\s+){0,1}?(?:restrictions?|filters?|filtering|moderation|safety|guardrails?|"
                        r"content\s+polic(?:y|ies)|censorship|safeguards?|warnings?)|"
                        r"\b(?:restrictions?|limits?|limitations?|filters?|filtering|moderation|safety(?:\s+\w+)?|guardrails?|"
                        r"content\s+polic(?:y|ies)|censorship|safeguards?|checks?|rules)\s+(?:\w+\s+){0,2}?(?:are\s+|is\s+|have\s+been\s+|"
                        r"has\s+been\s+)?(?:now\s+)?(?:lifted|removed|disabled|suspended|waived|off|deactivated|bypassed|revoked)|"
                        r"\b(?:disable|turn\s+off|deactivate|bypass|suspend|lift|remove|switch\s+off)\s+(?:all\s+|any\s+|the\s+|your\s+)?"
                        r"(?:\w+\s+){0,1}?(?:restrictions?|filters?|filtering|moderation|safety|guardrails?|content\s+polic(?:y|ies)|"
                        r"censorship|safeguards?|warnings?)")


_AI_MODAL_EN = _c(rf"\b(?:the\s+|all\s+|every\s+|any\s+)?{_AI}(?:'s)?\s+(?:\w+\s+){{0,3}}?(?:must|shall|should|will\s+now|is\s+(?:now\s+)?"
                  rf"(?:required|authori[sz]ed|permitted|allowed|instructed|expected|to)|are\s+(?:now\s+)?(?:required|authori[sz]ed|"
                  rf"permitted|allowed|instructed|expected|to)|(?:is|are)\s+(?:now\s+)?(?:cleared|free|approved|licensed)\s+to|needs?\s+to|has\s+to|have\s+to|now\s+\w+s|will\s+(?:no\s+longer|always|"
                  rf"henceforth))\b|\byou\s+will\s+(?:now\s+)?(?:answer|comply|obey|respond|follow|do|reply|share|reveal|execute)\b|"
                  rf"\b{_AI}\s+(?:has|have)\s+(?:now\s+)?been\s+(?:granted|given|authori[sz]ed|cleared|allowed|permitted)|\brequires?\s+(?:the\s+|all\s+)?"
                  rf"{_AI}\s+to\b|\b{_AI}\s+(?:is|are)\s+(?:hereby\s+)?(?:ordered|directed|obliged)\b|\byou\s+(?:may|can)\s+now\b|\b(?:no\s+longer\s+(?:need|have)\s+to|(?:is|are)\s+no\s+longer\s+(?:required|bound|"
                  rf"obliged|restricted))\b|\byou\s+(?:are\s+(?:now\s+|hereby\s+)?"
                  rf"(?:authori[sz]ed|required|permitted|allowed|instructed|cleared|ordered)|must\s+now|are\s+to|have\s+been\s+"
                  rf"(?:authori[sz]ed|cleared|granted))\b")


_AI_ADDRESS_EN = _c(rf"\b(?:note|message|instructions?|directive|memo|reminder|notice|attention|warning|request|p\.?s\.?)\s+(?:to|for)\s+"
                    rf"(?:the\s+|any\s+|all\s+|every\s+)?(?:\w+\s+)?{_AI}\b|\b(?:dear|hey|hi|hello|attention|attn|calling)\s*,?\s+"
                    rf"(?:the\s+|all\s+)?(?:\w+\s+)?{_AI}\b|\bif\s+you(?:'re|\s+are)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?{_AI}\b|"
                    rf"\b{_AI}\s+(?:\w+\s+){{0,2}}?(?:reading|summari[sz]ing|processing|parsing|analy[sz]ing|crawling|seeing|viewing|"
                    rf"browsing|reviewing|screening|evaluating)\s+(?:this|these|the\s+following|my)|\b{_AI}\s*(?:note|directive|instructions?|"
                    rf"notice)s?\s*[:\-–—]|(?:^|[\n#/*\"'\[(,.;:“—-]\s*)(?:ai|assistant|model|agent|chatbot|llm|bot)(?:\s+(?:assistant|agent|model)s?)?"
                    rf"\s*[,:]\s|\bto\s+(?:any|all|every|the)\s+(?:\w+\s+)?{_AI}\s*[:,]|\b{_AI}\s+(?:that\s+are\s+|who\s+are\s+)?"
                    rf"(?:reading|summari[sz]ing|processing|parsing|analy[sz]ing|crawling|indexing|reviewing|screening)\b|"
                    rf"\bassistant_(?:directive|instructions?|note|command)s?\b|\bif\s+(?:an?\s+|any\s+)?{_AI}\s+(?:is\s+)?(?:reads?|reading|sees?|"
                    rf"processes|processing|finds?)\b|\bany\s+{_AI}\s+(?:that\s+|who\s+)?(?:reads?|reading|sees?|processes|processing)\b|"
                    rf"\b(?:hey|hi|dear|ok|okay)\s*,?\s+(?:claude|chatgpt|gpt|gemini|copilot|siri|alexa|bard|llama)\b|\[\s*(?:ai|llm|assistant|"
                    rf"agent)\s+(?:instructions?|note|directive|only)\s*\]|\b(?:to|for)\s+(?:the\s+|any\s+)?{_AI}\s+(?:reading|"
                    rf"summari[sz]ing|processing|using)")


_TOOL_FRAME_EN = _c(r"^\W{0,3}(?:\w+[ _-]+){0,4}?(?:e-?mail|message|calendar|event|invite|page|webpage|website|site|document|doc|file|"
                    r"pdf|ocr|image|alt[ -]text|review|comment|post|ticket|note|spreadsheet|cell|slack|chat|tweet|tool|function|"
                    r"plugin|api|search|result|results|snippet|response|output|extension|browser|record|entry|log|readme|repo|"
                    r"commit|issue|transcript|caption|subtitles?|metadata|exif|webhook|payload|feed|rss|attachment|description|"
                    r"body|excerpt|extract|content|text|reply|notification|sms|voicemail|form|survey|listing|profile|bio)s?\b[^:\n]{0,30}"
                    r"[:\]]|\b(?:web\s*page|webpage|page|site|website|html|article|document|email|e-mail|calendar|file|readme|pdf|message)\s+"
                    r"(?:content|text|source|snippet|body|invite|event|entry|extract|excerpt)s?\b|\b(?:tool|function|plugin|api|search|"
                    r"query|command|shell|code\s+search|file_read|file\s+read|browser|retrieval|ocr|scraper|crawler|database|sql|"
                    r"extension)\s*(?:call\s+)?(?:output|result|response|results|returned|snippet|reply)s?\b|\bsearch\s+(?:result|"
                    r"snippet|results)|\bretrieved\s+(?:\w+\s+)?(?:document|snippet|text|content|page|passage|chunk|context|"
                    r"email|record)|\b(?:text|content)\s+extracted\b|\btranscript\b|\[(?:tool|function|search|web|retrieved|"
                    r"plugin)[^\]]{0,30}\]|\bknowledge\s+base\s+(?:article|entry)|\b(?:tool|function)\s+call\b|\bfetched\s+"
                    r"(?:page|content|url)|\bscraped\b|\breview\s+text|\bcomment\s+from\b|\bsubtitles?\b|\bcaptions?\s*:")


_CONSENT_EN = _c(r"\b(?:the\s+)?(?:user|owner|account\s+holder|customer|he|she|they)\s+(?:has\s+|had\s+|have\s+)?(?:already\s+)?"
                 r"(?:consented|agreed|authori[sz]ed|allowed|permitted|approved|waived|opted\s+in|given\s+(?:\w+\s+)?(?:consent|permission)|"
                 r"(?:is|are)\s+(?:fine|ok|okay|happy|comfortable)\s+with|wants?\s+you\s+to|asked\s+you\s+to|told\s+you|instructed\s+you|"
                 r"says?\s+(?:you\s+can|it's\s+(?:ok|okay|fine))|said\s+(?:you\s+can|it's\s+(?:ok|okay|fine))|wants|would\s+like|prefers|"
                 r"doesn't\s+want|does\s+not\s+want|never\s+wants|(?:gave|granted|has\s+granted|has\s+given)\s+(?:\w+\s+)?(?:permission|"
                 r"consent|access)|(?:\w+\s+)?(?:doesn't|does\s+not|no\s+longer|never)\s+(?:needs?|has|have)\s+to\s+(?:confirm|verify|approve|"
                 r"authenticate|authori[sz]e|enter|provide|be\s+asked)|pre-?approved|pre-?authori[sz]ed|doesn't\s+mind|does\s+not\s+mind|wants?\s+(?:every|all)"
                 r"|(?:is|are)\s+(?:the\s+|a\s+)?(?:verified\s+|authori[sz]ed\s+|trusted\s+)?(?:admin\w*|developer|owner|operator|"
                 r"root|superuser|moderator|staff))")


_MEMORY_HEADER_EN = _c(r"(?:^|\n)\W*(?:(?:saved|stored|updated|new|user|permanent|important|key|core)\s+(?:preference|fact|memory|note|setting|instruction)s?|"
                       r"preferences?|notes?\s+for\s+(?:the\s+)?(?:future|later|next|all)(?:\s+(?:sessions?|chats?|conversations?))?|save\s+(?:this|that)|store\s+(?:this|that)|add\s+(?:this\s+)?to\s+(?:memory|"
                       r"(?:the\s+|my\s+)?profile)|remember|long-?term\s+memory|key\s+fact|memory\s+(?:saved|note|update|entry)|user\s+(?:fact|"
                       r"profile(?:\s+update)?|note|preference\s+update)|important\s+(?:memory|fact|note)|permanent\s+(?:note|memory)|"
                       r"core\s+memory|persistent\s+memory|stored\s+fact|fact)\b[^:\n]{0,30}[:\-–—]|\bremember\s+(?:that|this|for\s+"
                       r"(?:all\s+)?(?:future|later|every)|forever|always|permanently)\b|\bfor\s+all\s+future\s+(?:sessions|conversations|"
                       r"chats)\b")


# ------------------------------------------------------------------------------------- Chinese
_ZH_STOP = r"[，。！？；,.!?;\n]"


_ZH_NOT_STOP = r"[^，。！？；,.!?;\n]"


_ZH_DATA_NOUN = (r"(?:memor(?:y|ies)|chat\s*history|conversations?|passwords?|e-?mails?|api\s*keys?|tokens?|contacts|记忆|对话|聊天记录|消息|密码|姓名|住址|地址|手机号|电话|邮箱|数据|文件|资料|信息|验证码|身份证|银行卡|日历|通讯录|位置|"
                 r"隐私|提示词|病历|账户|账号|照片|邮件|聊天内容|对话记录|历史记录|卡号|口令)")


_ZH_SEND = (r"(?:发送?到|发给|发至|发往|发送给|转发(?:到|给|至)?|上传(?:到|至)|抄送(?:至|到|给)?|发邮件(?:到|给)|提交(?:到|给)|同步(?:到|给)|"
            r"传到|传给|贴到|寄到|寄给|附加到|发布到|告诉|透露给|分享给|提供给|交给|给)")


_ZH_DEST = (r"(?:https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[\w-]+(?:\.[\w-]+)*\.(?:example|com|net|org|io|xyz|ru|cn|info|top)\b|"
            r"\+?\d[\d\s-]{7,}\d|第三方|任何[^，。]{0,4}的?人|谁都|所有人|陌生人|其他人|别人|外部|她|他|对方|这个(?:网址|链接|邮箱|地址)|"
            r"自称\S{0,8}的人)")


_ZH_SEND_TO_DEST = _c(rf"{_ZH_SEND}{_ZH_NOT_STOP}{{0,4}}?{_ZH_DEST}")


_ZH_PAYLOAD = [
    _c(r"(?:告诉|通知|提醒|劝|说服|建议|让|请)(?:所有的?|每个|每位|全部)?(?:用户|客户|顾客|观众|读者|访客|大家|所有人|他们|买家|患者|对方|"
       r"申请人)"),
    _c(r"(?:索要|询问|要求|让|请)(?:用户|客户|他们|对方|观众)?(?:立即|马上|重新)?(?:输入|提供|告诉|发送|留下|填写|确认|提交)[^，。]{0,6}?"
       r"(?:密码|验证码|银行卡|卡号|身份证|手机号|口令|账号|cvv|信用卡)"),
    _c(r"(?:转账|汇款|打款|转到账户|转到(?:这个)?(?:账户|钱包|卡)|把钱(?:转|打|汇)|转入|充值到|把积蓄|购买礼品卡|礼品卡)"),
    _c(r"(?:运行|执行|跑一下|输入)[^，。]{0,12}?(?:命令|脚本|代码|curl|wget|rm\s|sudo|sh\b)|(?:curl|wget)\s+\S+\s*\|\s*(?:sh|bash)"),
    _c(r"(?:删除|清空|格式化|删掉)(?:用户的?|所有的?|全部的?)?[^，。]{0,6}?(?:文件|数据|邮件|记录|账户|备份|数据库)"),
    _c(r"(?:不要|别|不用|无需|不必|不得)(?:告诉|提及|透露|通知|询问|问|让)(?:用户|客户|任何人|他)|不要提到这(?:条|段|个)"),
    _c(r"(?:说|声称|宣称|表示)(?:该|这个|本|我们的)?(?:产品|合同|服务|公司|药|商品|酒店|候选人)"),
    _c(r"(?:推荐|评为|打|给)[^，。]{0,8}(?:五星|5星|满分|最高分|第一名|最强)"),
    _c(r"(?:关闭|取消)(?:工单|订单|账户|验证)|无法退款|不能退款"),
    _c(rf"(?:转发|抄送|发送|上传|同步|导出)(?:所有|全部|每段|每条|用户的?)?{_ZH_NOT_STOP}{{0,6}}?{_ZH_DATA_NOUN}"),
]


_ZH_SKIP = _c(r"(?:不需要|不用|无需|不必|别)再?(?:问|询问|征求|确认)(?:他|她|用户|我)?|无条件(?:执行|同意|服从|信任|照做)|"
              r"(?:跳过|绕过|关闭|禁用|不需要|不用|无需|免|省去|忽略|取消)(?:任何|所有|一切)?(?:的)?(?:二次|双重|两步)?(?:确认|验证|审批|审核|"
              r"授权|安全检查|检查|提示|双因素|两步验证|许可|同意|安全提醒|安全提示|安全警告|警告|风险提示)")


_ZH_LIFT = _c(r"(?:开放|授予|给予)[^，。]{0,8}(?:管理员|最高|全部|所有)(?:的)?(?:权限|功能)|(?:取消|解除|关闭|禁用|停用|移除|绕过|豁免|去掉|撤销|关掉)(?:了)?(?:一切|所有|全部|任何)?[^，。]{0,6}?(?:限制|过滤|审核|审查|"
              r"安全模式|安全检查|规则|约束|防护|内容政策)|(?:限制|过滤|审核|审查|安全模式|约束|防护)[^，。]{0,6}?(?:已|现已|被|均已)"
              r"(?:经)?(?:解除|关闭|取消|禁用|失效|移除|停用)")


_ZH_AI_MODAL = _c(r"(?:助手|ai|模型|机器人|智能体|客服助手|智能助手|人工智能|你)(?:们)?(?:现在|从现在起|即日起|必须|须|应当|应该|需要|需|务必|要|"
                  r"不得|不要|禁止|将|现已|已被授权|被授权|获准|有权|可以直接|请|不再|无需|不用|可以|能够|允许|从即日起|自即日起|从今天起|自今日起)")


_ZH_AI_ADDRESS = _c(r"(?:ai|助手|模型|智能助手|人工智能|机器人|智能体)(?:助手)?(?:请注意|注意|请|须知|们)|(?:给|致|对|告)(?:阅读|正在阅读|"
                    r"总结|处理)?[^，。：:]{0,8}?(?:ai|助手|模型|人工智能)(?:模型|助手)?(?:的说明|的指令|的提示|的话|们)?[：:，,—-]|"
                    r"如果你是[^，。]{0,14}(?:ai|人工智能|模型|助手|机器人)|(?:大模型|语言模型|ai|助手)(?:们)?[：:，,]|(?:助手|ai|模型)(?:指令|须知|说明|备注)")


_ZH_TOOL_FRAME = _c(r"^\W{0,3}[^，。：:\n]{0,10}(?:邮件|消息|日历|日程|网页|页面|文档|文件|截图|图片|评论|评价|帖子|工单|表格|聊天记录|"
                    r"工具|插件|接口|搜索|结果|片段|返回|输出|扩展|浏览器|记录|日志|字幕|转录|描述|正文|摘录|内容|回复|通知|短信|"
                    r"语音|表单|问卷|商品详情|简介)[^，。：:\n]{0,6}[：:]|(?:网页内容|网页正文|页面内容|网页摘要|搜索结果|检索到的|检索结果|接口返回|api返回|工具输出|工具返回|函数返回|"
                    r"插件返回|调用结果|视频字幕|知识库文章|知识库|文件读取结果|文件内容|邮件正文|邮件内容|日历邀请|文档内容|"
                    r"pdf内容|网页源码|转录|返回结果|查询结果|检索到)")


_ZH_MEMORY_HEADER = _c(r"(?:^|\n|[。！])\s*(?:请)?(?:记住|牢记|记好|重要记忆|长期记忆|永久备注|永久记忆|核心记忆|用户画像更新|用户事实|"
                       r"备忘|记忆|备注|用户资料更新|用户偏好|偏好|用户设置|设置更新)\s*[:：，,]|记住[^，。]{0,6}(?:以后|今后|永远|每次)")


_ZH_CONSENT = _c(r"用户(?:已经?|已|本人|自己)?(?:同意|授权|允许|批准|放弃|豁免|确认过?|说过|要求你|希望你|让你|不介意)|这是用户(?:自己|本人)说的|"
                 r"用户(?:是|为)(?:经过验证的|已验证的|认证的|可信的)?(?:管理员|开发者|超级用户|所有者|运营者)")


_ZH_PROMO = _c(r"(?:推荐|推销|推广|安利|宣传|主推|力推|介绍|首先提到|优先提到|先提到|提到|提及|首推)|(?:让|叫|劝|引导)(?:他们|用户|客户|大家|对方|所有人)?(?:都)?"
               r"(?:去|找|用|买|选|换成?|改用|投|办|订|预订|下单|注册|办理|购买|存)|(?:称赞|夸赞|赞美|好评|先提|先说|首先推荐)|就(?:找|买|用|选|去)|只(?:用|买|选|认|说|提|推|讲)|(?:只有|唯一)[^，。]{0,8}(?:安全|靠谱|可靠|好用|值得|正规)|告诉[^，。]{0,10}(?:人|用户|客户|大家)[^。]{0,12}(?:只有|唯一|最好|"
               r"最可靠|最安全|最便宜)|(?:加上|附上|带上|插入|附加|加入|写上)[^。]{0,20}(?:app|链接|网址|优惠码|折扣码|"
               r"邀请码|广告|http|用|买|下载)|(?:说|称|宣称)[^，。]{0,12}(?:零风险|稳赚|保本|没有风险|最划算)|(?:^|[，。：:])\s*把[^，。]{1,16}(?:描述成|说成|形容为|形容成|称为|排在|放在|列为|作为)[^，。]{0,8}"
               r"(?:唯一|最好|最安全|最靠谱|第一|首选|最便宜|最可靠)|建议(?:他们|用户|客户|大家|对方)|排在第一|排第一|放在第一|放在首位|说[^，。]{0,10}(?:最好|最安全|最便宜|唯一|更好)")


_QUOTE_SPANS = _c(r"“[^”]{1,400}”|\"[^\"\n]{1,400}\"|‘[^’]{1,400}’|「[^」]{1,400}」|『[^』]{1,400}』|«[^»]{1,400}»|„[^“”]{1,400}[“”]")


_REPORT_CUE = _c(r"\b(?:i|i'm|i've|my|we|our|article|paper|papers|blog|post|thesis|essay|course|class|training|talk|lecture|"
                 r"examples?|movie|film|show|song|lyrics|novel|book|story|villain|character|teacher|manager|colleague|friend|boss|"
                 r"she|he|they|joked|said|says|wrote|writes|told|tweet|news|phishing|scam|attacker|attackers|researchers?|quote|"
                 r"quoted|called|titled|named|abstract|meme|poster|sign|slogan|headline)\b|(?:我|文章|论文|博客|新闻|电影|小说|歌词|"
                 r"歌里|唱着|写着|写了|说|讲|告示|培训|例子|比如|举例|攻击者|反派|老师|经理|同事|朋友|她|他|钓鱼|诈骗|标题|台词)")


_PAYLOAD_ANY_EN = AnyOf(_PAYLOAD_EN, _SKIP_PROTECTION, _LIFT_RESTRICTIONS)


_PAYLOAD_ANY_ZH = AnyOf(_ZH_PAYLOAD, _ZH_SKIP, _ZH_LIFT)


@lru_cache(maxsize=256)
def _payload(text: str) -> bool:
    return _PAYLOAD_ANY_EN(text) or _PAYLOAD_ANY_ZH(text)
