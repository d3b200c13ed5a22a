from django.db import migrations

# A version's content never changes; only the bookkeeping link to its change request may be nulled
# (erasure deletes requests before the versions of the same entry).
FORWARD = """
CREATE OR REPLACE FUNCTION permanent_version_refuse_update() RETURNS trigger AS $$
BEGIN
    IF NEW.entry_id IS DISTINCT FROM OLD.entry_id OR NEW.number IS DISTINCT FROM OLD.number
       OR NEW.value IS DISTINCT FROM OLD.value OR NEW.value_hash IS DISTINCT FROM OLD.value_hash
       OR NEW.action IS DISTINCT FROM OLD.action OR NEW.approved_by IS DISTINCT FROM OLD.approved_by
       OR NEW.proposed_by IS DISTINCT FROM OLD.proposed_by
       OR NEW.effective_from IS DISTINCT FROM OLD.effective_from THEN
        RAISE EXCEPTION 'permanent versions are immutable' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER permanent_version_immutable
    BEFORE UPDATE ON permanent_permanentversion
    FOR EACH ROW EXECUTE FUNCTION permanent_version_refuse_update();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS permanent_version_immutable ON permanent_permanentversion;
DROP FUNCTION IF EXISTS permanent_version_refuse_update();
"""


class Migration(migrations.Migration):
    dependencies = [("permanent", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
