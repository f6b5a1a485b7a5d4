import { Body, Controller, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe, envelopeResponse, errorResponses } from '@gen/edge';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommitFileUseCase } from '../use-cases/commit-file.use-case';
import { CreateUploadTicketUseCase } from '../use-cases/create-upload-ticket.use-case';
import { ImportFileUseCase } from '../use-cases/import-file.use-case';
import { FileId, FileRecord, ImportBody, UploadTicketResult, UploadUrlBody, fileRecordOf } from './file.dto';

/** How a commit or an import refuses a file (the verification of media/verify). */
const REFUSALS =
  'Verification uses the stored bytes only: the byte count must equal the ticket’s; the type of the magic numbers must equal the declared type; the file must be exactly one well-formed container of that type (a cut file is "damaged", bytes after its end — a second file appended, a polyglot — are "trailing data"); an image must decode and have at most 100000000 pixels (a bigger one is refused naming its size and that limit, never decoded); a video must hold a video or audio track that lasts (an MP4 of a movie header alone is refused); a WAV must be PCM, IEEE float, A-law or mu-law (or WAVE_FORMAT_EXTENSIBLE of PCM or float) with a consistent format header (numChannels ≥ 1, bitsPerSample allowed by the encoding, blockAlign = numChannels × bitsPerSample / 8, byteRate = sampleRate × blockAlign; the refusal names the field); audio and video must have a measurable duration of at most 600 seconds. A refused file keeps nothing: its temporary object is deleted and the refusal is final (the same 400 again on a later commit). Each refusal is a 400 whose `msg` names the reason in the caller’s language.';

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
  @ApiOperation({
    tags: ['media'],
    summary: 'Create a presigned upload ticket: a file id and the URL to PUT its bytes to.',
    description:
      'Field names are our choice (the specification does not show them). The object key is the service’s, under a temporary prefix. Send exactly `bytes` bytes to `uploadUrl` with method PUT and every header in `headers` before `expiresAt` (15 minutes): the storage refuses another size or content type, and an expired URL. Then commit within an hour after `expiresAt`; after that the upload is removed. Supported: image/jpeg, image/png, image/webp, image/gif up to 10 MiB; video/mp4, video/webm, audio/mpeg, audio/wav up to 100 MiB and 600 seconds. Another type: 400; larger: 413; 0 bytes: 400.',
    responses: {
      ...envelopeResponse('The upload ticket.', UploadTicketResult),
      ...errorResponses([400, 401, 403, 413, 429, 500]),
    },
  })
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
  @ApiOperation({
    tags: ['media'],
    summary: 'Commit a completed direct upload: verify it and make it a ready file with a service:// URI.',
    description: `No body. Before the bytes are all there: 409 (business code 409, media pending): upload, then retry the commit. Repeating a successful commit returns the same record (idempotent); two concurrent commits verify once and both answer the same record. ${REFUSALS} The upload is moved to an immutable private key and verified there: the bytes verified are the bytes kept, and a later PUT to the still valid URL is never read. 404 also when the commit window (one hour after the ticket’s expiry) has passed.`,
    parameters: [
      {
        name: 'fileId',
        in: 'path',
        description: 'From upload-url (`fil_...`). Another account’s file is 404, like an unknown one.',
        example: 'fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB',
      },
    ],
    responses: {
      ...envelopeResponse('The ready file.', FileRecord),
      ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
    },
  })
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
  @ApiOperation({
    tags: ['media'],
    summary: 'Import a file from a link: fetch it, then verify and commit it like a direct upload.',
    description: `Payload fields are our choice (the specification does not show them). The URL must be https on port 443 without credentials and resolve to public addresses only, checked when accepted and again at connection time (one guard with callbacks; FETCH_ALLOW_PRIVATE_CIDRS is the operator exception). Redirects are followed at most 5 times, each target checked the same way; a redirect to a private address, to http or to another port is 400. \`accessToken\` is sent once, to the first URL only, as \`Authorization: Bearer\`, and never stored or logged. Any answer but 200 is 400 (\`msg\` gives the status); a connection failure or 30 seconds without data is 400. The whole fetch, from the first connection through every redirect to the last byte, must end within FETCH_DEADLINE_SECONDS (120 by default): a source still sending then is cut off with 400, nothing kept. A client that closes its connection stops the import at once (nothing kept). An API key has at most IMPORT_CONCURRENCY_PER_KEY (4 by default) imports in progress, across the fleet: one more is 429 (business code 429) with Retry-After, nothing fetched. The body is read with the limit enforced while it arrives: more than 100 MiB is 413, and after detection the per-type limit applies (images 10 MiB: 413). The type is the source’s Content-Type when it is a supported type, otherwise the one detected from the bytes; the accepted types are those of uploads (weight file formats are not accepted yet). ${REFUSALS} \`fileName\` defaults to the last segment of the URL's path.`,
    responses: {
      ...envelopeResponse('The ready file.', FileRecord),
      ...errorResponses([400, 401, 403, 413, 429, 500]),
    },
  })
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
