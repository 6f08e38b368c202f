import type { JobSummary, ProblemBody } from '../../src/api-types';
import { config } from './config';

/** A refusal from the dashboard or the driver, with its code and, when there is one, its fix. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fix?: string,
    /** `ID_AMBIGUOUS`: the jobs a part of an id could mean. */
    readonly candidates: readonly JobSummary[] = [],
  ) {
    super(message);
  }
}

export const apiUrl = (path: string): string => `${config.basePath}/api${path}`;

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (response.ok) return body as T;
  const problem = (body as Partial<ProblemBody> | undefined)?.error;
  throw new ApiError(
    response.status,
    problem?.code ?? `HTTP_${response.status}`,
    problem?.message ?? `The dashboard answered ${response.status}.`,
    problem?.fix,
    problem?.candidates,
  );
}

export async function getJson<T>(path: string, query?: URLSearchParams): Promise<T> {
  const suffix = query !== undefined && [...query].length > 0 ? `?${query}` : '';
  const response = await fetch(apiUrl(path) + suffix, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  return answer<T>(response);
}

/** Every action: a JSON POST carrying the page's CSRF token. */
export async function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(apiUrl(path), {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-berth-csrf': config.csrf,
    },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  return answer<T>(response);
}
