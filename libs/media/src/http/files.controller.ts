import { Body, Controller, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { CommitFileUseCase } from '../use-cases/commit-file.use-case';
import { CreateUploadTicketUseCase } from '../use-cases/create-upload-ticket.use-case';
import { ImportFileUseCase } from '../use-cases/import-file.use-case';
import { FileId, ImportBody, UploadUrlBody, fileRecordOf } from './file.dto';

const principalOf = (request: FastifyRequest) => request.edge!.principal!;
/** The file id of the path, checked by its pattern before any query. */
const fileIdOf = new SchemaPipe(FileId, 'fileId');

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
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(ImportBody)) body: ImportBody,
  ) {
    return fileRecordOf(await this.importFile.execute({ principal: principalOf(request), ...body }));
  }
}
