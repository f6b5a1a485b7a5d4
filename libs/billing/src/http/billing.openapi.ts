import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { ConsoleBalanceController } from './console-balance.controller';
import { CreditController } from './credit.controller';

/** The billing routes' part of the document, generated from the controllers (their routes, pipes, @ApiOperation). */
export const billingOpenApi: OpenApiFragment = openApiOf([CreditController, ConsoleBalanceController]);
