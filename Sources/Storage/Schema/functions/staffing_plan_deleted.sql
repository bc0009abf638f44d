CREATE OR REPLACE FUNCTION staffing_plan_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM staffing_plan_interval i USING deleted d WHERE i.plan_id = d.plan_id;
    RETURN NULL;
END
$$;
