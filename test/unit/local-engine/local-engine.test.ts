/**
 * A local engine that cannot start says why in terms of the setting the user controls: which of
 * its two ports (ENGINE_PORT, ENGINE_PORT + 100) another program holds. No JVM is started.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine } from '../../../local-engine/local-engine.ts';
import { unusedEnginePort } from '../../support/ports.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    });
  });
}

describe('starting the local engine', () => {
  const home = mkdtempSync(join(tmpdir(), 'hsds-engine-home-'));

  it('names the transport port (ENGINE_PORT + 100) when another program holds it', async () => {
    const port = await unusedEnginePort();
    await listen(port + 100);
    await expect(startEngine({ port, home, timeoutMs: 1000 })).rejects.toThrow(
      `the engine's transport port (ENGINE_PORT + 100) ${port + 100} is already in use`,
    );
  });

  it('names the HTTP port when another program holds it', async () => {
    const port = await unusedEnginePort();
    await listen(port);
    await expect(startEngine({ port, home, timeoutMs: 1000 })).rejects.toThrow(
      `the engine's HTTP port (ENGINE_PORT) ${port} is already in use`,
    );
  });
});
