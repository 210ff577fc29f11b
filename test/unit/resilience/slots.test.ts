import { describe, expect, it } from 'vitest';
import { createKeyedSlots, createSlots } from '../../../src/resilience/slots.ts';

describe('slots', () => {
  it('grants up to the limit, refuses beyond it, and a release frees one (once, however often called)', () => {
    const slots = createSlots(2);
    const a = slots.tryAcquire();
    const b = slots.tryAcquire();
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(slots.tryAcquire()).toBeNull();
    a?.();
    a?.();
    expect(slots.inUse).toBe(1);
    expect(slots.tryAcquire()).not.toBeNull();
    expect(slots.tryAcquire()).toBeNull();
  });
});

describe('keyed slots', () => {
  it('refuses a key past its share with "key" and anyone past the total with "total"', () => {
    const slots = createKeyedSlots({ total: 3, perKey: 2 });
    const a1 = slots.tryAcquire('10.0.0.1');
    const a2 = slots.tryAcquire('10.0.0.1');
    expect(slots.tryAcquire('10.0.0.1')).toEqual({ refused: 'key' });
    const b1 = slots.tryAcquire('10.0.0.2');
    expect('release' in b1).toBe(true);
    expect(slots.tryAcquire('10.0.0.3')).toEqual({ refused: 'total' });
    if ('release' in a1) a1.release();
    expect(slots.inUseBy('10.0.0.1')).toBe(1);
    expect('release' in slots.tryAcquire('10.0.0.3')).toBe(true);
    if ('release' in a2) {
      a2.release();
      a2.release();
    }
    expect(slots.inUseBy('10.0.0.1')).toBe(0);
    expect(slots.inUse).toBe(2);
  });
});
