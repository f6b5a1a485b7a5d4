import type { GeneratedFile } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';

/**
 * A `data:` URL's bytes (base64 or percent-encoded) and its media type as the claimed type. Larger than
 * `maxBytes` or malformed: a `failed` UpstreamError.
 */
export function decodeDataUrl(url: string, maxBytes: number): GeneratedFile {
  const comma = url.indexOf(',');
  if (comma < 0) throw new UpstreamError('failed', 'the output data: URL has no data');
  const meta = url.slice(5, comma).split(';');
  const base64 = meta.at(-1)?.toLowerCase() === 'base64';
  const data = url.slice(comma + 1);
  // base64: 3 bytes per 4 characters; percent-encoding: at least 1 character per byte.
  if ((base64 ? Math.floor((data.length * 3) / 4) - 2 : data.length / 3) > maxBytes) {
    throw new UpstreamError('failed', `the output file is bigger than ${maxBytes} bytes`);
  }
  let bytes: Buffer;
  if (base64) {
    if (!/^[A-Za-z0-9+/\-_\s]*={0,2}\s*$/.test(data)) {
      throw new UpstreamError('failed', 'the output data: URL is not valid base64');
    }
    bytes = Buffer.from(data, 'base64');
  } else {
    if (/%(?![0-9a-f]{2})/i.test(data)) {
      throw new UpstreamError('failed', 'the output data: URL is not valid percent-encoding');
    }
    bytes = percentDecoded(data);
  }
  if (bytes.length > maxBytes)
    throw new UpstreamError('failed', `the output file is bigger than ${maxBytes} bytes`);
  const claimedType = meta[0]?.trim();
  return claimedType ? { bytes, claimedType } : { bytes };
}

/** Each %XX is one byte; other characters are taken as UTF-8 text. */
function percentDecoded(data: string): Buffer {
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of data.matchAll(/%([0-9a-f]{2})/gi)) {
    parts.push(Buffer.from(data.slice(last, match.index), 'utf8'), Buffer.from([parseInt(match[1]!, 16)]));
    last = match.index + 3;
  }
  parts.push(Buffer.from(data.slice(last), 'utf8'));
  return Buffer.concat(parts);
}
