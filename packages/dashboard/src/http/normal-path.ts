/**
 * Host frameworks match the path as sent; `new URL` resolves `..`, `.`, `%2e` and backslashes,
 * and reads `//x/…` as a host. A path those read differently could pass the app's guard on one
 * path and reach the dashboard on another, so the dashboard serves only paths that are already
 * their normalised form.
 */

/** The path of a request target as sent: no query, no fragment, no absolute-form authority. */
export function rawPathOf(target: string): string {
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  return path.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*/, '');
}

/**
 * The path every reader agrees on: `%2e`, `%2f` and `%5c` decoded, backslashes as slashes,
 * runs of slashes as one, `.` and `..` segments resolved.
 */
export function normalisePath(path: string): string {
  const decoded = path
    .replace(/%2e/gi, '.')
    .replace(/%2f|%5c|\\/gi, '/')
    .replace(/\/{2,}/g, '/');
  const segments: string[] = [];
  const parts = decoded.split('/').slice(1);
  for (const [index, segment] of parts.entries()) {
    const last = index === parts.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..') segments.pop();
      // `/a/.` and `/a/..` name a directory: keep the trailing slash, as URL resolution does.
      if (last) segments.push('');
      continue;
    }
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** True when the path reads the same to every reader: the host's router and the dashboard's. */
export const isNormalPath = (path: string): boolean =>
  path.startsWith('/') && normalisePath(path) === path;
