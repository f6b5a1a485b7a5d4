import { RequestMethod, SetMetadata, type Type as Class } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { TSchema } from '@sinclair/typebox';
import type { OpenApiFragment } from './openapi';

/**
 * What only the document says about an operation (words, tags, who may call it, its answers). What the route
 * enforces is not said here: the path and method come from the route's Nest decorators, and the path, query and
 * body schemas from the pipes that check them (`SchemaPipe`, `QueryPipe`, or any pipe with a `schema`).
 */
export interface ApiOperationDoc {
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly operationId?: string;
  /** Absent: the document's default (the API key). */
  readonly security?: readonly Record<string, readonly string[]>[];
  /**
   * Parameters no pipe checks (headers), and words (description, example) for a path or query parameter whose
   * schema its pipe gives: such an entry names it by `in` and `name` and has no `schema` (that would be a second
   * description of what the pipe enforces); naming one the route does not take is an error.
   */
  readonly parameters?: readonly Record<string, unknown>[];
  /**
   * Words for the body its pipe checks (`description`, and `example`/`examples` of its JSON), or, for a route
   * whose body no schema checks (a protocol reader does), the whole request body with its `content`.
   */
  readonly requestBody?: Record<string, unknown>;
  readonly responses: Record<string, unknown>;
}

const API_OPERATION = Symbol('ApiOperation');

/** Documents the route beside it: `openApiOf` reads this with what the route's decorators and pipes enforce. */
export const ApiOperation = (doc: ApiOperationDoc): MethodDecorator => SetMetadata(API_OPERATION, doc);

/** A pipe that checks its value against a TypeBox schema; `optional` when an absent value passes it. */
interface SchemaChecking {
  readonly schema: TSchema;
  readonly optional?: boolean;
}

const schemaOf = (pipes: readonly unknown[]): SchemaChecking | undefined =>
  pipes.find(
    (pipe): pipe is SchemaChecking =>
      typeof pipe === 'object' && pipe !== null && typeof (pipe as { schema?: unknown }).schema === 'object',
  );

interface RouteArgument {
  readonly index: number;
  readonly data?: unknown;
  readonly pipes?: readonly unknown[];
}

type Parameter = Record<string, unknown> & { readonly name: string; readonly in: string };

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

const pathsOf = (metadata: unknown): string[] =>
  (Array.isArray(metadata) ? metadata : [metadata ?? '']).map(String);

