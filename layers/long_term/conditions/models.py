"""One request that contradicted a stored preference (layers/context/conflicts.py). Counted per user and
preference; at `policy.conditions.correction_threshold` distinct sessions asking for the same other value, the
preference is superseded by that value (layers/long_term/conditions/services.py)."""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from memoryhub.core.limits import USER_ID_MAX_LENGTH


class PreferenceCorrection(models.Model):
    VALUE_MAX_LENGTH = 200
    SESSION_MAX_LENGTH = 200

    # tenant + user_id: erasure finds these rows like every other row of the user (layers/erasure/selectors.py)
    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.PROTECT, related_name="+", db_index=False)
    user_id = models.CharField(_("user id"), max_length=200)
    memory = models.ForeignKey("long_term.Memory", on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("memory"))
    memory_key = models.CharField(_("memory key"), max_length=200)
    stored_value = models.CharField(_("stored value"), max_length=VALUE_MAX_LENGTH)
    requested_value = models.CharField(_("requested value"), max_length=VALUE_MAX_LENGTH)
    # the session the request came from, or the request id when it named none: one count per conversation
    occasion = models.CharField(_("occasion"), max_length=SESSION_MAX_LENGTH)
    request_id = models.CharField(_("request id"), max_length=64, blank=True, default="")
    # the memory that replaced the contradicted one when this correction was the one that tipped it
    applied_to = models.ForeignKey("long_term.Memory", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("applied as"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    USER_ID_MAX_LENGTH = USER_ID_MAX_LENGTH

    class Meta:
        app_label = "long_term"
        verbose_name = _("preference correction")
        verbose_name_plural = _("preference corrections")
        indexes = [models.Index(fields=["tenant", "user_id", "memory"], name="ltm_correction_owner")]
        constraints = [
            # the same conversation asking twice is one correction, not two
            models.UniqueConstraint(fields=["memory", "requested_value", "occasion"], name="ltm_correction_once"),
        ]

    def __str__(self) -> str:
        return f"{self.memory_key}: {self.stored_value} -> {self.requested_value}"
