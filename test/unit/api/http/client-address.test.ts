/**
 * Which client a request counts against (per-client dump slots): the connection's peer, unless
 * that peer is a proxy the operator trusts, which then says who it forwarded.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../../../src/api/http/public-url.ts';
import type { AppEnv } from '../../../../src/api/types.ts';
import { loadConfig } from '../../../../src/config.ts';

function addressOf(peer: string, trusted: string, forwardedFor?: string): Promise<string> {
  const config = loadConfig({ TRUSTED_PROXIES: trusted });
  const app = new Hono<AppEnv>().get('/', (c) => c.text(clientAddress(c, config) ?? 'none'));
  const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  const env = { incoming: { socket: { remoteAddress: peer, remotePort: 40000, remoteFamily: 'IPv4' } } };
  return Promise.resolve(app.request('/', { headers }, env)).then((res) => res.text());
}

describe('the client a request counts against', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    expect(await addressOf('203.0.113.9', '', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('is the peer when the peer is not a trusted proxy', async () => {
    expect(await addressOf('203.0.113.9', '10.0.0.0/8', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('behind trusted proxies, is the nearest forwarded address that is not one of them', async () => {
    // A client forged the leftmost entry; the proxies appended the real one and their own.
    expect(await addressOf('10.0.0.2', '10.0.0.0/8', '1.2.3.4, 198.51.100.7, 10.0.0.5')).toBe('198.51.100.7');
    expect(await addressOf('::ffff:10.0.0.2', '10.0.0.0/8', '198.51.100.7')).toBe('198.51.100.7');
  });

  it('is the proxy itself when it forwards nothing usable', async () => {
    expect(await addressOf('10.0.0.2', '10.0.0.0/8', 'unknown, garbage')).toBe('10.0.0.2');
    expect(await addressOf('10.0.0.2', '10.0.0.0/8')).toBe('10.0.0.2');
  });
});
