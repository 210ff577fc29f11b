import { describe, expect, it } from 'vitest';
import { breakdown } from '../../../bench/lib/cpu-breakdown.ts';

const frame = (functionName: string, url = '') => ({ functionName, url });

describe('CPU breakdown of a profile (bench:compare --cpu-prof)', () => {
  it('puts each sample in the part of its nearest known frame, idle and GC apart', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 6, 7, 8] },
        {
          id: 2,
          callFrame: frame('understand', 'file:///app/src/semantic/understanding.ts'),
          children: [3, 4],
        },
        { id: 3, callFrame: frame('embed', 'file:///app/src/semantic/embedder.ts'), children: [] },
        { id: 4, callFrame: frame('searchPage', 'file:///app/src/engine/search.ts'), children: [5] },
        { id: 5, callFrame: frame('parse'), children: [] },
        { id: 6, callFrame: frame('(idle)'), children: [] },
        { id: 7, callFrame: frame('(garbage collector)'), children: [] },
        { id: 8, callFrame: frame('safeParse', 'file:///app/node_modules/zod/v4/core.js'), children: [] },
      ],
      samples: [3, 3, 5, 2, 6, 7, 8],
      timeDeltas: [1000, 1000, 2000, 500, 9000, 300, 700],
      startTime: 0,
      endTime: 14_500,
    };
    const ms = Object.fromEntries(breakdown(profile).map((p) => [p.part, p.ms]));
    expect(ms.embedding).toBe(2);
    // JSON.parse (no url) under src/engine: reading the engine's answer.
    expect(ms['engine call (client, HTTP out, reading the answer)']).toBe(2);
    expect(ms.understanding).toBe(0.5);
    expect(ms.idle).toBe(9);
    expect(ms['garbage collection']).toBe(0.3);
    expect(ms['request parse, validation, routing (hono, zod, src/api)']).toBe(0.7);
  });
});
