export { mapResponsesRequest } from './request';
export { writeResponsesResponse, type ResponsesEcho } from './response';
export { ResponsesStreamWriter } from './stream';
export { writeResponsesError } from './error';
