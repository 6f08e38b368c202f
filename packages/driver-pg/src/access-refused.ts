import { driverUnavailable } from '@berth/core/driver';

/**
 * SQLSTATEs that say the server answered and refused who is asking or what for: retrying the
 * same connection string never succeeds, so the fix names what to change instead of the
 * default "recovers by itself".
 */
const ACCESS_FIXES: Readonly<Record<string, (schema: string) => string>> = {
  // invalid_password, invalid_authorization_specification (unknown role, no pg_hba.conf entry)
  '28P01': () => ROLE_FIX,
  '28000': () => ROLE_FIX,
  // invalid_catalog_name
  '3D000': () =>
    'the database named in the connection string does not exist on that server: correct the database in connectionString (or PGDATABASE), or create it (createdb <name>); retrying will not help',
  // insufficient_privilege
  '42501': (schema) =>
    `the role in the connection string lacks a privilege on schema "${schema}": GRANT USAGE, CREATE ON SCHEMA "${schema}" TO <role> and GRANT ALL ON ALL TABLES IN SCHEMA "${schema}" TO <role>, or connect as the schema's owner in connectionString; retrying will not help`,
};

const ROLE_FIX =
  'the server refused the role: correct the user and password in connectionString (or PGUSER and PGPASSWORD), and check pg_hba.conf admits that user to that database; retrying will not help';

const sqlStateOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** DRIVER_UNAVAILABLE for a pg failure; a refused role, database or privilege gets its own fix. */
export function pgUnavailable(input: { operation: string; cause: unknown; schema: string }) {
  const access = ACCESS_FIXES[sqlStateOf(input.cause) ?? ''];
  return driverUnavailable({
    driver: 'pg',
    operation: input.operation,
    cause: input.cause,
    ...(access === undefined ? {} : { fix: access(input.schema) }),
  });
}
