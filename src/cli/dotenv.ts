/**
 * A `.env` file in the working directory is read at the start of every command (`npm start`,
 * `npx hsds ...`), as `.env.example` invites: copy it, edit it, start. Node reads it
 * (process.loadEnvFile); a variable already set in the environment wins over the file, so a
 * deployment's own settings are never overridden by a file left in the directory.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Reads `<dir>/.env` into process.env when it exists; returns its path, or undefined. */
export function loadDotEnv(dir: string = process.cwd()): string | undefined {
  const file = join(dir, '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}
