import {
  checkEvent,
  checkEventPayload,
  EVENT_TYPES,
  eventTopic,
  eventVersion,
  isEventType,
  type EventPayload,
  type EventType,
} from './event-map';
import { Topics } from './task-events';

const AT = '2026-11-24T10:00:00.000Z';
const terminal: EventPayload<'task.succeeded'> = {
  taskId: 'job_1',
  accountId: 'acc_1',
  keyId: 'key_1',
  model: 'local/sketch',
  state: 'succeeded',
  charge: '0.004',
  completedAt: AT,
  callbackUrl: 'https://example.com/hook',
  record: { taskId: 'job_1', state: 'success' },
};
const hold: EventPayload<'hold.settled'> = { holdId: 'job_1', accountId: 'acc_1', charged: '0.004' };

/** A valid payload of every type, and for each a broken copy with the path that breaks it. */
const CASES: { [T in EventType]: { good: EventPayload<T>; bad: [path: string, payload: unknown][] } } = {
  'task.created': {
    good: {
      taskId: 'job_1',
      accountId: 'acc_1',
      keyId: 'key_1',
      model: 'local/sketch',
      input: { prompt: 'a fox', n: 2 },
      estimatedCost: '0.004',
      createdAt: AT,
      deadlineAt: AT,
      inline: true,
    },
    bad: [
      ['/taskId', { taskId: undefined }],
      ['/estimatedCost', { estimatedCost: 0.004 }],
      ['/estimatedCost', { estimatedCost: '-1' }],
      ['/deadlineAt', { deadlineAt: 'tomorrow' }],
      ['/input', { input: 'a fox' }],
      ['/inline', { inline: 'yes' }],
    ],
  },
  'task.succeeded': {
    good: terminal,
    bad: [
      ['/state', { state: 'done' }],
      ['/charge', { charge: '1e3' }],
      ['/record', { record: 'x' }],
    ],
  },
  'task.failed': {
    good: { ...terminal, state: 'failed', charge: '0', errorCode: 'upstream_failed' },
    bad: [['/errorCode', { errorCode: '' }]],
  },
  'task.expired': {
    good: { ...terminal, state: 'expired', charge: '0' },
    bad: [['/completedAt', { completedAt: 1 }]],
  },
  'execution.started': {
    good: { taskId: 'job_1', startedAt: AT },
    bad: [['/startedAt', { startedAt: null }]],
  },
  'execution.succeeded': {
    good: {
      taskId: 'job_1',
      assets: [
        { key: 'outputs/job_1/0.png', mime: 'image/png', bytes: 10, width: 1, height: 1, status: 'ready' },
      ],
      text: { content: 'hi', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }], finishReason: 'stop' },
      usage: { images: 1, inputTokens: 3 },
      finishedAt: AT,
    },
    bad: [
      ['/assets/0/status', { assets: [{ key: 'k', mime: 'image/png', status: 'lost' }] }],
      ['/usage/images', { usage: { images: -1 } }],
      ['/text/finishReason', { text: { content: 'x', finishReason: 'done' } }],
      ['/assets', { assets: undefined }],
    ],
  },
  'execution.failed': {
    good: { taskId: 'job_1', errorCode: 'upstream_failed', finishedAt: AT, startedAt: AT },
    bad: [['/errorCode', { errorCode: 42 }]],
  },
  'hold.settled': { good: hold, bad: [['/charged', { charged: '0.0000000001' }]] },
  'hold.released': { good: { ...hold, charged: '0' }, bad: [['/holdId', { holdId: '' }]] },
};

const envelope = (type: string, payload: unknown, version = 1) => ({
  id: 'evt_1',
  type,
  version,
  key: 'job_1',
  occurredAt: AT,
  correlationId: 'req_1',
  causationId: 'req_1',
  payload,
});

describe('the event map', () => {
  it('has a case here for every type it knows, and each type travels on one of the three topics', () => {
    expect(Object.keys(CASES).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      expect(Object.values(Topics)).toContain(eventTopic(type));
      expect(eventVersion(type)).toBe(1);
    }
    expect(eventTopic('task.created')).toBe('task.lifecycle');
    expect(eventTopic('execution.failed')).toBe('task.execution');
    expect(eventTopic('hold.released')).toBe('billing.holds');
    expect(isEventType('task.created')).toBe(true);
    expect(isEventType('task.renamed')).toBe(false);
    expect(isEventType('toString')).toBe(false);
  });

  describe.each(EVENT_TYPES)('%s', (type) => {
    const { good, bad } = CASES[type];

    it('accepts a good payload, and one with a field it does not know yet', () => {
      expect(checkEventPayload(type, good)).toBeNull();
      expect(checkEventPayload(type, { ...good, addedLater: 1 })).toBeNull();
      expect(checkEvent(envelope(type, good))).toBeNull();
    });

    it.each(bad)('refuses a payload broken at %s, naming that path', (path, change) => {
      const payload = { ...good, ...(change as object) };
      expect(checkEventPayload(type, payload)).toEqual({
        reason: 'invalid_payload',
        path,
        message: expect.any(String),
      });
      expect(checkEvent(envelope(type, payload))).toMatchObject({ reason: 'invalid_payload', path });
    });

    it('refuses what is not an object at the root', () => {
      expect(checkEventPayload(type, null)).toMatchObject({ reason: 'invalid_payload', path: '/' });
      expect(checkEventPayload(type, 'x')).toMatchObject({ reason: 'invalid_payload', path: '/' });
    });
  });

  it('refuses envelopes of an unknown type or version, and malformed envelopes, before their payload', () => {
    const good = CASES['task.created'].good;
    expect(checkEvent(envelope('task.renamed', good))).toMatchObject({
      reason: 'unknown_type',
      path: '/type',
    });
    expect(checkEvent(envelope('task.created', good, 2))).toEqual({
      reason: 'unknown_version',
      path: '/version',
      message: 'task.created version 2 is not the known version 1',
    });
    expect(checkEvent({ ...envelope('task.created', good), id: undefined })).toMatchObject({
      reason: 'malformed_envelope',
      path: '/id',
    });
    expect(checkEvent({ ...envelope('task.created', good), version: '1' })).toMatchObject({
      reason: 'malformed_envelope',
      path: '/version',
    });
    expect(checkEvent(null)).toMatchObject({ reason: 'malformed_envelope', path: '/' });
  });
});
