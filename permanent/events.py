"""The permanent layer's audit events: a change request's life and the versions it applies."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

REQUEST = "permanent_change_request"
ENTRY = "permanent_entry"
_REQ = "key, scope, request action, state, payload hash"

CHANGE_PROPOSED = event_type("permanent.change.proposed", object_type=REQUEST, label=_("change proposed"), after=_REQ)
CHANGE_WITHDRAWN = event_type("permanent.change.withdrawn", object_type=REQUEST, label=_("change withdrawn"), after=_REQ)
CHANGE_SCHEDULED = event_type("permanent.change.scheduled", object_type=REQUEST, label=_("change scheduled"), after=_REQ)
CHANGE_APPROVAL_RECORDED = event_type("permanent.change.approval_recorded", object_type=REQUEST,
                                      label=_("approval recorded (more needed)"), after=_REQ)
CHANGE_APPROVED = event_type("permanent.change.approved", object_type=REQUEST, label=_("change approved"), after=_REQ)
CHANGE_REJECTED = event_type("permanent.change.rejected", object_type=REQUEST, label=_("change rejected"), after=_REQ)
CHANGE_SUPERSEDED = event_type("permanent.change.superseded", object_type=REQUEST, label=_("change superseded"),
                               after=_REQ)
CHANGE_APPLIED = event_type("permanent.change.applied", object_type=REQUEST, label=_("change applied"), after=_REQ)
ENTRY_CHANGED = {
    action: event_type(f"permanent.entry.{action}", object_type=ENTRY, label=label,
                       before="version and value digest", after="version and value digest")
    for action, label in (("create", _("entry created")), ("update", _("entry updated")),
                          ("retire", _("entry retired")), ("rollback", _("entry rolled back")))
}
