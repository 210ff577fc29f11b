import { describe, expect, it } from 'vitest';
import {
  sourceTag,
  toBundleDocument,
  toRecordStoreDocument,
  toSingleDocument,
  unpackDocument,
} from '../../../src/index-mapping/record-store.document.ts';

const service = toRecordStoreDocument(
  'service',
  's1',
  { id: 's1', name: 'Food bank', organization_id: 'o1' },
  ['o1'],
  'a.json',
);
const phone = toRecordStoreDocument('phone', 'p1', { id: 'p1', service_id: 's1' }, ['s1'], 'a.json');
const area = toRecordStoreDocument('service_area', 'a1', { id: 'a1', service_id: 's1' }, ['s1'], 'a.json', {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ],
  ],
});

describe('store documents', () => {
  it('bundle the records of one item under the item, and give them back as they were', () => {
    const bundle = toBundleDocument([service, phone, area], 7);
    expect(bundle).toMatchObject({
      key: `item:${sourceTag(service.source)}:service:s1`,
      kind: 'bundle',
      run: 7,
      keys: ['service:s1', 'phone:p1', 'service_area:a1'],
      ids: ['s1', 'p1', 'a1'],
      types: ['service', 'phone', 'service_area'],
      group: 'o1',
    });
    expect(new Set(bundle.parent_ids)).toEqual(new Set(['o1', 's1']));
    expect(unpackDocument(bundle)).toEqual([service, phone, area]);
  });

  it("keep each source's bundle of an item apart", () => {
    const other = toBundleDocument([{ ...service, source: 'other-feed' }], 7);
    expect(other.key).not.toBe(toBundleDocument([service], 7).key);
    expect(other.key).toMatch(/^item:[0-9a-f]{10}:service:s1$/);
  });

  it('keep a single record whole, marked when it wins over bundled copies', () => {
    const single = toSingleDocument(phone, 8, true);
    expect(single).toMatchObject({
      key: 'phone:p1',
      kind: 'single',
      run: 8,
      keys: ['phone:p1'],
      overrides: true,
    });
    expect(unpackDocument(single)).toEqual([phone]);
    expect(toSingleDocument(area, 8, false).overrides).toBeUndefined();
  });
});
