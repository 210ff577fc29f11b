/**
 * Cheap requests must not cost the API (or the engine) dearly: a 100 MB body is refused before it
 * is read, and a search for one very long word costs about what a normal search does. Each test
 * measures normal requests before and during the abuse, in the same run, and asserts a ratio.
 */

import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_WORDS } from '../../src/index-mapping/text.query.ts';
import { type ApiProcess, baseEnv, sleep, startApi, usePublishedDirectory } from './support.ts';

const SERVICES = 1000;
const prefix = usePublishedDirectory('limits', SERVICES);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

/** The latency of one request in ms, or Infinity when it fails (a dead API is infinitely slow). */
async function timed(url: string): Promise<number> {
  const started = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(20_000) });
    await res.arrayBuffer();
    if (res.status !== 200) return Number.POSITIVE_INFINITY;
    return performance.now() - started;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

async function latencies(url: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await timed(url));
  return out;
}

type LargeBodyResult = {
  status: number | undefined;
  error: string | undefined;
  sentBytes: number;
  ms: number;
};

/**
 * POSTs a form body of `bytes` bytes, streamed in 64 kB chunks (chunked, or with Content-Length),
 * stopping as soon as the server answers, as a client that reads responses would.
 */
function postLargeBody(url: string, bytes: number, chunked: boolean): Promise<LargeBodyResult> {
  const started = performance.now();
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    let status: number | undefined;
    let sentBytes = 0;
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      resolve({ status, error, sentBytes, ms: performance.now() - started });
    };
    const req = request(`${url}/services`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(chunked ? {} : { 'content-length': String(bytes) }),
      },
    });
    req.on('response', (res) => {
      status = res.statusCode;
      res.resume();
      res.on('end', () => {
        finish();
        req.destroy();
      });
    });
    req.on('error', (error) => finish(error.message));
    req.on('close', () => finish());
    const write = () => {
      while (!done && status === undefined && sentBytes < bytes) {
        const piece = sentBytes === 0 ? Buffer.concat([Buffer.from('search='), chunk]) : chunk;
        const slice = piece.subarray(0, Math.min(piece.length, bytes - sentBytes));
        sentBytes += slice.length;
        if (!req.write(slice)) {
          req.once('drain', write);
          return;
        }
      }
      if (!done && status === undefined) req.end();
    };
    write();
  });
}

/** Samples the API's RSS every 50 ms until stopped; returns the highest. */
function sampleRss(api: ApiProcess) {
  let max = 0;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, api.rss());
    } catch {
      // the process is gone: the test's liveness check says so
    }
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return max;
    },
  };
}

