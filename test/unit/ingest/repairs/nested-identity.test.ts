/** Nested records the id does not tell apart (issue 50, Brevard): minted ids and the split rule. */
import { describe, expect, it } from 'vitest';
import { flattenNested } from '../../../../src/ingest/records/flatten.ts';
import { splitsFrom } from '../../../../src/ingest/repairs/nested-identity.ts';

const service = (id: string, languages: unknown[]) => ({ id, name: 'Pantry', status: 'active', languages });
const languageIds = (id: string, languages: unknown[]) =>
  flattenNested('service', service(id, languages), 'x.json')
    .records.filter((r) => r.type === 'language')
    .map((r) => r.id);

describe('children without an id', () => {
  it('get a minted id, the same on every import, another under another parent', () => {
    const first = languageIds('901', [{ name: 'English' }, { name: 'Spanish' }]);
    expect(first).toHaveLength(2);
    expect(new Set(first).size).toBe(2);
    expect(languageIds('901', [{ name: 'English' }, { name: 'Spanish' }])).toEqual(first);
    expect(languageIds('902', [{ name: 'English' }])[0]).not.toBe(first[0]);
  });

  it('are noted as repaired, and rejected as published under --strict or from a writer', () => {
    const flat = flattenNested('service', service('901', [{ id: '', name: 'English' }]), 'x.json');
    const note = flat.records.find((r) => r.type === 'language')?.notes.find((n) => n.path.endsWith('.id'));
    expect(note?.reason).toMatch(/^no id: given [0-9a-f-]{36}, the UUID v5/);
    for (const options of [{ strict: true }, { mapIds: false }]) {
      const s = flattenNested(
        'service',
        service('2f000000-0000-4000-8000-000000000001', [{ name: 'English' }]),
        'x.json',
        options,
      );
      expect(s.rejected).toContainEqual({ type: 'language' });
    }
  });
});

describe('splitsFrom: a record met again, merged or made its own', () => {
  it('splits other content in one item, and a child under another parent', () => {
    expect(splitsFrom('service', { organization_id: 'o' }, { organization_id: 'o' }, true, true)).toBe(
      'same-item',
    );
    expect(splitsFrom('schedule', { service_id: 'a' }, { service_id: 'b' }, false, false)).toBe(
      'other-parent',
    );
    expect(splitsFrom('schedule', { location_id: 'l' }, { service_id: 'a' }, false, true)).toBe(
      'other-parent',
    );
  });

  it('merges the same phone under its service and its contact, and records others name across items', () => {
    expect(splitsFrom('phone', { service_id: 's' }, { contact_id: 'c' }, true, false)).toBeUndefined();
    expect(splitsFrom('phone', { service_id: 's' }, { contact_id: 'c' }, false, false)).toBeUndefined();
    expect(
      splitsFrom('location', { organization_id: 'a' }, { organization_id: 'b' }, false, true),
    ).toBeUndefined();
    expect(
      splitsFrom('service', { organization_id: 'o' }, { organization_id: 'o' }, false, true),
    ).toBeUndefined();
  });
});
