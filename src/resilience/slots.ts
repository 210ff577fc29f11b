/**
 * Counting limits that refuse rather than queue: a caller past the limit is told at once, so load
 * beyond what a dependency can take is shed instead of piling up in memory. Each granted slot is a
 * release function that is safe to call more than once.
 */

export type Release = () => void;

export type Slots = {
  readonly inUse: number;
  readonly limit: number;
  /** A slot, or null when all are taken. */
  tryAcquire(): Release | null;
};

export function createSlots(limit: number): Slots {
  if (!(limit >= 1)) throw new RangeError('a slot limit must be at least 1');
  let inUse = 0;
  return {
    get inUse() {
      return inUse;
    },
    limit,
    tryAcquire() {
      if (inUse >= limit) return null;
      inUse += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse -= 1;
      };
    },
  };
}

export type KeyedSlots = {
  readonly inUse: number;
  inUseBy(key: string): number;
  /** A slot for `key`, or why not: every slot is taken, or this key holds its share. */
  tryAcquire(key: string): { release: Release } | { refused: 'total' | 'key' };
};

/** At most `total` slots in all and `perKey` for any one key (a client address). */
export function createKeyedSlots(limits: { total: number; perKey: number }): KeyedSlots {
  const all = createSlots(limits.total);
  if (!(limits.perKey >= 1)) throw new RangeError('a per-key slot limit must be at least 1');
  const byKey = new Map<string, number>();
  return {
    get inUse() {
      return all.inUse;
    },
    inUseBy: (key) => byKey.get(key) ?? 0,
    tryAcquire(key) {
      const held = byKey.get(key) ?? 0;
      if (held >= limits.perKey) return { refused: 'key' };
      const releaseOne = all.tryAcquire();
      if (!releaseOne) return { refused: 'total' };
      byKey.set(key, held + 1);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          releaseOne();
          const left = (byKey.get(key) ?? 1) - 1;
          // Keys with nothing held are dropped, so the map does not grow with every client ever seen.
          if (left > 0) byKey.set(key, left);
          else byKey.delete(key);
        },
      };
    },
  };
}
