-- Written by hand (drizzle-kit writes no functions). Depends on 0002.
-- A pair of characters that a query holds more than once must be held as often by a name that contains it, counting
-- overlapping occurrences: "99999" holds "99" four times. The name's grams now count their pairs: the first "99" is
-- "99", the second "99#2", and so on. A query then needs each of its pairs as often as it holds them, so a query
-- whose only pair is common but repeated (99999: 99, 99#2, 99#3, 99#4) narrows to the few names that repeat it as
-- often, where the uncounted pair alone let thousands of names through to the LIKE recheck. A counted gram is three
-- characters or more, so it is never taken for a name's own character or pair. Single characters are not counted:
-- only a one-character query uses them.
CREATE OR REPLACE FUNCTION document_name_grams(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 10000 AS $$
  SELECT coalesce(array_agg(DISTINCT g.gram), '{}')
  FROM (
    SELECT substr(s.l, i, 1) AS gram FROM (SELECT lower(name) AS l) s, generate_series(1, char_length(s.l)) i
    UNION ALL
    SELECT CASE WHEN p.k = 1 THEN p.pair ELSE p.pair || '#' || p.k END
    FROM (SELECT substr(s.l, i, 2) AS pair, row_number() OVER (PARTITION BY substr(s.l, i, 2) ORDER BY i) AS k
          FROM (SELECT lower(name) AS l) s, generate_series(1, char_length(s.l) - 1) i) p
  ) g
$$;
--> statement-breakpoint
-- What a query must find among a name's grams: its pairs, each counted as above, or its one character.
CREATE OR REPLACE FUNCTION document_name_query_grams(query text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN char_length(s.l) < 2 THEN ARRAY[s.l]
    ELSE (SELECT array_agg(DISTINCT CASE WHEN p.k = 1 THEN p.pair ELSE p.pair || '#' || p.k END)
          FROM (SELECT substr(s.l, i, 2) AS pair, row_number() OVER (PARTITION BY substr(s.l, i, 2) ORDER BY i) AS k
                FROM generate_series(1, char_length(s.l) - 1) i) p) END
  FROM (SELECT lower(query) AS l) s
$$;
--> statement-breakpoint
-- The index holds what the old function returned: rebuilt from the new one.
REINDEX INDEX documents_name_grams_idx;
