import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** Checks that must pass for the process to serve (database reachable, not draining). */
export interface ReadinessProbe {
  ready(): Promise<boolean>;
}
export const READINESS_PROBE = Symbol('ReadinessProbe');
export const OPENAPI_DOCUMENT = Symbol('OpenApiDocument');

@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_PROBE) private readonly probe: ReadinessProbe,
    @Inject(OPENAPI_DOCUMENT) private readonly openApi: object,
  ) {}

  @Get('healthz')
  @Header('cache-control', 'no-store')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @Header('cache-control', 'no-store')
  async readyz(
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ status: 'ready' | 'unavailable' }> {
    const ready = await this.probe.ready().catch(() => false);
    if (!ready) void reply.status(503);
    return { status: ready ? 'ready' : 'unavailable' };
  }

  @Get('openapi.json')
  openapi(): object {
    return this.openApi;
  }
}
