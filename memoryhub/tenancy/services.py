"""Tenants, API keys and staff memberships: creation and revocation, each audited in the same
transaction.

Tenancy sits below the audit app (which records per tenant), so it announces its changes with
`memoryhub.tenancy.signals.tenancy_changed`, sent inside the transaction; audit/receivers.py records
them there, so a change and its event still commit together."""
from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from memoryhub.core.actors import Actor
from memoryhub.core.errors import InvalidInput
from memoryhub.tenancy.models import ApiKey, Membership, Role, Scope, Tenant
from memoryhub.tenancy.signals import tenancy_changed

KEY_PREFIX = "mh"
SECRET_BYTES = 32
# last_used_at is refreshed at most this often, so authentication is not a write per request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class IssuedKey:
    api_key: ApiKey
    plaintext: str  # shown once, never stored


def tenant_creator(actor: Actor) -> str:
    """What a new tenant's `created_by` records for the actor creating it (the commands and the console)."""
    return actor.label[:Tenant.ACTOR_MAX_LENGTH]


def tenant_get_or_create(*, slug: str, actor: Actor, name: str | None = None) -> tuple[Tenant, bool]:
    """The tenant with this slug, created if new; a new tenant records who created it (`created_by`)."""
    clean = slugify(slug)
    if not clean or clean != slug:
        raise InvalidInput(f"tenant slug must be lowercase letters, digits and hyphens: {slug!r}")
    return Tenant.objects.get_or_create(
        slug=clean, defaults={"name": name or clean, "created_by": tenant_creator(actor)})


