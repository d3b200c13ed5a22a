"""Session API: open, read, end; append and list turns; the prompt window.

Semantics of closed sessions: an ended or expired session can still be read (session, turns,
window) but takes no more turns (409 `session_ended` / `session_expired`). Opening an existing
session id again returns it unchanged (200), whatever its status; a client that wants to continue
after an end opens a new session id.
"""
from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from layers.short_term.models import Session, Turn, TurnRole
from layers.short_term.policy import MAX_WINDOW_TURNS
from layers.short_term.selectors import (
    MAX_WINDOW_TOKENS,
    session_get,
    session_window,
    turn_list,
    window_limit_error,
)
from layers.short_term.serializers import SessionOutput, TurnOutput
from layers.short_term.services import session_end, session_open, turns_append_to
from memoryhub.api.pagination import paginate_keyset
from memoryhub.api.schema import errors
from memoryhub.api.serializers import InputSerializer, UserIdField
from memoryhub.api.views import TenantAPIView


class SessionOpenApi(TenantAPIView):
    class SessionOpenInput(InputSerializer):
        session_id = serializers.CharField(max_length=Session.SESSION_ID_MAX_LENGTH)
        user_id = UserIdField(max_length=Session.USER_ID_MAX_LENGTH)
        agent_id = serializers.CharField(max_length=Session.AGENT_ID_MAX_LENGTH, required=False, allow_blank=True)
        metadata = serializers.DictField(required=False)

    @extend_schema(
        summary="Open a session (idempotent on session_id)",
        description="Creates the session (201) or returns the existing one with this id (200), whatever "
                    "its status. The same id for another user_id is a 409 `session_user_mismatch`. "
                    "session_id: letters, digits and . _ : @ - (it appears in URLs).",
        request=SessionOpenInput, responses={201: SessionOutput, 200: SessionOutput, **errors(400, 409, 413)},
    )
    def post(self, request):
        data = self.SessionOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        session, created = session_open(tenant=self.tenant, actor=self.actor, **data.validated_data)
        return Response(SessionOutput(session).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SessionDetailApi(TenantAPIView):
    @extend_schema(summary="Read a session", responses={200: SessionOutput, **errors(404)})
    def get(self, request, session_id: str):
        return Response(SessionOutput(session_get(tenant=self.tenant, session_id=session_id)).data)


class SessionEndApi(TenantAPIView):
    @extend_schema(
        summary="End a session",
        description="Active → ended (audited; extraction and summarising follow). Ending an ended session "
                    "returns it unchanged; an expired session answers 409 `session_expired`.",
        request=None, responses={200: SessionOutput, **errors(404, 409)},
    )
    def post(self, request, session_id: str):
        session = session_get(tenant=self.tenant, session_id=session_id)
        return Response(SessionOutput(session_end(session=session, actor=self.actor)).data)


class AppendedTurnOutput(TurnOutput):
    created = serializers.SerializerMethodField()

    class Meta(TurnOutput.Meta):
        fields = [*TurnOutput.Meta.fields, "created"]

    def get_created(self, obj) -> bool:
        return self.context["created"][obj.pk]


class SessionTurnsApi(TenantAPIView):
    class TurnsAppendInput(InputSerializer):
        class TurnsAppendItem(InputSerializer):
            role = serializers.ChoiceField(choices=TurnRole.choices)
            # Length is checked by the service against Turn.CONTENT_MAX_CHARS (413, not 400).
            content = serializers.CharField(trim_whitespace=False, allow_blank=True)
            tool_name = serializers.CharField(required=False, allow_blank=True, max_length=Turn.TOOL_NAME_MAX_LENGTH)
            client_id = serializers.CharField(required=False, allow_blank=True, allow_null=True,
                                              max_length=Turn.CLIENT_ID_MAX_LENGTH)
            # Parsed by the service (one rule for every caller: ISO 8601 with a time zone).
            occurred_at = serializers.CharField(
                required=False, help_text="When it was said (ISO 8601 with a time zone), for imported or replayed "
                                          "conversations; dates the memories formed from it. Default: now.")

        turns = TurnsAppendItem(many=True)

    class TurnsAppendOutput(serializers.Serializer):
        session = SessionOutput()
        turns = AppendedTurnOutput(many=True)
        created = serializers.IntegerField()
        replayed = serializers.IntegerField()
        redactions = inline_serializer("TurnRedaction", {
            "index": serializers.IntegerField(), "kind": serializers.CharField()}, many=True)
        # Filled by the working-memory layer through the append annotators (layers/transient/apps.py).
        resolutions = inline_serializer("TurnResolution", {
            "index": serializers.IntegerField(), "seq": serializers.IntegerField(),
            "mention": serializers.CharField(), "start": serializers.IntegerField(), "end": serializers.IntegerField(),
            "entities": inline_serializer("TurnResolutionEntity", {
                "id": serializers.IntegerField(allow_null=True), "name": serializers.CharField(),
                "type": serializers.CharField()}, many=True),
            "confidence": serializers.FloatField(), "resolved": serializers.BooleanField()}, many=True)
        # Filled by the reminders room through the append annotators (layers/reminders/apps.py).
        reminders = inline_serializer("TurnReminder", {
            "action": serializers.ChoiceField(choices=["created", "cancelled", "amended", "fulfilled"]),
            "reminder_id": serializers.IntegerField(), "turn_seq": serializers.IntegerField(),
            "text": serializers.CharField(), "due_at": serializers.DateTimeField(),
            "recurrence": serializers.CharField(), "status": serializers.CharField()}, many=True)


    class TurnListOutput(serializers.Serializer):
        results = TurnOutput(many=True)
        next_cursor = serializers.CharField(allow_null=True)

    @extend_schema(
        summary="Append turns (batch, in order)",
        description=f"All or nothing, at most {Turn.BATCH_MAX_TURNS} turns of at most {Turn.CONTENT_MAX_CHARS} "
                    "characters (413 `batch_too_large` / `turn_too_large`). A turn whose client_id is already "
                    "stored is returned as stored (`created: false`) and not added again; the same client_id "
                    "with other content is a 409 `client_id_reused`. Secrets are redacted before storage "
                    "unless the tenant turned that off; `redactions` says what was redacted. 201 when "
                    "anything was stored, 200 for a pure retry. Ended/expired sessions answer 409. "
                    "The body may also be a bare list of turns or a single turn object. `resolutions`: each "
                    "pronoun or demonstrative of a new user turn (它, 那家, she, the blue one, those two, there) "
                    "with the latest compatible entity of the session's working memory and a confidence "
                    "(`resolved: false` when nothing compatible was mentioned or confidence is low). `reminders`: what "
                    "the new user turns did to the user's reminders (created, cancelled, amended, fulfilled).",
        request=TurnsAppendInput, responses={201: TurnsAppendOutput, 200: TurnsAppendOutput, **errors(400, 404, 409, 413)},
    )
    def post(self, request, session_id: str):
        body = request.data
        # Also accepted: a bare list of turns, or one turn object on its own.
        if isinstance(body, list):
            body = {"turns": body}
        elif isinstance(body, dict) and "turns" not in body and "role" in body:
            body = {"turns": [body]}
        data = self.TurnsAppendInput(data=body)
        data.is_valid(raise_exception=True)
        # The session is read by the append's lock (404 when the tenant has none by this id).
        result = turns_append_to(tenant=self.tenant, session_id=session_id, turns=data.validated_data["turns"],
                                 actor=self.actor)
        context = {"created": {item.turn.pk: item.created for item in result.turns}}
        body = {
            "session": SessionOutput(result.session).data,
            "turns": AppendedTurnOutput([item.turn for item in result.turns], many=True, context=context).data,
            "created": result.created_count,
            "replayed": len(result.turns) - result.created_count,
            "redactions": result.redactions,
            "resolutions": result.annotations.get("resolutions", []),
            "reminders": result.annotations.get("reminders", []),
        }
        return Response(body, status=status.HTTP_201_CREATED if result.created_count else status.HTTP_200_OK)

    @extend_schema(
        summary="List turns (oldest first, cursor paginated)",
        parameters=[OpenApiParameter("cursor", str, required=False), OpenApiParameter("limit", int, required=False)],
        responses={200: TurnListOutput, **errors(400, 404)},
    )
    def get(self, request, session_id: str):
        session = session_get(tenant=self.tenant, session_id=session_id)
        rows, next_cursor = paginate_keyset(turn_list(session=session), params=request.query_params, field="seq")
        return Response({"results": TurnOutput(rows, many=True).data, "next_cursor": next_cursor})


def _int_param(params, name: str, high: int) -> int | None:
    raw = params.get(name)
    if raw in (None, ""):
        return None
    try:
        return int(raw)
    except ValueError:
        raise window_limit_error(name, high) from None


class SessionWindowApi(TenantAPIView):
    class SessionWindowOutput(serializers.Serializer):
        class WindowSummaryOutput(serializers.Serializer):
            version = serializers.IntegerField()
            covers_up_to = serializers.IntegerField()
            content = serializers.CharField()
            token_count = serializers.IntegerField()
            truncated = serializers.BooleanField()
            summariser = serializers.CharField()
            created_at = serializers.DateTimeField()

        class WindowTurnOutput(serializers.Serializer):
            seq = serializers.IntegerField()
            role = serializers.CharField()
            content = serializers.CharField()
            token_count = serializers.IntegerField()
            truncated = serializers.BooleanField()
            stored_token_count = serializers.IntegerField()
            tool_name = serializers.CharField()
            created_at = serializers.DateTimeField()

        session_id = serializers.CharField()
        status = serializers.CharField()
        summary = WindowSummaryOutput(allow_null=True)
        turns = WindowTurnOutput(many=True)
        token_count = serializers.IntegerField()
        max_turns = serializers.IntegerField()
        max_tokens = serializers.IntegerField(allow_null=True)

    @extend_schema(
        summary="The prompt window: latest summary plus the newest turns after it",
        description="Turns after the summary's covers_up_to, newest kept first, returned oldest first, within "
                    "max_turns (default 15) and max_tokens (bounds summary + turns). A turn too long for its "
                    "share of the budget appears truncated (`truncated: true`); storage is unchanged.",
        parameters=[OpenApiParameter("max_turns", int, required=False),
                    OpenApiParameter("max_tokens", int, required=False)],
        responses={200: SessionWindowOutput, **errors(400, 404)},
    )
    def get(self, request, session_id: str):
        session = session_get(tenant=self.tenant, session_id=session_id)
        window = session_window(session=session, max_turns=_int_param(request.query_params, "max_turns", MAX_WINDOW_TURNS),
                                max_tokens=_int_param(request.query_params, "max_tokens", MAX_WINDOW_TOKENS))
        summary = None
        if window.summary is not None:
            summary = {"version": window.summary.version, "covers_up_to": window.summary.covers_up_to,
                       "content": window.summary_content, "token_count": window.summary_token_count,
                       "truncated": window.summary_truncated, "summariser": window.summary.summariser,
                       "created_at": window.summary.created_at}
        body = {
            "session_id": session.session_id, "status": session.status, "summary": summary,
            "turns": [{"seq": item.turn.seq, "role": item.turn.role, "content": item.content,
                       "token_count": item.token_count, "truncated": item.truncated,
                       "stored_token_count": item.turn.token_count, "tool_name": item.turn.tool_name,
                       "created_at": item.turn.created_at} for item in window.turns],
            "token_count": window.token_count, "max_turns": window.max_turns, "max_tokens": window.max_tokens,
        }
        return Response(self.SessionWindowOutput(body).data)
