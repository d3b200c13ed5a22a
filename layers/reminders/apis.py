"""Reminders API: create (a time, or words to read it from), list with filters, read, amend, cancel,
acknowledge (polling agents); the tenant's reminder settings (admin scope)."""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from layers.reminders.models import Reminder, ReminderSettings, ReminderStatus
from layers.reminders.selectors import reminder_get, reminder_list
from layers.reminders.serializers import (
    ReminderOutputSerializer,
    ReminderSettingsOutputSerializer,
)
from layers.reminders.services import (
    reminder_acknowledge,
    reminder_amend,
    reminder_cancel,
    reminder_create,
    reminder_settings_get,
    reminder_settings_update,
)
from layers.reminders.services.reading import reminder_intent_read, reminder_when_read
from layers.short_term.selectors import session_get
from memoryhub.api.identifiers import validate_user_id
from memoryhub.api.pagination import paginate_keyset
from memoryhub.api.schema import errors
from memoryhub.api.serializers import InputSerializer, UserIdField
from memoryhub.api.views import TenantAPIView
from memoryhub.core.errors import InvalidInput
from memoryhub.core.limits import USER_ID_MAX_LENGTH
from memoryhub.tenancy.models import Scope
from memoryhub.tenancy.selectors import tenant_time_zone
from memoryhub.tenancy.services import time_zone_validate

WHEN_MAX_LENGTH = 200


def _field_error(field: str, message: str, code: str = "invalid") -> InvalidInput:
    return InvalidInput(message, code=code, details={"fields": {field: [message]}})


def _include_quarantined(api_key) -> bool:
    return api_key.has_scope(Scope.ADMIN)