/** `admin/v1` + `accounts/:accountId` → `/admin/v1/accounts/{accountId}`. */
function templateOf(prefix: string, path: string): string {
  const joined = [prefix, path]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return `/${joined}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The parameters and body the route's pipes check, as OpenAPI says them. */
function enforcedOf(
  controller: Class,
  method: string,
): { parameters: Parameter[]; requestBody?: Record<string, unknown> } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
    string,
    RouteArgument
  >;
  const parameters: Parameter[] = [];
  let requestBody: Record<string, unknown> | undefined;
  const ordered = Object.entries(args).sort(([, a], [, b]) => a.index - b.index);
  for (const [key, argument] of ordered) {
    const type = Number(key.split(':')[0]);
    const checked = schemaOf(argument.pipes ?? []);
    const name = typeof argument.data === 'string' ? argument.data : undefined;
    if (type === RouteParamtypes.PARAM && name) {
      parameters.push({ name, in: 'path', required: true, schema: checked?.schema ?? { type: 'string' } });
    } else if (type === RouteParamtypes.QUERY && checked) {
      if (name) {
        parameters.push({ name, in: 'query', required: !checked.optional, schema: checked.schema });
        continue;
      }
      const { properties = {}, required = [] } = checked.schema as {
        properties?: Record<string, TSchema>;
        required?: string[];
      };
      for (const [property, schema] of Object.entries(properties)) {
        parameters.push({ name: property, in: 'query', required: required.includes(property), schema });
      }
    } else if (type === RouteParamtypes.BODY && checked && !name) {
      requestBody = {
        required: !checked.optional,
        content: { 'application/json': { schema: checked.schema } },
      };
    }
  }
  return { parameters, requestBody };
}

/** The operation: the documentation's words over what the route enforces. */
function operationOf(
  where: string,
  doc: ApiOperationDoc,
  enforced: ReturnType<typeof enforcedOf>,
): { operation: Record<string, unknown>; parameters: Parameter[] } {
  const parameters = enforced.parameters.map((parameter) => ({ ...parameter }));
  for (const words of (doc.parameters ?? []) as Parameter[]) {
    const at = parameters.findIndex((p) => p.name === words.name && p.in === words.in);
    if (at < 0) {
      if (words.in === 'path' || words.in === 'query')
        throw new Error(
          `${where}: documents ${words.in} parameter ${words.name}, which the route does not take`,
        );
      parameters.push(words);
      continue;
    }
    if ('schema' in words)
      throw new Error(`${where}: ${words.in} parameter ${words.name} has its schema from its pipe`);
    const { schema, ...rest } = parameters[at]!;
    parameters[at] = { ...rest, ...words, schema } as Parameter;
  }
  let requestBody = doc.requestBody;
  if (enforced.requestBody) {
    if (requestBody?.['content']) throw new Error(`${where}: the request body has its schema from its pipe`);
    const { example, examples, ...words } = requestBody ?? {};
    const content = enforced.requestBody['content'] as Record<string, Record<string, unknown>>;
    requestBody = {
      ...enforced.requestBody,
      ...words,
      content: {
        'application/json': {
          ...content['application/json'],
          ...(example === undefined ? {} : { example }),
          ...(examples === undefined ? {} : { examples }),
        },
      },
    };
  }
  const { parameters: _, requestBody: __, ...rest } = doc;
  return {
    operation: { ...rest, ...(requestBody ? { requestBody } : {}) },
    parameters,
  };
}

/**
 * The OpenAPI paths of `controllers`, generated from their routes: every method with `@ApiOperation` is an
 * operation at the path and method its Nest decorators route it to, with the parameters and body its pipes check.
 * A path parameter goes on the path item (where each of its operations says the same). `also` is a part
 * documented by hand (what no controller serves, e.g. a direct Fastify route), merged in.
 */
export function openApiOf(controllers: readonly Class[], also?: OpenApiFragment): OpenApiFragment {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const controller of controllers) {
    const prefixes = pathsOf(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, unknown>;
    for (const method of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[method];
      if (method === 'constructor' || typeof handler !== 'function') continue;
      const doc = Reflect.getMetadata(API_OPERATION, handler) as ApiOperationDoc | undefined;
      const verb = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const routes = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (routes === undefined) continue;
      if (!doc) throw new Error(`${controller.name}.${method} is a route without @ApiOperation`);
      if (!verb) throw new Error(`${controller.name}.${method}: no OpenAPI method for its route`);
      for (const prefix of prefixes) {
        for (const route of pathsOf(routes)) {
          const path = templateOf(prefix, route);
          const where = `${verb.toUpperCase()} ${path}`;
          const item = (paths[path] ??= {});
          if (item[verb]) throw new Error(`${where} is documented twice`);
          const { operation, parameters } = operationOf(where, doc, enforcedOf(controller, method));
          // Path parameters on the path item, once; one that says otherwise than its siblings stays its own.
          const shared = ((item['parameters'] as Parameter[] | undefined) ?? []).slice();
          const own: Parameter[] = [];
          for (const parameter of parameters) {
            if (parameter.in !== 'path') {
              own.push(parameter);
              continue;
            }
            const same = shared.find((p) => p.name === parameter.name);
            if (!same) shared.push(parameter);
            else if (JSON.stringify(same) !== JSON.stringify(parameter)) own.push(parameter);
          }
          if (shared.length) item['parameters'] = shared;
          item[verb] = { ...operation, ...(own.length ? { parameters: own } : {}) };
        }
      }
    }
  }
  for (const [path, item] of Object.entries(also?.paths ?? {})) {
    for (const verb of Object.keys(item))
      if (paths[path]?.[verb]) throw new Error(`${verb.toUpperCase()} ${path} is documented twice`);
    paths[path] = { ...paths[path], ...item };
  }
  return { paths, ...(also?.components ? { components: also.components } : {}) };
}
