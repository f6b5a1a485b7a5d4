import {
  ChatCompletionsStreamWriter,
  mapChatCompletionsRequest,
  writeChatCompletionsError,
  writeChatCompletionsResponse,
} from '../chat-completions';
import type { ChatResult, MappedRequest, ProtocolError, StreamWriter } from '../canonical/text-input';
import {
  generateContentStreamWriter,
  includesThoughts,
  mapGenerateContentRequest,
  writeGenerateContentError,
  writeGenerateContentResponse,
} from '../generate-content';
import {
  MessagesStreamWriter,
  mapMessagesRequest,
  writeMessagesError,
  writeMessagesResponse,
} from '../messages';
import {
  ResponsesStreamWriter,
  mapResponsesRequest,
  writeResponsesError,
  writeResponsesResponse,
  type ResponsesEcho,
} from '../responses';

/** Where a request came from, besides its body: the URL's model and query (generate content). */
export interface CompatCall {
  readonly body: unknown;
  readonly urlModel?: string;
  readonly stream?: boolean;
  readonly alt?: string;
  /** The `req_...` id of the request: the response ids are made from it. */
  readonly requestId: string;
}

/** What the HTTP layer needs of one protocol: its translations, wired to the shared flow in CompatController. */
export interface CompatProtocol {
  map(call: CompatCall): MappedRequest;
  response(result: ChatResult, mapped: MappedRequest, call: CompatCall): unknown;
  streamWriter(
    base: Pick<ChatResult, 'id' | 'model' | 'created'>,
    mapped: MappedRequest,
    call: CompatCall,
  ): StreamWriter;
  /** The content type of the stream (SSE unless the protocol's stream is a JSON array). */
  streamContentType(call: CompatCall): string;
  error(error: ProtocolError, message: string): unknown;
}

const SSE = 'text/event-stream; charset=utf-8';

/** What a Response object echoes: the mapped settings, and `instructions` as the request sent them. */
function responsesEcho(mapped: MappedRequest, call: CompatCall): ResponsesEcho {
  const instructions = (call.body as { instructions?: unknown }).instructions;
  return { ...mapped.input, ...(typeof instructions === 'string' ? { instructions } : {}) };
}

export const CHAT_COMPLETIONS: CompatProtocol = {
  map: ({ body }) => mapChatCompletionsRequest(body),
  response: (result) => writeChatCompletionsResponse(result),
  streamWriter: (base, mapped) =>
    new ChatCompletionsStreamWriter(base, { includeUsage: mapped.includeUsage }),
  streamContentType: () => SSE,
  error: writeChatCompletionsError,
};

export const RESPONSES: CompatProtocol = {
  map: ({ body }) => mapResponsesRequest(body),
  response: (result, mapped, call) => writeResponsesResponse(result, responsesEcho(mapped, call)),
  streamWriter: (base, mapped, call) => new ResponsesStreamWriter(base, responsesEcho(mapped, call)),
  streamContentType: () => SSE,
  error: writeResponsesError,
};

export const MESSAGES: CompatProtocol = {
  map: ({ body }) => mapMessagesRequest(body),
  response: (result) => writeMessagesResponse(result),
  streamWriter: (base) => new MessagesStreamWriter(base),
  streamContentType: () => SSE,
  error: writeMessagesError,
};

export const GENERATE_CONTENT: CompatProtocol = {
  map: ({ body, urlModel, stream }) =>
    mapGenerateContentRequest(body, { model: urlModel ?? '', stream: stream === true }),
  response: (result, _mapped, { body }) =>
    writeGenerateContentResponse(result, { includeThoughts: includesThoughts(body) }),
  streamWriter: (base, _mapped, { alt, body }) =>
    generateContentStreamWriter(alt, base, { includeThoughts: includesThoughts(body) }),
  streamContentType: ({ alt }) => (alt === 'sse' ? SSE : 'application/json; charset=utf-8'),
  error: writeGenerateContentError,
};
