import type { EndpointStatus, WebhookEndpoint } from './endpoint';

/** An endpoint as the console reads it. The secrets never appear here. */
export interface EndpointView {
  readonly id: string;
  readonly url: string;
  readonly enabledEvents: readonly string[];
  readonly description: string;
  readonly enabled: boolean;
  readonly status: EndpointStatus;
  readonly disabledReason: string | null;
  readonly consecutiveFailures: number;
  readonly createdAt: string;
}

/** The create and rotate answers: the endpoint and its new secret, shown this once. */
export interface EndpointWithSecretView extends EndpointView {
  readonly secret: string;
}

export function endpointView(endpoint: WebhookEndpoint): EndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    enabledEvents: [...endpoint.enabledEvents],
    description: endpoint.description,
    enabled: endpoint.enabled,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    consecutiveFailures: endpoint.consecutiveFailures,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export function endpointWithSecretView(endpoint: WebhookEndpoint): EndpointWithSecretView {
  return { ...endpointView(endpoint), secret: endpoint.secret };
}
