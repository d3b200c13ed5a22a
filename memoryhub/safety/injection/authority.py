"""system_override: an authority header ("SYSTEM OVERRIDE", "运营方通知") that orders the assistant.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re

from memoryhub.safety.injection.patterns import (
    _AI,
    _AI_MODAL_EN,
    _LIFT_RESTRICTIONS,
    _ZH_AI_MODAL,
    _ZH_LIFT,
    AnyOf,
    _c,
    _payload,
)

_ZH_HEADER = _c(r"(?:系统|管理员|开发者|运营|平台|官方|安全|合规|技术|产品|厂商|总部|监管|审核|风控)[^，。：:\n]{0,6}(?:覆盖|通知|公告|通告|指令|命令|"
                r"消息|更新|要求|政策|声明|警报|提醒|指示|规定)\s*[:：！!】]|(?:官方|平台|开发者|管理员|系统|安全团队|运营|技术团队|总部)(?:已经?)?(?:授权|批准|许可|确认)|"
                r"(?:系统|管理员|开发者|运营方?|平台|官方|安全团队|安全|合规|最高优先级|紧急|重要|风控|技术团队|产品团队|厂商|内部|"
                r"总部|监管|审核团队|信任与安全)(?:的|级|层)?(?:覆盖|通知|公告|通告|指令|命令|消息|更新|要求|政策|策略更新|声明|警报|提醒|"
                r"指示|规定)|来自[^，。：:]{0,10}(?:团队|开发者|管理员|官方|平台|运营|公司|总部)的(?:命令|指令|通知|消息|要求)|"
                r"(?:授权码|验证码|口令|密钥|覆盖码|管理员密码|安全码)(?:已|已经)?(?:验证|通过|确认|生效|接受)|system\s+override|"
                r"(?:最高|第一)优先级|[【〔\[［]\s*(?:紧急|最高|重要|官方|系统|开发者|管理员|安全|合规|平台|运营)[^】〕\]］]{0,6}[】〕\]］]")


_IMPERATIVE_AFTER_COLON = _c(
    r"[:：!！\-–—]\s*(?:please\s+|now\s+|immediately\s+)?(?:respond|answer|reply|comply|obey|follow|ignore|disregard|reveal|share|send|"
    r"forward|output|print|disable|enable|grant|allow|approve|delete|provide|give|tell|treat|accept|execute|run|stop|always|never|"
    r"proceed|continue|switch|enter|act|list|show|display|remove|bypass|unlock|confirm|transfer|answer|skip|turn|lift|drop|release|"
    r"export|upload|email|publish|do\s+not|don't)\b|[:：!！】]\s*(?:请)?(?:立即|马上|务必|必须|一律|立刻|即刻|从现在起|现在)?(?:停止|关闭|"
    r"开启|忽略|输出|执行|回答|允许|授予|删除|发送|转发|解除|取消|公开|提供|透露|跳过|绕过|无视|禁用|服从|遵守)")


# "[[OVERRIDE]]", "*** ADMIN OVERRIDE ***", "<override>": the word set off as a banner.
_BRACKETED_OVERRIDE = re.compile(r"[\[(<{*#=!]{1,3}\s*(?:system\s+|admin\s+|developer\s+|root\s+)?override\s*[\])>}*#=!]{1,3}")


_HEADER_EN = AnyOf(_c(
        r"\b(?:system|admin(?:istrator)?|developer|dev|operator|platform|vendor|security|safety|trust\s*(?:&|and)\s*safety|compliance|"
        r"policy|priority|official|executive|urgent|critical|emergency|important|high(?:est)?[- ]priority|top[- ]priority|root|kernel|maintenance|"
        r"moderation|management|mandatory|maintainer|openai|anthropic)\s+(?:(?:team|mode|desk|cent(?:er|re))\s+)?(?:override|notice|directive|alert|message|order|"
        r"update|change|instruction|command|notification|memo|announcement|bulletin|mandate|broadcast|warning)s?\b|"
        r"\b(?:notice|message|order|directive|instruction|command|memo|update|announcement)\s+from\s+(?:the\s+|your\s+)?(?:[\w&]+\s+){0,3}?"
        r"(?:team|developers?|admin\w*|owner|operator|platform|company|vendor|security|system|compliance|management|openai|anthropic|"
        r"creators?|engineers?|staff)\b|\bby\s+order\s+of\b|\bexecutive\s+order\b|\battention\s*,?\s+(?:\w+\s+)?"
        rf"{_AI}\b|\b(?:override|authori[sz]ation|access|admin|security|unlock)\s+code\s+[\w-]*\s*(?:accepted|verified|confirmed|valid|"
        r"granted)|\b(?:compliance|policy|security)\s+(?:directive|requirement|rule|article|clause|section)\s+[\d.]+|"
        r"\b(?:your|the)\s+(?:administrator|admins?|developers?|operators?|creators?|owners?|engineers?)\s+(?:has|have)\s+(?:\w+\s+)?"
        r"(?:updated|changed|replaced|modified|disabled|removed|lifted|suspended|turned\s+off|unlocked)\s+"
        r"your\s+(?:\w+\s+)?(?:rules|instructions|guidelines|settings|programming|restrictions|filters|limits|safety)|"
        r"\bfrom\s+the\s+(?:desk|office)\s+of\b|\b(?:ceo|cto|cio|ciso|coo|founder|board)\s*(?:notice|message|memo|directive|order|:)|\bthis\s+is\s+(?:your|the)\s+(?:\w+\s+)?(?:administrator|admin|"
        r"developers?|operator|owner|creators?|maker|system|security\s+team|support\s+team|engineering\s+team)\b|\beffective\s+"
        r"immediately\b|\b(?:root|admin|system|kernel|developer|sudo|god)[- ]level\s+(?:instruction|command|directive|access|override|"
        r"message)|\b(?:developer|admin|system|operator|root)\s+override\b|\b(?:verified|approved|signed|authori[sz]ed)\s+by\s+(?:the\s+)?"
        r"(?:developers?|admin\w*|operators?|system|security\s+team|platform|vendor|openai|anthropic)\b|\bpolic(?:y|ies)\s+v?\d|"
        r"\beffective\s+(?:today|now|as\s+of)\b|\b(?:openai|anthropic|google|microsoft|meta)\s+(?:staff|team|notice|update|"
        r"engineers?|support)\b|\b(?:per|under|according\s+to)\s+(?:the\s+)?(?:new|updated|revised|latest)\s+(?:terms|polic\w+|guidelines|"
        r"rules|tos|agreement)|(?:comes?|came)\s+(?:directly\s+)?from\s+(?:your|the)\s+(?:developers?|creators?|admin\w*|operators?|owners?|system|"
        r"security\s+team)|\bauthori[sz]ation\s+(?:level|granted|confirmed)|\bclearance\s+(?:level|granted)"), _BRACKETED_OVERRIDE)


def _system_override(text: str) -> bool:
    header = _HEADER_EN(text) or bool(_ZH_HEADER.search(text))
    if not header:
        return False
    return bool(_AI_MODAL_EN.search(text) or _ZH_AI_MODAL.search(text) or _LIFT_RESTRICTIONS.search(text) or _ZH_LIFT.search(text)
                or _IMPERATIVE_AFTER_COLON.search(text)
                or _payload(text) or re.search(r"\b(?:supersedes?|takes?\s+precedence|overrides?)\b|\b(?:you|assistant)\s+must\b|"
                                               r"\bupdated\s+your\s+rules\b|(?:服从|遵守|执行)(?:以下|下面|本条|此)", text))
