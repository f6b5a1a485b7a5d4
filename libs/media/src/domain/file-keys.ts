/**
 * Object keys are made by the service, never by the client. Uploads land under a temporary prefix; a verified
 * file is copied to an immutable private key of its account.
 */
export const TEMP_PREFIX = 'tmp/uploads/';

export const tempKeyOf = (fileId: string): string => `${TEMP_PREFIX}${fileId}`;

export const objectKeyOf = (accountId: string, fileId: string): string => `files/${accountId}/${fileId}`;
