"""What tenancy announces. Sent inside the transaction of the change, so a receiver's writes commit
(or roll back) with it."""
from django.dispatch import Signal

# kwargs: tenant_id, actor, event (an audit event name declared in audit/receivers.py), object_id,
# before, after
tenancy_changed = Signal()
