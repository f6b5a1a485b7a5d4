/**
 * Test helpers of the compatibility protocols (`@gen/protocols/testing`): the canonical text request written
 * back as each protocol's client would send it. The service never does this (it reads these protocols and
 * writes upstream bodies, `libs/providers`); the round-trip and boundary property tests do.
 */
export { toChatCompletionsRequest } from './chat-completions-request';
export { toGenerateContentRequest } from './generate-content-request';
export { toMessagesRequest } from './messages-request';
export { toResponsesRequest } from './responses-request';
