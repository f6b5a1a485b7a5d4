import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { AdminDeliveriesController } from './admin-deliveries.controller';
import { ConsoleDeliveriesController } from './console-deliveries.controller';

/** The delivery routes' part of the document, generated from their controllers (routes, pipes, @ApiOperation). */
export const webhooksOpenApi: OpenApiFragment = openApiOf([
  ConsoleDeliveriesController,
  AdminDeliveriesController,
]);
