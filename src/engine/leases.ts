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
 * Takes the named lease, or throws LeaseHeldError naming who holds it. An expired lease is taken
 * over. While held, it is renewed in the background until released.
 */
export async function acquireLease(engine: Engine, name: string, options: LeaseOptions): Promise<Lease> {
  const ttlMs = options.ttlMs ?? 60_000;
  const renewEveryMs = options.renewEveryMs ?? Math.max(1000, Math.floor(ttlMs / 4));
  const now = options.now ?? Date.now;
  const id = `lease:${name}`;
  const holder: LeaseHolder = {
    owner: randomUUID(),
    host: hostname(),
    pid: process.pid,
    purpose: options.purpose,
    acquired_at: new Date(now()).toISOString(),
  };
  const body = () => ({ kind: 'lease', expires_at: now() + ttlMs, data: holder });
  let seqNo: number;
  let primaryTerm: number;
  try {
    const { body: created } = await withControlIndex(engine, () =>
      engineCall(`take lease ${name}`, () =>
        engine.client.index({ index: controlIndex(engine), id, op_type: 'create', body: body() }),
      ),
    );
    seqNo = created._seq_no as number;
    primaryTerm = created._primary_term as number;
  } catch (error) {
    if (!isConflict(error)) throw error;
    const current = await getControl<LeaseHolder>(engine, id);
    const expired = !current || (current.expiresAt ?? 0) <= now();
    if (current && !expired && !isDeadLocalProcess(current.data.host, current.data.pid)) {
      throw new LeaseHeldError(name, current.data);
    }
    // Expired (or released between the two requests): take it over, unless another process does first.
    try {
      const { body: taken } = await engineCall(`take over lease ${name}`, () =>
        engine.client.index({
          index: controlIndex(engine),
          id,
          body: body(),
          ...(current
            ? { if_seq_no: current.seqNo, if_primary_term: current.primaryTerm }
            : { op_type: 'create' }),
        }),
      );
      seqNo = taken._seq_no as number;
      primaryTerm = taken._primary_term as number;
      if (current) {
        engine.logger.warn({ lease: name, expired: current.data }, 'took over an expired lease');
      }
    } catch (takeOverError) {
      if (!isConflict(takeOverError)) throw takeOverError;
      const winner = await getControl<LeaseHolder>(engine, id);
      throw new LeaseHeldError(name, winner?.data ?? holder);
    }
  }

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
          body: body(),
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
