import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DATABASE, type Database } from '@gen/persistence';
import type { ReadinessProbe } from '@gen/edge';

/** The process's serving state: draining after SIGTERM, ready while the database answers. */
@Injectable()
export class Lifecycle implements ReadinessProbe, OnApplicationShutdown {
  private draining = false;

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  startDraining(): void {
    this.draining = true;
  }

  isDraining(): boolean {
    return this.draining;
  }

  async ready(): Promise<boolean> {
    if (this.draining) return false;
    await this.database.ping();
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
