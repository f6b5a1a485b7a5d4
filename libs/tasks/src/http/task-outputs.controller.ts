import { Body, Controller, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe, envelopeResponse, errorResponses } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { CreateDownloadUrlUseCase } from '../use-cases/create-download-url.use-case';
import { DOWNLOAD_URL_SECONDS } from '../domain/task-output';
import { DownloadUrlBody, DownloadUrlResult } from './download-url.dto';

const [requestExample] = DownloadUrlBody.examples as unknown[];
const [resultExample] = DownloadUrlResult.examples as unknown[];

/** The success answer with an example envelope. */
function answer(): Record<string, unknown> {
  const response = envelopeResponse('The download ticket.', DownloadUrlResult, {
    rateLimited: true,
  }) as Record<string, Record<string, unknown>>;
  const success = response['200']!;
  const content = success['content'] as Record<string, Record<string, unknown>>;
  const example = {
    code: 200,
    msg: 'success',
    data: resultExample,
    request_id: 'req_01JDZC4E6G8J0K2M4N6P8R0S2V',
  };
  return {
    '200': {
      ...success,
      headers: {
        ...(success['headers'] as object),
        'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
      },
      content: { 'application/json': { ...content['application/json'], example } },
    },
  };
}

/** Download tickets for task outputs (spec: Media, download-url). */
@Controller('api/v1/common')
export class TaskOutputsController {
  constructor(private readonly downloadUrl: CreateDownloadUrlUseCase) {}

  /** POST /api/v1/common/download-url */
  @Post('download-url')
  @ApiOperation({
    tags: ['media'],
    summary: 'A short-lived signed GET URL of one output of a task of this API key.',
    description: `Field names besides \`key\` are our choice (the specification does not show them). Only the API key that created the task gets a ticket: an unknown task, another key's task (even of the same account) and another account's task are the same 404. \`key\` is the \`key\` of one asset in \`output.assets\` of the task record; empty or absent selects the first output. The URL is fetched directly, without API credentials, and is valid ${DOWNLOAD_URL_SECONDS / 60} minutes, never past the task's retention; ask again for a fresh one (recordInfo also signs a fresh URL for every stored output on each read, so this call is optional). Refusals (the choice among the specification's 404 and 409): a task still queued or running is 409 (its outputs do not exist yet); a failed, expired or canceled task is 409 (it has no outputs); a purged task or one past its retention is 404 (its outputs are gone); a \`key\` that is not an output of the task, and a task without output files (text tasks), are 404; an output that could not be stored (\`unavailable\`) is 404, one not ready (\`pending\`) 409 (media pending: ask again later). A refusal changes nothing. \`Cache-Control: no-store\`.`,
    requestBody: { example: requestExample },
    responses: {
      ...answer(),
      ...errorResponses([400, 401, 403, 404, 409, 413, 429, 500]),
    },
  })
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  create(
    @Req() request: FastifyRequest,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(DownloadUrlBody)) body: DownloadUrlBody,
  ) {
    return this.downloadUrl.execute(request.edge!.principal!, body);
  }
}
