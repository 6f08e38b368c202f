import { randomUUID } from 'node:crypto';
import {
  type Fence,
  type JobLogLevel,
  jobNotFound,
  type LogAppend,
  type LogLine,
  type LogLineInput,
  MAX_JOB_LOG_LINES,
  type ScreenedLogList,
} from '@berth/core/driver';
import { dropAux, type NatsContext, readAuxJson } from './context.js';
import { readJob } from './docs.js';
import { decodeJson, encodeJson, type LogHead, type StoredJob } from './record.js';
import { fenced } from './settle.js';

/**
 * A job's log lines live outside its record, in chunks in the aux bucket (`g.<jobId>.<gen>`),
 * never rewritten. Each chunk names the one before it and the seq of its first line; the record's
 * `logs` names the newest chunk and the counters, so the ONE conditional write of the record that
 * holds the fence commits an append. A chunk no record reaches (a stale worker's, a write that
 * lost its race, a crash between the writes) is garbage, never read, removed with the job.
 */
interface Chunk {
  readonly prev?: string;
  readonly first: number;
  /** [attempt, at, level, message] per line. */
  readonly lines: readonly (readonly [number, number, JobLogLevel, string])[];
}

/** Room a chunk leaves beside its lines under the part size. */
const CHUNK_HEADROOM = 256;

/** The lines packed into chunks that each fit a message. */
function pack(lines: readonly LogLineInput[], partBytes: number): LogLineInput[][] {
  const packs: LogLineInput[][] = [];
  let current: LogLineInput[] = [];
  let bytes = CHUNK_HEADROOM;
  for (const line of lines) {
    const size = Buffer.byteLength(line.message) * 2 + 64;
    if (current.length > 0 && bytes + size > partBytes) {
      packs.push(current);
      current = [];
      bytes = CHUNK_HEADROOM;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) packs.push(current);
  return packs;
}

/** Writes `lines` as the chunks after `head` (seq from `first`); answers the new head's gen and every gen. */
async function writeChunks(
  context: NatsContext,
  jobId: string,
  head: string | undefined,
  first: number,
  attempt: number,
  lines: readonly LogLineInput[],
): Promise<{ head: string; gens: string[] }> {
  const packs = pack(lines, context.partBytes);
  const gens = packs.map(() => randomUUID().slice(0, 16));
  let seq = first;
  const chunks = packs.map((group, at) => {
    const prev = at === 0 ? head : gens[at - 1];
    const chunk: Chunk = {
      ...(prev === undefined ? {} : { prev }),
      first: seq,
      lines: group.map((line) => [attempt, line.at, line.level, line.message] as const),
    };
    seq += group.length;
    return chunk;
  });
  await Promise.all(
    chunks.map((chunk, at) =>
      context.aux.put(context.subjects.logChunk(jobId, gens[at] as string), encodeJson(chunk)),
    ),
  );
  return { head: gens.at(-1) ?? head ?? '', gens };
}

/** The fenced append: chunks first, then ONE conditional write of the record commits them. */
export async function appendLogs(
  context: NatsContext,
  fence: Fence,
  batch: LogAppend,
): Promise<boolean> {
  await context.mirror.syncOwn();
  const count = batch.lines.length;
  // Chunks written for one decision are reused when the record moved but the decision did not.
  const written = new Map<string, { head: string; gens: string[] }>();
  const landed = await fenced(
    context,
    fence,
    async (job: StoredJob): Promise<StoredJob> => {
      const log: LogHead = job.logs ?? { kept: 0, dropped: 0, claim: job.claim, next: 0 };
      const next = log.claim === job.claim ? log.next : 0;
      const skip = Math.min(count, Math.max(0, next - batch.from));
      const take = Math.min(count - skip, Math.max(0, MAX_JOB_LOG_LINES - log.kept));
      let head = log.head;
      if (take > 0) {
        const key = `${log.head ?? ''}:${log.kept}:${skip}:${take}:${job.attempts}`;
        let made = written.get(key);
        if (made === undefined) {
          made = await writeChunks(
            context,
            job.id,
            log.head,
            log.kept + 1,
            job.attempts,
            batch.lines.slice(skip, skip + take),
          );
          written.set(key, made);
        }
        head = made.head;
      }
      const logs: LogHead = {
        ...(head === undefined ? {} : { head }),
        kept: log.kept + take,
        dropped: log.dropped + (count - skip - take),
        claim: job.claim,
        next: Math.max(next, batch.from + count),
      };
      return { ...job, logs };
    },
    context.clock.now(),
  );
  const kept = landed?.logs?.head;
  const garbage = [...written.values()].filter((made) => made.head !== kept);
  await Promise.all(
    garbage
      .flatMap((made) => made.gens)
      .map((gen) => dropAux(context, context.subjects.logChunk(fence.jobId, gen))),
  );
  return landed !== undefined;
}

/** The chunks `head` reaches, newest first, stopping at the one holding seq `after + 1`. */
async function chunksOf(
  context: NatsContext,
  jobId: string,
  head: string,
  after: number,
): Promise<Chunk[]> {
  const byGen = new Map<string, Chunk>();
  const prefixLength = context.subjects.logChunk(jobId, '').length;
  const history = await context.aux.history({ key: context.subjects.logChunk(jobId, '>') });
  for await (const item of history) {
    if (item.operation !== 'PUT') continue;
    byGen.set(item.key.slice(prefixLength), decodeJson<Chunk>(item.value));
  }
  const chunks: Chunk[] = [];
  for (let gen: string | undefined = head; gen !== undefined; ) {
    // A history read may run on a lagging replica of a replicated bucket: ask the leader.
    const chunk: Chunk | undefined =
      byGen.get(gen) ?? (await readAuxJson<Chunk>(context, context.subjects.logChunk(jobId, gen)));
    if (chunk === undefined) throw new Error(`the log of job ${jobId} names a chunk that is gone`);
    chunks.push(chunk);
    if (chunk.first <= after + 1) break;
    gen = chunk.prev;
  }
  return chunks;
}

export async function listLogs(
  context: NatsContext,
  jobId: string,
  options: ScreenedLogList,
): Promise<{ lines: readonly LogLine[]; dropped: number }> {
  const job = (await readJob(context, jobId))?.job;
  if (job === undefined || (options.tenantId !== undefined && job.tenantId !== options.tenantId)) {
    throw jobNotFound(jobId);
  }
  const log = job.logs;
  if (log?.head === undefined || log.kept <= options.after) {
    return { lines: [], dropped: log?.dropped ?? 0 };
  }
  const lines: LogLine[] = [];
  for (const chunk of (await chunksOf(context, jobId, log.head, options.after)).reverse()) {
    chunk.lines.forEach(([attempt, at, level, message], index) => {
      const seq = chunk.first + index;
      if (seq > options.after && seq <= log.kept) lines.push({ seq, attempt, at, level, message });
    });
  }
  return { lines: lines.slice(0, options.limit + 1), dropped: log.dropped };
}
