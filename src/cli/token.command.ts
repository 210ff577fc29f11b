/**
 * `hsds token <name> [--scope write,admin]`: a new random bearer token for the write API, and the
 * API_TOKENS entry that configures it (its SHA-256, never the token itself). The token is shown
 * once; keep it in the publisher system's secret store.
 */
import { parseArgs } from 'node:util';
import { newToken, SCOPES, type Scope } from '../api/index.ts';

const usage = `usage: hsds token <name> [--scope write[,admin]]

  Prints a new bearer token and the API_TOKENS entry (name:scopes:sha256) that enables it.
  <name>     who writes with it (recorded as updated_by in the audit trail): letters, digits, . _ - @
  --scope    write (PUT and DELETE of records; the default), admin (the /admin routes), or both`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { scope: { type: 'string', default: 'write' }, help: { type: 'boolean', default: false } },
  });
  const [name] = positionals;
  if (values.help || !name || !/^[\w.@-]{1,64}$/.test(name)) {
    console.error(usage);
    return values.help ? 0 : 2;
  }
  const scopes = values.scope.split(',').map((s) => s.trim());
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    console.error(`unknown scope ${unknown.join(', ')}\n\n${usage}`);
    return 2;
  }
  const { token, entry } = newToken(name, scopes as Scope[]);
  console.log(`token (shown once): ${token}`);
  console.log(`API_TOKENS entry:   ${entry}`);
  return 0;
}
