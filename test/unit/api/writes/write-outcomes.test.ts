import { describe, expect, it } from 'vitest';
import { entityTag } from '../../../../src/api/records/http-cache.ts';
import type { WriteIssue } from '../../../../src/api/writes/record-writes.ts';
import { writeRefusal } from '../../../../src/api/writes/write-outcomes.ts';
import { writePrecondition } from '../../../../src/api/writes/write-preconditions.ts';

const issue = (n: number): WriteIssue => ({
  severity: 'error',
  kind: 'schema',
  path: `phones[${n}]`,
  reason: 'bad',
});

describe('writeRefusal', () => {
  it('answers nothing for a write that was made', () => {
    expect(writeRefusal({ kind: 'written', created: true }, 'service', 'a')).toBeUndefined();
    expect(writeRefusal({ kind: 'deleted' }, 'service', 'a')).toBeUndefined();
  });

  it('answers each refusal with its status', () => {
    const status = (outcome: Parameters<typeof writeRefusal>[0]) =>
      writeRefusal(outcome, 'service', 'a')?.status;
    expect(status({ kind: 'rejected', issues: [issue(0)] })).toBe(400);
    expect(status({ kind: 'too-large', reason: 'too many keys' })).toBe(413);
    expect(status({ kind: 'precondition-failed' })).toBe(412);
    expect(status({ kind: 'not-found' })).toBe(404);
    expect(status({ kind: 'busy', reason: 'queued', waitedMs: 15_001 })).toBe(503);
  });

  it('lists the first hundred issues of a rejected body and counts them all', () => {
    const problem = writeRefusal(
      { kind: 'rejected', issues: Array.from({ length: 102 }, (_, n) => issue(n)) },
      'service',
      'a',
    );
    expect(problem?.errors).toHaveLength(100);
    expect(problem?.errorsTotal).toBe(102);
    expect(problem?.detail).toMatch(/; and 2 more \(102 in all\)$/);
    expect(problem?.errors?.[0]).toEqual({
      parameter: 'phones[0]',
      in: 'body',
      reason: 'bad',
      severity: 'error',
      kind: 'schema',
    });
  });

  it('tells a busy writer when to come back, in whole seconds', () => {
    const problem = writeRefusal({ kind: 'busy', reason: 'queued', waitedMs: 200 }, 'service', 'a');
    expect(problem?.retryAfterSeconds).toBe(1);
    expect(problem?.typeSlug).toBe('writes-busy');
  });
});

describe('writePrecondition', () => {
  const current = (text: string | undefined) => async () => text;

  it('is absent for an unconditional write', () => {
    expect(writePrecondition({ ifMatch: undefined, ifNoneMatch: undefined }, current('{}'))).toBeUndefined();
  });

  it('creates only with If-None-Match: *', async () => {
    const check = writePrecondition({ ifMatch: undefined, ifNoneMatch: ' * ' }, current('{}'))!;
    expect(await check(true)).toBe(false);
    expect(await check(false)).toBe(true);
  });

  it('writes with If-Match only over the version it names, strongly', async () => {
    const tag = entityTag('{"id":"a"}');
    expect(
      await writePrecondition({ ifMatch: tag, ifNoneMatch: undefined }, current('{"id":"a"}'))!(true),
    ).toBe(true);
    expect(
      await writePrecondition({ ifMatch: tag, ifNoneMatch: undefined }, current('{"id":"b"}'))!(true),
    ).toBe(false);
    expect(
      await writePrecondition({ ifMatch: `W/${tag}`, ifNoneMatch: undefined }, current('{"id":"a"}'))!(true),
    ).toBe(false);
    expect(
      await writePrecondition({ ifMatch: tag, ifNoneMatch: undefined }, current('{"id":"a"}'))!(false),
    ).toBe(false);
  });
});
