/**
 * Leases (`lease:<name>` in the control index): one reindex, one publish, one write at a time
 * across processes and machines. A lease is created with `op_type: create`, renewed with
 * optimistic concurrency (`if_seq_no`), and expires when its holder stops renewing (killed, frozen,
 * partitioned): then another process may take it over. A holder whose renewal fails learns it
 * through `lost` and must not publish.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  controlIndex,
  getControl,
  isConflict,
  isDeadLocalProcess,
  withControlIndex,
} from './control-index.ts';
import { type Engine, engineCall } from './engine.ts';

/** Who holds a lease, for the message another process gets. */
export type LeaseHolder = {
  owner: string;
  host: string;
  pid: number;
  /** What holds it, e.g. `hsds reindex` or `admin reindex job`. */
  purpose: string;
  acquired_at: string;
};

/** Another process holds the lease and it has not expired. */
export class LeaseHeldError extends Error {
  override readonly name = 'LeaseHeldError';
  readonly holder: LeaseHolder;
  constructor(name: string, holder: LeaseHolder) {
    super(
      `another ${name} is running (${holder.purpose}, process ${holder.pid} on ${holder.host}, since ${holder.acquired_at})`,
    );
    this.holder = holder;
  }
}

/** This process held the lease and lost it (it could not renew in time, or another took it over). */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

export type Lease = {
  readonly name: string;
  readonly holder: LeaseHolder;
  /** Aborted when the lease is lost; work done under the lease should stop. */
  readonly lost: AbortSignal;
  /** Renews now; throws LeaseLostError when the lease is no longer ours. */
  renew(): Promise<void>;
  /** Gives the lease up (best effort: an unreleased lease expires by itself). */
  release(): Promise<void>;
};

export type LeaseOptions = {
  purpose: string;
  /** How long the lease lasts without renewal. */
  ttlMs?: number;
  /** How often it is renewed while held. */
  renewEveryMs?: number;
  now?: () => number;
};

/**
 * The owners of the leases this process holds now. A lease document naming this process with an
 * owner not here was given up by it (released while the engine was down, so the document stayed):
 * nothing works under it, and waiting for its expiry would refuse this process's own writes for a
 * minute after the engine is back.
 */
const heldHere = new Set<string>();

const givenUpHere = (holder: LeaseHolder) =>
  holder.host === hostname() && holder.pid === process.pid && !heldHere.has(holder.owner);

/** The lease document's version: what a renewal or a release must match. */
type Version = { seqNo: number; primaryTerm: number };

const versionOf = (written: Record<string, unknown>): Version => ({
  seqNo: written._seq_no as number,
  primaryTerm: written._primary_term as number,
});

type Taking = {
  name: string;
  id: string;
  holder: LeaseHolder;
  /** The lease document as this holder writes it (its expiry from now). */
  document: () => Record<string, unknown>;
  now: () => number;
};

/**
 * Writes the lease document as ours: created when there is none, or taken over when its holder's
 * has expired (or its holder is a dead local process). LeaseHeldError when it is held.
 */
async function takeLease(engine: Engine, { name, id, holder, document, now }: Taking): Promise<Version> {
  try {
    const { body: created } = await withControlIndex(engine, () =>
      engineCall(`take lease ${name}`, () =>
        engine.client.index({ index: controlIndex(engine), id, op_type: 'create', body: document() }),
      ),
    );
    return versionOf(created);
  } catch (error) {
    if (!isConflict(error)) throw error;
  }
  const current = await getControl<LeaseHolder>(engine, id);
  const expired = !current || (current.expiresAt ?? 0) <= now();
  if (
    current &&
    !expired &&
    !isDeadLocalProcess(current.data.host, current.data.pid) &&
    !givenUpHere(current.data)
  ) {
    throw new LeaseHeldError(name, current.data);
  }
  // Expired (or released between the two requests): take it over, unless another process does first.
  try {
    const { body: taken } = await engineCall(`take over lease ${name}`, () =>
      engine.client.index({
        index: controlIndex(engine),
        id,
        body: document(),
        ...(current
          ? { if_seq_no: current.seqNo, if_primary_term: current.primaryTerm }
          : { op_type: 'create' }),
      }),
    );
    if (current) engine.logger.warn({ lease: name, expired: current.data }, 'took over an expired lease');
    return versionOf(taken);
  } catch (takeOverError) {
    if (!isConflict(takeOverError)) throw takeOverError;
    const winner = await getControl<LeaseHolder>(engine, id);
    throw new LeaseHeldError(name, winner?.data ?? holder);
  }
}

