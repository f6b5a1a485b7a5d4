import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, GroupCommit, rowDate, rowJson, rowOptionalDate, type Database } from '@gen/persistence';
import { WebhooksMigrations } from './webhooks-schema';
import type { EndpointStatus, WebhookEndpoint } from '../domain/endpoint';
import type { EndpointEventName } from '../domain/event-names';

const TABLE = '"webhooks"."endpoints"';
const COLUMNS = `"id", "account_id", "url", "description", "enabled_events", "enabled", "status", "disabled_reason",
  "consecutive_failures", "secret", "previous_secret", "previous_secret_expires_at", "created_at", "updated_at"`;

function rowOf(raw: Record<string, unknown>): WebhookEndpoint {
  return {
    id: raw['id'] as string,
    accountId: raw['account_id'] as string,
    url: raw['url'] as string,
    description: raw['description'] as string,
    enabledEvents: rowJson<EndpointEventName[]>(raw['enabled_events'])!,
    enabled: raw['enabled'] === true,
    status: raw['status'] as EndpointStatus,
    disabledReason: (raw['disabled_reason'] as string | null) ?? null,
    consecutiveFailures: Number(raw['consecutive_failures']),
    secret: raw['secret'] as string,
    previousSecret: (raw['previous_secret'] as string | null) ?? null,
    previousSecretExpiresAt: rowOptionalDate(raw['previous_secret_expires_at']),
    createdAt: rowDate(raw['created_at']),
    updatedAt: rowDate(raw['updated_at']),
  };
}

export interface NewEndpoint {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly description: string;
  readonly enabledEvents: readonly EndpointEventName[];
  readonly secret: string;
  readonly now: Date;
}

export interface EndpointChanges {
  readonly url?: string;
  readonly description?: string;
  readonly enabledEvents?: readonly EndpointEventName[];
  /** A change of `enabled` with the state it leads to (see `enabledState`). */
  readonly state?: {
    readonly enabled: boolean;
    readonly status: EndpointStatus;
    readonly disabledReason: string | null;
    readonly resetFailures: boolean;
  };
}

/** Data access of account-level webhook endpoints. Every query is scoped by the account. */
@Injectable()
export class EndpointRepository {
  /**
   * The endpoints every terminal task event looks up: lookups that arrive together (of one account or of
   * several) share one statement; the first of an idle moment goes alone at once.
   */
  private readonly lookups = new GroupCommit<string, WebhookEndpoint[]>({
    many: async (accountIds) => {
      const rows = await this.db.query(
        `SELECT ${COLUMNS} FROM ${TABLE} WHERE "account_id" = ANY($1::text[]) ORDER BY "created_at", "id"`,
        [[...new Set(accountIds)]],
      );
      const byAccount = new Map<string, WebhookEndpoint[]>();
      for (const endpoint of rows.map(rowOf)) {
        const list = byAccount.get(endpoint.accountId);
        if (list) list.push(endpoint);
        else byAccount.set(endpoint.accountId, [endpoint]);
      }
      return accountIds.map((id) => byAccount.get(id) ?? []);
    },
  });

  /** Told of every change this repository commits (EndpointDirectory forgets what it kept). */
  private readonly changed: (() => void)[] = [];

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly migrations: WebhooksMigrations,
  ) {}

  /** Calls `listener` after every change of an endpoint this repository commits. */
  onChange(listener: () => void): void {
    this.changed.push(listener);
  }

  private committed<T>(result: T): T {
    for (const listener of this.changed) listener();
    return result;
  }

  /**
   * Adds an endpoint unless the account already holds `limit`: null then. The account's endpoints are counted
   * under a transaction-scoped advisory lock of the account, so concurrent creations never pass the limit.
   */
  async createWithinLimit(endpoint: NewEndpoint, limit: number): Promise<WebhookEndpoint | null> {
    return this.db
      .transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
          `webhooks.endpoints:${endpoint.accountId}`,
        ]);
        const rows = await tx.query(
          `INSERT INTO ${TABLE} ("id", "account_id", "url", "description", "enabled_events", "enabled", "status",
           "consecutive_failures", "secret", "created_at", "updated_at")
         SELECT $1, $2, $3, $4, $5::jsonb, true, 'enabled', 0, $6, $7, $7
         WHERE (SELECT count(*) FROM ${TABLE} WHERE "account_id" = $2) < $8
         RETURNING ${COLUMNS}`,
          [
            endpoint.id,
            endpoint.accountId,
            endpoint.url,
            endpoint.description,
            JSON.stringify(endpoint.enabledEvents),
            endpoint.secret,
            endpoint.now,
            limit,
          ],
        );
        return rows[0] ? rowOf(rows[0]) : null;
      })
      .then((created) => this.committed(created));
  }

  /** The account's endpoints, oldest first. */
  async list(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE "account_id" = $1 ORDER BY "created_at", "id"`,
      [accountId],
    );
    return rows.map(rowOf);
  }

  /** The account's endpoints as `list` gives them, read together with other lookups of the moment. */
  endpointsOf(accountId: string): Promise<WebhookEndpoint[]> {
    return this.lookups.run(accountId);
  }

  /** One endpoint of the account; null for an unknown id and for another account's endpoint alike. */
  async find(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE "account_id" = $1 AND "id" = $2`,
      [accountId, id],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** Applies the given changes in one statement; fields left out keep their value. Null when not found. */
  async update(
    accountId: string,
    id: string,
    changes: EndpointChanges,
    now: Date,
  ): Promise<WebhookEndpoint | null> {
    const state = changes.state;
    const rows = await this.db.query(
      `UPDATE ${TABLE} SET
         "url" = COALESCE($3::text, "url"),
         "description" = COALESCE($4::text, "description"),
         "enabled_events" = COALESCE($5::jsonb, "enabled_events"),
         "enabled" = CASE WHEN $6::boolean IS NULL THEN "enabled" ELSE $6::boolean END,
         "status" = CASE WHEN $6::boolean IS NULL THEN "status" ELSE $7::text END,
         "disabled_reason" = CASE WHEN $6::boolean IS NULL THEN "disabled_reason" ELSE $8::text END,
         "consecutive_failures" = CASE WHEN $9::boolean THEN 0 ELSE "consecutive_failures" END,
         "updated_at" = $10
       WHERE "account_id" = $1 AND "id" = $2
       RETURNING ${COLUMNS}`,
      [
        accountId,
        id,
        changes.url ?? null,
        changes.description ?? null,
        changes.enabledEvents ? JSON.stringify(changes.enabledEvents) : null,
        state ? state.enabled : null,
        state ? state.status : null,
        state ? state.disabledReason : null,
        state?.resetFailures ?? false,
        now,
      ],
    );
    return this.committed(rows[0] ? rowOf(rows[0]) : null);
  }

  /**
   * Makes `secret` the current secret. The one it replaces stays valid for signing until
   * `previousExpiresAt`; with null (no grace) it is dropped at once. Null when not found.
   */
  async rotateSecret(
    accountId: string,
    id: string,
    secret: string,
    previousExpiresAt: Date | null,
    now: Date,
  ): Promise<WebhookEndpoint | null> {
    const rows = await this.db.query(
      `UPDATE ${TABLE} SET
         "previous_secret" = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE "secret" END,
         "previous_secret_expires_at" = $4::timestamptz,
         "secret" = $3,
         "updated_at" = $5
       WHERE "account_id" = $1 AND "id" = $2
       RETURNING ${COLUMNS}`,
      [accountId, id, secret, previousExpiresAt, now],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }
}
