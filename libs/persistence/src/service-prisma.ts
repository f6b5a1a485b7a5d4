import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit, type Type } from '@nestjs/common';
import { DATABASE, type Database, type PrismaAdapter } from './database';
import { migrate } from './migrate';

/** What every generated Prisma client of ours offers. */
interface GeneratedClient {
  $disconnect(): Promise<void>;
}
type GeneratedClientClass<C extends GeneratedClient> = new (options: { adapter: PrismaAdapter }) => C;

/**
 * The Prisma client of one service as a Nest provider: built on the process's database, it applies the
 * service's migrations (its own schema) when the module starts and disconnects when it stops.
 *
 *   export class AccountsPrisma extends servicePrisma(PrismaClient, { schema: 'accounts', directory }) {}
 */
export function servicePrisma<C extends GeneratedClient>(
  Client: GeneratedClientClass<C>,
  target: { schema: string; directory: string },
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
