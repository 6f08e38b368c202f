/**
 * Errors that say the server answered and refused who is asking: retrying with the same servers
 * url never succeeds, so the fix names what to change instead of the default "recovers by itself".
 * Matched by the NATS client's error class names.
 */
const ACCESS_FIXES: Readonly<Record<string, string>> = {
  AuthorizationError:
    'the server refused the connection: correct the user and password (or token) in servers (nats://USER:PASSWORD@host:4222), or pass the credentials the server requires; retrying will not help',
  UserAuthenticationExpiredError:
    'the credentials in servers have expired: renew them (a fresh JWT or token) and connect again; retrying with these will not help',
  PermissionViolationError:
    "the user lacks the permissions Berth needs (publish and subscribe on the prefix's subjects, the JetStream API): grant them in the server's authorization, or connect as a user that has them; retrying will not help",
};

/**
 * The fix for an error that refused the caller, or undefined for any other failure. A refused
 * request comes wrapped (a RequestError whose cause is the refusal), so causes are looked through.
 */
export function accessFix(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth += 1) {
    const fix = ACCESS_FIXES[cause.name];
    if (fix !== undefined) return fix;
    cause = cause.cause;
  }
  return undefined;
}
