"""The Celery app with the fault-test pause installed: `celery -A tests.support.pausing_worker worker`."""
from memoryhub.celery import app  # noqa: F401  (what `-A` looks up)
from tests.support.fault_pause import install_pause

install_pause()
