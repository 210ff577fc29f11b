import { describe, expect, it } from 'vitest';
import { recordSchemas } from '../../../../src/hsds/index.ts';
import {
  isUuid,
  LEGACY_ID_NAMESPACE,
  migrateId,
  originalIdMetadata,
  uuidV5,
} from '../../../../src/ingest/migrate/legacy-ids.ts';

describe('migrated ids', () => {
  it('are RFC 9562 UUID v5: the published test vector of the DNS namespace', () => {
    // RFC 9562 appendix A.4: UUIDv5 of "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('are the same on every import and differ by type and by id', () => {
    const service = migrateId('service', '101');
    expect(isUuid(service)).toBe(true);
    expect(migrateId('service', 101)).toBe(service);
    expect(migrateId('service', ' 101 ')).toBe(service);
    expect(migrateId('location', '101')).not.toBe(service);
    expect(migrateId('service', '102')).not.toBe(service);
    expect(service).toBe(uuidV5('service:101', LEGACY_ID_NAMESPACE));
  });

  it('keep UUIDs as published', () => {
    expect(migrateId('service', '8d1f5c7e-3b2a-4c6d-9e0f-1a2b3c4d5e6f')).toBe(
      '8d1f5c7e-3b2a-4c6d-9e0f-1a2b3c4d5e6f',
    );
  });

  it('keep the original id in a metadata record HSDS 3.1 accepts', () => {
    const id = migrateId('service', '101');
    const metadata = originalIdMetadata('service', 'service', id, '101', '2024-05-01');
    expect(recordSchemas.metadata.safeParse(metadata).success).toBe(true);
    expect(metadata).toMatchObject({
      resource_id: id,
      resource_type: 'service',
      field_name: 'id',
      previous_value: '101',
      replacement_value: id,
    });
    expect(originalIdMetadata('service', 'service', id, '101', '2024-05-01').id).toBe(metadata.id);
  });
});
