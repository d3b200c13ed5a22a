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
                          help_text=_('Any JSON: "a string", 42, true, {"an": "object"}. Checked as you type, '
                                      "against the entry's JSON Schema when it has one."))
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH, required=False,
                             widget=forms.Textarea(attrs={"rows": 3, "cols": 70}))
    effective_at = forms.DateTimeField(label=_("Effective at"), required=False,
                                       widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                       help_text=_("Leave empty to apply as soon as it is approved."))
    schema = JSONTextField(label=_("JSON Schema (new keys only)"), required=False)
    required_approvals = forms.IntegerField(label=_("Required approvals (new keys only)"), required=False,
                                            min_value=1, max_value=MAX_REQUIRED_APPROVALS)

    def __init__(self, *args, tenants=None, schema_from: str = "id_schema", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].queryset = tenants
        if tenants is not None and tenants.count() == 1:
            self.fields["tenant"].initial = tenants.first().pk
        # The JSON editor (memoryhub/console/static/console/json_editor.js) checks these in the browser.
        editor = {"data-json-editor": "true", "class": "vLargeTextField console-json-editor", "rows": 10}
        self.fields["value"].widget = forms.Textarea(attrs={
            **editor, "data-json-schema-from": schema_from, "data-json-required-for": "create,update",
            "data-json-skip-for": "retire", "spellcheck": "false"})
        self.fields["schema"].widget = forms.Textarea(attrs={**editor, "rows": 6, "spellcheck": "false",
                                                             "data-json-skip-for": "update,retire"})

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


def json_editor_messages() -> dict[str, str]:
    """The JSON editor's sentences in the page's language (it reads them from a json_script)."""
    return {text: str(label) for text, label in {
        "A value is required.": _("A value is required."),
        "Not valid JSON": _("Not valid JSON"),
        "Valid JSON": _("Valid JSON"),
        "matches the schema": _("matches the schema"),
        "Fix the JSON before submitting.": _("Fix the JSON before submitting."),
        "expected": _("expected"), "got": _("got"), "must be one of": _("must be one of"), "must be": _("must be"),
        "shorter than": _("shorter than"), "longer than": _("longer than"), "does not match": _("does not match"),
        "below the minimum": _("below the minimum"), "above the maximum": _("above the maximum"),
        "must be greater than": _("must be greater than"), "must be less than": _("must be less than"),
        "not a multiple of": _("not a multiple of"), "fewer items than": _("fewer items than"),
        "more items than": _("more items than"), "items must be unique": _("items must be unique"),
        "missing required property": _("missing required property"),
        "unexpected property": _("unexpected property"), "fewer properties than": _("fewer properties than"),
        "more properties than": _("more properties than"),
        "matches none of the allowed forms": _("matches none of the allowed forms"),
        "must match exactly one allowed form": _("must match exactly one allowed form"),
        "matches a forbidden form": _("matches a forbidden form"),
        "nothing is allowed here": _("nothing is allowed here"),
    }.items()}
