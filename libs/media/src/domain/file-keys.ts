/**
 * Object keys are made by the service, never by the client. Uploads land under a temporary prefix; a verified
 * file's bytes are moved to an immutable private key of its account by its commit, before they are verified
 * there (see CommitFileUseCase).
 */
export const TEMP_PREFIX = 'tmp/uploads/';

export const tempKeyOf = (fileId: string): string => `${TEMP_PREFIX}${fileId}`;

export const objectKeyOf = (accountId: string, fileId: string): string => `files/${accountId}/${fileId}`;
