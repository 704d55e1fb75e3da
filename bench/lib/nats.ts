import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { natsConnectionOptions } from '@sesame/platform';
import type { NatsRole } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';

/**
 * A connection to the test NATS server made as the services make theirs (`natsConnectionOptions`:
 * no async stack trace per request, nats.js's shared `Cancelled` error), for the benchmarks that
 * run a service's path in process: they measure it as it runs, not with nats.js's defaults.
 */
export function serviceNatsConnection(role: NatsRole): Promise<NatsConnection> {
  return connect(natsConnectionOptions({ SESAME_NATS_URL: testNatsUrl(), SESAME_PREFIX: testPrefix('bn') }, role));
}
