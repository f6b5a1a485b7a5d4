import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TaskEventListenersPort, TaskTerminalEventName } from '@gen/contracts';
import { DATABASE, type Database, type Listening } from '@gen/persistence';
import { endpointIsActive, type WebhookEndpoint } from '../domain/endpoint';
import { endpointReceives } from '../domain/event-names';
import { EndpointRepository } from './endpoint.repository';

/**
 * The channel on which the database announces, at commit, a change of who receives what: an endpoint added or
 * removed, its events, `enabled` or `status` (triggers of migration `20261202000000_endpoints_changed`).
 */
export const ENDPOINTS_CHANNEL = 'webhooks_endpoints';

/** Accounts kept at most; past that the cache starts again. */
const MAX_ACCOUNTS = 10_000;

/**
 * The endpoints of the accounts whose terminal task events this process queues, kept between events so that an
 * event (every text answer's end among them) costs no query. Every change that decides who receives what is
 * announced by the database once committed, whichever process wrote it (NOTIFY `webhooks_endpoints`), and this
 * process's own changes at once: the whole cache is then forgotten. Nothing is kept until the channel is
 * listened to, nor from a lookup that a change overtook.
 */
@Injectable()
export class EndpointDirectory implements OnModuleInit, OnModuleDestroy, TaskEventListenersPort {
  private readonly known = new Map<string, readonly WebhookEndpoint[]>();
  /** Counts the changes heard: a lookup begun before one is not kept. */
  private changes = 0;
  private listening: Listening | undefined;
  private listened = false;
  private started: Promise<void> = Promise.resolve();

  constructor(
    private readonly endpoints: EndpointRepository,
    @Inject(DATABASE) private readonly db: Database,
  ) {
    endpoints.onChange(() => this.forget());
  }

  onModuleInit(): void {
    const listening = this.db.listen(ENDPOINTS_CHANNEL, () => this.forget());
    this.listening = listening;
    this.started = listening.ready.then(() => {
      if (this.listening === listening) this.listened = true;
    });
  }

  /** Resolves once changes are heard, so that lookups are kept from then on. */
  ready(): Promise<void> {
    return this.started;
  }

  async onModuleDestroy(): Promise<void> {
    const listening = this.listening;
    this.listening = undefined;
    this.listened = false;
    this.forget();
    await listening?.stop();
  }

  /** The account's endpoints, oldest first, as `EndpointRepository.list` gives them. */
  async of(accountId: string): Promise<readonly WebhookEndpoint[]> {
    const kept = this.known.get(accountId);
    if (kept) return kept;
    const changes = this.changes;
    const endpoints = await this.endpoints.endpointsOf(accountId);
    if (this.listened && changes === this.changes) {
      if (this.known.size >= MAX_ACCOUNTS) this.known.clear();
      this.known.set(accountId, endpoints);
    }
    return endpoints;
  }

  /** The account's endpoints that get a message of an event of this type now: enabled and subscribed to it. */
  async receivers(accountId: string, type: string): Promise<WebhookEndpoint[]> {
    return (await this.of(accountId)).filter(
      (endpoint) => endpointIsActive(endpoint) && endpointReceives(endpoint.enabledEvents, type),
    );
  }

  /** Whether any endpoint of the account would get a message of this event now (TASK_EVENT_LISTENERS). */
  async listens(accountId: string, type: TaskTerminalEventName): Promise<boolean> {
    return (await this.receivers(accountId, type)).length > 0;
  }

  private forget(): void {
    this.changes += 1;
    this.known.clear();
  }
}
