export { mapGenerateContentRequest, includesThoughts, type GenerateContentContext } from './request';
export {
  writeGenerateContentResponse,
  type GenerateContentResponse,
  type GenerateContentUsage,
  type GenerateContentWriteOptions,
} from './response';
export {
  GenerateContentArrayWriter,
  GenerateContentSseWriter,
  generateContentStreamWriter,
  type GenerateContentStreamBase,
} from './stream';
export { writeGenerateContentError, type GenerateContentErrorBody } from './error';
