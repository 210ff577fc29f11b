/**
 * The delivery worker with no engine to talk to (a port nothing listens on): it asks again less
 * and less often, says why each time, and stops at once when the server shuts down.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import pino from 'pino';
import { expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.ts';
import { startWebhookDelivery } from '../../../src/webhooks/index.ts';

it('backs off while the engine is unreachable, and stops cleanly', async () => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));

  const lines: { msg: string; retryInMs?: number }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const engine = createEngine(
    { url: `http://127.0.0.1:${port}`, prefix: 't-webhooks-down', requestTimeoutMs: 500, maxRetries: 0 },
    logger,
  );
  const delivery = startWebhookDelivery(engine, {
    baseUrl: 'http://localhost:3000',
    retryMs: 60_000,
    timeoutMs: 1000,
    allowPrivate: false,
    logger,
    pollMs: 50,
  });
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const started = Date.now();
  await delivery.stop();
  expect(Date.now() - started).toBeLessThan(1000);
  await engine.close();

  const waits = lines.filter((l) => l.msg.includes('could not look for events')).map((l) => l.retryInMs);
  expect(waits.length).toBeGreaterThanOrEqual(2);
  // 100, 200, 400, 800 ms...: not one warning every poll.
  expect(waits.length).toBeLessThan(8);
  expect(waits).toEqual([...waits].sort((a, b) => a! - b!));
  expect(delivery.delivering).toBe(false);
});
