import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedOptions } from '../options.js';
import { loopbackRefusal } from '../security/loopback.js';
import { type Problem, sendProblem, sendText } from './respond.js';

/** Who may go on, and as which tenant; `undefined` means the request was answered (refused). */
export type Admission = { readonly tenantId: string | undefined } | undefined;

function refuse(
  response: ServerResponse,
  api: boolean,
  status: number,
  problem: Problem,
): undefined {
  if (api) sendProblem(response, status, problem);
  else sendText(response, status, `${problem.message}${problem.fix ? `\n${problem.fix}` : ''}\n`);
  return undefined;
}

/**
 * Authentication, then the tenant. Without `auth` only this machine gets in (see
 * `loopbackRefusal`); with it, `auth` decides, and may answer the request itself.
 */
export async function admit(
  options: ResolvedOptions,
  request: IncomingMessage,
  response: ServerResponse,
  api: boolean,
): Promise<Admission> {
  if (options.auth === undefined) {
    const why = loopbackRefusal(request);
    if (why !== undefined) {
      return refuse(response, api, 403, {
        code: 'LOOPBACK_ONLY',
        message: `This dashboard has no auth, so it accepts only requests from this machine, and ${why}.`,
        fix: 'Pass auth to createDashboard or serveDashboard (berth dashboard: --auth user:pass) to serve it to other machines.',
      });
    }
  } else {
    const allowed = await options.auth(request, response);
    if (response.writableEnded) return undefined;
    if (allowed !== true) {
      return refuse(response, api, 401, {
        code: 'UNAUTHORIZED',
        message: 'This dashboard’s auth refused the request.',
      });
    }
  }
  if (options.tenant === undefined) return { tenantId: undefined };
  const tenantId = await options.tenant(request);
  if (typeof tenantId !== 'string' || tenantId.length === 0) {
    return refuse(response, api, 403, {
      code: 'NO_TENANT',
      message: 'The dashboard’s tenant option named no tenant for this request.',
    });
  }
  return { tenantId };
}
