import { describe, expect, it } from 'vitest';
import { listenFailure, readyLine } from '../../../src/cli/serve.command.ts';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('readyLine', () => {
  it('says the default HOST listens on every interface, and how to keep it local', () => {
    expect(readyLine('0.0.0.0', 3000)).toBe(
      'HSDS API ready at http://localhost:3000  (docs: http://localhost:3000/docs; listening on every network interface (HOST=0.0.0.0; HOST=127.0.0.1 keeps it to this machine))',
    );
  });
  it('names a single address, bracketing IPv6', () => {
    expect(readyLine('::1', 8080)).toContain('http://[::1]:8080');
    expect(readyLine('127.0.0.1', 8080)).toContain('listening on 127.0.0.1 only');
  });
});

describe('listenFailure', () => {
  it('explains a port in use, a privileged port and a foreign address in one line', () => {
    expect(listenFailure(failure('EADDRINUSE'), '0.0.0.0', 3000)).toMatch(
      /port 3000 on 0\.0\.0\.0 is already in use.*PORT=3001/,
    );
    expect(listenFailure(failure('EACCES'), '0.0.0.0', 80)).toMatch(/below 1024/);
    expect(listenFailure(failure('EADDRNOTAVAIL'), '10.9.9.9', 3000)).toMatch(
      /HOST=10\.9\.9\.9 is not an address/,
    );
    for (const code of ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']) {
      expect(listenFailure(failure(code), 'h', 1)).not.toContain('\n');
    }
  });
  it('leaves other errors to be thrown as they are', () => {
    expect(listenFailure(new Error('boom'), '0.0.0.0', 3000)).toBeUndefined();
  });
});
