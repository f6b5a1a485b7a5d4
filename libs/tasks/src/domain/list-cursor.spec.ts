import { newId } from '@gen/core';
import { decodeCursor, encodeCursor, type ListCursor } from './list-cursor';

const cursor: ListCursor = {
  filters: { from: '2026-01-01', to: '2026-01-08', state: 'failed', model: 'local/sketch' },
  createdAt: '2026-01-02T03:04:05.678Z',
  taskId: newId('job'),
};
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const refusal = (text: string) => {
  try {
    decodeCursor(text);
    return null;
  } catch (error) {
    return error;
  }
};

describe('list cursor', () => {
  it('round-trips', () => {
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    const { state: _state, model: _model, ...dates } = cursor.filters;
    expect(decodeCursor(encodeCursor({ ...cursor, filters: dates }))).toEqual({ ...cursor, filters: dates });
  });

  it.each([
    ['not base64 JSON', 'abc'],
    ['a task id with NUL', encode({ ...cursor, taskId: 'job_\u0000' })],
    ['a task id of another shape', encode({ ...cursor, taskId: 'job_1' })],
    ['a model with NUL', encode({ ...cursor, filters: { ...cursor.filters, model: 'a\u0000' } })],
    [
      'a model with a lone surrogate',
      encode({ ...cursor, filters: { ...cursor.filters, model: 'a\ud800' } }),
    ],
    ['a state that does not exist', encode({ ...cursor, filters: { ...cursor.filters, state: 'done' } })],
    ['a date of another shape', encode({ ...cursor, filters: { ...cursor.filters, from: '2026-1-1' } })],
    ['a time of another shape', encode({ ...cursor, createdAt: 'yesterday' })],
    ['nesting', encode({ ...cursor, filters: { ...cursor.filters, model: { deep: [1] } } })],
  ])('refuses %s as an invalid cursor (400 naming cursor)', (_name, text) => {
    expect(refusal(text)).toMatchObject({
      code: 400,
      messageId: 'request.invalid_field',
      params: { field: 'cursor' },
    });
  });
});
