/** Small catalog files for tests: one image model and one chat model, valid unless a test breaks them. */
export function imageEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'test/image-1',
    name: 'Test image',
    description: 'An image model for tests',
    enabled: true,
    modality: 'image',
    task: 'text-to-image',
    created: '2026-02-01',
    aliases: ['img'],
    provider: { adapter: 'offline', upstreamModel: 'sketch', credentials: [] },
    pricing: { perImage: '0.004' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 100 },
        width: { type: 'integer', minimum: 64, maximum: 2048, default: 512 },
        style: { type: 'string', enum: ['ink', 'pencil'], default: 'ink' },
        options: {
          type: 'object',
          additionalProperties: false,
          properties: { seed: { type: 'integer', minimum: 0 }, tag: { type: 'string', default: 'x' } },
        },
      },
    },
    examples: [{ input: { prompt: 'a cat' } }],
    ...overrides,
  };
}

export function chatEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'acme/talker/chat',
    name: 'Talker',
    description: 'A chat model for tests',
    enabled: true,
    modality: 'text',
    task: 'chat',
    created: '2026-02-01',
    provider: { adapter: 'openai-compatible', upstreamModel: 'talker', credentials: ['ACME_API_KEY'] },
    pricing: { perMillionInputTokens: '1', perMillionCachedInputTokens: '0.1', perMillionOutputTokens: '2' },
    text: {
      contextLength: 8192,
      maxOutputTokens: 2048,
      defaultMaxTokens: 512,
      parameters: { temperature: { minimum: 0, maximum: 2 }, top_k: { minimum: 1, maximum: 40 } },
      reasoningLevels: ['low', 'high'],
      maxStopSequences: 2,
      tools: true,
      images: false,
      responseFormats: ['text', 'json_object'],
    },
    examples: [{ input: { messages: [{ role: 'user', content: 'hi' }] } }],
    ...overrides,
  };
}

export function catalogFile(...models: Record<string, unknown>[]): Record<string, unknown> {
  return { version: 1, models: models.length ? models : [imageEntry(), chatEntry()] };
}
