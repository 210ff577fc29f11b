import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * A real HTTP server speaking the postcodes.io subset the geocoder uses (GET /postcodes/{pc},
 * GET /outcodes/{outcode}), answering from the ONSPD fixture as postcodes.io
 * would: live postcodes only, null coordinates where ONSPD has none, outcode centroids as the mean
 * of their live postcodes. Modes simulate outages for the API, geocoder and benchmark tests.
 */

export type FakePostcodesIoMode =
  /** Answer normally. */
  | 'up'
  /** Stop listening and drop connections: clients see ECONNREFUSED. */
  | 'down'
  /** Answer every request with HTTP 500. */
  | 'error'
  /** Answer normally after `delayMs`. */
  | 'slow'
  /** Answer the next `failures` requests with HTTP 500, then behave as 'up'. */
  | 'flaky'
  /** Accept every connection and never answer (a hung service: clients see only their timeout). */
  | 'hang';

export type FakePostcodesIoOptions = {
  /** Serve under a path prefix, e.g. '/pc-api', as a self-hosted instance behind a proxy might. */
  pathPrefix?: string;
  mode?: FakePostcodesIoMode;
  delayMs?: number;
  failures?: number;
  /** Defaults to test/fixtures/postcodes/onspd-sample.csv. */
  csvPath?: string;
};

export type FakePostcodesIo = {
  /** Base URL including the path prefix, without a trailing slash. */
  readonly url: string;
  /** Requests received since start (or the last reset). */
  readonly requests: number;
  /** 'GET /postcodes/AB10%201AB', ... in arrival order. */
  readonly log: readonly string[];
  resetRequests(): void;
  setMode(mode: FakePostcodesIoMode, options?: { delayMs?: number; failures?: number }): Promise<void>;
  close(): Promise<void>;
};

type Place = {
  postcode: string;
  outcode: string;
  latitude: number | null;
  longitude: number | null;
  district: string;
};

const DEFAULT_CSV = join(import.meta.dirname, '..', 'fixtures', 'postcodes', 'onspd-sample.csv');
const NO_LAT = '99.999999';

const compact = (value: string) => value.replace(/\s+/g, '').toUpperCase();

function loadPlaces(csvPath: string): { postcodes: Map<string, Place>; outcodes: Map<string, Place> } {
  const rows: Record<string, string>[] = parse(readFileSync(csvPath, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
  });
  const postcodes = new Map<string, Place>();
  const sums = new Map<string, { lat: number; lon: number; count: number }>();
  for (const row of rows) {
    if ((row.doterm ?? '') !== '') continue;
    const postcode = row.pcds ?? '';
    const outcode = postcode.split(' ')[0] ?? '';
    const located = row.lat !== NO_LAT && row.lat !== '';
    const latitude = located ? Number(row.lat) : null;
    const longitude = located ? Number(row.long) : null;
    postcodes.set(compact(postcode), { postcode, outcode, latitude, longitude, district: row.oslaua ?? '' });
    if (latitude !== null && longitude !== null) {
      const sum = sums.get(outcode) ?? { lat: 0, lon: 0, count: 0 };
      sum.lat += latitude;
      sum.lon += longitude;
      sum.count += 1;
      sums.set(outcode, sum);
    }
  }
  const outcodes = new Map<string, Place>();
  for (const [outcode, sum] of sums) {
    outcodes.set(outcode, {
      postcode: outcode,
      outcode,
      latitude: sum.lat / sum.count,
      longitude: sum.lon / sum.count,
      district: '',
    });
  }
  return { postcodes, outcodes };
}

function postcodeResult(place: Place) {
  return {
    postcode: place.postcode,
    quality: place.latitude === null ? 9 : 1,
    outcode: place.outcode,
    incode: place.postcode.split(' ')[1] ?? '',
    longitude: place.longitude,
    latitude: place.latitude,
    codes: { admin_district: place.district },
  };
}

function outcodeResult(place: Place) {
  return { outcode: place.outcode, longitude: place.longitude, latitude: place.latitude };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export async function startFakePostcodesIo(options: FakePostcodesIoOptions = {}): Promise<FakePostcodesIo> {
  const { postcodes, outcodes } = loadPlaces(options.csvPath ?? DEFAULT_CSV);
  const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  let mode: FakePostcodesIoMode = 'up';
  let delayMs = options.delayMs ?? 1000;
  let failuresLeft = options.failures ?? 0;
  let requests = 0;
  const log: string[] = [];
  const timers = new Set<NodeJS.Timeout>();

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (!path.startsWith(`${prefix}/`)) return send(res, 404, { status: 404, error: 'Resource not found' });
    const route = path.slice(prefix.length);

    const postcodeMatch = /^\/postcodes\/([^/]+)$/.exec(route);
    if (req.method === 'GET' && postcodeMatch) {
      const place = postcodes.get(compact(decodeURIComponent(postcodeMatch[1]!)));
      return place
        ? send(res, 200, { status: 200, result: postcodeResult(place) })
        : send(res, 404, { status: 404, error: 'Postcode not found' });
    }
    const outcodeMatch = /^\/outcodes\/([^/]+)$/.exec(route);
    if (req.method === 'GET' && outcodeMatch) {
      const place = outcodes.get(compact(decodeURIComponent(outcodeMatch[1]!)));
      return place
        ? send(res, 200, { status: 200, result: outcodeResult(place) })
        : send(res, 404, { status: 404, error: 'Outcode not found' });
    }
    return send(res, 404, { status: 404, error: 'Resource not found' });
  }

  const server = createServer((req, res) => {
    requests += 1;
    log.push(`${req.method} ${req.url}`);
    if (mode === 'hang') {
      req.resume();
      return;
    }
    if (mode === 'error' || (mode === 'flaky' && failuresLeft > 0)) {
      if (mode === 'flaky') failuresLeft -= 1;
      req.resume();
      return send(res, 500, { status: 500, error: 'Internal server error' });
    }
    const respond = () => {
      answer(req, res).catch((error: unknown) => send(res, 500, { status: 500, error: String(error) }));
    };
    if (mode !== 'slow') return respond();
    const timer = setTimeout(() => {
      timers.delete(timer);
      respond();
    }, delayMs);
    timers.add(timer);
  });

  function listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  function stopListening(): Promise<void> {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  await listen(0);
  const port = (server.address() as AddressInfo).port;
  let listening = true;

  async function setMode(next: FakePostcodesIoMode, settings: { delayMs?: number; failures?: number } = {}) {
    if (settings.delayMs !== undefined) delayMs = settings.delayMs;
    if (settings.failures !== undefined) failuresLeft = settings.failures;
    if (next === 'down' && listening) {
      listening = false;
      await stopListening();
    } else if (next !== 'down' && !listening) {
      // Same port, so clients holding the URL find the server again.
      await listen(port);
      listening = true;
    }
    mode = next;
  }

  await setMode(options.mode ?? 'up');

  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    get requests() {
      return requests;
    },
    get log() {
      return log;
    },
    resetRequests() {
      requests = 0;
      log.length = 0;
    },
    setMode,
    async close() {
      if (listening) {
        listening = false;
        await stopListening();
      }
    },
  };
}
