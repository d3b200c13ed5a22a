"""What formation announces."""
from django.dispatch import Signal

# A run wrote all its rows and is about to commit; sender = the job ("extract" | "summarise" | "habits"),
# kwargs: session_pk (None for "habits", which also sends tenant_id and user_id). Receivers run inside the
# run's transaction, holding the session's lock (for "habits": the user's memory lock).
run_writes_finished = Signal()