const randomWord = (letters: number) =>
  Array.from({ length: letters }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
const longWord = () => randomWord(500);
/** Words of 10 letters, each one a typo-forgiven, fuzzy clause up to the word cap. */
const words = (count: number) => Array.from({ length: count }, () => randomWord(10)).join(' ');
/** 40 words: 16 the query uses and 24 more the parser drops. */
const manyWords = () => words(40);
/** Quoted phrases of long words, and one long word outside them. */
const longPhrases = () =>
  `"${randomWord(90)} ${randomWord(90)}" "${randomWord(120)} ${randomWord(100)}" ${randomWord(80)}`;

describe('a 100 MB request body', () => {
  it('is refused with 413 before it is read; the API stays alive, small, and as fast for others', async () => {
    const api = await startApi(baseEnv(prefix));
    try {
      const normal = `${api.url}/services?search=food&per_page=5`;
      await latencies(normal, 5); // warm up
      const rssBefore = api.rss();
      const before = await latencies(normal, 30);

      const rss = sampleRss(api);
      const large = Promise.all([
        postLargeBody(api.url, 100 * 1024 * 1024, true),
        postLargeBody(api.url, 100 * 1024 * 1024, false),
      ]);
      await sleep(20);
      const during = await latencies(normal, 30);
      const [streamed, declared] = await large;
      await sleep(200);
      const maxRss = rss.stop();

      const alive = await timed(`${api.url}/`);
      console.log(
        JSON.stringify({
          streamed: { ...streamed, ms: round(streamed.ms) },
          declared: { ...declared, ms: round(declared.ms) },
          medianMsBefore: round(median(before)),
          medianMsDuring: round(median(during)),
          maxMsDuring: round(Math.max(...during)),
          rssMbBefore: Math.round(rssBefore / 2 ** 20),
          rssMbMax: Math.round(maxRss / 2 ** 20),
          alive: Number.isFinite(alive),
        }),
      );

      expect(Number.isFinite(alive), 'the API answers after the large bodies').toBe(true);
      expect(streamed.status).toBe(413);
      expect(declared.status).toBe(413);
      // Refused early: far less than the 100 MB was sent before the answer came.
      expect(streamed.sentBytes).toBeLessThan(70 * 1024 * 1024);
      expect(declared.sentBytes).toBeLessThan(70 * 1024 * 1024);
      expect(maxRss - rssBefore).toBeLessThan(64 * 1024 * 1024);
      // Generous: the machine is shared and the sender itself competes for the CPU.
      expect(median(during)).toBeLessThan(Math.max(median(before), 10) * 3);
      expect(Math.max(...during)).toBeLessThan(1000);
    } finally {
      await api.stop();
    }
  });
});

describe('a search for a 500-letter word', () => {
  it('costs about what a search for food does, and four such clients leave normal search its throughput', async () => {
    const api = await startApi(baseEnv(prefix));
    try {
      const search = (q: string) => `${api.url}/services?per_page=10&search=${encodeURIComponent(q)}`;
      await latencies(search('food'), 5);
      await latencies(search(longWord()), 2);

      // Interleaved, so both see the same machine.
      const food: number[] = [];
      const long: number[] = [];
      const many: number[] = [];
      const capped: number[] = [];
      const phrases: number[] = [];
      for (let i = 0; i < 20; i++) {
        food.push(await timed(search('food')));
        long.push(await timed(search(longWord())));
        many.push(await timed(search(manyWords())));
        capped.push(await timed(search(words(MAX_SEARCH_WORDS))));
        phrases.push(await timed(search(longPhrases())));
      }

      // Normal search throughput from 4 clients, alone and then beside 4 long-word clients.
      const throughput = async (ms: number, abusive?: () => string) => {
        const until = performance.now() + ms;
        let served = 0;
        let abused = 0;
        const normalClient = async () => {
          while (performance.now() < until) if (Number.isFinite(await timed(search('food bank')))) served++;
        };
        const abuser = async (url: () => string) => {
          while (performance.now() < until) {
            await timed(url());
            abused++;
          }
        };
        await Promise.all([
          ...Array.from({ length: 4 }, normalClient),
          ...(abusive ? Array.from({ length: 4 }, () => abuser(abusive)) : []),
        ]);
        return { perSecond: (served * 1000) / ms, abusivePerSecond: (abused * 1000) / ms };
      };
      const alone = await throughput(4000);
      const beside = await throughput(4000, () => search(longWord()));

      console.log(
        JSON.stringify({
          medianMsFood: round(median(food)),
          medianMsLongWord: round(median(long)),
          medianMsManyWords: round(median(many)),
          medianMsCapWords: round(median(capped)),
          medianMsLongPhrases: round(median(phrases)),
          normalPerSecondAlone: round(alone.perSecond),
          normalPerSecondBesideLongWords: round(beside.perSecond),
          longWordPerSecond: round(beside.abusivePerSecond),
        }),
      );

      expect([...food, ...long, ...many, ...capped, ...phrases].every(Number.isFinite)).toBe(true);
      const foodMs = Math.max(median(food), 5);
      const budget = foodMs * 3;
      expect(median(long)).toBeLessThan(budget);
      expect(median(phrases)).toBeLessThan(budget);
      // Sixteen words are sixteen clauses, each typo-forgiven: not free, but the cap bounds them.
      // Forty words cost what sixteen do (without the cap: 2.5 times the clauses). Against food
      // this ratio is no bound: it moves with what a page of results costs (4.4 times once list
      // pages got cheaper), so the cap is measured against itself, interleaved.
      expect(median(many)).toBeLessThan(median(capped) * 1.5);
      // Eight clients share two cores instead of four: half is fair, a quarter is the bound.
      expect(beside.perSecond).toBeGreaterThan(alone.perSecond / 4);
    } finally {
      await api.stop();
    }
  });
});
