"""What reading a context writes: each conflict it reports is counted as a correction of its preference
(layers/long_term/conditions/services.py decides what a correction changes)."""
from __future__ import annotations

from layers.long_term.conditions.policy import conditions_policy
from layers.long_term.conditions.services import preference_correction_record
from memoryhub.core.request_context import current_request_id


def conflicts_count(tenant, actor, conflicts: list[dict], session_id: str | None, *, may_write: bool) -> list[dict]:
    """Each conflict counted as a correction of its preference (one per conversation), with the count; the
    one that reaches the threshold names the preference that replaced it. A key that may only read gets
    the conflicts uncounted (`counted` false): reading a context must not change memories it cannot write."""
    policy = conditions_policy(tenant.pk)
    counting = policy.corrections_counted and may_write
    out = []
    for conflict in conflicts:
        counted, replaced = 0, None
        if counting:
            outcome = preference_correction_record(
                tenant=tenant, actor=actor, memory_id=conflict["memory_id"],
                requested_value=conflict["requested_value"],
                occasion=f"session:{session_id}" if session_id else f"request:{current_request_id.get()}")
            counted, replaced = outcome.counted, outcome.replaced_by
        out.append({**conflict, "counted": counting, "corrections": counted,
                    "corrections_needed": policy.correction_threshold,
                    **({"replaced_by": replaced.pk} if replaced else {})})
    return out
