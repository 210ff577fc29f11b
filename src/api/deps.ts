import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Engine } from '../engine/index.ts';

/** Everything the app needs, passed in once (STYLE.md 2). Tests build it with test values. */
export type AppDeps = {
  config: Config;
  engine: Engine;
  logger: Logger;
  /** The clock; tests may fix it. */
  now: () => Date;
};
