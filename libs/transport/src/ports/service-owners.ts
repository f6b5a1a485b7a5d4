import type { FleetApp } from '@gen/contracts';

/**
 * Which app answers each service's ports (docs/architecture.md, "Service calls"): the gateway owns the accounts
 * (authentication is the edge's job), the billing app billing, the media app media and the asset library, the catalog app the
 * catalog document, the tasks app the acceptance of the compatibility endpoints' tasks.
 * `SERVICE_ADDRESSES` names apps; a caller reaches a service at its owner's addresses.
 */
export const SERVICE_OWNERS = {
  accounts: 'gateway',
  billing: 'billing',
  media: 'media',
  catalog: 'catalog',
  tasks: 'tasks',
} as const satisfies Readonly<Record<string, FleetApp>>;

export type OwnedService = keyof typeof SERVICE_OWNERS;

export function ownerOf(service: string): FleetApp | undefined {
  return Object.hasOwn(SERVICE_OWNERS, service) ? SERVICE_OWNERS[service as OwnedService] : undefined;
}
