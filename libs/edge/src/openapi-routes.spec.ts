import 'reflect-metadata';
import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { Type } from '@sinclair/typebox';
import { NoQuery, QueryPipe } from './query.pipe';
import { ApiOperation, openApiOf } from './openapi-routes';
import { SchemaPipe } from './schema.pipe';

const ThingId = Type.String({ pattern: '^thg_' });
const ThingBody = Type.Object({ name: Type.String() }, { additionalProperties: false });
const ListQuery = Type.Object(
  { limit: Type.Optional(Type.Integer()), owner: Type.String() },
  { additionalProperties: false },
);
const responses = { '200': { description: 'Done.' } };

@Controller('admin/v1')
class ThingsController {
  @Post('things/:thingId')
  @ApiOperation({
    tags: ['things'],
    summary: 'Rename.',
    parameters: [
      { in: 'path', name: 'thingId', description: 'The thing.' },
      { in: 'header', name: 'Idempotency-Key', required: false, schema: { type: 'string' } },
    ],
    requestBody: { description: 'The new name.', example: { name: 'n' } },
    responses,
  })
  rename(
    @Param('thingId', new SchemaPipe(ThingId, 'thingId')) _id: string,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(ThingBody)) _body: unknown,
  ) {}

  @Get('things')
  @ApiOperation({ tags: ['things'], summary: 'List.', responses })
  list(@Query(new QueryPipe(ListQuery)) _query: unknown) {}

  helper(): void {}
}

describe('openApiOf', () => {
  it('takes the path, method, parameters and body from the route, the words from @ApiOperation', () => {
    const { paths } = openApiOf([ThingsController]);
    expect(paths['/admin/v1/things/{thingId}']).toEqual({
      parameters: [
        { name: 'thingId', in: 'path', required: true, schema: ThingId, description: 'The thing.' },
      ],
      post: {
        tags: ['things'],
        summary: 'Rename.',
        parameters: [{ in: 'header', name: 'Idempotency-Key', required: false, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          description: 'The new name.',
          content: { 'application/json': { schema: ThingBody, example: { name: 'n' } } },
        },
        responses,
      },
    });
    expect(paths['/admin/v1/things']).toEqual({
      get: {
        tags: ['things'],
        summary: 'List.',
        parameters: [
          { name: 'limit', in: 'query', required: false, schema: ListQuery.properties.limit },
          { name: 'owner', in: 'query', required: true, schema: ListQuery.properties.owner },
        ],
        responses,
      },
    });
  });

  it('refuses words for a parameter the route does not take, a second schema, or a route without words', () => {
    @Controller()
    class Wrong {
      @Get('x')
      @ApiOperation({ tags: [], summary: '', parameters: [{ in: 'query', name: 'nope' }], responses })
      x(@Query(new QueryPipe(NoQuery)) _query: NoQuery) {}
    }
    expect(() => openApiOf([Wrong])).toThrow('GET /x: documents query parameter nope');
    @Controller()
    class Twice {
      @Post('y')
      @ApiOperation({ tags: [], summary: '', requestBody: { content: {} }, responses })
      y(@Body(new SchemaPipe(ThingBody)) _body: unknown) {}
    }
    expect(() => openApiOf([Twice])).toThrow('the request body has its schema from its pipe');
    @Controller()
    class Bare {
      @Get('z')
      z() {}
    }
    expect(() => openApiOf([Bare])).toThrow('Bare.z is a route without @ApiOperation');
  });
});
