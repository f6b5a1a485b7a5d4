import { portContract, type PortContract } from '../port-contract';
import { WireFormatError, objectFromWire } from './wire-values';
import type { OwnedService } from './service-owners';

/**
 * A public request that an app received but another app owns, as it crosses the service transport: the few
 * admin routes whose path no ingress rule can tell apart from the accounts routes around them (a parameter
 * comes before the owner's segment: `/admin/v1/accounts/{id}/credits` is billing's). See `FORWARDED_ROUTES`.
 */
export interface ForwardedRequest {
  readonly method: string;
  /** Path and query string, as the client sent them. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, base64; absent when the request had none. */
  readonly body?: string;
}

export interface ForwardedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, base64. */
  readonly body: string;
}

/** Answered by the app that owns the route: it serves the request as if it had come to its own port. */
export interface HttpForwardPort {
  forward(request: ForwardedRequest): Promise<ForwardedResponse>;
}

/** An admin call does little; its owner may be busy. */
export const HTTP_FORWARD_TIMEOUT_MS = 10_000;

/** Bodies of forwarded routes are small JSON documents: a larger one is refused by the edge before this. */
const headersFromWire = (wire: unknown, what: string): Record<string, string> => {
  const fields = objectFromWire(wire, what);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') throw new WireFormatError(what);
    headers[name] = value;
  }
  return headers;
};

function requestFromWire(wire: unknown): ForwardedRequest {
  const fields = objectFromWire(wire, 'the forwarded request');
  const { method, url, body } = fields;
  if (typeof method !== 'string' || typeof url !== 'string' || !url.startsWith('/'))
    throw new WireFormatError('the forwarded request');
  if (body !== undefined && typeof body !== 'string') throw new WireFormatError('the forwarded request');
  return {
    method,
    url,
    headers: headersFromWire(fields['headers'], 'the forwarded request'),
    ...(body !== undefined ? { body } : {}),
  };
}

function responseFromWire(wire: unknown): ForwardedResponse {
  const fields = objectFromWire(wire, 'the forwarded response');
  const { status, body } = fields;
  if (typeof status !== 'number' || !Number.isInteger(status) || typeof body !== 'string')
    throw new WireFormatError('the forwarded response');
  return { status, body, headers: headersFromWire(fields['headers'], 'the forwarded response') };
}

const contracts = new Map<OwnedService, PortContract<HttpForwardPort>>();

/**
 * The forward port of one service (`http.forward`, answered by the app that owns the service): one token per
 * service, so that an app may call several.
 */
export function httpForwardContract(service: OwnedService): PortContract<HttpForwardPort> {
  let contract = contracts.get(service);
  if (!contract) {
    contract = portContract<HttpForwardPort>({
      token: Symbol.for(`gen.http-forward.${service}`),
      service,
      port: 'http',
      methods: {
        forward: {
          timeoutMs: HTTP_FORWARD_TIMEOUT_MS,
          decodeArgs: ([request]) => [requestFromWire(request)],
          decodeResult: (result) => responseFromWire(result),
        },
      },
    });
    contracts.set(service, contract);
  }
  return contract;
}

/** Whether `contract` is a forward port (its implementation is the app's own HTTP server, not a domain's). */
export const isHttpForwardContract = (contract: PortContract<unknown>): boolean =>
  contract.port === 'http' && contract.token === Symbol.for(`gen.http-forward.${contract.service}`);
