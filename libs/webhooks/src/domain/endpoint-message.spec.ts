import { Webhook } from 'standardwebhooks';
import { generateEndpointSecret, standardHeaders } from '@gen/webhook-signing';
import { ENDPOINT_API_VERSION, endpointMessageBody } from './endpoint-message';

const object = { taskId: 'job_1', state: 'succeeded', cost: '0.004', note: 'é ✓' };

describe('endpoint message body', () => {
  it('has id, type, created, api_version and data.object, in that order', () => {
    const body = endpointMessageBody({
      id: 'msg_01',
      type: 'task.succeeded',
      created: 1_795_000_000,
      object,
    });
    expect(body).toBe(
      `{"id":"msg_01","type":"task.succeeded","created":1795000000,"api_version":"${ENDPOINT_API_VERSION}","data":{"object":${JSON.stringify(object)}}}`,
    );
    expect(ENDPOINT_API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is what a Standard Webhooks receiver verifies and parses', () => {
    const secret = generateEndpointSecret();
    const now = Math.floor(Date.now() / 1000);
    const body = endpointMessageBody({ id: 'msg_02', type: 'task.failed', created: now, object });
    const headers = standardHeaders({ secrets: [secret], msgId: 'msg_02', timestamp: now, body });
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ id: 'msg_02', data: { object } });
  });

  it('refuses an id that is not a msg_ id and a created that is not integer seconds', () => {
    const input = { id: 'msg_03', type: 'task.expired', created: 1, object };
    expect(() => endpointMessageBody({ ...input, id: 'whd_03' })).toThrow(RangeError);
    expect(() => endpointMessageBody({ ...input, id: 'msg_' })).toThrow(RangeError);
    expect(() => endpointMessageBody({ ...input, created: 1.5 })).toThrow(RangeError);
  });
});
