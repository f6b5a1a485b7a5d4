import { CHAT_IMAGE_MAX_BYTES, chatImageUrlProblem, chatImagesOf } from './chat-images';

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('chatImageUrlProblem: which image URLs a conversation may carry', () => {
  it.each([
    `data:image/png;base64,${PNG_1PX}`,
    `data:image/JPEG;base64,${PNG_1PX}`,
    'data:image/webp;base64,',
    'data:image/gif;base64,R0lGODlh',
    'https://images.example/cat.png',
    'https://images.example:443/cat.png?size=2#x',
    'https://[2001:db8::1]/cat.png',
    'service://files/fil_abc123',
  ])('accepts %s', (url) => {
    expect(chatImageUrlProblem(url)).toBeNull();
  });

  it.each([
    ['http://images.example/cat.png', 'scheme'],
    ['http://169.254.169.254/latest/meta-data/', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['gopher://127.0.0.1:6379/_FLUSHALL', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['ftp://images.example/cat.png', 'scheme'],
    ['//images.example/cat.png', 'scheme'],
    ['not a url', 'scheme'],
    ['https://images.example:8443/cat.png', 'port'],
    ['https://user:pass@images.example/cat.png', 'user_info'],
    ['https://user@images.example/cat.png', 'user_info'],
    [`https://images.example/${'a'.repeat(2048)}`, 'too_long'],
    ['data:text/html;base64,PGgxPg==', 'data_url_type'],
    ['data:image/svg+xml;base64,PHN2Zz4=', 'data_url_type'],
    ['data:image/png,rawbytes', 'data_url_type'],
    ['data:image/png;base64,not base64!', 'data_url_encoding'],
    ['data:image/png;base64,abc', 'data_url_encoding'],
    ['service://files/../../etc', 'service_uri'],
    ['service://tasks/job_1', 'service_uri'],
  ])('refuses %s (%s)', (url, reason) => {
    expect(chatImageUrlProblem(url)).toBe(reason);
  });

  it('measures a data: URL by its decoded bytes: exactly the limit passes, one byte more does not', () => {
    const at = Buffer.alloc(CHAT_IMAGE_MAX_BYTES).toString('base64');
    const over = Buffer.alloc(CHAT_IMAGE_MAX_BYTES + 1).toString('base64');
    expect(chatImageUrlProblem(`data:image/png;base64,${at}`)).toBeNull();
    expect(chatImageUrlProblem(`data:image/png;base64,${over}`)).toBe('too_large');
  });

  it('finds each image part with its place in the conversation', () => {
    expect(
      chatImagesOf({
        messages: [
          { role: 'system', content: 'x' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'image_url', image_url: { url: 'https://a.example/1.png' } },
            ],
          },
        ],
      }),
    ).toEqual([{ path: 'messages.1.content.1', url: 'https://a.example/1.png' }]);
  });
});
