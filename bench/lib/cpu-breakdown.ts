/**
 * Where the API's CPU goes per request, from a V8 profile (`bench:compare -- --cpu-prof DIR` runs
 * the API under `node --cpu-prof`):
 *
 *   node bench/lib/cpu-breakdown.ts DIR/<file>.cpuprofile --requests N
 *
 * Each sample is put in the part of a request its stack is in, read from the leaf towards the
 * root: the first frame from a known place decides (JSON.parse called by src/engine/search.ts is
 * reading the engine's answer; zod called by hono is parsing the request). Idle samples are left
 * out. N, the requests answered while profiled, turns sample time into milliseconds per request.
 *
 * The main thread only: onnxruntime runs a model on threads of its own, so the embedding's share
 * here is what the main thread spends on it (tokenizing, tensors, pooling); bench:compare's
 * "API CPU ms/req" column (from /proc, every thread) has the whole.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatTable } from './results.ts';

type Frame = { functionName: string; url: string };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type Profile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

/** The parts of a request, each by the places its frames come from; the first that matches a frame wins. */
const PARTS: { part: string; matches: (frame: Frame) => boolean }[] = [
  {
    part: 'embedding',
    matches: (f) => /semantic\/embedder\.ts|onnxruntime|@huggingface\/tokenizers/.test(f.url),
  },
  { part: 'understanding', matches: (f) => /src\/semantic\/|held-words/.test(f.url) },
  { part: 'query building', matches: (f) => /src\/index-mapping\//.test(f.url) },
  {
    part: 'engine call (client, HTTP out, reading the answer)',
    matches: (f) =>
      /@opensearch-project|src\/engine\/|undici|node:_http_client|node:internal\/http_client/.test(f.url),
  },
  { part: 'logging', matches: (f) => /pino|thread-stream|sonic-boom/.test(f.url) },
  {
    part: 'response (page text, JSON answer)',
    matches: (f) => /src\/api\/(paging|json-answer|ndjson)\.ts/.test(f.url),
  },
  {
    part: 'request parse, validation, routing (hono, zod, src/api)',
    matches: (f) => /hono|zod|src\/api\//.test(f.url),
  },
  {
    part: 'HTTP server (node: sockets, parser)',
    matches: (f) =>
      /node:_http_server|node:_http_common|node:net|node:_http_outgoing|node:internal\/stream/.test(f.url),
  },
];

export function breakdown(profile: Profile): { part: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOfNode = new Map<number, string>();
  const partOf = (id: number): string => {
    const known = partOfNode.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    let part: string | undefined;
    if (name === '(idle)') part = 'idle';
    else if (name === '(garbage collector)') part = 'garbage collection';
    else if (name === '(program)') part = 'V8 / native, no JS stack';
    for (let at: number | undefined = id; !part && at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      part = PARTS.find((p) => p.matches(frame))?.part;
    }
    part ??= 'other';
    partOfNode.set(id, part);
    return part;
  };
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const part = partOf(id);
    ms.set(part, (ms.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...ms].map(([part, t]) => ({ part, ms: t })).sort((a, b) => b.ms - a.ms);
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { requests: { type: 'string' } },
  });
  const file = positionals[0];
  if (!file) throw new Error('usage: node bench/lib/cpu-breakdown.ts <file.cpuprofile> --requests N');
  const parts = breakdown(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const busy = parts.filter((p) => p.part !== 'idle');
  const total = busy.reduce((sum, p) => sum + p.ms, 0);
  const requests = values.requests ? Number(values.requests) : undefined;
  console.log(
    formatTable([
      ['part', 'ms', 'share', ...(requests ? ['ms per request'] : [])],
      ...busy.map((p) => [
        p.part,
        p.ms.toFixed(0),
        `${((p.ms / total) * 100).toFixed(1)}%`,
        ...(requests ? [(p.ms / requests).toFixed(3)] : []),
      ]),
      ['busy (not idle)', total.toFixed(0), '100%', ...(requests ? [(total / requests).toFixed(3)] : [])],
    ]),
  );
}