class RemindersApi(TenantAPIView):
    class ReminderCreateInput(InputSerializer):
        user_id = UserIdField(max_length=USER_ID_MAX_LENGTH)
        text = serializers.CharField(required=False, max_length=Reminder.TEXT_MAX_LENGTH,
                                     help_text="what to remind of; with `due_at` or `when`")
        due_at = serializers.DateTimeField(required=False, help_text="ISO 8601 with a time zone")
        when = serializers.CharField(required=False, max_length=WHEN_MAX_LENGTH,
                                     help_text='words for the time: "in 20 minutes", "tomorrow at 7am", "每周一"')
        utterance = serializers.CharField(required=False, max_length=Reminder.TEXT_MAX_LENGTH * 2,
                                          help_text='a whole request to read: "remind me in 20 minutes to call Anna"')
        recurrence = serializers.CharField(required=False, allow_blank=True, max_length=Reminder.RECURRENCE_MAX_LENGTH,
                                           help_text="RRULE subset: FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE")
        time_zone = serializers.CharField(required=False, max_length=ReminderSettings.TIME_ZONE_MAX_LENGTH,
                                          help_text="the user's IANA zone; default the tenant's")
        client_id = serializers.CharField(required=False, max_length=Reminder.CLIENT_ID_MAX_LENGTH)
        session_id = serializers.CharField(required=False, max_length=200)

    @extend_schema(
        summary="List reminders with filters", operation_id="reminders_list",
        description="Newest first, cursor pagination. Agents that poll ask for `status=due` and acknowledge "
                    "what they told the user (PATCH `status: delivered`). Quarantined reminders are listed only "
                    "for an admin-scoped key.",
        parameters=[OpenApiParameter("user_id", str), OpenApiParameter("status", str, description="comma-separated"),
                    OpenApiParameter("due_before", OpenApiTypes.DATETIME),
                    OpenApiParameter("due_after", OpenApiTypes.DATETIME),
                    OpenApiParameter("delivery_failed", bool),
                    OpenApiParameter("cursor", str), OpenApiParameter("limit", int)],
        responses={200: inline_serializer("ReminderListResponse", {
            "results": ReminderOutputSerializer(many=True), "next_cursor": serializers.CharField(allow_null=True)}),
            **errors(400)},
    )
    def get(self, request):
        params = request.query_params
        times = {}
        for name in ("due_before", "due_after"):
            if params.get(name):
                try:
                    times[name] = serializers.DateTimeField().to_internal_value(params[name])
                except serializers.ValidationError:
                    raise _field_error(name, _("%(name)s must be an ISO 8601 date-time") % {"name": name}) from None
        failed = params.get("delivery_failed")
        if failed not in (None, "", "true", "false"):
            raise _field_error("delivery_failed", _("delivery_failed must be true or false"))
        user_id = params.get("user_id")
        queryset = reminder_list(
            tenant=self.tenant, user_id=validate_user_id(user_id, max_length=USER_ID_MAX_LENGTH) if user_id else None,
            statuses=[part for value in params.getlist("status") for part in value.split(",") if part],
            include_quarantined=_include_quarantined(self.api_key),
            delivery_failed=None if failed in (None, "") else failed == "true", **times)
        rows, next_cursor = paginate_keyset(queryset, params=params, field="id", descending=True)
        return Response({"results": ReminderOutputSerializer(rows, many=True).data, "next_cursor": next_cursor})

    @extend_schema(
        summary="Create a reminder",
        description="Give `text` with `due_at` (ISO 8601) or `when` (words), or a whole `utterance` to read "
                    "(zh or en). Times in words are read in `time_zone`, else the tenant's. A `client_id` makes "
                    "the create idempotent (200 with the stored reminder on a retry). Secrets in the text are "
                    "refused (400 `secret_detected`); instruction-like text is stored quarantined and never "
                    "delivered.",
        request=ReminderCreateInput,
        responses={201: ReminderOutputSerializer, 200: ReminderOutputSerializer, **errors(400, 404, 409)},
        examples=[
            OpenApiExample("A time", request_only=True, value={
                "user_id": "alice", "text": "call Anna", "due_at": "2026-12-24T09:00:00+08:00",
                "client_id": "r-1"}),
            OpenApiExample("Words for the time", request_only=True, value={
                "user_id": "alice", "text": "交周报", "when": "每周一早上9点", "time_zone": "Asia/Shanghai"}),
            OpenApiExample("A whole request", request_only=True, value={
                "user_id": "alice", "utterance": "remind me in 20 minutes to call Anna"}),
        ],
    )
    def post(self, request):
        data = self.ReminderCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        now = timezone.now()
        zone = time_zone_validate(values["time_zone"]) if "time_zone" in values else \
            str(tenant_time_zone(self.tenant))
        text, due_at, recurrence = values.get("text"), values.get("due_at"), values.get("recurrence", "")
        if "utterance" in values:
            if {"text", "due_at", "when"} & set(values):
                raise _field_error("utterance", _("send either an utterance or text with a time"))
            intent = reminder_intent_read(values["utterance"], tenant_id=self.tenant.pk, now=now, time_zone=zone)
            if intent is None or intent.kind != "create":
                raise _field_error("utterance", _("the utterance asks for no reminder"), code="no_reminder_intent")
            text, due_at, recurrence = intent.text, intent.due_at, recurrence or intent.recurrence
        else:
            if not text:
                raise _field_error("text", _("text is required"), code="required")
            if ("due_at" in values) == ("when" in values):
                raise _field_error("due_at", _("send exactly one of due_at and when"), code="required")
            if "when" in values:
                due_at, read_rule = reminder_when_read(values["when"], tenant_id=self.tenant.pk, now=now, time_zone=zone)
                recurrence = recurrence or read_rule
        session = session_get(tenant=self.tenant, session_id=values["session_id"]) if "session_id" in values else None
        if session is not None and session.user_id != values["user_id"]:
            raise _field_error("session_id", _("the session belongs to another user"), code="session_user_mismatch")
        reminder, created = reminder_create(
            tenant=self.tenant, user_id=values["user_id"], text=text, due_at=due_at, recurrence=recurrence,
            time_zone=zone, client_id=values.get("client_id"), source_session=session, actor=self.actor, now=now)
        return Response(ReminderOutputSerializer(reminder).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ReminderDetailApi(TenantAPIView):
    class ReminderPatchInput(InputSerializer):
        text = serializers.CharField(required=False, max_length=Reminder.TEXT_MAX_LENGTH)
        due_at = serializers.DateTimeField(required=False)
        when = serializers.CharField(required=False, max_length=WHEN_MAX_LENGTH)
        recurrence = serializers.CharField(required=False, allow_blank=True, max_length=Reminder.RECURRENCE_MAX_LENGTH)
        status = serializers.ChoiceField(required=False, choices=[ReminderStatus.CANCELLED, ReminderStatus.DELIVERED],
                                         help_text="cancelled: withdraw it; delivered: a polling agent told the user")

    @extend_schema(summary="Read one reminder", responses={200: ReminderOutputSerializer, **errors(403, 404)})
    def get(self, request, reminder_id: int):
        return Response(ReminderOutputSerializer(reminder_get(
            tenant=self.tenant, reminder_id=reminder_id, include_quarantined=_include_quarantined(self.api_key))).data)

    @extend_schema(
        summary="Amend, cancel or acknowledge a reminder",
        description="Change `text`, `due_at` / `when` or `recurrence` of an open (pending or due) reminder; a due "
                    "one moved later is pending again. `status: cancelled` withdraws it; `status: delivered` is a "
                    "polling agent's acknowledgement of a due one. A closed reminder answers 409.",
        request=ReminderPatchInput, responses={200: ReminderOutputSerializer, **errors(400, 403, 404, 409)},
        examples=[OpenApiExample("Move it to 8 pm", request_only=True, value={"when": "今晚8点"}),
                  OpenApiExample("Cancel", request_only=True, value={"status": "cancelled"}),
                  OpenApiExample("Acknowledge a due one", request_only=True, value={"status": "delivered"})],
    )
    def patch(self, request, reminder_id: int):
        reminder = reminder_get(tenant=self.tenant, reminder_id=reminder_id,
                                include_quarantined=_include_quarantined(self.api_key))
        data = self.ReminderPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if not values:
            raise InvalidInput(_("send at least one field to change"), code="empty_patch")
        if "status" in values:
            if set(values) != {"status"}:
                raise _field_error("status", _("a status change comes alone"))
            if values["status"] == ReminderStatus.CANCELLED:
                reminder = reminder_cancel(reminder=reminder, actor=self.actor)
            else:
                reminder = reminder_acknowledge(reminder=reminder, actor=self.actor)
            return Response(ReminderOutputSerializer(reminder).data)
        if "due_at" in values and "when" in values:
            raise _field_error("due_at", _("send due_at or when, not both"))
        due_at, recurrence = values.get("due_at"), values.get("recurrence")
        if "when" in values:
            due_at, read_rule = reminder_when_read(values["when"], tenant_id=self.tenant.pk, now=timezone.now(),
                                                   time_zone=reminder.time_zone)
            recurrence = recurrence if recurrence is not None else (read_rule or None)
        reminder = reminder_amend(reminder=reminder, actor=self.actor, text=values.get("text"), due_at=due_at,
                                  recurrence=recurrence)
        return Response(ReminderOutputSerializer(reminder).data)


class ReminderSettingsApi(TenantAPIView):
    required_scope = Scope.ADMIN

    class SettingsInput(InputSerializer):
        time_zone = serializers.CharField(required=False, max_length=ReminderSettings.TIME_ZONE_MAX_LENGTH)
        webhook_url = serializers.CharField(required=False, allow_blank=True, max_length=500)
        webhook_secret = serializers.CharField(required=False, allow_blank=True, max_length=200, write_only=True,
                                               help_text="at least 16 characters; never returned")

    @extend_schema(summary="The tenant's reminder settings",
                   responses={200: ReminderSettingsOutputSerializer, **errors(403)})
    def get(self, request):
        return Response(ReminderSettingsOutputSerializer(reminder_settings_get(self.tenant)).data)

    @extend_schema(
        summary="Set the tenant's time zone and reminder webhook",
        description="Due reminders are POSTed to `webhook_url` with `X-Memoryhub-Timestamp`, "
                    "`X-Memoryhub-Signature: sha256=<hex HMAC-SHA256 of \"<timestamp>.<body>\" with the secret>` "
                    "and `Idempotency-Key` (the same on every retry of one reminder).",
        request=SettingsInput, responses={200: ReminderSettingsOutputSerializer, **errors(400, 403)},
        examples=[OpenApiExample("Webhook and zone", request_only=True, value={
            "time_zone": "Asia/Shanghai", "webhook_url": "https://agent.example.com/hooks/reminders",
            "webhook_secret": "a-long-shared-secret-0123"})],
    )
    def put(self, request):
        data = self.SettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        settings = reminder_settings_update(tenant=self.tenant, actor=self.actor, **data.validated_data)
        return Response(ReminderSettingsOutputSerializer(settings).data)
