import { Body, Controller, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { CreateDownloadUrlUseCase } from '../use-cases/create-download-url.use-case';
import { DownloadUrlBody } from './download-url.dto';

/** Download tickets for task outputs (spec: Media, download-url). */
@Controller('api/v1/common')
export class TaskOutputsController {
  constructor(private readonly downloadUrl: CreateDownloadUrlUseCase) {}

  /** POST /api/v1/common/download-url */
  @Post('download-url')
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
