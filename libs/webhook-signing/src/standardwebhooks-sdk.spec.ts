import { Webhook } from 'standardwebhooks';
import { generateEndpointSecret, signStandard, standardHeaders } from './standard-webhook-signature';

// The official Standard Webhooks library, as a receiver of account-level endpoints would use it.
describe('the standardwebhooks SDK agrees with our endpoint signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'task.succeeded', data: { object: { taskId: 'job_1' } } });
  const now = Math.floor(Date.now() / 1000);

  it('verifies what we send, and its own signature equals ours', () => {
    const secret = generateEndpointSecret();
    const headers = standardHeaders({ secrets: [secret], msgId: 'msg_01', timestamp: now, body });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(secret).sign('msg_01', new Date(now * 1000), body)).toBe(
      signStandard({ secret, msgId: 'msg_01', timestamp: now, body }),
    );
  });

  it('accepts either secret during a rotation, and refuses a tampered body or another secret', () => {
    const [older, newer, other] = [
      generateEndpointSecret(),
      generateEndpointSecret(),
      generateEndpointSecret(),
    ];
    const headers = standardHeaders({ secrets: [newer, older], msgId: 'msg_02', timestamp: now, body });
    expect(() => new Webhook(older).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newer).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(() => new Webhook(newer).verify(`${body} `, headers)).toThrow();
  });

  it('refuses a message older than its five-minute tolerance', () => {
    const secret = generateEndpointSecret();
    const headers = standardHeaders({ secrets: [secret], msgId: 'msg_03', timestamp: now - 301, body });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/i);
  });
});
