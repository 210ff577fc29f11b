/**
 * The reads of one MCP request (src/mcp/http.ts): however many tool calls a JSON-RPC batch
 * carries, at most MCP_READS_AT_ONCE ask the API at a time, and every call is answered.
 */
import { describe, expect, it } from 'vitest';
import { MCP_READS_AT_ONCE, oneRequestsReads } from '../../../src/mcp/http.ts';

describe('one MCP request’s reads', () => {
  it('run a few at a time, in the order they came, each answered', async () => {
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const reads = oneRequestsReads(async (path) => {
      running += 1;
      most = Math.max(most, running);
      order.push(path);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (path === '/3') throw new Error('a failed read');
      return new Response(path);
    }, MCP_READS_AT_ONCE);
    const answers = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => reads(`/${i}`)));
    expect(most).toBe(MCP_READS_AT_ONCE);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => `/${i}`));
    expect(answers.filter((a) => a.status === 'rejected')).toHaveLength(1);
    // A failed read gives its turn up like any other: every later read ran.
    expect(running).toBe(0);
  });
});
