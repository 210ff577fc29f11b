/**
 * A circuit breaker for a remote dependency (the engine, a geocoder): after `failureThreshold`
 * consecutive failures it opens, and calls are refused at once (CircuitOpenError, with how long to
 * wait) instead of each waiting out its own timeout. After `cooldownMs` it tests the dependency
 * again: with a `probe`, by running it in the background (calls stay refused until it succeeds, so
 * no caller pays for the test); without one, by letting a single call through (half-open). A
 * success closes it; a failure opens it for another cooldown.
 *
 * Only failures that say the dependency is sick count (the caller decides: timeouts and refused
 * connections, not "no such document"); any answer counts as a success. No dependencies on the
 * rest of the code, so the gateway and src/geo can both use it.
 */

export type BreakerState = 'closed' | 'open' | 'half-open';

export type CircuitBreakerOptions = {
  /** Names the dependency in errors and log lines. */
  name: string;
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before the dependency is tested again. */
  cooldownMs: number;
  /** Tests the dependency while the circuit is open; resolves when it answers. */
  probe?: () => Promise<void>;
  /** Told when the circuit opens and when it closes again (for a log line). */
  onStateChange?: (change: { name: string; state: BreakerState; reason: string }) => void;
  /** The clock; tests use fake timers. */
  now?: () => number;
};

/** A call refused because the circuit is open. */
export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  readonly dependency: string;
  /** When the dependency will be tried again, from now. */
  readonly retryAfterMs: number;
  constructor(dependency: string, retryAfterMs: number, lastFailure: string) {
    super(
      `${dependency} is failing (${lastFailure}); calls are refused for ${Math.ceil(retryAfterMs / 1000)} s`,
    );
    this.dependency = dependency;
    this.retryAfterMs = retryAfterMs;
  }
}

export type CircuitBreaker = {
  readonly name: string;
  readonly state: BreakerState;
  /** Throws CircuitOpenError when the call may not go ahead; else the caller must report back. */
  admit(): void;
  recordSuccess(): void;
  recordFailure(reason: string): void;
  /**
   * Runs `fn` through the breaker: refused when open; a rejection for which `isFailure` is true
   * counts against the dependency (by default every rejection does).
   */
  run<T>(fn: () => Promise<T>, isFailure?: (error: unknown) => boolean): Promise<T>;
  /** Stops the probe timer (on shutdown). */
  dispose(): void;
};

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const { name, failureThreshold, cooldownMs, probe } = options;
  const now = options.now ?? Date.now;
  if (!(failureThreshold >= 1)) throw new RangeError('failureThreshold must be at least 1');
  let state: BreakerState = 'closed';
  let failures = 0;
  let openedUntil = 0;
  let lastFailure = '';
  let trialInFlight = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  // Told once when the circuit opens and once when it closes: a failed probe is not news.
  let reported: 'closed' | 'open' = 'closed';
  const change = (next: 'closed' | 'open', reason: string) => {
    state = next;
    if (reported === next) return;
    reported = next;
    options.onStateChange?.({ name, state: next, reason });
  };

  const schedule = () => {
    if (!probe || disposed) return;
    clearTimeout(timer);
    timer = setTimeout(runProbe, Math.max(0, openedUntil - now()));
    // A pending probe must not keep a process alive that has nothing else to do.
    timer.unref?.();
  };

  const open = (reason: string) => {
    lastFailure = reason;
    openedUntil = now() + cooldownMs;
    trialInFlight = false;
    change('open', reason);
    schedule();
  };

  const close = () => {
    failures = 0;
    trialInFlight = false;
    clearTimeout(timer);
    change('closed', 'answers again');
  };

  async function runProbe(): Promise<void> {
    if (state !== 'open' || !probe || disposed) return;
    state = 'half-open';
    try {
      await probe();
      if (state === 'half-open') close();
    } catch (error) {
      if (state === 'half-open') open(error instanceof Error ? error.message : String(error));
    }
  }

  const retryAfterMs = () => Math.max(0, openedUntil - now());

  const breaker: CircuitBreaker = {
    name,
    get state() {
      return state;
    },
    admit() {
      if (state === 'closed') return;
      if (state === 'open' && !probe && now() >= openedUntil && !trialInFlight) {
        // Half-open: this call is the test; every other waits for its outcome.
        state = 'half-open';
        trialInFlight = true;
        return;
      }
      throw new CircuitOpenError(name, state === 'half-open' ? cooldownMs : retryAfterMs(), lastFailure);
    },
    recordSuccess() {
      if (state === 'closed') failures = 0;
      else if (trialInFlight) close();
    },
    recordFailure(reason) {
      if (state === 'half-open' && trialInFlight) return open(reason);
      if (state !== 'closed') return;
      failures += 1;
      lastFailure = reason;
      if (failures >= failureThreshold) open(`${failures} consecutive failures, the last: ${reason}`);
    },
    async run(fn, isFailure = () => true) {
      breaker.admit();
      try {
        const result = await fn();
        breaker.recordSuccess();
        return result;
      } catch (error) {
        if (isFailure(error)) breaker.recordFailure(error instanceof Error ? error.message : String(error));
        else breaker.recordSuccess();
        throw error;
      }
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
  return breaker;
}
