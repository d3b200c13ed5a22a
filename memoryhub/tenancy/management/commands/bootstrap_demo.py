import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from memoryhub.core.actors import Actor
from memoryhub.core.config import DATA_DIR
from memoryhub.tenancy.models import Membership, Role
from memoryhub.tenancy.services import api_key_create, tenant_get_or_create


class Command(BaseCommand):
    help = "Create the demo tenant, an admin login and a fresh demo API key, and print them."

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")

    def handle(self, *args, **options):
        tenant, _ = tenant_get_or_create(slug="demo", name="Demo tenant", actor=Actor.system("make.run"))
        User = get_user_model()
        password_file = DATA_DIR / "admin-password"
        admin = User.objects.filter(username="admin").first()
        if admin is None:
            password = secrets.token_urlsafe(12)
            admin = User.objects.create_superuser("admin", "admin@example.invalid", password)
            DATA_DIR.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password)
            password_file.chmod(0o600)
        Membership.objects.get_or_create(user=admin, tenant=tenant, role=Role.EDITOR)
        password = password_file.read_text().strip() if password_file.exists() else "(unchanged; set with changepassword)"
        issued = api_key_create(tenant=tenant, name="demo key (make run)", scopes=["read", "write", "propose", "admin"],
                                actor=Actor.system("make.run"), created_by=None)
        base = f"http://127.0.0.1:{options['port']}"
        self.stdout.write(
            "\n".join([
                "",
                "  memoryhub demo",
                f"  API key (tenant 'demo', shown once): {issued.plaintext}",
                f"  admin: {base}/admin/  login admin / {password}",
                f"  docs:  {base}/api/docs/",
                f"  try:   curl -H 'Authorization: Bearer {issued.plaintext}' {base}/api/v1/whoami",
                "",
            ])
        )
