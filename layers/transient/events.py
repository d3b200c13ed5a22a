"""The transient layer's audit events (task types are staff configuration; task states are not audited)."""
from django.utils.translation import gettext_lazy as _

from audit.events import event_type

TASK_TYPE_CREATED = event_type("task_type.created", object_type="task_type", label=_("task type created"),
                               after="name and slots")
TASK_TYPE_UPDATED = event_type("task_type.updated", object_type="task_type", label=_("task type changed"),
                               before="slots", after="slots")
TASK_TYPE_DELETED = event_type("task_type.deleted", object_type="task_type", label=_("task type deleted"),
                               before="name and slots")
