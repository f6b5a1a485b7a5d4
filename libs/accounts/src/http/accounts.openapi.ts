import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { AdminAccountsController } from './admin-accounts.controller';
import { ConsoleKeysController } from './console-keys.controller';
import { ConsoleSessionController } from './console-session.controller';

/** The account routes' part of the document, generated from their controllers (routes, pipes, @ApiOperation). */
export const accountsOpenApi: OpenApiFragment = openApiOf([
  AdminAccountsController,
  ConsoleSessionController,
  ConsoleKeysController,
]);
