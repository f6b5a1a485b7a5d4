import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { validatorFor } from '@gen/core';
import { answerCall } from './answer-call';
import { CallRequestSchema, SERVICE_CALL_PATTERN, type CallReply } from './call-wire';
import { ServiceHandlers } from './service-handlers';

/** Answers remote service calls (the TCP listener of `connectServiceCallServer`) from the registry. */
@Controller()
export class ServiceCallController {
  constructor(private readonly handlers: ServiceHandlers) {}

  @MessagePattern(SERVICE_CALL_PATTERN)
  answer(@Payload() request: unknown): Promise<CallReply> {
    const valid = validatorFor(CallRequestSchema)(request);
    return valid
      ? answerCall(this.handlers, request)
      : Promise.resolve({ ok: false, error: { kind: 'internal' } });
  }
}
