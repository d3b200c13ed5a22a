from django.apps import AppConfig
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _


def check_embedding_provider(app_configs=None, **kwargs):
    """Refuse to start with an embedding provider whose vectors do not fit the memory column."""
    from memoryhub.providers.embeddings import build_embedder

    try:
        build_embedder()
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="long_term.E001",
                             hint="Set EMBEDDING_PROVIDER / OPENAI_EMBEDDING_DIMENSIONS to a model of at most 896 dimensions.")]
    return []


class LongTermConfig(AppConfig):
    name = "layers.long_term"
    label = "long_term"
    verbose_name = _("long-term memory")

    def ready(self):
        checks.register(check_embedding_provider, checks.Tags.compatibility)
        # Building the provider is cheap (model weights load lazily); doing it here makes a web or worker
        # process with a mismatched provider fail at start instead of on its first write.
        from memoryhub.providers.embeddings import build_embedder

        build_embedder()
