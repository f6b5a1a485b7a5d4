import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUnavailableDependency } from '@gen/core';
import { renderError } from './error-responder';

/**
 * The one global filter: every failure (domain errors, Fastify's parse and size errors, unknown routes,
 * unexpected exceptions) leaves through `renderError`, in the caller's protocol and language.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly bodyLimit: number) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const response = renderError(exception, request, this.bodyLimit);
    if (response.unexpected) request.log.error({ err: exception }, 'unexpected error');
    else if (isUnavailableDependency(exception))
      request.log.warn({ err: exception }, 'dependency unavailable: answered 503');
    if (reply.sent) return;
    void reply.status(response.status).headers(response.headers).send(response.body);
  }
}
