"""Forms of the permanent console. They only parse input; the services decide."""
from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from permanent.models import (
    COMMENT_MAX_LENGTH,
    KEY_MAX_LENGTH,
    MAX_REQUIRED_APPROVALS,
    REASON_MAX_LENGTH,
    USER_ID_MAX_LENGTH,
    ChangeAction,
)


class JSONTextField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 8, "cols": 70, "class": "vLargeTextField", "spellcheck": "false"})

    def to_python(self, value):
        text = super().to_python(value)
        if text in ("", None):
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(_("Not valid JSON: %(error)s"), params={"error": exc})


class ProposeForm(forms.Form):
    tenant = forms.ModelChoiceField(queryset=None, label=_("Tenant"))
    action = forms.ChoiceField(label=_("Action"), choices=[(ChangeAction.CREATE, _("create a new key")),
                                                           (ChangeAction.UPDATE, _("update an existing key")),
                                                           (ChangeAction.RETIRE, _("retire a key"))])
    key = forms.CharField(label=_("Key"), max_length=KEY_MAX_LENGTH,
                          help_text=_("For example safety.no_medical_advice, rules.tone or persona."))
    user_id = forms.CharField(label=_("End user id"), max_length=USER_ID_MAX_LENGTH, required=False,
                              help_text=_("Leave empty for a global entry."))
    value = JSONTextField(label=_("Value (JSON)"), required=False,
                          help_text=_('Any JSON: "a string", 42, true, {"an": "object"}.'))
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH, required=False,
                             widget=forms.Textarea(attrs={"rows": 3, "cols": 70}))
    effective_at = forms.DateTimeField(label=_("Effective at"), required=False,
                                       widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                       help_text=_("Leave empty to apply as soon as it is approved."))
    schema = JSONTextField(label=_("JSON Schema (new keys only)"), required=False)
    required_approvals = forms.IntegerField(label=_("Required approvals (new keys only)"), required=False,
                                            min_value=1, max_value=MAX_REQUIRED_APPROVALS)

    def __init__(self, *args, tenants=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].queryset = tenants
        if tenants is not None and tenants.count() == 1:
            self.fields["tenant"].initial = tenants.first().pk

    def clean(self):
        data = super().clean()
        if data.get("action") in (ChangeAction.CREATE, ChangeAction.UPDATE) and "value" in data \
                and self.data.get("value", "").strip() == "":
            self.add_error("value", _("A value is required."))
        return data


class DecisionForm(forms.Form):
    payload_hash = forms.CharField(widget=forms.HiddenInput, max_length=64)
    comment = forms.CharField(label=_("Comment"), max_length=COMMENT_MAX_LENGTH, required=False,
                              widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))


class ScheduleForm(forms.Form):
    effective_at = forms.DateTimeField(label=_("Effective at"), required=False,
                                       widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                       help_text=_("Empty: as soon as it is approved."))


class RollbackForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH, required=False)
