CREATE OR REPLACE FUNCTION phone_text(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT translate(normalize(value, NFKC), 'ー‐‒–—―−', '-------')
$$;

COMMENT ON FUNCTION phone_text(text) IS
'A value as the phone test reads it: NFKC-normalised (full-width digits, parentheses, spaces and hyphens become ASCII), and the dashes NFKC keeps (ー U+30FC, ‐ U+2010, ‒ U+2012, – U+2013, — U+2014, ― U+2015, − U+2212) read as hyphens. Needs a UTF8 database.';
