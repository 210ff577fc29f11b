/**
 * The held-word look-up (src/semantic/held-words.ts) against an engine that answers, and one that
 * does not answer in time: the look-up saves a search work, and is never what a search waits for.
 * The engine is a local HTTP server speaking `_mtermvectors`, so the real client, its timeout and
 * its error are what is exercised.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.ts';
import { createHeldWords } from '../../../src/semantic/held-words.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** An engine whose `_mtermvectors` answers as `answer` says (undefined: never), counting requests. */
async function engineAnswering(answer: (words: string[]) => unknown) {
  const asked: string[][] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!req.url?.includes('_mtermvectors')) {
        res.writeHead(404).end();
        return;
      }
      const sent = Buffer.concat(chunks);
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(sent) : sent).toString('utf8');
      const body = JSON.parse(text) as { docs: { doc: { name: string } }[] };
      const words = body.docs.map((d) => d.doc.name);
      asked.push(words);
      const reply = answer(words);
      if (reply === undefined) return; // hangs
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const engine = createEngine(
    { url: `http://127.0.0.1:${port}`, prefix: 't-held-words', requestTimeoutMs: 5_000, maxRetries: 0 },
    logger,
  );
  return { engine, asked, warnings };
}

/** A `_mtermvectors` answer in which the directory holds `held` (in service names) and no other word. */
const holding =
  (...held: string[]) =>
  (words: string[]) => ({
    docs: words.map((word) => ({
      term_vectors: { 'name.exact': { terms: { [word]: held.includes(word) ? { doc_freq: 2 } : {} } } },
    })),
  });

it('reads the words the directory holds, remembers them, and asks again once the data changed', async () => {
  const { engine, asked } = await engineAnswering(holding('car'));
  const held = createHeldWords(engine);
  expect(await held.held(['car', 'zzqx'])).toEqual(new Set(['car']));
  expect(await held.held(['Car', 'zzqx'])).toEqual(new Set(['car']));
  expect(asked).toEqual([['car', 'zzqx']]);
  // Only the word not asked before goes to the engine.
  expect(await held.held(['car', 'bus'])).toEqual(new Set(['car']));
  expect(asked.at(-1)).toEqual(['bus']);
  held.clear();
  await held.held(['car']);
  expect(asked.at(-1)).toEqual(['car']);
  await engine.close();
});

it('does without when the engine is slower than the timeout, and does not ask again at once', async () => {
  const { engine, asked, warnings } = await engineAnswering(() => undefined);
  const held = createHeldWords(engine, { timeoutMs: 100 });
  const started = Date.now();
  // Not held: every word keeps its typo expansion, the search as it was before words were looked up.
  expect(await held.held(['car'])).toEqual(new Set());
  // The look-up's own timeout, not the engine handle's 5 s (generous: a busy machine).
  expect(Date.now() - started).toBeLessThan(2_500);
  expect(warnings).toContain('search words not looked up; each keeps its typo expansion');
  // Paused after a failure: the next searches do not wait on an engine in trouble.
  const again = Date.now();
  expect(await held.held(['car', 'bus'])).toEqual(new Set());
  expect(Date.now() - again).toBeLessThan(50);
  expect(asked).toHaveLength(1);
  await engine.close();
});
