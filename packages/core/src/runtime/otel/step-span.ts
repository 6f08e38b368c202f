import { activeTracer, endSpan } from './tracer.js';

/**
 * Runs one execution of a durable step inside its span (`berth.step <name>`, a child of the
 * attempt's span), ended with the step's outcome. Without a tracer, `fn` runs as it is.
 */
export async function inStepSpan<T>(
  step: { readonly name: string; readonly job: string; readonly attempt: number },
  fn: () => Promise<T>,
): Promise<T> {
  const traced = activeTracer();
  if (traced === undefined) return fn();
  const { api, tracer } = traced;
  const span = tracer.startSpan(
    `berth.step ${step.name}`,
    {
      kind: api.SpanKind.INTERNAL,
      attributes: {
        'berth.step.name': step.name,
        'berth.step.attempt': step.attempt,
        'berth.job.name': step.job,
      },
    },
    api.context.active(),
  );
  try {
    const value = await api.context.with(api.trace.setSpan(api.context.active(), span), fn);
    endSpan(api, span);
    return value;
  } catch (error) {
    endSpan(api, span, error);
    throw error;
  }
}
