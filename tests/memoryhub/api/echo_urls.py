"""The real URLconf plus one echo view, to exercise parsing and validation on their own."""
from django.urls import path
from rest_framework import serializers
from rest_framework.response import Response

from memoryhub.api.views import TenantAPIView
from memoryhub.urls import urlpatterns as real_urlpatterns


class EchoView(TenantAPIView):
    class Input(serializers.Serializer):
        count = serializers.IntegerField(required=False)
        x = serializers.CharField(required=False)

    def post(self, request):
        serializer = self.Input(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.validated_data)


urlpatterns = [path("api/v1/test-echo", EchoView.as_view()), *real_urlpatterns]
handler404 = "memoryhub.api.errors.handler404"
