import type { PageConfig } from '../../src/api-types';

function read(): PageConfig {
  const element = document.getElementById('berth-config');
  return JSON.parse(element?.textContent ?? '{}') as PageConfig;
}

/** What the server embedded in the page: mount path, CSRF token, mode. */
export const config: PageConfig = read();
