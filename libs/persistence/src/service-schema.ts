import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit, type Type } from '@nestjs/common';
import { join } from 'node:path';
import { DATABASE, type Database, type PrismaAdapter } from './database';
import { migrate } from './migrate';

/** A service's PostgreSQL schema and the folder of its migrations. */
export interface ServiceSchema {
  readonly schema: string;
  readonly directory: string;
}

/**
 * The schema a domain library owns, with its migrations where every library keeps them
 * (`<library>/prisma/migrations`). `libraryRoot` is the library's folder, from its source:
 *
 *   export const TASKS = serviceSchema('tasks', join(__dirname, '..', '..'));
 */
export function serviceSchema(schema: string, libraryRoot: string): ServiceSchema {
  return { schema, directory: join(libraryRoot, 'prisma', 'migrations') };
}

/**
 * The binding of a service that queries its schema in SQL through DATABASE: a Nest provider that applies the
 * service's migrations when the module starts. Repositories inject it so that it is built before them.
 *
 *   export class TasksMigrations extends serviceMigrations(TASKS) {}
 */
export function serviceMigrations(target: ServiceSchema): Type<OnModuleInit> {
  @Injectable()
  class ServiceMigrations implements OnModuleInit {
    constructor(@Inject(DATABASE) private readonly database: Database) {}

    async onModuleInit(): Promise<void> {
      await migrate(this.database, target);
    }
  }
  return ServiceMigrations;
}

/** What every generated Prisma client of ours offers. */
interface GeneratedClient {
  $disconnect(): Promise<void>;
}
type GeneratedClientClass<C extends GeneratedClient> = new (options: { adapter: PrismaAdapter }) => C;

/**
 * The binding of a service that queries its schema through its generated Prisma client: the client as a Nest
 * provider, built on the process's database; it applies the service's migrations when the module starts and
 * disconnects when it stops.
 *
 *   export class AccountsPrisma extends servicePrisma(PrismaClient, ACCOUNTS) {}
 */
export function servicePrisma<C extends GeneratedClient>(
  Client: GeneratedClientClass<C>,
  target: ServiceSchema,
): Type<C & OnModuleInit & OnModuleDestroy> {
  @Injectable()
  class ServicePrisma
    extends (Client as GeneratedClientClass<GeneratedClient>)
    implements OnModuleInit, OnModuleDestroy
  {
    constructor(@Inject(DATABASE) private readonly database: Database) {
      super({ adapter: database.prismaAdapter() });
    }

    async onModuleInit(): Promise<void> {
      await migrate(this.database, target);
    }

    async onModuleDestroy(): Promise<void> {
      await this.$disconnect();
    }
  }
  return ServicePrisma as unknown as Type<C & OnModuleInit & OnModuleDestroy>;
}
