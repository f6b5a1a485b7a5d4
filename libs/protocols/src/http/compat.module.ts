import { Module } from '@nestjs/common';
import { CompatController } from './compat.controller';

/**
 * The compatibility endpoints (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`,
 * `/v1beta/models/{model}:generateContent` and `:streamGenerateContent`). Needs TEXT_TASKS (TasksModule with its
 * routes) and CATALOG_PORT from the composing app.
 */
@Module({ controllers: [CompatController] })
export class CompatModule {}
