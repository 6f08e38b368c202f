import type { NatsContext } from './context.js';
import { purgeKey } from './writes.js';

/** Markers one purge removes at most. */
const MARKER_BATCH = 1_000;

/**
 * Removing a job or an event from the jobs bucket leaves a delete marker, so every watch learns
 * of it. Once a marker is older than the grace (by the server's clock: this is housekeeping, not
 * a contract instant), every watch has long seen it, and it is removed outright, only if it is
 * still its key's newest message and never the stream's last one (a full sync waits for that).
 */
export async function collectMarkers(context: NatsContext): Promise<void> {
  const { index } = context;
  const cutoff = Date.now() - context.markerGraceMs;
  let count = 0;
  for (const marker of index.markers) {
    if (count >= MARKER_BATCH || marker.at > cutoff || marker.revision >= index.delivered) break;
    count += 1;
  }
  const due = index.markers.splice(0, count);
  await Promise.all(
    due.map((marker) =>
      purgeKey(
        context.jsm,
        context.subjects.jobsStream,
        context.subjects.jobsSubject(marker.key),
        marker.revision,
      ).catch(() => false),
    ),
  );
}
