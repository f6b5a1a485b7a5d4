import type { ApiKeyPrincipal, ConsolePrincipal } from '@gen/contracts';
import type { RouteFamily } from './route-family';

/** What the edge learned about a request before the controller runs. */
export interface EdgeState {
  family: RouteFamily;
  principal?: ApiKeyPrincipal;
  console?: ConsolePrincipal;
  admin?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    edge?: EdgeState;
  }
}
