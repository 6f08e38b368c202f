/**
 * The event filter `events.find` and a suspend's `eventsSince` check share, for events alias
 * `e`: the payload is an object holding each top-level key of `match` (a jsonb parameter or
 * NULL) with an equal value (jsonb equality is deep), and the id is not in `exclude` (a uuid[]
 * parameter or NULL).
 */
export const eventCounts = (e: string, match: string, exclude: string) => `
        (${match}::jsonb IS NULL OR (
          json_typeof(${e}.payload) = 'object'
          AND NOT EXISTS (
            SELECT 1 FROM jsonb_each(${match}::jsonb) m
            WHERE NOT (${e}.payload::jsonb ? m.key AND (${e}.payload::jsonb -> m.key) = m.value))))
        AND (${exclude}::uuid[] IS NULL OR NOT (${e}.id = ANY(${exclude}::uuid[])))`;
