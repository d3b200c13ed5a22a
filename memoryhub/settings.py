"""Django settings for memoryhub, from environment variables only (see memoryhub.core.config).

`DEBUG` defaults to on for the local embedded run; production sets `DEBUG=false`, a real
`SECRET_KEY`, `ALLOWED_HOSTS` and gets the secure defaults below (`manage.py check --deploy` is clean).
"""
from __future__ import annotations

from datetime import timedelta

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from memoryhub.core.config import (
    BASE_DIR,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_str,
)

DEBUG = env_bool("DEBUG", True)
_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else None)
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "memoryhub.tenancy",
    "memoryhub.outbox",
    "memoryhub.mcp",
    "audit",
    "permanent",
    "layers.transient",
    "layers.short_term",
    "layers.long_term",
    "layers.long_term.graph",  # its relation graph: own tables, part of the long-term room
    "layers.formation",
    "layers.forgetting",
    "layers.context",
    "layers.erasure",
    "layers.reminders",
    # Last: its post_migrate grants the staff groups every other app's permissions.
    "memoryhub.console",
]

MIDDLEWARE = [
    "memoryhub.api.metrics.LatencyMiddleware",  # first, so it times everything below
    "memoryhub.api.middleware.RequestIdMiddleware",
    "memoryhub.api.middleware.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "memoryhub.urls"
WSGI_APPLICATION = "memoryhub.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = env_str("DATABASE_URL")
if not DATABASE_URL:
    raise ImproperlyConfigured(
        "DATABASE_URL is not set and no embedded server is running; start one with `make run`"
    )
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
# Names another database on DATABASE_URL's server (the tests' workers use it to reach the test database).
if env_str("DATABASE_NAME"):
    DATABASES["default"]["NAME"] = env_str("DATABASE_NAME")
DATABASES["default"].setdefault("OPTIONS", {})
# Django turns psycopg's prepared statements off for every connection. The ORM never prepares (it binds
# client-side), but the long-term search asks for its one statement to be prepared: planning its CTEs
# costs more than running them for one user's rows. Set DB_PREPARED_STATEMENTS=false behind a
# transaction-mode pooler (PgBouncer < 1.21), which cannot keep a statement across transactions.
# (psycopg would prepare any query run this many times; only prepare=True statements get there.)
PREPARE_ONLY_WHEN_ASKED = 1_000_000
if env_bool("DB_PREPARED_STATEMENTS", True):
    DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", PREPARE_ONLY_WHEN_ASKED)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# A database that does not answer costs a connection attempt this long, not a hung thread (health).
DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5))
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME", "test_memoryhub")}
# Behind a transaction-mode pooler a server-side cursor (QuerySet.iterator) cannot outlive its transaction.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool("DB_DISABLE_SERVER_SIDE_CURSORS", False)
# An optional streaming replica: searches read it unless their caller just wrote (memoryhub/core/db_router.py).
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {**dj_database_url.parse(DATABASE_REPLICA_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60)),
                            "OPTIONS": dict(DATABASES["default"]["OPTIONS"]), "CONN_HEALTH_CHECKS": True,
                            "DISABLE_SERVER_SIDE_CURSORS": DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"],
                            "TEST": {"MIRROR": "default"}}
