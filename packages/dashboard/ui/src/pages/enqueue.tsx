import { useState } from 'preact/hooks';
import type { EnqueueResponse } from '../../../src/enqueue-search-types';
import { ApiError, postJson } from '../api';
import { Problem } from '../components/problem';
import { config } from '../config';
import { Link } from '../router';
import './enqueue.css';

/** Text fields sent as they are typed, when not empty. */
const TEXT_FIELDS = ['name', 'queue', 'payloadJson', 'delay', 'idempotencyKey', 'tenantId'];
/** Whole numbers; anything else is sent as typed, for the server to refuse with its reason. */
const NUMBER_FIELDS = ['priority', 'maxAttempts'];

/** The form as `POST /api/jobs` takes it: empty fields left out, so the defaults apply. */
function requestOf(form: FormData): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of [...TEXT_FIELDS, ...NUMBER_FIELDS]) {
    const raw = form.get(name);
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '') continue;
    body[name] = NUMBER_FIELDS.includes(name) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return body;
}

function Outcome({ answer }: { readonly answer: EnqueueResponse }) {
  const { job } = answer;
  const link = (
    <Link to={`/jobs/${encodeURIComponent(job.id)}`}>
      <code>{job.id}</code>
    </Link>
  );
  return (
    <p class="notice ok" data-testid="enqueue-outcome">
      {answer.deduped ? (
        <>
          Already queued: job {link} holds idempotency key <code>{job.idempotencyKey}</code>, so no
          job was added ({job.state} on queue {job.queue}).
        </>
      ) : (
        <>
          Enqueued {job.name} {link} on queue {job.queue}: {job.state}, max attempts{' '}
          {job.maxAttempts}.
        </>
      )}
    </p>
  );
}

/**
 * Adds one job, as `berth enqueue NAME [JSON]` does: the server enqueues it through the driver,
 * which screens it, and a refusal shows its code, message and fix.
 */
export function EnqueuePage() {
  const [answer, setAnswer] = useState<EnqueueResponse | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);
  const [sending, setSending] = useState(false);
  if (config.readOnly) {
    return (
      <section>
        <h1>Add a job</h1>
        <p class="notice info">This dashboard is read-only: it adds no jobs.</p>
      </section>
    );
  }
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const body = requestOf(new FormData(event.currentTarget as HTMLFormElement));
    setSending(true);
    setFailure(undefined);
    setAnswer(undefined);
    try {
      setAnswer(await postJson<EnqueueResponse>('/jobs', body));
    } catch (caught) {
      setFailure(
        caught instanceof ApiError
          ? caught
          : new ApiError(0, 'NETWORK', 'The dashboard could not be reached.'),
      );
    } finally {
      setSending(false);
    }
  };
  return (
    <section aria-labelledby="enqueue-title">
      <h1 id="enqueue-title">Add a job</h1>
      <p class="muted small">
        Queues one job for an ad-hoc run, as <code>berth enqueue</code> does
        {config.tenant === null ? null : (
          <>
            , for tenant <strong>{config.tenant}</strong>
          </>
        )}
        . Empty fields take the defaults: queue <code>default</code>, payload <code>null</code>, no
        delay, priority 0, 3 attempts.
      </p>
      <form class="enqueue-form" onSubmit={onSubmit} aria-label="Add a job">
        <label>
          Name
          <input name="name" required autoComplete="off" placeholder="email.send" />
        </label>
        <label>
          Queue
          <input name="queue" autoComplete="off" placeholder="default" />
        </label>
        <label class="wide">
          Payload (JSON)
          <textarea
            name="payloadJson"
            class="mono"
            rows={6}
            spellcheck={false}
            placeholder='{"to": "ada@example.com"}'
          />
        </label>
        <label>
          Delay
          <input name="delay" autoComplete="off" placeholder="10s, 5m, 1h30m" />
        </label>
        <label>
          Priority
          <input name="priority" inputMode="numeric" autoComplete="off" placeholder="0" />
        </label>
        <label>
          Max attempts
          <input name="maxAttempts" inputMode="numeric" autoComplete="off" placeholder="3" />
        </label>
        <label>
          Idempotency key
          <input name="idempotencyKey" autoComplete="off" />
        </label>
        {config.tenant === null ? (
          <label>
            Tenant
            <input name="tenantId" autoComplete="off" />
          </label>
        ) : null}
        <div class="enqueue-actions">
          <button type="submit" class="primary" disabled={sending}>
            Enqueue
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {answer ? <Outcome answer={answer} /> : null}
        {failure ? <Problem error={failure} /> : null}
      </div>
    </section>
  );
}
