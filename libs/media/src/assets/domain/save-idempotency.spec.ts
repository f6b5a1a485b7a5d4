import { requiredIdempotencyKey, saveFingerprint } from './save-idempotency';

const refusal = (header: string | undefined) => {
  try {
    requiredIdempotencyKey(header);
    return null;
  } catch (error) {
    return error;
  }
};

describe('Idempotency-Key of saving an asset', () => {
  it('is required, and must be 1 to 255 visible ASCII characters', () => {
    expect(refusal(undefined)).toMatchObject({ code: 400, messageId: 'idempotency.required' });
    for (const bad of ['', 'a b', 'é', 'x'.repeat(256), 'a\tb']) {
      expect(refusal(bad)).toMatchObject({ code: 400, messageId: 'idempotency.invalid_key' });
    }
    expect(requiredIdempotencyKey('save-1:~!')).toBe('save-1:~!');
    expect(requiredIdempotencyKey('x'.repeat(255))).toHaveLength(255);
  });

  it('fingerprints the body with its defaults filled in', () => {
    const uri = 'service://files/fil_1';
    expect(saveFingerprint({ uri })).toBe(saveFingerprint({ uri, favorite: false }));
    expect(saveFingerprint({ uri })).not.toBe(saveFingerprint({ uri, favorite: true }));
    expect(saveFingerprint({ uri })).not.toBe(saveFingerprint({ uri, name: 'a' }));
    expect(saveFingerprint({ uri })).not.toBe(saveFingerprint({ uri, collectionId: 'col_a' }));
    expect(saveFingerprint({ uri })).not.toBe(saveFingerprint({ uri: 'service://files/fil_2' }));
  });
});
