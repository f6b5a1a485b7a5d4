import { Body, Controller, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommitFileUseCase } from '../use-cases/commit-file.use-case';
import { CreateUploadTicketUseCase } from '../use-cases/create-upload-ticket.use-case';
import { ImportFileUseCase } from '../use-cases/import-file.use-case';
import { FileId, ImportBody, UploadUrlBody, fileRecordOf } from './file.dto';

const principalOf = (request: FastifyRequest) => request.edge!.principal!;
/** The file id of the path, checked by its pattern before any query. */
const fileIdOf = new SchemaPipe(FileId, 'fileId');

/**
 * A signal that aborts when the client goes away before its answer is sent: the connection closed (the
 * client gave up, or its ingress closed the upstream connection for it). Work only that client waits for
 * stops then.
 */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const raw = reply.raw;
  raw.once('close', () => {
    if (!raw.writableFinished)
      controller.abort(new DomainError(BusinessCode.InvalidRequest, 'import.client_gone'));
  });
  return controller.signal;
}

/** Direct uploads (ticket, PUT, commit) and imports; the edge has verified the API key. */
@Controller('api/v1')
export class FilesController {
  constructor(
    private readonly createTicket: CreateUploadTicketUseCase,
    private readonly commitFile: CommitFileUseCase,
    private readonly importFile: ImportFileUseCase,
  ) {}

  /** POST /api/v1/common/upload-url */
  @Post('common/upload-url')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  upload(
    @Req() request: FastifyRequest,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(UploadUrlBody)) body: UploadUrlBody,
  ) {
    return this.createTicket.execute({ principal: principalOf(request), ...body });
  }

  /** POST /api/v1/files/{fileId}/commit */
  @Post('files/:fileId/commit')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async commit(
    @Req() request: FastifyRequest,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Param('fileId', fileIdOf) fileId: string,
  ) {
    return fileRecordOf(await this.commitFile.execute(principalOf(request).accountId, fileId));
  }

  /** POST /api/v1/files/import */
  @Post('files/import')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async import(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(ImportBody)) body: ImportBody,
  ) {
    const signal = clientGone(reply);
    return fileRecordOf(await this.importFile.execute({ principal: principalOf(request), ...body, signal }));
  }
}
