"""Who did something: a staff user, an API key, or a system job."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    kind: str  # "user" | "api_key" | "system"
    id: str
    label: str
    # For an API key: the staff user who created it (a key's creator can never approve its proposals).
    created_by_user_id: int | None = None

    USER = "user"
    API_KEY = "api_key"
    SYSTEM = "system"

    @classmethod
    def for_user(cls, user) -> "Actor":
        return cls(kind=cls.USER, id=str(user.pk), label=user.get_username())

    @classmethod
    def for_api_key(cls, api_key) -> "Actor":
        return cls(kind=cls.API_KEY, id=str(api_key.pk), label=f"{api_key.name} (mh_{api_key.prefix})",
                   created_by_user_id=api_key.created_by_id)

    @classmethod
    def system(cls, job: str) -> "Actor":
        return cls(kind=cls.SYSTEM, id=job, label=job)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "id": self.id, "label": self.label}
