import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Json } from '../../contract/records.js';
import { jobInvalid } from '../../errors/refusals.js';

/** One validator issue, made JSON so it can ride in `meta.issues`. */
export interface PayloadIssue {
  readonly message: string;
  readonly path?: readonly (string | number)[];
}

const segment = (part: PropertyKey | StandardSchemaV1.PathSegment): string | number => {
  const key = typeof part === 'object' ? part.key : part;
  return typeof key === 'number' ? key : String(key);
};

const toIssue = (issue: StandardSchemaV1.Issue): PayloadIssue =>
  issue.path === undefined || issue.path.length === 0
    ? { message: issue.message }
    : { message: issue.message, path: issue.path.map(segment) };

/**
 * Checks `payload` against the job's schema and answers the schema's output (what is stored and
 * what `run` receives). A refusal is JOB_INVALID (field `payload`) with the issues in `meta.issues`.
 */
export async function validatePayload<TInput, TPayload>(
  job: { readonly name: string; readonly schema?: StandardSchemaV1<TInput, TPayload> },
  payload: unknown,
  kind: 'job' | 'event' = 'job',
): Promise<TPayload | Json | undefined> {
  if (job.schema === undefined) return payload as Json | undefined;
  let result: StandardSchemaV1.Result<TPayload>;
  try {
    result = await job.schema['~standard'].validate(payload);
  } catch {
    // A schema throws (rather than answering issues) on input it cannot even read: a Proxy.
    throw jobInvalid(
      'payload',
      `could not be read by the schema of job ${JSON.stringify(job.name)}`,
      {
        job: job.name,
      },
    );
  }
  if (!result.issues) return result.value;
  const issues = result.issues.map(toIssue);
  const summary = issues
    .slice(0, 3)
    .map((issue) =>
      issue.path === undefined ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
    )
    .join('; ');
  throw jobInvalid(
    'payload',
    `does not match the schema of ${kind} ${JSON.stringify(job.name)}: ${summary}`,
    { [kind]: job.name, issues },
  );
}
