// Fake upstreams as real HTTP servers, and sample media files, for the specs of the apps that call models; the
// recording upstreams speak each chat provider's real wire format and the wire readers read what they recorded.
export { FakeUpstream, drain, sseFrame, upstreamFailure, type FakeReply } from './fake-upstream';
export { FakeImagesUpstream } from './fake-images-upstream';
export { FakeReplicate, type PredictionScript } from './fake-replicate';
export { ScriptedServer, type ScriptedReply, type SeenRequest } from './scripted-server';
export * from './media-samples';
export {
  RecordingAnthropicUpstream,
  RecordingGeminiUpstream,
  RecordingOpenAiUpstream,
  type RecordingGeminiOptions,
  type RecordingOpenAiOptions,
  type RecordingOptions,
} from './recording-upstreams';
export type { AnswerScript, ErrorScript, RecordedUpstreamRequest } from './upstream-script';
export {
  WireFormatError,
  readAnthropicMessagesRequest,
  readGeminiGenerateRequest,
  readOpenAiChatRequest,
  type AnthropicReadOptions,
  type OpenAiReadOptions,
  type WireImage,
  type WireReasoning,
  type WireRequest,
  type WireResponseFormat,
  type WireThinking,
  type WireTool,
  type WireToolCall,
  type WireToolChoice,
  type WireToolResult,
  type WireTurn,
} from './wire-readers';
