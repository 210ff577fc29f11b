import { Scalar } from '@scalar/hono-api-reference';
import type { App } from './app.ts';
import { OPENAPI_PATH, profiles } from './profile.ts';

export const openApiInfo = (profile: keyof typeof profiles) => ({
  openapi: '3.1.0',
  info: {
    title: 'HSDS directory API',
    version: profiles[profile].version,
    description:
      'An Open Referral Human Services Data Specification (HSDS) API: organizations, the services they run, where and for whom. ' +
      'Errors are RFC 9457 problem details naming each bad parameter.',
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  tags: [
    { name: 'required', description: 'Endpoints every HSDS API must provide.' },
    { name: 'optional', description: 'Endpoints an HSDS API may provide.' },
    { name: 'operations', description: 'Health and administration; not part of HSDS.' },
  ],
});

/** The OpenAPI document is generated from the routes' zod schemas; /docs renders it. */
export function registerOpenApi(app: App) {
  app.get(OPENAPI_PATH, (c) => {
    const { config } = c.get('deps');
    const document = app.getOpenAPI31Document(openApiInfo(config.HSDS_PROFILE));
    return c.json(document);
  });
  app.get('/docs', Scalar({ url: OPENAPI_PATH, pageTitle: 'HSDS directory API' }));
}
