from tests.permanent.conftest import editor, make_staff, reviewer, staff_groups  # noqa: F401
