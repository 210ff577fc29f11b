/**
 * Change webhooks with real processes: two `hsds serve` processes share one engine and deliver
 * each change of a CLI import once between them; both are SIGKILLed while the changes of a second
 * import are being delivered, and a third API process started afterwards delivers the rest. A
 * receiver on loopback in this process checks every message with the standardwebhooks package.
 */
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/api/http/auth.ts';
import {
  type ApiProcess,
  baseEnv,
  dropIndices,
  runCli,
  sleep,
  startApi,
  uniquePrefix,
  useDataset,
} from './support.ts';

type Event = {
  messageId: string;
  type: string;
  data: { id: string; record_type: string; action: string; sequence: number; url: string };
};

const SERVICES = 40;
const admin = newToken('ops', ['admin']);
const dataset = useDataset(SERVICES);
const prefix = uniquePrefix('webhooks');
const env = baseEnv(prefix, {
  API_TOKENS: admin.entry,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  PUBLIC_BASE_URL: 'https://directory.example.org',
});

let secret = '';
let delayMs = 0;
const received: Event[] = [];
let badSignatures = 0;
const server: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    if (delayMs > 0) await sleep(delayMs);
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    try {
      const body = new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), headers) as Event;
      received.push({ ...body, messageId: headers['webhook-id'] });
      res.writeHead(204).end();
    } catch {
      badSignatures += 1;
      res.writeHead(400).end();
    }
  });
});

/** Per service, its actions in the order received, a repeated message counted once. */
function serviceUpdates(): Map<string, number[]> {
  const seen = new Set<string>();
  const updates = new Map<string, number[]>();
  for (const event of received) {
    if (seen.has(event.messageId) || event.data.record_type !== 'service') continue;
    seen.add(event.messageId);
    updates.set(event.data.id, [...(updates.get(event.data.id) ?? []), event.data.sequence]);
  }
  return updates;
}

async function waitFor(what: string, probe: () => boolean, ms = 120_000) {
  const until = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Imports the dataset's services with every name changed (a round of changes). */
async function importRenamed(round: number) {
  const dir = dataset();
  const lines = (await readFile(join(dir, 'services.ndjson'), 'utf8')).split('\n').filter(Boolean);
  const file = join(dir, `round-${round}.ndjson`);
  await writeFile(
    file,
    lines
      .map((line) => {
        const service = JSON.parse(line) as { name: string };
        return JSON.stringify({ ...service, name: `${service.name} (round ${round})` });
      })
      .join('\n'),
  );
  const result = await runCli(['import', file, '--source', 'council', '--quiet'], env);
  expect(result.code, result.stderr).toBe(0);
}

describe('webhooks across API processes', () => {
  const apis: ApiProcess[] = [];

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const imported = await runCli(['import', dataset(), '--source', 'council', '--quiet'], env);
    if (imported.code !== 0) throw new Error(imported.stderr);
  });
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    server.closeAllConnections();
    server.close();
    await dropIndices(prefix);
  });

  it('two servers deliver each change once between them; killed mid-delivery, a new server delivers the rest in order', async () => {
    apis.push(await startApi(env), await startApi(env));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const registered = await fetch(`${apis[0]!.url}/admin/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, filter: { sources: ['council'] } }),
    });
    expect(registered.status).toBe(201);
    secret = ((await registered.json()) as { secret: string }).secret;

    await importRenamed(1);
    await waitFor('round 1', () => serviceUpdates().size === SERVICES);
    // Quiet for a moment: nothing more comes, and nothing came twice.
    await sleep(2000);
    const ids = received.map((e) => e.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(badSignatures).toBe(0);
    expect(received[0]?.data.url).toMatch(/^https:\/\/directory\.example\.org\/\w+\/[\w-]+$/);
    const afterRound1 = received.length;

    // Round 2, delivered slowly; both servers are killed part-way.
    delayMs = 40;
    await importRenamed(2);
    await waitFor('part of round 2', () => received.length >= afterRound1 + 5);
    for (const api of apis.splice(0)) api.child.kill('SIGKILL');
    const atKill = received.length;
    delayMs = 0;
    const total = () => [...serviceUpdates().values()].filter((s) => s.length >= 2).length;
    expect(total()).toBeLessThan(SERVICES);

    apis.push(await startApi(env));
    await waitFor('round 2 after the restart', () => total() === SERVICES);
    expect(badSignatures).toBe(0);
    for (const [id, sequences] of serviceUpdates()) {
      expect(sequences, id).toHaveLength(2);
      expect(sequences[1]!, id).toBeGreaterThan(sequences[0]!);
    }
    const repeats = received.length - new Set(received.map((e) => e.messageId)).size;
    console.log(
      `webhooks across processes: ${afterRound1} messages for round 1 (no repeat); ${atKill - afterRound1} of round 2 before both servers were killed, ${received.length - atKill} after a new one started; ${repeats} delivered twice (at least once)`,
    );
    // At most the messages in flight when the servers died come again.
    expect(repeats).toBeLessThanOrEqual(2);
  });
});
