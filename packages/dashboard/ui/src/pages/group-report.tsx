import type { GroupActionResult } from '../../../src/api-types';
import { JobIdCell } from '../components/job-id';
import { distinguishingTails } from '../id-tail';

/** What a group action did, job by job. */
export function GroupReport({
  title,
  results,
}: {
  readonly title: string;
  readonly results: readonly GroupActionResult[];
}) {
  const tails = distinguishingTails(results.map((result) => result.id));
  const tally = new Map<string, number>();
  for (const result of results) tally.set(result.outcome, (tally.get(result.outcome) ?? 0) + 1);
  return (
    <section class="report" aria-label={title} data-testid="group-report">
      <h3>{title}</h3>
      <p>
        {[...tally].map(([outcome, count]) => (
          <span key={outcome} class={`badge outcome-${outcome}`}>
            {count} {outcome}
          </span>
        ))}
      </p>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Outcome</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {results.map((result) => (
              <tr key={result.id} data-job-id={result.id}>
                <td>
                  <JobIdCell id={result.id} tail={tails.get(result.id) ?? result.id} />
                </td>
                <td>
                  <span class={`badge outcome-${result.outcome}`}>{result.outcome}</span>
                </td>
                <td>
                  {result.code ? <code>{result.code}</code> : null} {result.message ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
