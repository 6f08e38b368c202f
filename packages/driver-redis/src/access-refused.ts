/**
 * Replies that say the server answered and refused who is asking: retrying with the same url
 * never succeeds, so the fix names what to change instead of the default "recovers by itself".
 */
const ACCESS_FIXES: readonly (readonly [RegExp, string])[] = [
  [
    /^(WRONGPASS|NOAUTH)\b/,
    'the server refused the connection: correct the username and password in url (redis://USER:PASSWORD@host:6379, or redis://:PASSWORD@host:6379 with requirepass); retrying will not help',
  ],
  [
    /^NOPERM\b/,
    "the url's user lacks an ACL permission Berth needs (its keys, EVALSHA and the wake channel): grant it with ACL SETUSER, or use a user that has it; retrying will not help",
  ],
];

/** The fix for a reply that refused the caller, or undefined for any other failure. */
export function accessFix(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  return ACCESS_FIXES.find(([reply]) => reply.test(cause.message))?.[1];
}
