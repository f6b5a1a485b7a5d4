import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@gen/edge';
import { assetsOpenApi } from './assets.openapi';

type Json = Record<string, unknown>;

/** Every example of the fragment, with the schema it illustrates. */
function examples(document: Json): { where: string; schema: Json; example: unknown }[] {
  const out: { where: string; schema: Json; example: unknown }[] = [];
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const op = operation as Json;
      const request = (op['requestBody'] as Json | undefined)?.['content'] as
        Record<string, Json> | undefined;
      if (request) {
        const media = request['application/json']!;
        out.push({
          where: `${method} ${path} request`,
          schema: media['schema'] as Json,
          example: media['example'],
        });
      }
      const success = (op['responses'] as Record<string, Json>)['200']!;
      const media = (success['content'] as Record<string, Json>)['application/json']!;
      out.push({
        where: `${method} ${path} 200`,
        schema: media['schema'] as Json,
        example: media['example'],
      });
    }
  }
  return out;
}

describe('the asset library OpenAPI fragment', () => {
  const document = buildOpenApiDocument([assetsOpenApi]);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  it.each(examples(document).map((e) => [e.where, e] as const))(
    '%s: has an example its schema accepts',
    (_where, e) => {
      expect(e.example).toBeDefined();
      const validate = ajv.compile(e.schema);
      expect([validate(e.example), ajv.errorsText(validate.errors)]).toEqual([true, 'No errors']);
    },
  );

  it('documents the Idempotency-Key of saving as required', () => {
    const post = (document['paths'] as Record<string, Json>)['/api/v1/assets']!['post'] as Json;
    expect(post['parameters']).toEqual([
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    ]);
    expect(Object.keys(post['responses'] as Json)).toEqual(
      expect.arrayContaining(['200', '400', '403', '404', '409']),
    );
  });
});
