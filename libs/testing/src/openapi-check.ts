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

  /**
   * The template of `path` in the document (`/admin/v1/accounts/{accountId}` for `/admin/v1/accounts/acc_1`).
   * A parameter is one segment; failing that, it may span several, as a model id keeps its slashes
   * (`/v1beta/models/local/echo/chat:generateContent`).
   */
  templateOf(path: string): string | undefined {
    const bare = path.split('?')[0]!;
    const paths = Object.keys(this.document['paths'] as Json);
    const matching = (parameter: string) =>
      paths.find((template) => {
        const literal = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
        return new RegExp(`^${literal.join(parameter)}$`).test(bare);
      });
    return matching('[^/]+') ?? matching('.+');
  }

  /**
   * Throws with a readable reason when the response is not what the document says. The body is checked against
   * the schema of the response's own content type (a JSON one; a stream is only checked to be documented). Each
   * documented header present must match its schema; one documented with `required: false` may be absent.
   */
  check(method: string, path: string, status: number, headers: Headers, body: unknown): void {
    const template = this.templateOf(path);
    if (!template) throw new Error(`${method} ${path} is not documented`);
    const operation = ((this.document['paths'] as Json)[template] as Json)[method.toLowerCase()] as
      Json | undefined;
    if (!operation) throw new Error(`${method} ${template} is not documented`);
    const response = (operation['responses'] as Json)[String(status)] as Json | undefined;
    if (!response) throw new Error(`${method} ${template} does not document status ${status}`);
    const where = `${method} ${template} ${status}`;
    for (const [name, header] of Object.entries(
      (response['headers'] as Record<string, Json> | undefined) ?? {},
    )) {
      const value = headers.get(name);
      if (value) {
        this.validate(header['schema'], value, `${where}: header ${name}`);
        continue;
      }
      const lower = name.toLowerCase();
      // Optional by the document, or present only on some answers of that status (rate headers, Retry-After).
      if (header['required'] === false) continue;
      if (['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining'].includes(lower)) continue;
      if (lower === 'content-language' && status < 400) continue;
      throw new Error(`${where}: missing header ${name}`);
    }
    const content = response['content'] as Record<string, Json> | undefined;
    if (!content) return;
    const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const media = content[type];
    if (!media) {
      throw new Error(
        `${where}: content type "${type}" is not documented (${Object.keys(content).join(', ')})`,
      );
    }
    if (type !== 'application/json' || !media['schema']) return;
    this.validate(media['schema'], body, `${where}: body`);
  }

  private validate(schema: unknown, value: unknown, what: string): void {
    if (!schema) return;
    const rewritten = JSON.parse(
      JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'),
    ) as Json;
    const validate = this.ajv.compile(rewritten);
    if (!validate(value)) {
      throw new Error(
        `${what} does not match the document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`,
      );
    }
  }
}
