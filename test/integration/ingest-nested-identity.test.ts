/**
 * Nested records the id does not tell apart (issue 50, the Brevard pattern; fixture
 * test/fixtures/real-world/nested-identity.json): children without ids get stable minted ids, one
 * id on two differing services of one item is two services (the later one's children follow it),
 * and a schedule id shared by every parent is kept for each; a phone repeated whole under its
 * service and its contact is still one phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllRecords } from '../../src/engine/records.ts';
import { importSource } from '../../src/ingest/import/import-source.ts';
import { createTestEngine, dropTestIndices } from '../support/engine.ts';

const fixture = 'test/fixtures/real-world/nested-identity.json';
const engine = createTestEngine('nested-identity');
afterAll(async () => dropTestIndices(engine));

type Stored = Awaited<ReturnType<typeof readAllRecords>>;
let first: Awaited<ReturnType<typeof importSource>>;
let stored: Stored;
const ofType = (records: Stored, type: string) =>
  [...records.values()].filter((r) => r.type === type).map((r) => r.record as Record<string, unknown>);

beforeAll(async () => {
  first = await importSource(engine, fixture, { reportFile: false });
  stored = await readAllRecords(engine);
}, 60_000);

describe('nested records without telling ids', () => {
  it('keeps every language without an id, under a minted id, with a repair note', () => {
    expect(ofType(stored, 'language')).toHaveLength(5);
    const minted = Object.entries(first.summary.by_reason).find(([reason]) =>
      reason.startsWith('repaired: language.id: no id: given <id>, the UUID v5'),
    );
    expect(minted?.[1]).toBe(5);
    expect(first.summary.rejected).toBe(0);
  });

  it('makes the second, different service 7202 a service of its own, with its own schedule', () => {
    const services = ofType(stored, 'service');
    expect(services.map((s) => s.description).sort()).toEqual([
      'A box of groceries once a week.',
      'Advice on leases and evictions.',
      'Beds for families with children, by referral.',
      'Emergency beds for adults.',
    ]);
    const families = services.find((s) => s.fees_description === 'Sliding scale')!;
    const schedules = ofType(stored, 'schedule');
    expect(schedules.filter((s) => s.service_id === families.id).map((s) => s.description)).toEqual([
      '24 hours a day, seven days a week',
    ]);
    expect(ofType(stored, 'language').filter((l) => l.service_id === families.id)).toHaveLength(1);
    const split = Object.keys(first.summary.by_reason).filter((reason) =>
      /^repaired: service\.id: the id of an earlier record of the same item with other content .*: a record of its own/.test(
        reason,
      ),
    );
    expect(split).toHaveLength(1);
    expect(first.summary.by_reason[split[0]!]).toBe(1);
    // Two services, not one "duplicate": nothing is reported as lost.
    expect(first.summary.duplicates).toBe(0);
  });

  it('keeps the schedule shared by every parent once for each parent', () => {
    const schedules = ofType(stored, 'schedule');
    expect(schedules).toHaveLength(5);
    expect(schedules.filter((s) => s.location_id !== undefined)).toHaveLength(1);
    expect(new Set(schedules.map((s) => s.service_id).filter(Boolean)).size).toBe(4);
  });

  it('reads the opening times written only in the description, a label before them', () => {
    const office = ofType(stored, 'schedule').find((s) => String(s.description).startsWith('Office:'));
    expect(office).toMatchObject({ byday: 'MO,TU,WE,TH,FR', opens_at: '08:30', closes_at: '16:00' });
  });

  it('still merges the phone repeated whole under its service and its contact', () => {
    const phones = ofType(stored, 'phone');
    expect(phones).toHaveLength(1);
    expect(phones[0]).toMatchObject({ number: '555-0170' });
    expect(phones[0]?.service_id).toBeDefined();
    expect(phones[0]?.contact_id).toBeDefined();
  });

  it('gives the same ids on a second import: nothing new, nothing split again', async () => {
    await importSource(engine, fixture, { reportFile: false });
    const again = await readAllRecords(engine);
    expect([...again.keys()].sort()).toEqual([...stored.keys()].sort());
  });
});