/**
 * The lease this process now holds: renewed every `renewEveryMs` (with optimistic concurrency on
 * the version it last wrote) until released; a renewal that conflicts, or fails past the expiry,
 * aborts `lost`.
 */
function holdLease(
  engine: Engine,
  { name, id, holder, document, now }: Taking,
  version: Version,
  { ttlMs, renewEveryMs }: { ttlMs: number; renewEveryMs: number },
): Lease {
  let { seqNo, primaryTerm } = version;
  const controller = new AbortController();
  let expiresAt = now() + ttlMs;
  let released = false;
  let renewing: Promise<void> | undefined;
  const renewOnce = async () => {
    if (controller.signal.aborted) throw controller.signal.reason;
    try {
      const { body: renewed } = await engineCall(`renew lease ${name}`, () =>
        engine.client.index({
          index: controlIndex(engine),
          id,
          body: document(),
          if_seq_no: seqNo,
          if_primary_term: primaryTerm,
        }),
      );
      seqNo = renewed._seq_no as number;
      primaryTerm = renewed._primary_term as number;
      expiresAt = now() + ttlMs;
    } catch (error) {
      // A conflict means another process took the lease over; a failure that lasts past the
      // expiry means it may have: either way the work must not be published.
      if (isConflict(error) || now() >= expiresAt) {
        const lost = new LeaseLostError(`the ${name} lease was lost: ${(error as Error).message}`);
        controller.abort(lost);
        throw lost;
      }
      throw error;
    }
  };
  const renew = () => {
    renewing ??= renewOnce().finally(() => {
      renewing = undefined;
    });
    return renewing;
  };
  const timer = setInterval(() => {
    renew().catch((error: unknown) => {
      if (!(error instanceof LeaseLostError)) {
        engine.logger.warn({ err: error, lease: name }, 'could not renew a lease; retrying');
      }
    });
  }, renewEveryMs);
  timer.unref();

  return {
    name,
    holder,
    lost: controller.signal,
    renew,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(holder.owner);
      clearInterval(timer);
      await renewing?.catch(() => {});
      if (controller.signal.aborted) return;
      controller.abort(new LeaseLostError(`the ${name} lease was released`));
      await engineCall(`release lease ${name}`, () =>
        engine.client.delete({
          index: controlIndex(engine),
          id,
          if_seq_no: seqNo,
          if_primary_term: primaryTerm,
        }),
      ).catch((error: unknown) => {
        engine.logger.warn({ err: error, lease: name }, 'could not release a lease; it expires by itself');
      });
    },
  };
}

/**
 * Takes the named lease, or throws LeaseHeldError naming who holds it. An expired lease is taken
 * over. While held, it is renewed in the background until released.
 */
export async function acquireLease(engine: Engine, name: string, options: LeaseOptions): Promise<Lease> {
  const ttlMs = options.ttlMs ?? 60_000;
  const renewEveryMs = options.renewEveryMs ?? Math.max(1000, Math.floor(ttlMs / 4));
  const now = options.now ?? Date.now;
  const holder: LeaseHolder = {
    owner: randomUUID(),
    host: hostname(),
    pid: process.pid,
    purpose: options.purpose,
    acquired_at: new Date(now()).toISOString(),
  };
  const taking: Taking = {
    name,
    id: `lease:${name}`,
    holder,
    document: () => ({ kind: 'lease', expires_at: now() + ttlMs, data: holder }),
    now,
  };
  // Counted as held from before the first request: a second taker in this process that reads the
  // document this one has just written must see a lease in use, not one given up here.
  heldHere.add(holder.owner);
  let version: Version;
  try {
    version = await takeLease(engine, taking);
  } catch (error) {
    heldHere.delete(holder.owner);
    throw error;
  }
  return holdLease(engine, taking, version, { ttlMs, renewEveryMs });
}

/**
 * Takes a lease, waiting while another holder has it (up to `waitMs`): for work that must run
 * after the holder's, not fail beside it (publishing, a vocabulary reload).
 */
export async function waitForLease(
  engine: Engine,
  name: string,
  options: LeaseOptions & { waitMs?: number },
): Promise<Lease> {
  const until = Date.now() + (options.waitMs ?? 120_000);
  for (;;) {
    try {
      return await acquireLease(engine, name, options);
    } catch (error) {
      if (!(error instanceof LeaseHeldError) || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
