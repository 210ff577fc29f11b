/** Ports for local-engine tests that must never start a JVM. */
import { createServer } from 'node:net';

const listenable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A port free with its transport port (+100), drawn below the ephemeral range (32768 up), where
 * the other suites' client sockets land: a port drawn from that range was once taken by one
 * between draw and use, and the engine then rightly refused it for that reason instead.
 */
export async function unusedEnginePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if ((await listenable(port)) && (await listenable(port + 100))) return port;
  }
}
