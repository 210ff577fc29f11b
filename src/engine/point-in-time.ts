/**
 * Points in time: the one place they are opened and released, for the records store's snapshots
 * (records.ts) and the read indices' streamed dumps (search.ts). Every read through one sees the
 * indices as they were when it opened, whatever is written meanwhile.
 */
import { type Engine, engineCall } from './engine.ts';

/** Opens a point in time on `indices`; an index that does not exist throws EngineNotFoundError. */
export async function openPointInTime(
  engine: Engine,
  indices: readonly string[],
  keepAlive: string,
  label = 'open point in time',
): Promise<string> {
  const { body } = await engineCall(label, () =>
    engine.client.createPit({ index: [...indices], keep_alive: keepAlive }),
  );
  return (body as { pit_id: string }).pit_id;
}

/**
 * Releases a point in time. A failure is logged and otherwise ignored: the point in time expires by
 * itself after its keep-alive, so a failed release costs only that.
 */
export async function closePointInTime(engine: Engine, pitId: string): Promise<void> {
  try {
    await engineCall('close point in time', () => engine.client.deletePit({ body: { pit_id: [pitId] } }));
  } catch (error) {
    engine.logger.warn(
      { err: error instanceof Error ? error.message : error },
      'could not release a point in time',
    );
  }
}
