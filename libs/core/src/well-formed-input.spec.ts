import { ulidIdPattern, newId } from './ids';
import { MAX_JSON_DEPTH, findInputProblem, textProblem } from './well-formed-input';

/** `levels` nested arrays around a string: `[[["x"]]]` is 3 levels. */
const arrays = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
};

describe('textProblem', () => {
  it.each([
    ['', null],
    ['plain text', null],
    ['émoji 😀 and 中文', null],
    ['\ud83d\ude00', null],
    ['a\u0000b', 'nul_character'],
    ['\u0000', 'nul_character'],
    ['a\ud800b', 'ill_formed_text'],
    ['\udc00', 'ill_formed_text'],
    ['\ude00\ud83d', 'ill_formed_text'],
  ])('%j: %s', (text, expected) => {
    expect(textProblem(text)).toBe(expected);
  });
});

describe('findInputProblem', () => {
  it('accepts ordinary JSON, null-prototype dictionaries, and opaque values such as Buffers', () => {
    const body = JSON.parse('{"model":"m","input":{"prompt":"p","n":[1,2,{"a":null}],"ok":true}}') as unknown;
    expect(findInputProblem(body, { root: 'body' })).toBeNull();
    const query = Object.assign(Object.create(null) as object, { taskId: 'job_1', list: ['a', 'b'] });
    expect(findInputProblem(query, { root: 'query' })).toBeNull();
    expect(findInputProblem(Buffer.from([0, 0xff]), { root: 'body' })).toBeNull();
    expect(findInputProblem(undefined, { root: 'body' })).toBeNull();
    expect(findInputProblem(42, { root: 'body' })).toBeNull();
  });

  it('names the path of a string value with NUL or a lone surrogate', () => {
    const body = JSON.parse('{"input":{"prompt":"a\\u0000b"}}') as unknown;
    expect(findInputProblem(body, { root: 'body' })).toEqual({
      kind: 'nul_character',
      field: 'input.prompt',
    });
    const surrogate = JSON.parse('{"input":{"images":["ok","a\\ud800b"]}}') as unknown;
    expect(findInputProblem(surrogate, { root: 'body' })).toEqual({
      kind: 'ill_formed_text',
      field: 'input.images.1',
    });
    expect(findInputProblem('a\u0000', { root: 'query' })).toEqual({ kind: 'nul_character', field: 'query' });
  });

  it('names the holding object for a bad key, never the key itself', () => {
    const body = JSON.parse('{"input":{"a\\u0000":1}}') as unknown;
    expect(findInputProblem(body, { root: 'body' })).toEqual({ kind: 'nul_character', field: 'input' });
    const top = JSON.parse('{"\\udfff":1}') as unknown;
    expect(findInputProblem(top, { root: 'body' })).toEqual({ kind: 'ill_formed_text', field: 'body' });
  });

  it(`allows ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    expect(findInputProblem(arrays(MAX_JSON_DEPTH), { root: 'body' })).toBeNull();
    expect(findInputProblem(arrays(MAX_JSON_DEPTH + 1), { root: 'body' })).toMatchObject({
      kind: 'too_deep',
    });
    expect(findInputProblem(arrays(3), { root: 'body', maxDepth: 2 })).toMatchObject({ kind: 'too_deep' });
  });

  it('walks 100,000 levels without recursion (a body JSON.parse accepts)', () => {
    const depth = 100_000;
    const value = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(findInputProblem(value, { root: 'body' })).toMatchObject({ kind: 'too_deep' });
    expect(findInputProblem(value, { root: 'body', maxDepth: depth })).toBeNull();
  });
});

describe('ulidIdPattern', () => {
  it('matches the ids newId makes, and nothing else', () => {
    const task = new RegExp(ulidIdPattern('job'));
    expect(task.test(newId('job'))).toBe(true);
    for (const bad of [
      'job_',
      'job_unknown',
      `${newId('job')}x`,
      `x${newId('job')}`,
      newId('acc'),
      'job_\u0000',
    ]) {
      expect(task.test(bad)).toBe(false);
    }
    expect(task.test(newId('job').toLowerCase())).toBe(false);
    const either = new RegExp(ulidIdPattern('whd', 'msg'));
    expect([newId('whd'), newId('msg'), newId('whe')].map((id) => either.test(id))).toEqual([
      true,
      true,
      false,
    ]);
  });
});
