"""Scraping GET /metrics and reading how far a counter moved between two scrapes. Counters live in
Redis across tests, so every assertion is on a difference."""
from __future__ import annotations

from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families

TOKEN = "scrape-token-0123456789"


def scrape() -> dict:
    with override_settings(METRICS_TOKEN=TOKEN):
        response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def moved(before: dict, after: dict, name: str, **labels) -> float:
    return value(after, name, **labels) - value(before, name, **labels)
