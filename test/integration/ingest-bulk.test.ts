import { afterAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../src/engine/bulk.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const engine = createTestEngine('ingest-bulk');
afterAll(() => dropTestIndices(engine));

describe('the bulk writer', () => {
  it('keeps the highest external version, whatever order the writes arrive in', async () => {
    const index = engine.name('versions');
    await engine.client.indices.create({ index });
    const writer = createBulkWriter(engine);
    const big = (n: bigint) => (1_800_000_000_000_000_000n + n).toString(); // beyond 2^53
    await writer.index(index, 'a', { n: 2 }, big(2n));
    await writer.flush();
    await writer.index(index, 'a', { n: 1 }, big(1n)); // older: must not win
    await writer.index(index, 'b', { n: 1 }, big(1n));
    const stats = await writer.close();
    expect(stats).toMatchObject({ written: 3, failed: 0, created: 2 });
    await engine.client.indices.refresh({ index });
    const a = await engine.client.get({ index, id: 'a' });
    expect(a.body._source).toEqual({ n: 2 });
  });

  it('reports documents the engine refuses, and writes the rest', async () => {
    const index = engine.name('strict');
    await engine.client.indices.create({
      index,
      body: { mappings: { dynamic: 'strict', properties: { n: { type: 'integer' } } } },
    });
    const refused: string[] = [];
    const writer = createBulkWriter(engine, { onFailure: (f) => refused.push(`${f.id} ${f.status}`) });
    await writer.index(index, 'ok', { n: 1 });
    await writer.index(index, 'unmapped', { other: 1 });
    await writer.index(index, 'wrong', { n: 'not a number' });
    const stats = await writer.close();
    expect(stats).toMatchObject({ written: 1, failed: 2 });
    expect(refused.sort()).toEqual(['unmapped 400', 'wrong 400']);
  });
});
