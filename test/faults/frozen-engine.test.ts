/**
 * A frozen engine (SIGSTOP: as a long GC pause or a network partition looks from the API) costs
 * requests no more than the read timeout; once the circuit breaker opens they are refused at once
 * with 503 and Retry-After, requests in flight stay bounded, and after SIGCONT the API serves
 * again by itself within seconds.
 */
import { describe, expect, it } from 'vitest';
import { baseEnv, signalEngine, sleep, startApi, usePublishedDirectory } from './support.ts';

const SERVICES = 1000;
const READ_TIMEOUT_MS = 2000;
const prefix = usePublishedDirectory('frozen', SERVICES);

type Outcome = { status: number; ms: number; retryAfter: string | null; startedAt: number };

describe('a frozen engine', () => {
  it('gives 503s within the fail-fast budget, bounds requests in flight, and recovers after SIGCONT', async () => {
    // At info level, so the breaker's closing line is in the output too.
    const api = await startApi(
      baseEnv(prefix, { OPENSEARCH_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS), LOG_LEVEL: 'info' }),
    );
    const words = ['food', 'advice', 'housing', 'debt', 'mental', 'carers', 'youth', 'legal'];
    let inFlight = 0;
    let maxInFlight = 0;
    const outcomes: Outcome[] = [];
    const fire = async (i: number, t0: number): Promise<void> => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const started = performance.now();
      try {
        const res = await fetch(
          `${api.url}/services?search=${words[i % words.length]}&per_page=5&page=${1 + (i % 3)}`,
          {
            signal: AbortSignal.timeout(60_000),
          },
        );
        await res.arrayBuffer();
        outcomes.push({
          status: res.status,
          ms: performance.now() - started,
          retryAfter: res.headers.get('retry-after'),
          startedAt: started - t0,
        });
      } catch {
        outcomes.push({
          status: 0,
          ms: performance.now() - started,
          retryAfter: null,
          startedAt: started - t0,
        });
      } finally {
        inFlight -= 1;
      }
    };
    try {
      const warm = await fetch(`${api.url}/services?search=food&per_page=5`);
      expect(warm.status).toBe(200);

      await signalEngine('SIGSTOP');
      const t0 = performance.now();
      const rssBefore = api.rss();
      const requests: Promise<void>[] = [];
      // 100 requests a second for 10 seconds.
      for (let i = 0; i < 1000; i++) {
        requests.push(fire(i, t0));
        await sleep(10);
      }
      const rssFrozen = api.rss();
      await Promise.all(requests);
      const slow = outcomes.filter((o) => o.ms > READ_TIMEOUT_MS + 1500);
      const late = outcomes.filter((o) => o.startedAt > READ_TIMEOUT_MS + 2000);
      const lateSlow = late.filter((o) => o.ms > 250);
      const statuses = new Map<number, number>();
      for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
      const worst = Math.max(...outcomes.map((o) => o.ms));
      const lateWorst = Math.max(...late.map((o) => o.ms));
      console.log(
        `frozen engine, 1000 requests at 100/s: statuses ${JSON.stringify([...statuses])}; worst ${worst.toFixed(0)} ms; ` +
          `after the first ${READ_TIMEOUT_MS + 2000} ms worst ${lateWorst.toFixed(0)} ms; ` +
          `max in flight ${maxInFlight}; RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssFrozen / 2 ** 20).toFixed(0)} MB`,
      );
      expect(statuses.get(503)).toBe(outcomes.length);
      expect(outcomes.every((o) => o.retryAfter !== null)).toBe(true);
      // Fail-fast budget: no request waits beyond the read timeout (plus scheduling slack), and
      // once the breaker is open every request is refused at once.
      expect(slow).toHaveLength(0);
      expect(lateSlow.length).toBeLessThanOrEqual(5);
      expect(maxInFlight).toBeLessThan(300);
      expect(rssFrozen).toBeLessThan(rssBefore + 60 * 2 ** 20);
      expect(api.output()).toMatch(/circuit (breaker )?open/i);
    } finally {
      await signalEngine('SIGCONT');
    }
    try {
      // The API finds the engine again by itself.
      const resumed = performance.now();
      let recoveredMs = -1;
      while (performance.now() - resumed < 30_000) {
        const res = await fetch(`${api.url}/services?search=food&per_page=5`).catch(() => undefined);
        if (res?.status === 200) {
          recoveredMs = performance.now() - resumed;
          break;
        }
        await res?.arrayBuffer();
        await sleep(200);
      }
      console.log(`after SIGCONT: serving again in ${recoveredMs.toFixed(0)} ms`);
      expect(recoveredMs).toBeGreaterThanOrEqual(0);
      expect(recoveredMs).toBeLessThan(15_000);
      expect(api.output()).toMatch(/circuit (breaker )?closed/i);
    } finally {
      await api.stop();
    }
  });
});
