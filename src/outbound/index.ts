/**
 * Outbound requests to addresses a client named (a feed to validate, a webhook target): the one
 * guard against server-side request forgery, in a room of its own so that validation (src/ingest)
 * and webhooks (src/webhooks) share it without one reaching into the other. It imports nothing
 * from this project: only Node's resolver and fetch.
 */
export {
  checkRemoteUrl,
  guardedFetch,
  type RemotePolicy,
  RemoteRefused,
  type ResolveAll,
} from './remote-guard.ts';
