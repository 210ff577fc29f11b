/**
 * Dumps (`format=ndjson`, `minimal=true`) hold a point in time on the engine and a batch or two in
 * memory for as long as their client takes. So that clients cannot take the API or the engine's
 * points in time (a cluster-wide budget, shared with reindexes and other APIs) with them, a dump
 * needs a slot: at most DUMP_MAX_CONCURRENT in all and DUMP_MAX_PER_CLIENT per client address.
 * Past those it is refused at once (503 in all, 429 for one client), with Retry-After. A dump
 * whose client takes nothing for DUMP_STALL_TIMEOUT_MS is cut off (ndjson.ts), which releases its
 * point in time and its slot.
 */
import type { Context } from 'hono';
import type { Config } from '../../config.ts';
import type { StreamOptions } from '../../engine/search.ts';
import { createKeyedSlots } from '../../resilience/slots.ts';
import { ApiProblem } from '../http/problem.ts';
import { clientAddress } from '../http/public-url.ts';
import type { AppEnv, DumpLimits, Dumps } from '../types.ts';

export type { DumpLimits, Dumps };

export const dumpLimitsOf = (config: Config): DumpLimits => ({
  maxConcurrent: config.DUMP_MAX_CONCURRENT,
  maxPerClient: config.DUMP_MAX_PER_CLIENT,
  stallTimeoutMs: config.DUMP_STALL_TIMEOUT_MS,
});

export function createDumps(limits: DumpLimits): Dumps {
  return { limits, slots: createKeyedSlots({ total: limits.maxConcurrent, perKey: limits.maxPerClient }) };
}

/** What a running dump holds, and how to end it when its client stalls. */
export type DumpTicket = {
  readonly stallTimeoutMs: number;
  /** The engine walk's options: the point in time lives a little longer than a stall may. */
  readonly stream: Pick<StreamOptions, 'keepAlive'>;
  /** Gives the slot back; safe to call more than once. */
  release(): void;
  /** Drops the client's connection (a stalled client); false where there is no socket to drop. */
  cutOff(): boolean;
};

type NodeBindings = {
  incoming?: { socket?: { remoteAddress?: string } };
  outgoing?: { destroy(error?: Error): void };
};

// Refused clients come back after about one stall timeout: by then a stalled slot is free again.
const retryAfterSeconds = (limits: DumpLimits) => Math.max(1, Math.ceil(limits.stallTimeoutMs / 1000));

/**
 * A slot for a dump by this request's client, or the refusal to answer (ApiProblem 503 or 429).
 * The client is the connection's address, or behind a proxy listed in TRUSTED_PROXIES the address
 * that proxy forwarded (public-url.ts): a header from anyone else could be forged.
 */
export function openDump(c: Context<AppEnv>): DumpTicket {
  const { limits, slots } = c.get('dumps');
  const bindings = c.env as NodeBindings | undefined;
  const client = clientAddress(c, c.get('deps').config) ?? 'unknown';
  const slot = slots.tryAcquire(client);
  if ('refused' in slot) {
    const retryAfter = retryAfterSeconds(limits);
    throw slot.refused === 'key'
      ? new ApiProblem(
          429,
          `this client already has ${limits.maxPerClient} dumps running; finish one before starting another`,
          { type: 'too-many-dumps', retryAfterSeconds: retryAfter },
        )
      : new ApiProblem(
          503,
          `${limits.maxConcurrent} dumps are running, the most this server takes at once; try again shortly`,
          { type: 'too-many-dumps', retryAfterSeconds: retryAfter },
        );
  }
  return {
    stallTimeoutMs: limits.stallTimeoutMs,
    stream: { keepAlive: `${Math.ceil(limits.stallTimeoutMs / 1000) + 30}s` },
    release: slot.release,
    cutOff: () => {
      if (!bindings?.outgoing) return false;
      bindings.outgoing.destroy();
      return true;
    },
  };
}
