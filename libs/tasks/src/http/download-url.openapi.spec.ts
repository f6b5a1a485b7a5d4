import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@gen/edge';
import { tasksOpenApi } from './tasks.openapi';

type Json = Record<string, unknown>;

describe('the OpenAPI description of POST /api/v1/common/download-url', () => {
  const document = buildOpenApiDocument([tasksOpenApi]);
  const operation = (document['paths'] as Record<string, Json>)['/api/v1/common/download-url']![
    'post'
  ] as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const accepts = (media: Json) => {
    const validate = ajv.compile(media['schema'] as Json);
    return [validate(media['example']), ajv.errorsText(validate.errors)];
  };

  it('has request and answer examples that their schemas accept', () => {
    const json = (holder: Json) => (holder['content'] as Record<string, Json>)['application/json']!;
    const request = json(operation['requestBody'] as Json);
    const answer = json((operation['responses'] as Record<string, Json>)['200']!);
    for (const media of [request, answer]) {
      expect(media['example']).toBeDefined();
      expect(accepts(media)).toEqual([true, 'No errors']);
    }
  });

  it('lists the specification’s errors of download-url', () => {
    expect(Object.keys(operation['responses'] as Json).sort()).toEqual(
      ['200', '400', '401', '403', '404', '409', '413', '429', '500'].sort(),
    );
  });
});
