// Exits 0 when the Kafka broker at argv[2] answers an admin listTopics, 1 otherwise (quietly).
import { Kafka, logLevel } from 'kafkajs';

const kafka = new Kafka({ brokers: [process.argv[2]], logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000 });
const admin = kafka.admin();
try {
  await admin.connect();
  await admin.listTopics();
  await admin.disconnect();
  process.exit(0);
} catch {
  process.exit(1);
}
