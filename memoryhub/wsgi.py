import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
application = get_wsgi_application()

# Each web worker loads its models as it starts, not inside the first requests it serves.
from memoryhub.providers import warm_up  # noqa: E402  (needs the settings loaded above)

warm_up()
