/**
 * An incremental publish killed midway (SIGKILL of the importing process while it writes to the
 * live indices) leaves every service served either as it was or as it is now, its
 * service_at_locations agreeing with it; the next publish completes it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  baseEnv,
  dropIndices,
  engineUrl,
  runCli,
  sleep,
  startApi,
  startCli,
  uniquePrefix,
  useDataset,
} from './support.ts';

const SERVICES = 800;
const dataset = useDataset(SERVICES);

type Served = { id: string; name: string; service?: { id: string; name: string } };

async function dump(url: string): Promise<Served[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Served);
}

/** Every service's name, and whether each service_at_location shows the same name as its service. */
async function servedState(api: string) {
  const services = await dump(`${api}/services?format=ndjson`);
  const names = new Map(services.map((s) => [s.id, s.name]));
  const sals = await dump(`${api}/service_at_locations?format=ndjson`);
  const disagreeing = sals.filter((sal) => sal.service && names.get(sal.service.id) !== sal.service.name);
  return { names, disagreeing };
}

describe('an incremental publish killed midway', () => {
  it('leaves each service old or new, never half, and the next publish completes it', {
    timeout: 900_000,
  }, async () => {
    const prefix = uniquePrefix('publish-kill');
    const env = baseEnv(prefix);
    try {
      const file = join(dataset(), 'services.ndjson');
      const first = await runCli(['import', file, '--quiet'], env);
      expect(first.code, first.stderr).toBe(0);
      // Every service renamed, as a nightly feed might.
      const renamed = readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const service = JSON.parse(line) as { name: string; last_modified?: string };
          service.name = `${service.name} (renamed)`;
          service.last_modified = new Date().toISOString();
          return JSON.stringify(service);
        });
      writeFileSync(file, `${renamed.join('\n')}\n`);

      const cli = startCli(['import', file, '--quiet'], env);
      // Killed once it has started publishing.
      const deadline = Date.now() + 180_000;
      let output = '';
      cli.child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      while (!output.includes('Publishing') && Date.now() < deadline && cli.child.exitCode === null) {
        await sleep(50);
      }
      expect(output).toContain('Publishing');
      // Killed as soon as the first renamed services are searchable: the publish is under way.
      for (;;) {
        const res = await fetch(`${engineUrl()}/${prefix}-services/_count?q=name:renamed`).catch(
          () => undefined,
        );
        const count = res?.ok ? ((await res.json()) as { count: number }).count : 0;
        if (count > 0 || cli.child.exitCode !== null || Date.now() > deadline) break;
        await sleep(20);
      }
      cli.child.kill('SIGKILL');
      await cli.result;
      // The engine finishes the bulk request it was handed, and each index shows it at its own
      // next refresh (within a second): readers may see one index a moment before the other.
      // What is asserted is what stays served once the engine has settled.
      await fetch(
        `${engineUrl()}/_tasks?actions=indices:data/write/bulk*&wait_for_completion=true&timeout=60s`,
      );
      await fetch(`${engineUrl()}/${prefix}-*/_refresh`, { method: 'POST' });

      const api = await startApi(env);
      try {
        const killed = await servedState(api.url);
        expect(killed.names.size).toBe(SERVICES);
        expect(killed.disagreeing).toEqual([]);
        const done = [...killed.names.values()].filter((n) => n.endsWith('(renamed)')).length;
        // The kill came before the publish finished.
        expect(done).toBeLessThan(SERVICES);

        const completed = await runCli(['publish'], env);
        expect(completed.code, completed.stderr).toBe(0);
        expect(completed.stdout).toMatch(/Published \d+ changed records/);
        const after = await servedState(api.url);
        expect(after.disagreeing).toEqual([]);
        expect([...after.names.values()].every((n) => n.endsWith('(renamed)'))).toBe(true);
        expect(after.names.size).toBe(SERVICES);
      } finally {
        await api.stop();
      }
    } finally {
      await dropIndices(prefix);
    }
  });
});
