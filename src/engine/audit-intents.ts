import { hostname } from 'node:os';
import { controlKindBody } from '../index-mapping/control.query.ts';
import { controlIndex, searchControl, withControlIndex } from './control-index.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';

/**
 * A write's audit intent (`audit:<write id>`): what the records a write touches held before it,
 * stored before the write changes the store and cleared once its audit entries are written. A
 * process killed between the two leaves the intent; the next write (or `hsds serve`, `hsds
 * publish`) finds it and writes the entries from it (src/ingest/write/write.ts), so a change that
 * survives is never missing from the trail.
 */
export type AuditIntent = {
  write_id: string;
  /** The record the write was addressed to (`type:id`). */
  target: string;
  actor: string;
  /** When the write was made: the entries' last_action_date. */
  at: string;
  /** Every record key the write may change. */
  keys: string[];
  /** The records among `keys` that were stored before the write, as they were. */
  before: [string, Record<string, unknown>][];
  host: string;
  pid: number;
};

export async function recordAuditIntent(
  engine: Engine,
  intent: Omit<AuditIntent, 'host' | 'pid'>,
): Promise<void> {
  const data: AuditIntent = { ...intent, host: hostname(), pid: process.pid };
  await withControlIndex(engine, () =>
    engineCall('record audit intent', () =>
      engine.client.index({
        index: controlIndex(engine),
        id: `audit:${intent.write_id}`,
        body: { kind: 'audit', at: Date.parse(intent.at), data },
      }),
    ),
  );
}

/** Intents whose writes never wrote their audit, oldest first. */
export const listAuditIntents = (engine: Engine): Promise<AuditIntent[]> =>
  searchControl<AuditIntent>(engine, 'list audit intents', controlKindBody('audit', 1000, true));

/** Clears an intent once its audit entries are written. */
export async function clearAuditIntent(engine: Engine, writeId: string): Promise<void> {
  await engineCall('clear audit intent', () =>
    engine.client.delete({ index: controlIndex(engine), id: `audit:${writeId}` }),
  ).catch((error: unknown) => {
    if (!(error instanceof EngineNotFoundError)) throw error;
  });
}
