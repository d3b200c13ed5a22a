from tests.permanent.conftest import (  # noqa: F401  (fixtures shared with the permanent tests)
    auditor, editor, make_staff, reviewer, reviewer2, staff_groups,
)
