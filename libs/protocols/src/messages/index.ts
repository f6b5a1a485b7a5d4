export { mapMessagesRequest } from './request';
export { writeMessagesResponse } from './response';
export { MessagesStreamWriter } from './stream';
export { writeMessagesError } from './error';