DATABASE_ROUTERS = ["memoryhub.core.db_router.PrimaryReplicaRouter"]
DB_READ_YOUR_WRITES_SECONDS = env_float("DB_READ_YOUR_WRITES_SECONDS", 5.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
if not REDIS_URL:
    raise ImproperlyConfigured("REDIS_URL is not set and no embedded server is running; start one with `make run`")
# Short socket timeouts: when Redis is down, requests that do not need it must still answer quickly.
REDIS_SOCKET_TIMEOUT = env_float("REDIS_SOCKET_TIMEOUT", 0.5)
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "mh"),
        "OPTIONS": {
            "socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
            "socket_timeout": REDIS_SOCKET_TIMEOUT,
        },
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = env_str("LANGUAGE_CODE", "en")
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Request bodies over this size answer 413 before any parsing.
MAX_REQUEST_BODY_BYTES = env_int("MAX_REQUEST_BODY_BYTES", 2 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["memoryhub.tenancy.auth.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["memoryhub.tenancy.auth.HasTenantKey"],
    "DEFAULT_PARSER_CLASSES": ["memoryhub.api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "memoryhub.api.schema.PublicAutoSchema",
    "EXCEPTION_HANDLER": "memoryhub.api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["memoryhub.api.throttling.ApiKeyRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"api_key": env_rate("API_RATE_LIMIT", "6000/min")},
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "memoryhub API",
    "DESCRIPTION": "Layered memory for LLM agents: transient, short-term, long-term and permanent.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # one schema build at a time per process (drf-spectacular resolves its extensions lazily, not thread-safely)
    "DEFAULT_GENERATOR_CLASS": "memoryhub.api.schema.SerialSchemaGenerator",
    # Enums as drf-spectacular does by default, then a request example for every body (memoryhub/api/examples.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "memoryhub.api.examples.add_request_examples"],
    # One tag per layer (memoryhub.api.schema.TAGS gives each view's), in the order a client meets them.
    "TAGS": [
        {"name": "service", "description": "Health and the calling key."},
        {"name": "short-term", "description": "Sessions, their turns and the recent window."},
        {"name": "long-term", "description": "Memories of one end user: write, search, feedback."},
        {"name": "context", "description": "The prompt blocks of every layer, within a token budget."},
        {"name": "transient", "description": "Task state: typed slots and the sub-task stack."},
        {"name": "permanent", "description": "Rules and settings that change only by approved change requests."},
        {"name": "erasure", "description": "Export and erasure of one end user across every layer."},
        {"name": "reminders", "description": "Reminders and scheduled intents: created directly or from turns, "
                                             "delivered to the tenant's signed webhook or polled."},
    ],
    # One schema name per choice set, whatever the field is called in a given serializer.
    "ENUM_NAME_OVERRIDES": {
        "MemoryKindEnum": "layers.long_term.models.MemoryKind",
        "MemorySourceEnum": "layers.long_term.models.MemorySource",
        "MemoryStatusEnum": "layers.long_term.models.MemoryStatus",
        "SessionStatusEnum": "layers.short_term.models.SessionStatus",
        "TurnRoleEnum": "layers.short_term.models.TurnRole",
        "TaskStatusEnum": "layers.transient.models.TaskStatus",
        "PermanentEntryStatusEnum": "permanent.models.EntryStatus",
        "ChangeActionEnum": "permanent.models.ChangeAction",
        "ChangeOriginEnum": "permanent.models.ChangeOrigin",
        "ChangeStateEnum": "permanent.models.ChangeState",
        "ScopeEnum": "memoryhub.tenancy.models.Scope",
    },
}

# Celery: configured from these settings (namespace CELERY), JSON only, late acks.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", REDIS_URL)
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_RESULT_EXPIRES = timedelta(hours=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A stalled Redis (stopped, a full network path, a failover in progress) accepts connections into its
# backlog and answers nothing: without read timeouts every publish, ping or result read waits forever
# (a request publishing after commit hung until its client gave up). Every connection to it therefore
# has a read timeout: the broker's and the result backend's here, the cache's and redis_client()'s
# above. The broker's is longer than kombu's 1 s BRPOP so an idle worker's poll never times out.
CELERY_BROKER_SOCKET_TIMEOUT = env_float("CELERY_BROKER_SOCKET_TIMEOUT", 1.5)
# With Redis as broker a task whose worker died comes back only after this timeout.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "socket_timeout": CELERY_BROKER_SOCKET_TIMEOUT,
    "socket_connect_timeout": REDIS_SOCKET_TIMEOUT * 4,
    "retry_on_timeout": False,
    # A killed worker's unacked task is looked for every 10 s (kombu's default scans only every
    # 10th sweep, ~100 s), so redelivery follows the visibility timeout closely.
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
# Publishing happens after commit on the request path: fail fast and leave the work in the outbox.
CELERY_BROKER_CONNECTION_TIMEOUT = env_float("CELERY_BROKER_CONNECTION_TIMEOUT", 2.0)
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_REDIS_SOCKET_TIMEOUT = CELERY_BROKER_SOCKET_TIMEOUT
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_SOCKET_TIMEOUT * 4
CELERY_REDIS_RETRY_ON_TIMEOUT = False
# The longest one step of a publish after commit may wait (memoryhub/outbox/services.py): then the
# request answers and the outbox row waits for the sweeper.
OUTBOX_PUBLISH_TIMEOUT = env_float("OUTBOX_PUBLISH_TIMEOUT", 0.5)
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "memoryhub")
# Queues per job type, e.g. "formation.*=formation,reminders.*=delivery" (docs/deploy.md); unset, every job
# goes to CELERY_QUEUE. Outbox relays and beat entries are routed the same way.
CELERY_TASK_ROUTES = {pattern.strip(): {"queue": queue.strip()}
                      for pattern, _sep, queue in (pair.partition("=") for pair in env_list("CELERY_TASK_ROUTES", []))}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_ALWAYS_EAGER = False

# How long the health check waits for a worker to answer a ping.
HEALTH_WORKER_TIMEOUT = env_float("HEALTH_WORKER_TIMEOUT", 1.0)
# Bearer token a Prometheus scraper sends to GET /metrics; unset, /metrics is open on loopback with DEBUG
# only (memoryhub/api/metrics.py).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")

# Providers (filled in by the layers that use them).
# local (= use: multilingual USE), use-minilm (USE + MiniLM, 896-d) or openai; memoryhub/providers/embeddings.py
EMBEDDING_PROVIDER = env_str("EMBEDDING_PROVIDER", "local")
EMBEDDING_DIMENSIONS = 896  # the memory column, halfvec(896) (layers/long_term migration 0009)
# what the openai provider asks the endpoint for (at most EMBEDDING_DIMENSIONS; zero-padded to the column)
OPENAI_EMBEDDING_DIMENSIONS = env_int("OPENAI_EMBEDDING_DIMENSIONS", 512)
OPENAI_BASE_URL = env_str("OPENAI_BASE_URL")
OPENAI_API_KEY = env_str("OPENAI_API_KEY")
OPENAI_EMBEDDING_MODEL = env_str("OPENAI_EMBEDDING_MODEL", "text-embedding-3-small")
OPENAI_CHAT_MODEL = env_str("OPENAI_CHAT_MODEL", "gpt-4o-mini")
OPENAI_TIMEOUT = env_float("OPENAI_TIMEOUT", 30.0)
OPENAI_MAX_RETRIES = env_int("OPENAI_MAX_RETRIES", 2)

# Audit pseudonyms and digests are keyed with per-user secrets; this key wraps nothing, it only
# separates the audit digests of different deployments.
AUDIT_DIGEST_PEPPER = env_str("AUDIT_DIGEST_PEPPER", SECRET_KEY)
# Seals each tenant's audit chain head (audit/models.py AuditHead), so deleting the newest events is
# found even by someone who can write to the database: keep it out of the database and its backups
# (it is not derived from SECRET_KEY, which the same people often hold). Rotating: set the new key and
# list the old one in AUDIT_HEAD_PREVIOUS_KEYS until every tenant appended once (README, "Deployment").
_DEV_AUDIT_HEAD_KEY = "dev-only-audit-head-key-do-not-use-in-production"
AUDIT_HEAD_KEY = env_str("AUDIT_HEAD_KEY", _DEV_AUDIT_HEAD_KEY if DEBUG else None)
if not AUDIT_HEAD_KEY or (not DEBUG and AUDIT_HEAD_KEY == _DEV_AUDIT_HEAD_KEY):
    raise ImproperlyConfigured("AUDIT_HEAD_KEY must be set when DEBUG is off")
AUDIT_HEAD_PREVIOUS_KEYS = env_list("AUDIT_HEAD_PREVIOUS_KEYS", [])

LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # The MCP SDK logs a stateless HTTP request's start and end at INFO (memoryhub/mcp/apis.py: three lines each).
    "loggers": {"django.db.backends": {"level": "WARNING"}, "mcp": {"level": "WARNING"}},
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