def time_zone_validate(value, *, field: str = "time_zone") -> str:
    """An IANA zone name, stripped; 400 `invalid_time_zone` on `field` otherwise."""
    def refuse(message: str) -> InvalidInput:
        return InvalidInput(message, code="invalid_time_zone", details={"fields": {field: [message]}})

    if not isinstance(value, str) or not value.strip() or len(value) > Tenant.TIME_ZONE_MAX_LENGTH:
        raise refuse(_("time_zone must be an IANA time zone name such as Asia/Shanghai"))
    try:
        ZoneInfo(value.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise refuse(_("unknown time zone: %(zone)s") % {"zone": value[:64]}) from None
    return value.strip()


@transaction.atomic
def tenant_time_zone_set(*, tenant: Tenant, time_zone: str, actor: Actor) -> Tenant:
    """Set the tenant's time zone (audited as `tenant.time_zone_changed`); the same zone again writes nothing."""
    zone = time_zone_validate(time_zone)
    tenant = Tenant.objects.select_for_update().get(pk=tenant.pk)
    if tenant.time_zone == zone:
        return tenant
    before = {"time_zone": tenant.time_zone}
    tenant.time_zone = zone
    tenant.save(update_fields=["time_zone"])
    tenancy_changed.send(sender=Tenant, tenant_id=tenant.pk, actor=actor, event="tenant.time_zone_changed",
                         object_id=tenant.pk, before=before, after={"time_zone": zone})
    return tenant


@transaction.atomic
def api_key_create(*, tenant: Tenant, name: str, scopes: list[str], actor: Actor, created_by=None) -> IssuedKey:
    unknown = sorted(set(scopes) - set(Scope.values))
    if unknown or not scopes:
        raise InvalidInput(f"unknown or missing scopes: {unknown or scopes}", details={"allowed": Scope.values})
    if not name or len(name) > ApiKey.NAME_MAX_LENGTH:
        raise InvalidInput("a key needs a name of at most %d characters" % ApiKey.NAME_MAX_LENGTH)
    while True:
        prefix = secrets.token_hex(ApiKey.PREFIX_LENGTH // 2)
        if not ApiKey.objects.filter(prefix=prefix).exists():
            break
    secret = secrets.token_urlsafe(SECRET_BYTES)
    api_key = ApiKey.objects.create(
        tenant=tenant, name=name, prefix=prefix, secret_hash=secret_hash(secret),
        scopes=sorted(set(scopes)), created_by=created_by,
    )
    tenancy_changed.send(
        sender=ApiKey, tenant_id=tenant.id, actor=actor, event="api_key.created", object_id=api_key.id, before=None,
        after={"name": name, "prefix": prefix, "scopes": api_key.scopes,
               "created_by": created_by.get_username() if created_by else None},
    )
    return IssuedKey(api_key=api_key, plaintext=f"{KEY_PREFIX}_{prefix}_{secret}")


@transaction.atomic
def api_key_revoke(*, api_key: ApiKey, actor: Actor) -> ApiKey:
    api_key = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    if api_key.revoked_at is not None:
        return api_key
    api_key.revoked_at = timezone.now()
    api_key.save(update_fields=["revoked_at"])
    tenancy_changed.send(
        sender=ApiKey, tenant_id=api_key.tenant_id, actor=actor, event="api_key.revoked",
        object_id=api_key.id, before={"revoked_at": None}, after={"revoked_at": api_key.revoked_at.isoformat()},
    )
    return api_key


def api_key_authenticate(*, presented: str) -> ApiKey | None:
    """The active key matching a presented `mh_<prefix>_<secret>`, or None."""
    parts = presented.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX or len(parts[1]) != ApiKey.PREFIX_LENGTH:
        return None
    api_key = _api_key_with_tenant(prefix=parts[1])
    if api_key is None or api_key.revoked_at is not None:
        return None
    if not secrets.compare_digest(api_key.secret_hash, secret_hash(parts[2])):
        return None
    now = timezone.now()
    if api_key.last_used_at is None or now - api_key.last_used_at > LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        api_key.last_used_at = now
    return api_key


@functools.cache
def _api_key_with_tenant_sql() -> tuple[str, list[str], list[str]]:
    """The key-and-tenant lookup, written once from the models' own columns (so none is forgotten)."""
    key_fields, tenant_fields = ApiKey._meta.concrete_fields, Tenant._meta.concrete_fields
    columns = [f'k."{f.column}"' for f in key_fields] + [f't."{f.column}"' for f in tenant_fields]
    sql = (f"SELECT {', '.join(columns)} FROM {ApiKey._meta.db_table} k "
           f'JOIN {Tenant._meta.db_table} t ON t."{Tenant._meta.pk.column}" = k."{ApiKey.tenant.field.column}" '
           f'WHERE k."{ApiKey._meta.get_field("prefix").column}" = %s')
    return sql, [f.attname for f in key_fields], [f.attname for f in tenant_fields]


def _api_key_with_tenant(*, prefix: str) -> ApiKey | None:
    """The key with this prefix and its tenant, from one row. This runs before every API request, where
    building the equivalent select_related query through the ORM cost more than the database did."""
    sql, key_names, tenant_names = _api_key_with_tenant_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [prefix])
        row = cursor.fetchone()
    if row is None:
        return None
    api_key = ApiKey.from_db(connection.alias, key_names, row[:len(key_names)])
    ApiKey.tenant.field.set_cached_value(api_key, Tenant.from_db(connection.alias, tenant_names,
                                                                 row[len(key_names):]))
    return api_key


@dataclass(frozen=True)
class MembershipChange:
    membership_id: int | None
    changed: bool  # False when the role was already held (grant) or not held (revoke)


def _role(role: str) -> str:
    if role not in Role.values:
        raise InvalidInput(f"unknown role {role!r}", code="invalid_role", details={"allowed": Role.values})
    return role


@transaction.atomic
def membership_grant(*, user, tenant: Tenant, role: str, actor: Actor) -> MembershipChange:
    """Give a staff user a role in a tenant. Makes them staff (the console needs it to let them in);
    the console's receiver puts them in the role's group (memoryhub/console/apps.py). Granting a role
    already held changes and records nothing."""
    role = _role(role)
    membership, created = Membership.objects.get_or_create(user=user, tenant=tenant, role=role)
    became_staff = False
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        became_staff = True
    if created or became_staff:
        tenancy_changed.send(
            sender=Membership, tenant_id=tenant.id, actor=actor, event="membership.granted",
            object_id=membership.id, before=None,
            after={"user": user.get_username(), "user_pk": user.pk, "role": role, "became_staff": became_staff},
        )
    return MembershipChange(membership_id=membership.id, changed=created or became_staff)


@transaction.atomic
def membership_revoke(*, user, tenant: Tenant, role: str, actor: Actor) -> MembershipChange:
    """Take a role back. A user left with no role anywhere (and not a superuser) loses staff status
    too, so no login to the console remains that sees nothing and was forgotten."""
    role = _role(role)
    membership = Membership.objects.select_for_update().filter(user=user, tenant=tenant, role=role).first()
    if membership is None:
        return MembershipChange(membership_id=None, changed=False)
    membership_id = membership.id
    membership.delete()
    left_staff = False
    if user.is_staff and not user.is_superuser and not Membership.objects.filter(user=user).exists():
        user.is_staff = False
        user.save(update_fields=["is_staff"])
        left_staff = True
    tenancy_changed.send(
        sender=Membership, tenant_id=tenant.id, actor=actor, event="membership.revoked", object_id=membership_id,
        before={"user": user.get_username(), "user_pk": user.pk, "role": role},
        after={"left_staff": left_staff},
    )
    return MembershipChange(membership_id=membership_id, changed=True)
