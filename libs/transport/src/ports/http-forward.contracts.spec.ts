import { HOLDS_CONTRACT } from './billing.contracts';
import { httpForwardContract, isHttpForwardContract } from './http-forward.contracts';
import { WireFormatError } from './wire-values';

describe('http.forward', () => {
  it('has one contract and one token per owning service', () => {
    const billing = httpForwardContract('billing');
    const media = httpForwardContract('media');
    expect(httpForwardContract('billing')).toBe(billing);
    expect(billing.token).not.toBe(media.token);
    expect([billing.service, billing.port, media.service]).toEqual(['billing', 'http', 'media']);
    expect(isHttpForwardContract(billing)).toBe(true);
    expect(isHttpForwardContract(HOLDS_CONTRACT as never)).toBe(false);
  });

  it('takes only a well-formed request and answer off the wire', () => {
    const wire = httpForwardContract('media').methods.forward;
    const request = {
      method: 'GET',
      url: '/admin/v1/accounts/a/asset-limits',
      headers: { authorization: 'x' },
    };
    expect(wire.decodeArgs!([request], new AbortController().signal)).toEqual([request]);
    for (const bad of [
      { ...request, url: 'http://elsewhere/x' },
      { ...request, headers: { authorization: 1 } },
      { ...request, body: 5 },
      { url: '/x', headers: {} },
    ]) {
      expect(() => wire.decodeArgs!([bad] as never, new AbortController().signal)).toThrow(WireFormatError);
    }
    const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: 'e30=' };
    expect(wire.decodeResult!(answer, {})).toEqual(answer);
    expect(() => wire.decodeResult!({ ...answer, status: '200' }, {})).toThrow(WireFormatError);
  });
});
