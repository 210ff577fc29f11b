/**
 * A postcode service that accepts connections and never answers costs a postcode lookup at most
 * the geocoder timeout, once: the failure is remembered for a short while, the geocoder's circuit
 * breaker opens after a few, and later lookups answer at once (503, as when no geocoder answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePostcodesIo, startFakePostcodesIo } from '../support/fake-postcodes-io.ts';
import { baseEnv, startApi, usePublishedDirectory } from './support.ts';

const SERVICES = 1000;
const GEOCODER_TIMEOUT_MS = 3000;
const prefix = usePublishedDirectory('geocoder', SERVICES);
let fake: FakePostcodesIo;

beforeAll(async () => {
  fake = await startFakePostcodesIo({ mode: 'hang' });
});

afterAll(async () => {
  await fake?.close();
});

async function timed(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

describe('a hung postcode service', () => {
  it('costs an unknown postcode at most the timeout once, then answers fast', async () => {
    const api = await startApi(
      baseEnv(prefix, { POSTCODES_IO_URL: fake.url, GEOCODER_TIMEOUT_MS: String(GEOCODER_TIMEOUT_MS) }),
    );
    try {
      const near = (postcode: string) =>
        `${api.url}/service_at_locations?postcode=${encodeURIComponent(postcode)}&proximity=2000&per_page=5`;
      const first = await timed(near('AB10 9ZZ'));
      const again = await timed(near('AB10 9ZZ'));
      const others = [];
      for (const postcode of ['AB11 9ZZ', 'AB12 9ZZ', 'AB15 9ZZ', 'AB16 9ZZ', 'AB21 9ZZ', 'AB22 9ZZ']) {
        others.push(await timed(near(postcode)));
      }
      console.log(
        `hung postcodes.io: first ${first.status} in ${first.ms.toFixed(0)} ms, again ${again.status} in ` +
          `${again.ms.toFixed(0)} ms, other postcodes ${others.map((o) => `${o.status}/${o.ms.toFixed(0)}`).join(' ')} ms`,
      );
      expect(first.status).toBe(503);
      expect(first.ms).toBeLessThan(GEOCODER_TIMEOUT_MS + 1000);
      expect(again.status).toBe(503);
      expect(again.ms).toBeLessThan(300);
      // The breaker opens after a few timeouts: from then on, no lookup waits.
      expect(others.every((o) => o.status === 503 && o.ms < GEOCODER_TIMEOUT_MS + 1000)).toBe(true);
      expect(others.slice(-3).every((o) => o.ms < 300)).toBe(true);
      expect(api.output()).toMatch(/circuit (breaker )?open/i);

      // A page without a postcode never waits for the geocoder.
      const plain = await timed(`${api.url}/service_at_locations?per_page=5`);
      expect(plain.status).toBe(200);
    } finally {
      await api.stop();
    }
  });
});
