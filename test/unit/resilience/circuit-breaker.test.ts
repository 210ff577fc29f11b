import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BreakerState,
  CircuitOpenError,
  createCircuitBreaker,
} from '../../../src/resilience/circuit-breaker.ts';

const fail = () => Promise.reject(new Error('timed out'));
const succeed = () => Promise.resolve('ok');

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a circuit breaker without a probe', () => {
  const make = () => {
    const changes: BreakerState[] = [];
    const breaker = createCircuitBreaker({
      name: 'postcodes-io',
      failureThreshold: 3,
      cooldownMs: 10_000,
      onStateChange: ({ state }) => changes.push(state),
    });
    return { breaker, changes };
  };

  it('opens after the threshold of consecutive failures and refuses calls without running them', async () => {
    const { breaker, changes } = make();
    for (let i = 0; i < 3; i++) await expect(breaker.run(fail)).rejects.toThrow('timed out');
    expect(breaker.state).toBe('open');
    expect(changes).toEqual(['open']);
    const call = vi.fn(succeed);
    const refusal = await breaker.run(call).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CircuitOpenError);
    expect((refusal as CircuitOpenError).retryAfterMs).toBe(10_000);
    expect((refusal as CircuitOpenError).message).toContain('timed out');
    expect(call).not.toHaveBeenCalled();
  });

  it('counts consecutive failures only: a success in between starts the count again', async () => {
    const { breaker } = make();
    await expect(breaker.run(fail)).rejects.toThrow();
    await expect(breaker.run(fail)).rejects.toThrow();
    await breaker.run(succeed);
    await expect(breaker.run(fail)).rejects.toThrow();
    await expect(breaker.run(fail)).rejects.toThrow();
    expect(breaker.state).toBe('closed');
  });

  it('does not count what the caller says is not a failure of the dependency', async () => {
    const { breaker } = make();
    const notFound = () => Promise.reject(new Error('404'));
    for (let i = 0; i < 5; i++) await expect(breaker.run(notFound, () => false)).rejects.toThrow('404');
    expect(breaker.state).toBe('closed');
  });

  it('after the cooldown lets one trial call through; its success closes the circuit', async () => {
    const { breaker, changes } = make();
    for (let i = 0; i < 3; i++) await expect(breaker.run(fail)).rejects.toThrow();
    vi.advanceTimersByTime(4_000);
    expect((await breaker.run(succeed).catch((e: unknown) => e)) as CircuitOpenError).toBeInstanceOf(
      CircuitOpenError,
    );
    vi.advanceTimersByTime(6_000);
    let finishTrial: (value: string) => void = () => {};
    const trial = breaker.run(() => new Promise<string>((resolve) => (finishTrial = resolve)));
    // While the trial is out, others are still refused.
    await expect(breaker.run(succeed)).rejects.toBeInstanceOf(CircuitOpenError);
    finishTrial('ok');
    await expect(trial).resolves.toBe('ok');
    expect(breaker.state).toBe('closed');
    await expect(breaker.run(succeed)).resolves.toBe('ok');
    expect(changes).toEqual(['open', 'closed']);
  });

  it('a failed trial opens it for another cooldown', async () => {
    const { breaker } = make();
    for (let i = 0; i < 3; i++) await expect(breaker.run(fail)).rejects.toThrow();
    vi.advanceTimersByTime(10_000);
    await expect(breaker.run(fail)).rejects.toThrow('timed out');
    expect(breaker.state).toBe('open');
    const refusal = (await breaker.run(succeed).catch((e: unknown) => e)) as CircuitOpenError;
    expect(refusal.retryAfterMs).toBe(10_000);
  });
});

describe('a circuit breaker with a probe', () => {
  it('probes in the background after each cooldown, refuses calls meanwhile, and closes when the probe answers', async () => {
    let up = false;
    const probe = vi.fn(() => (up ? Promise.resolve() : Promise.reject(new Error('still frozen'))));
    const changes: string[] = [];
    const breaker = createCircuitBreaker({
      name: 'engine',
      failureThreshold: 2,
      cooldownMs: 5_000,
      probe,
      onStateChange: ({ state, reason }) => changes.push(`${state}: ${reason}`),
    });
    breaker.admit();
    breaker.recordFailure('timeout');
    breaker.admit();
    breaker.recordFailure('timeout');
    expect(breaker.state).toBe('open');
    expect(() => breaker.admit()).toThrow(CircuitOpenError);

    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(breaker.state).toBe('open');
    // No caller is let through as a trial: only the probe tests the engine.
    expect(() => breaker.admit()).toThrow(CircuitOpenError);

    up = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(breaker.state).toBe('closed');
    expect(() => breaker.admit()).not.toThrow();
    expect(changes).toEqual(['open: 2 consecutive failures, the last: timeout', 'closed: answers again']);
  });

  it('stops probing once disposed', async () => {
    const probe = vi.fn(() => Promise.reject(new Error('down')));
    const breaker = createCircuitBreaker({ name: 'engine', failureThreshold: 1, cooldownMs: 1_000, probe });
    breaker.recordFailure('refused');
    breaker.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(probe).not.toHaveBeenCalled();
  });
});
