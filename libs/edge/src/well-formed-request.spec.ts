import { MAX_JSON_DEPTH, type DomainError } from '@gen/core';
import { inputRefusal, refuseIllFormedInput } from './well-formed-request';

const refusalOf = (request: { params?: unknown; query?: unknown; body?: unknown }): DomainError | null => {
  try {
    refuseIllFormedInput({ params: request.params ?? {}, query: request.query ?? {}, body: request.body });
    return null;
  } catch (error) {
    return error as DomainError;
  }
};

describe('refuseIllFormedInput', () => {
  it('lets well-formed requests through, whatever their body type', () => {
    expect(
      refusalOf({ params: { id: 'whe_1' }, query: { a: 'b' }, body: { input: { prompt: 'x 😀' } } }),
    ).toBeNull();
    expect(refusalOf({ body: Buffer.from([0]) })).toBeNull();
    expect(refusalOf({ body: undefined })).toBeNull();
  });

  it('checks route parameters, then the query, then the body, naming the field', () => {
    expect(refusalOf({ params: { accountId: 'acc_\u0000' }, query: { x: '\u0000' } })).toMatchObject({
      code: 400,
      messageId: 'request.nul_character',
      params: { field: 'accountId' },
    });
    expect(refusalOf({ query: { taskId: 'job_\u0000' } })).toMatchObject({ params: { field: 'taskId' } });
    expect(refusalOf({ query: { model: ['a', 'b\ud800'] } })).toMatchObject({
      messageId: 'request.ill_formed_text',
      params: { field: 'model.1' },
    });
    expect(refusalOf({ body: { input: { prompt: 'a\ud800b' } } })).toMatchObject({
      messageId: 'request.ill_formed_text',
      params: { field: 'input.prompt' },
    });
  });

  it('calls a wildcard route parameter the path', () => {
    expect(refusalOf({ params: { '*': 'local\u0000sketch' } })).toMatchObject({ params: { field: 'path' } });
  });

  it('refuses a body nested deeper than MAX_JSON_DEPTH with the limit in the message params', () => {
    let body: unknown = 1;
    for (let i = 0; i < 10_000; i += 1) body = [body];
    expect(refusalOf({ body })).toMatchObject({
      code: 400,
      messageId: 'request.too_deep',
      params: { max: MAX_JSON_DEPTH },
    });
  });
});

describe('inputRefusal', () => {
  it('maps each problem to its message', () => {
    expect(inputRefusal({ kind: 'too_deep', field: 'input' }).messageId).toBe('request.too_deep');
    expect(inputRefusal({ kind: 'nul_character', field: 'a' }).messageId).toBe('request.nul_character');
    expect(inputRefusal({ kind: 'ill_formed_text', field: 'a' }).messageId).toBe('request.ill_formed_text');
  });
});
