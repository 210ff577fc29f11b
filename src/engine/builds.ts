/**
 * Builds (`build:<version>` in the control index): the document counts each published version was
 * verified to hold, so `/health` can tell when the served indices no longer hold them.
 */
import { controlIndex, withControlIndex } from './control-index.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';

/** Document counts a published version was verified to hold. */
export type BuildRecord = { version: string; counts: Record<string, number>; published_at: string };

export async function recordBuild(engine: Engine, build: BuildRecord): Promise<void> {
  await withControlIndex(engine, () =>
    engineCall(`record build ${build.version}`, () =>
      engine.client.index({
        index: controlIndex(engine),
        id: `build:${build.version}`,
        body: { kind: 'build', data: build },
      }),
    ),
  );
}

/** The recorded counts of the given versions (those built before builds were recorded are absent). */
export async function readBuilds(
  engine: Engine,
  versions: readonly string[],
): Promise<Map<string, BuildRecord>> {
  const found = new Map<string, BuildRecord>();
  if (versions.length === 0) return found;
  try {
    const { body } = await engineCall('read builds', () =>
      engine.client.mget({
        index: controlIndex(engine),
        body: { ids: versions.map((v) => `build:${v}`) },
        realtime: true,
      }),
    );
    for (const doc of body.docs as { found?: boolean; _source?: { data: BuildRecord } }[]) {
      if (doc.found && doc._source) found.set(doc._source.data.version, doc._source.data);
    }
  } catch (error) {
    if (!(error instanceof EngineNotFoundError)) throw error;
  }
  return found;
}
