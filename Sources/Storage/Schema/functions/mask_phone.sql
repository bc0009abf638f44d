CREATE OR REPLACE FUNCTION mask_phone(number text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN number IS NULL THEN NULL ELSE coalesce((
        SELECT string_agg(
                   CASE WHEN c.ch ~ '[[:alnum:]]' AND NOT (c.ch ~ '^[0-9]$' AND c.digits > 6 AND c.from_end <= 4)
                        THEN '*' ELSE c.ch END, '' ORDER BY c.pos)
        FROM (
            SELECT t.ch, t.pos,
                   count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER (ORDER BY t.pos DESC) AS from_end,
                   count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER () AS digits
            FROM regexp_split_to_table(number, '') WITH ORDINALITY AS t(ch, pos)
        ) AS c), '') END
$$;

COMMENT ON FUNCTION mask_phone(text) IS
'Masks a phone number: every letter and digit becomes *, except the last 4 digits of a number with more than 6 digits (+81312345678 -> +*******5678).';
