/**
 * `open_at` / `open_now` (opening.query.ts): one nested query whose frames are computed from the
 * instant passed in. The phase tokens (one per interval a search tests) are counted, not listed.
 */
import { describe, expect, it } from 'vitest';
import { openAtFilter } from '../../../src/index-mapping/opening.query.ts';
import { parseInstant } from '../../../src/schedules/calendar.ts';

type Filter = { bool: { filter: Record<string, Record<string, unknown>>[] } };

describe('openAtFilter', () => {
  it('is absent without an instant', () => {
    expect(openAtFilter(undefined)).toBeUndefined();
  });

  it('asks one rule to match a frame: four UTC dates for stated offsets, two local ones for the rest', () => {
    const instant = parseInstant('2026-03-02T01:30:00Z', 'UTC') as number;
    const query = openAtFilter({ instant, directoryZone: 'Europe/London' }) as {
      nested: { path: string; ignore_unmapped: boolean; query: { bool: { should: Filter[] } } };
    };
    expect(query.nested.path).toBe('opening');
    expect(query.nested.ignore_unmapped).toBe(true);
    const frames = query.nested.query.bool.should.map(({ bool }) =>
      bool.filter.map((clause) => {
        const [kind, body] = Object.entries(clause)[0] as [string, Record<string, unknown>];
        const [field, value] = Object.entries(body)[0] as [string, unknown];
        return field === 'opening.phase'
          ? `${field} (${(value as string[]).length})`
          : { [kind]: { [field]: value } };
      }),
    );
    expect(frames[1]).toMatchInlineSnapshot(`
      [
        {
          "term": {
            "opening.zoned": false,
          },
        },
        {
          "terms": {
            "opening.days": [
              "ANY",
              "W:MO",
              "M:1MO",
              "M:-5MO",
              "D:2",
              "D:-30",
            ],
          },
        },
        "opening.phase (200)",
        {
          "range": {
            "opening.first_day": {
              "lte": 20514,
            },
          },
        },
        {
          "range": {
            "opening.last_day": {
              "gte": 20514,
            },
          },
        },
        {
          "range": {
            "opening.start": {
              "lte": 90,
            },
          },
        },
        {
          "range": {
            "opening.end": {
              "gt": 90,
            },
          },
        },
      ]
    `);
    expect(frames.map((f) => JSON.stringify(f.slice(-4)))).toMatchInlineSnapshot(`
      [
        "[{"range":{"opening.first_day":{"lte":20515}}},{"range":{"opening.last_day":{"gte":20515}}},{"range":{"opening.start":{"lte":-1350}}},{"range":{"opening.end":{"gt":-1350}}}]",
        "[{"range":{"opening.first_day":{"lte":20514}}},{"range":{"opening.last_day":{"gte":20514}}},{"range":{"opening.start":{"lte":90}}},{"range":{"opening.end":{"gt":90}}}]",
        "[{"range":{"opening.first_day":{"lte":20513}}},{"range":{"opening.last_day":{"gte":20513}}},{"range":{"opening.start":{"lte":1530}}},{"range":{"opening.end":{"gt":1530}}}]",
        "[{"range":{"opening.first_day":{"lte":20512}}},{"range":{"opening.last_day":{"gte":20512}}},{"range":{"opening.start":{"lte":2970}}},{"range":{"opening.end":{"gt":2970}}}]",
        "[{"range":{"opening.first_day":{"lte":20514}}},{"range":{"opening.last_day":{"gte":20514}}},{"range":{"opening.start":{"lte":90}}},{"range":{"opening.end":{"gt":90}}}]",
        "[{"range":{"opening.first_day":{"lte":20513}}},{"range":{"opening.last_day":{"gte":20513}}},{"range":{"opening.start":{"lte":1530}}},{"range":{"opening.end":{"gt":1530}}}]",
      ]
    `);
  });
});
