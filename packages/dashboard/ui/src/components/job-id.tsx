import { shownTail } from '../id-tail';
import { Link } from '../router';
import { CopyButton } from './copy-button';

/** A table's id cell: the end that tells the id apart (a link to the job) and a copy of it all. */
export function JobIdCell({ id, tail }: { readonly id: string; readonly tail: string }) {
  return (
    <span class="job-id">
      <Link to={`/jobs/${encodeURIComponent(id)}`} class="mono" aria-label={`Job ${id}`} title={id}>
        {shownTail(id, tail)}
      </Link>
      <CopyButton text={id} label={`Copy id ${id}`} />
    </span>
  );
}
