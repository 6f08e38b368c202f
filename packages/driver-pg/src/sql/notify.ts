/**
 * The listening connection's statements. Channel names are identifiers, so the channel (made
 * from the validated schema name) is quoted into the text; NOTIFY itself is sent with
 * pg_notify($n) in the statements that make work or settle jobs.
 */
export const listenSql = (channel: string): string => `LISTEN "${channel}"`;

export const unlistenSql = (channel: string): string => `UNLISTEN "${channel}"`;
