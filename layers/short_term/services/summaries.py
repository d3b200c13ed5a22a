"""Rolling session summaries, written by the formation layer's summariser."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from audit.subjects import subject_digest
from layers.short_term.events import SUMMARY_CREATED
from layers.short_term.models import Session, SessionSummary
from layers.short_term.policy import short_term_policy
from layers.short_term.services.turns import summary_due
from memoryhub.core.actors import Actor
from memoryhub.core.errors import InvalidInput, TooLarge
from memoryhub.providers.tokens import count_tokens
from memoryhub.safety.secrets import redact_secrets


@transaction.atomic
def session_summary_create(*, session: Session, covers_up_to: int, content: str, summariser: str,
                           actor: Actor) -> SessionSummary:
    """Store the next summary version, covering turns 1..`covers_up_to`; audited.

    Idempotent for re-runs: a summary that covers no more than the latest one stores nothing and
    returns the latest. Secrets are redacted from the content as a last line of defence. Clears
    `needs_summary` once the summary catches up with the trigger.
    """
    session = Session.objects.select_for_update(no_key=True).get(pk=session.pk)  # as appends (turns.py)
    if isinstance(covers_up_to, bool) or not isinstance(covers_up_to, int) or not 1 <= covers_up_to <= session.turn_count:
        raise InvalidInput(_("covers_up_to must be a stored turn's seq (1..%(max)d)") % {"max": session.turn_count},
                           code="invalid_covers_up_to")
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput(_("a summary needs content"), code="invalid_summary")
    if len(content) > SessionSummary.CONTENT_MAX_CHARS:
        raise TooLarge(_("a summary holds at most %(max)d characters") % {"max": SessionSummary.CONTENT_MAX_CHARS},
                       code="summary_too_large", details={"max_chars": SessionSummary.CONTENT_MAX_CHARS})
    if not isinstance(summariser, str) or not summariser or len(summariser) > SessionSummary.SUMMARISER_MAX_LENGTH:
        raise InvalidInput(_("name the summariser (at most %(max)d characters)")
                           % {"max": SessionSummary.SUMMARISER_MAX_LENGTH}, code="invalid_summary")

    latest = SessionSummary.objects.filter(session=session).order_by("-version").first()
    if latest is not None and covers_up_to <= latest.covers_up_to:
        return latest
    content, _findings = redact_secrets(content)
    summary = SessionSummary.objects.create(
        session=session, version=(latest.version + 1) if latest else 1, covers_up_to=covers_up_to,
        content=content, token_count=count_tokens(content), summariser=summariser,
    )
    session.summarised_at_turn_count = session.turn_count
    session.needs_summary = summary_due(session, covers_up_to=covers_up_to, policy=short_term_policy(session.tenant_id))
    session.save(update_fields=["summarised_at_turn_count", "needs_summary"])
    audit_record(
        tenant_id=session.tenant_id, actor=actor, event=SUMMARY_CREATED,
        object_id=summary.pk,
        after={"session": session.pk, "version": summary.version, "covers_up_to": covers_up_to,
               "summariser": summariser, "token_count": summary.token_count,
               "content_digest": subject_digest(session.tenant_id, session.user_id, content)},
        subject_user_id=session.user_id,
    )
    return summary
