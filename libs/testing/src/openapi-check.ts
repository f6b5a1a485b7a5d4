import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/**
 * Checks real responses against the served OpenAPI document: the operation must be documented, the status
 * must be one of its responses, the body must match that response's schema and its documented headers must
 * be present.
 */
export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', components: document['components'] } as Json);
  }

  /** The template of `path` in the document (`/admin/v1/accounts/{accountId}` for `/admin/v1/accounts/acc_1`). */
  templateOf(path: string): string | undefined {
    const bare = path.split('?')[0]!;
    const paths = Object.keys(this.document['paths'] as Json);
    return paths.find((template) => {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return pattern.test(bare);
    });
  }

  /** Throws with a readable reason when the response is not what the document says. */
  check(method: string, path: string, status: number, headers: Headers, body: unknown): void {
    const template = this.templateOf(path);
    if (!template) throw new Error(`${method} ${path} is not documented`);
    const operation = ((this.document['paths'] as Json)[template] as Json)[method.toLowerCase()] as
      Json | undefined;
    if (!operation) throw new Error(`${method} ${template} is not documented`);
    const response = (operation['responses'] as Json)[String(status)] as Json | undefined;
    if (!response) throw new Error(`${method} ${template} does not document status ${status}`);
    for (const name of Object.keys((response['headers'] as Json | undefined) ?? {})) {
      if (
        ['content-language', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining'].includes(
          name.toLowerCase(),
        )
      ) {
        if (name.toLowerCase() === 'content-language' && status >= 400 && !headers.get(name))
          throw new Error(`${method} ${template} ${status}: missing ${name}`);
        continue;
      }
      if (!headers.get(name)) throw new Error(`${method} ${template} ${status}: missing header ${name}`);
    }
    const schema = ((response['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.[
      'schema'
    ] as Json | undefined;
    if (!schema) return;
    const rewritten = JSON.parse(
      JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'),
    ) as Json;
    const validate = this.ajv.compile(rewritten);
    if (!validate(body)) {
      throw new Error(
        `${method} ${template} ${status}: body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
      );
    }
  }
}
