import type { Provider, Type } from '@nestjs/common';
import { CreateEndpointUseCase } from './create-endpoint.use-case';
import { EndpointRepository } from './endpoint.repository';
import { endpointUrlPolicyProvider } from './endpoint-url.policy';
import { EndpointsController } from './endpoints.controller';
import { GetEndpointUseCase } from './get-endpoint.use-case';
import { ListEndpointsUseCase } from './list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from './rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from './update-endpoint.use-case';

/**
 * Account-level webhook endpoints (management). The providers need DATABASE, CLOCK and APP_CONFIG, and the
 * module's WebhooksMigrations (migrations run before the first query).
 */
export const ENDPOINT_PROVIDERS: Provider[] = [
  EndpointRepository,
  endpointUrlPolicyProvider,
  CreateEndpointUseCase,
  ListEndpointsUseCase,
  GetEndpointUseCase,
  UpdateEndpointUseCase,
  RotateEndpointSecretUseCase,
];

export const ENDPOINT_CONTROLLERS: Type<unknown>[] = [EndpointsController];

export { endpointsOpenApi } from './endpoints.openapi';
export {
  DEFAULT_GRACE_PERIOD_SECONDS,
  DISABLED_BY_USER,
  DISABLED_GONE_410,
  ENDPOINT_LIMIT_MESSAGE,
  MAX_ENDPOINTS_PER_ACCOUNT,
  MAX_GRACE_PERIOD_SECONDS,
  endpointIsActive,
  secretsForSigning,
  type EndpointStatus,
  type WebhookEndpoint,
} from './endpoint';
export {
  ENDPOINT_EVENTS,
  ENDPOINT_EVENT_NAMES,
  TASK_COMPLETED_EVENTS,
  endpointReceives,
  isEndpointEventName,
  type EndpointEventName,
} from './event-names';
export { EndpointRepository, type EndpointChanges, type NewEndpoint } from './endpoint.repository';
export { EndpointUrlPolicy } from './endpoint-url.policy';
export { EndpointsController } from './endpoints.controller';
export { CreateEndpointUseCase } from './create-endpoint.use-case';
export { GetEndpointUseCase } from './get-endpoint.use-case';
export { ListEndpointsUseCase } from './list-endpoints.use-case';
export { RotateEndpointSecretUseCase } from './rotate-endpoint-secret.use-case';
export { UpdateEndpointUseCase } from './update-endpoint.use-case';
