export { mapChatCompletionsRequest } from './request';
export {
  writeChatCompletionsResponse,
  chatCompletionId,
  chatCompletionsUsage,
  type ChatCompletionBody,
  type ChatCompletionsUsage,
} from './response';
export { ChatCompletionsStreamWriter, type ChatCompletionsStreamBase } from './stream';
export { writeChatCompletionsError, type ChatCompletionsErrorBody } from './error';
