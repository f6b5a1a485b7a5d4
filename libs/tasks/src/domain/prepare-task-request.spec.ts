import {
  BusinessCode,
  type ApiKeyPrincipal,
  type CatalogPort,
  type FilesPort,
  type MediaInputValue,
  type ReadyFile,
} from '@gen/contracts';
import { DomainError } from '@gen/core';
import { PrivateCidrAllowList } from '@gen/ssrf';
import { PrepareTaskRequest } from './prepare-task-request';

const principal: ApiKeyPrincipal = {
  accountId: 'acc_owner',
  keyId: 'key_owner',
  language: null,
  group: 'default',
  priceMultiplier: '1',
  dailySpendCap: '10',
};

const file = (fileId: string, accountId: string, contentType: string): ReadyFile => ({
  fileId,
  accountId,
  uri: `service://files/${fileId}`,
  state: 'ready',
  contentType,
  bytes: 10,
  sha256: '0'.repeat(64),
  objectKey: `files/${accountId}/${fileId}`,
  createdAt: new Date(0),
});

/** Files of two accounts; findReady answers only the caller's own, as the media domain does. */
const FILES = [
  file('fil_own_png', 'acc_owner', 'image/png'),
  file('fil_own_mp4', 'acc_owner', 'video/mp4'),
  file('fil_strangers', 'acc_stranger', 'image/png'),
];

function prepareWith(mediaInputs: MediaInputValue[]) {
  const asked: string[] = [];
  const files: FilesPort = {
    findReady: async (accountId, uri) => {
      asked.push(uri);
      return FILES.find((f) => f.uri === uri && f.accountId === accountId) ?? null;
    },
  };
  const catalog = {
    prepareTask: (model: string, input: unknown) => ({
      model,
      modality: 'image' as const,
      input: input as Record<string, unknown>,
      fingerprint: 'f'.repeat(64),
      estimate: '0.004',
      mediaInputs,
    }),
  } as unknown as CatalogPort;
  const options = {
    deadlineSeconds: 60,
    quoteKey: Buffer.alloc(32),
    allowPrivateCidrs: PrivateCidrAllowList.EMPTY,
    streamLeaseMs: 10_000,
  };
  const requests = new PrepareTaskRequest(catalog, options, files);
  return {
    asked,
    prepare: () => requests.prepare(principal, { model: 'local/sketch', input: { prompt: 'x' } }),
  };
}

const image = (value: string): MediaInputValue => ({ field: 'image', kind: 'image', value });

async function refusal(mediaInputs: MediaInputValue[]): Promise<DomainError> {
  const error = await prepareWith(mediaInputs)
    .prepare()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('PrepareTaskRequest: service:// files in media fields', () => {
  it("accepts the caller's own ready file of the field's kind", async () => {
    const { prepare, asked } = prepareWith([image('service://files/fil_own_png')]);
    await expect(prepare()).resolves.toMatchObject({ model: 'local/sketch', estimate: '0.004' });
    expect(asked).toEqual(['service://files/fil_own_png']);
  });

  it("answers another account's file exactly as a file that does not exist: 400 naming the field", async () => {
    const strangers = await refusal([image('service://files/fil_strangers')]);
    const missing = await refusal([image('service://files/fil_nothing_here')]);
    for (const error of [strangers, missing]) {
      expect(error).toMatchObject({
        code: BusinessCode.InvalidRequest,
        messageId: 'input.media_not_found',
        params: { field: 'input.image' },
      });
    }
    expect(strangers.message).toBe(missing.message);
  });

  it("refuses a file of another kind than the field's, naming both", async () => {
    expect(await refusal([image('service://files/fil_own_mp4')])).toMatchObject({
      code: BusinessCode.InvalidRequest,
      messageId: 'input.media_wrong_kind',
      params: { field: 'input.image', kind: 'image', contentType: 'video/mp4' },
    });
  });

  it('takes an https URL as it is (the runner fetches it through the SSRF guard) and checks every field', async () => {
    const { prepare, asked } = prepareWith([image('https://cdn.example.com/a.png')]);
    await expect(prepare()).resolves.toBeDefined();
    expect(asked).toEqual([]);
    const second = { field: 'mask', kind: 'image' as const, value: 'service://files/fil_strangers' };
    expect(await refusal([image('https://cdn.example.com/a.png'), second])).toMatchObject({
      params: { field: 'input.mask' },
    });
  });
});
