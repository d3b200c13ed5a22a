"""The permanent layer's staff console (Django admin with our templates under `templates/admin/`)."""
from permanent.admin.change_requests import ChangeRequestAdmin
from permanent.admin.entries import PermanentEntryAdmin

__all__ = ["ChangeRequestAdmin", "PermanentEntryAdmin"]
