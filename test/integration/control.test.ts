/**
 * What processes sharing one engine agree on through the control index: one reindex at a time (a
 * lease that expires when its holder stops renewing), and no publishing of what an unfinished
 * import left in the records store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireLease,
  controlIndex,
  LeaseHeldError,
  LeaseLostError,
  startImportRun,
} from '../../src/engine/control.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { IncompleteImportError, reindex } from '../../src/ingest/publish/reindex.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('control');
afterAll(() => dropTestIndices(engine));

describe('the reindex lease', () => {
  it('is held by one process at a time, and says who holds it', async () => {
    const first = await acquireLease(engine, 'test', { purpose: 'first holder' });
    try {
      const second = acquireLease(engine, 'test', { purpose: 'second holder' });
      await expect(second).rejects.toBeInstanceOf(LeaseHeldError);
      await expect(second).rejects.toThrow(/first holder, process \d+ on /);
    } finally {
      await first.release();
    }
    const after = await acquireLease(engine, 'test', { purpose: 'after release' });
    await after.release();
  });

  it('is taken over once its holder stops renewing, and the old holder learns it lost it', async () => {
    const frozen = await acquireLease(engine, 'expiring', {
      purpose: 'frozen',
      ttlMs: 400,
      renewEveryMs: 60_000,
    });
    await new Promise((r) => setTimeout(r, 600));
    const next = await acquireLease(engine, 'expiring', { purpose: 'next' });
    try {
      await expect(frozen.renew()).rejects.toBeInstanceOf(LeaseLostError);
      expect(frozen.lost.aborted).toBe(true);
      // The new holder is untouched by the old one giving up.
      await frozen.release();
      await expect(next.renew()).resolves.toBeUndefined();
    } finally {
      await next.release();
    }
  });

  it('is taken again at once by the process that gave it up while the engine refused its release', async () => {
    const blockWrites = (block: boolean) =>
      engine.client.indices.putSettings({
        index: controlIndex(engine),
        body: { index: { blocks: { write: block } } },
      });
    const given = await acquireLease(engine, 'given-up', { purpose: 'a write the engine died under' });
    await blockWrites(true);
    try {
      // The release cannot delete the lease document: it stays, naming this process, for a minute.
      await given.release();
    } finally {
      await blockWrites(false);
    }
    const again = await acquireLease(engine, 'given-up', { purpose: 'the next write' });
    try {
      expect(again.holder.purpose).toBe('the next write');
      // Held now: another holder in this process is still refused.
      await expect(acquireLease(engine, 'given-up', { purpose: 'beside it' })).rejects.toBeInstanceOf(
        LeaseHeldError,
      );
    } finally {
      await again.release();
    }
  });

  it('refuses a reindex while another process reindexes, before it builds anything', async () => {
    await importSource(engine, 'test/fixtures/hsds/examples/service_full.json');
    const other = await acquireLease(engine, 'reindex', { purpose: 'hsds reindex' });
    try {
      await expect(reindex(engine)).rejects.toThrow(/another reindex is running \(hsds reindex/);
      const indices = await engine.client.cat.indices({
        index: `${engine.settings.prefix}-services-*`,
        format: 'json',
      });
      expect(indices.body).toEqual([]);
    } finally {
      await other.release();
    }
    await expect(reindex(engine)).resolves.toMatchObject({ counts: { services: 1 } });
  });
});

describe('an unfinished import', () => {
  const store = createTestEngine('control-import');
  beforeAll(() => importSource(store, 'test/fixtures/hsds/examples/service_full.json'));
  afterAll(() => dropTestIndices(store));

  it('stops a reindex from publishing the store it was writing to, until imported again', async () => {
    // A run whose heartbeat stopped a minute ago: its process was killed.
    const minuteAgo = () => new Date(Date.now() - 60_000);
    await startImportRun(store, '/data/council-feed.json', { now: minuteAgo, heartbeatMs: 3_600_000 });
    const refused = reindex(store);
    await expect(refused).rejects.toBeInstanceOf(IncompleteImportError);
    await expect(refused).rejects.toThrow(
      /import of \/data\/council-feed\.json .* was killed before it finished/,
    );

    // Finishing that source (here: the run recorded as complete) lifts it.
    const again = await startImportRun(store, '/data/council-feed.json');
    await again.finish('complete');
    await expect(reindex(store)).resolves.toMatchObject({ counts: { services: 1 } });
  });

  it('is published only when the operator says so, and then no longer blocks', async () => {
    const failed = await startImportRun(store, 'https://example.org/hsds');
    await failed.finish('failed', 'the remote API answered 500');
    await expect(reindex(store)).rejects.toThrow(/failed \(the remote API answered 500\)/);
    await expect(reindex(store, { allowIncomplete: true })).resolves.toMatchObject({
      counts: { services: 1 },
    });
    await expect(reindex(store)).resolves.toMatchObject({ counts: { services: 1 } });
  });

  it('that is still running (its heartbeat is fresh) also holds a reindex back', async () => {
    const running = await startImportRun(store, '/data/nightly.ndjson');
    try {
      await expect(reindex(store)).rejects.toThrow(/an import of \/data\/nightly\.ndjson is running/);
    } finally {
      await running.finish('complete');
    }
  });
});
