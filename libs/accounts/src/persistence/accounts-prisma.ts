import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DATABASE, migrate, type Database } from '@gen/persistence';
import { join } from 'node:path';
import { PrismaClient } from '../generated/prisma/client';

export const ACCOUNTS_SCHEMA = 'accounts';
export const ACCOUNTS_MIGRATIONS = join(__dirname, '..', '..', 'prisma', 'migrations');

/** The accounts service's Prisma client; its migrations run when the module starts. */
@Injectable()
export class AccountsPrisma extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(DATABASE) private readonly database: Database) {
    super({ adapter: database.prismaAdapter() });
  }

  async onModuleInit(): Promise<void> {
    await migrate(this.database, { schema: ACCOUNTS_SCHEMA, directory: ACCOUNTS_MIGRATIONS });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
