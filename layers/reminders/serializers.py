from rest_framework import serializers

from layers.reminders.models import Reminder, ReminderSettings


class ReminderOutputSerializer(serializers.ModelSerializer):
    session_id = serializers.SerializerMethodField()
    source_turn_seq = serializers.SerializerMethodField()
    amended_by_turn_seq = serializers.SerializerMethodField()
    cancelled_by_turn_seq = serializers.SerializerMethodField()

    class Meta:
        model = Reminder
        fields = ("id", "user_id", "text", "status", "due_at", "time_zone", "recurrence", "previous",
                  "session_id", "source_turn_seq", "amended_by_turn_seq", "cancelled_by_turn_seq", "cancel_reason",
                  "client_id", "idempotency_key", "quarantine_reasons", "delivery_attempts", "next_attempt_at",
                  "last_error", "delivery_failed", "delivered_at", "delivered_via", "created_by", "created_at",
                  "updated_at")

    def get_session_id(self, obj) -> str | None:
        return obj.source_session.session_id if obj.source_session_id else None

    def get_source_turn_seq(self, obj) -> int | None:
        return obj.source_turn.seq if obj.source_turn_id else None

    def get_amended_by_turn_seq(self, obj) -> int | None:
        return obj.amended_by_turn.seq if obj.amended_by_turn_id else None

    def get_cancelled_by_turn_seq(self, obj) -> int | None:
        return obj.cancelled_by_turn.seq if obj.cancelled_by_turn_id else None


class ReminderSettingsOutputSerializer(serializers.ModelSerializer):
    # The tenant's zone (memoryhub/tenancy), which reminders and habits both read.
    time_zone = serializers.CharField(source="tenant.time_zone", read_only=True)
    webhook_secret_set = serializers.SerializerMethodField()

    class Meta:
        model = ReminderSettings
        fields = ("time_zone", "webhook_url", "webhook_secret_set", "updated_at")

    def get_webhook_secret_set(self, obj) -> bool:
        return bool(obj.webhook_secret)
