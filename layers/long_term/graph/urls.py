from django.urls import path

from layers.long_term.graph.apis import GraphNeighboursApi

urlpatterns = [
    path("graph", GraphNeighboursApi.as_view(), name="graph"),
]
