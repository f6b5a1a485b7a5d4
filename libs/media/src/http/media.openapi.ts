import { openApiOf, type OpenApiFragment } from '@gen/edge';
import { FilesController } from './files.controller';

/** The media routes (upload tickets, commits and imports), generated from their controller. */
export const mediaOpenApi: OpenApiFragment = openApiOf([FilesController]);
