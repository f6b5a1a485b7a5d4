import { Module } from '@nestjs/common';
import { CompatController } from './compat.controller';

/**
 * The compatibility endpoints (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`,
 * `/v1beta/models/{model}:generateContent` and `:streamGenerateContent`, the same two under `/v1/models/`,
 * `/v1/videos`). Needs TEXT_TASKS and COMPAT_TASKS (TasksModule with `compat: true`), CHAT_EXECUTION (text runs
 * in this process) and CATALOG_PORT from the composing app: the compat-protocols app; embedded mode.
 */
@Module({ controllers: [CompatController] })
export class CompatModule {}
