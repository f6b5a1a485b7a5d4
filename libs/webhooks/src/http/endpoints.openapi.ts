import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { EndpointsController } from './endpoints.controller';

/** The account-level webhook endpoint routes' part of the document, generated from their controller. */
export const endpointsOpenApi: OpenApiFragment = openApiOf([EndpointsController]);
