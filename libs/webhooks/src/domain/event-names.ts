/** The task events an account-level endpoint can subscribe to (spec, Events, Account-level endpoint deliveries). */
export const ENDPOINT_EVENTS = [
  {
    name: 'task.completed',
    description: 'Shorthand for task.succeeded, task.failed, task.canceled and task.expired.',
  },
  { name: 'task.succeeded', description: 'A task succeeded.' },
  { name: 'task.failed', description: 'A task failed; its hold is normally released.' },
  { name: 'task.canceled', description: 'A task was canceled (historical records only).' },
  { name: 'task.expired', description: 'A task passed its deadline; its hold was released.' },
] as const;

export type EndpointEventName = (typeof ENDPOINT_EVENTS)[number]['name'];

export const ENDPOINT_EVENT_NAMES: readonly EndpointEventName[] = ENDPOINT_EVENTS.map((e) => e.name);

/** The event types `task.completed` stands for. */
export const TASK_COMPLETED_EVENTS: readonly EndpointEventName[] = [
  'task.succeeded',
  'task.failed',
  'task.canceled',
  'task.expired',
];

export function isEndpointEventName(name: string): name is EndpointEventName {
  return (ENDPOINT_EVENT_NAMES as readonly string[]).includes(name);
}

/** True when an endpoint subscribed to `enabledEvents` receives an event of type `eventType`. */
export function endpointReceives(enabledEvents: readonly string[], eventType: string): boolean {
  return (
    enabledEvents.includes(eventType) ||
    (enabledEvents.includes('task.completed') &&
      (TASK_COMPLETED_EVENTS as readonly string[]).includes(eventType))
  );
}
