/**
 * The savepoint a statement that can meet a unique violation runs under on an app's executor:
 * rolling back to it (and releasing it) undoes that statement alone, so the app's transaction
 * stays usable. Nested uses are safe: each name refers to the most recent savepoint.
 */
export const SAVEPOINT = 'SAVEPOINT berth_guard';
export const ROLLBACK_TO_SAVEPOINT = 'ROLLBACK TO SAVEPOINT berth_guard';
export const RELEASE_SAVEPOINT = 'RELEASE SAVEPOINT berth_guard';
