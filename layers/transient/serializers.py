"""Output serializers the transient API shares between its views (inputs live with their view)."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from layers.transient.models import TaskState, TaskType


class TaskOutput(serializers.ModelSerializer):
    session_id = serializers.CharField(source="session.session_id")
    task_type = serializers.CharField(source="task_type.name")
    missing_slots = serializers.ListField(child=serializers.CharField())
    required_slots = serializers.ListField(child=serializers.CharField(), source="task_type.required_slots")
    optional_slots = serializers.ListField(child=serializers.CharField(), source="task_type.optional_slots")
    parent_id = serializers.IntegerField(allow_null=True)
    slots = serializers.DictField()

    class Meta:
        model = TaskState
        fields = ["id", "session_id", "task_type", "status", "resume_status", "slots", "missing_slots",
                  "required_slots", "optional_slots", "parent_id", "depth", "created_at", "updated_at", "expires_at"]


class TaskChangeOutput(TaskOutput):
    resumed_parent = serializers.SerializerMethodField()

    class Meta(TaskOutput.Meta):
        fields = [*TaskOutput.Meta.fields, "resumed_parent"]

    @extend_schema_field(TaskOutput(allow_null=True))
    def get_resumed_parent(self, obj):
        resumed = self.context.get("resumed_parent")
        return TaskOutput(resumed).data if resumed is not None else None


class TaskTypeOutput(serializers.ModelSerializer):
    required_slots = serializers.ListField(child=serializers.CharField())
    optional_slots = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = TaskType
        fields = ["name", "description", "required_slots", "optional_slots", "default_ttl_seconds", "created_at",
                  "updated_at"]


class SessionEntityOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    type = serializers.CharField(source="entity_type")
    gender = serializers.CharField(help_text='"f" / "m" when the words fix it, else ""')
    plural = serializers.BooleanField(help_text="a group named as one phrase (两件衬衫, my parents)")
    guessed_type = serializers.BooleanField()
    aliases = serializers.ListField(child=serializers.CharField())
    attributes = serializers.DictField(help_text="said: the words stated with it; numbers: prices, sizes, ages; "
                                                 "user_turn: the latest user turn that named it")
    first_turn = serializers.IntegerField()
    last_turn = serializers.IntegerField()
    mentions = serializers.IntegerField()


class ResolutionEntityOutput(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    type = serializers.CharField()


class ResolutionOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="position of the turn in the appended batch")
    seq = serializers.IntegerField()
    mention = serializers.CharField()
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    entities = ResolutionEntityOutput(many=True)
    confidence = serializers.FloatField()
    resolved = serializers.BooleanField()
