import { newId } from '@gen/core';
import { decodeAssetCursor, encodeAssetCursor, type AssetListCursor } from './asset-list-cursor';

const byTime: AssetListCursor = {
  filters: { sort: '-createdAt', favorite: true, collectionId: 'col_trip', q: 'fox' },
  after: '2026-11-28T09:30:00.123Z',
  assetId: newId('ast'),
};
const byName: AssetListCursor = { filters: { sort: 'name' }, after: '🦊'.repeat(200), assetId: newId('ast') };
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const refusal = (text: string) => {
  try {
    decodeAssetCursor(text);
    return null;
  } catch (error) {
    return error;
  }
};

describe('asset list cursor', () => {
  it('round-trips, with a name of 200 characters outside the BMP as the position', () => {
    expect(decodeAssetCursor(encodeAssetCursor(byTime))).toEqual(byTime);
    expect(decodeAssetCursor(encodeAssetCursor(byName))).toEqual(byName);
  });

  it.each([
    ['not base64 JSON', 'abc'],
    ['an unknown sort', encode({ ...byTime, filters: { sort: 'size' } })],
    ['no sort', encode({ ...byTime, filters: {} })],
    ['an asset id of another shape', encode({ ...byTime, assetId: 'ast_1' })],
    ['a task id', encode({ ...byTime, assetId: newId('job') })],
    ['a time position of another shape', encode({ ...byTime, after: 'yesterday' })],
    ['a name position that is empty', encode({ ...byName, after: '' })],
    ['a name position over 200 characters', encode({ ...byName, after: 'a'.repeat(201) })],
    [
      'a favorite that is not a boolean',
      encode({ ...byTime, filters: { ...byTime.filters, favorite: 'yes' } }),
    ],
    [
      'a collection of another shape',
      encode({ ...byTime, filters: { ...byTime.filters, collectionId: 'x' } }),
    ],
    ['a q with NUL', encode({ ...byTime, filters: { ...byTime.filters, q: 'a\u0000' } })],
    ['a q with a lone surrogate', encode({ ...byTime, filters: { ...byTime.filters, q: 'a\ud800' } })],
    ['a q over 128 characters', encode({ ...byTime, filters: { ...byTime.filters, q: 'a'.repeat(129) } })],
    ['nesting', encode({ ...byTime, filters: { ...byTime.filters, q: { deep: [1] } } })],
  ])('refuses %s as an invalid cursor (400 naming cursor)', (_name, text) => {
    expect(refusal(text)).toMatchObject({
      code: 400,
      messageId: 'request.invalid_field',
      params: { field: 'cursor' },
    });
  });
});
