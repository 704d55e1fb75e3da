import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage } from 'node:http';
import { catalogueError, generateOpenApiDocument, maxRateLimitWindowSeconds, operations, toOpenApi30 } from '@sesame/contracts';
import { Metrics, natsConnectionOptions } from '@sesame/platform';
import { KvRateLimiter, RpcClient } from '@sesame/platform/messaging';
import { NestPinoLogger, ProbesModule } from '@sesame/platform/runtime';
import type { Logger } from '@sesame/platform';
import { Authenticator } from './auth/authenticator';
import { JwksCache } from './auth/jwks-cache';
import { RevokedApiKeys } from './auth/revoked-api-keys';
import { apiAudience, apiKeyIssuer } from './config';
import type { GatewayConfig } from './config';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { formTooDeepMessage, isNestedTooDeep, parseBrackets } from './http/form-body';
import { registerJsonBodies } from './http/json-body';
import { ApiError } from './http/api-error';
import { registerAccessLog } from './http/access-log';
import { lingerOnRefusedBodies } from './http/lingering-close';
import { ServiceReadiness } from './http/service-readiness';
import { clientErrorHandler, frameworkErrors, trackRequestHeads } from './http/transport-errors';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { budgetsOf } from './rate-limits/rate-limit-config';
import { RequestLimiter } from './rate-limits/request-limiter';
import { registerDevRoutes } from './routes/dev-routes';
import { registerOnboardingRoutes } from './routes/onboarding-routes';
import { traceRequests } from './http/request-spans';
import { registerOperationRoutes } from './routes/operation-routes';

const correlationIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

function correlationIdOf(request: IncomingMessage): string {
  const header = request.headers['x-correlation-id'];
  return typeof header === 'string' && correlationIdPattern.test(header) ? header : randomUUID();
}

export interface Gateway {
  /** The public API. */
  app: NestFastifyApplication;
  /** Probes and /metrics, on SESAME_MANAGEMENT_PORT: for the kubelet and Prometheus, not integrators. */
  management: NestFastifyApplication;
  stop(): Promise<void>;
}

/** The HTTP gateway: Nest on Fastify, routes generated from the contracts' operation table. */
export async function createGateway(config: GatewayConfig, logger: Logger): Promise<Gateway> {
  const metrics = new Metrics('gateway');
  const rpc = await RpcClient.connect({
    nats: natsConnectionOptions(config, 'gateway'),
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
  });
  const counters = await KvRateLimiter.connect(
    natsConnectionOptions(config, 'gateway', `${config.SESAME_PREFIX}.rate-limits`),
    config.SESAME_PREFIX,
    {
      replicas: config.SESAME_JETSTREAM_REPLICAS,
      maxWindowMs: maxRateLimitWindowSeconds * 1_000,
      timeoutMs: config.SESAME_RATE_LIMIT_TIMEOUT_MS,
    },
  );
  const idempotency = await IdempotencyStore.connect(
    natsConnectionOptions(config, 'gateway', `${config.SESAME_PREFIX}.idempotency`),
    config.SESAME_PREFIX,
    {
      replicas: config.SESAME_JETSTREAM_REPLICAS,
      timeoutMs: config.SESAME_RATE_LIMIT_TIMEOUT_MS,
      takeoverAfterMs: config.SESAME_IDEMPOTENCY_TAKEOVER_SECONDS * 1_000,
    },
    logger,
  );
  const jwks = new JwksCache(rpc, logger, config.SESAME_JWKS_REFRESH_SECONDS * 1_000);
  const revokedApiKeys = await RevokedApiKeys.connect(
    natsConnectionOptions(config, 'gateway', `${config.SESAME_PREFIX}.gateway.revocations`),
    config.SESAME_PREFIX,
    config.SESAME_ACCESS_TOKEN_TTL_SECONDS * 1_000,
    logger,
  );
  const services = new ServiceReadiness(rpc);
  const adapter = new FastifyAdapter({
    bodyLimit: config.SESAME_BODY_LIMIT_BYTES,
    // Long enough for any email (254 characters) percent-encoded; longer answers 400 (frameworkErrors).
    routerOptions: { querystringParser: parseBrackets, maxParamLength: 1_000 },
    clientErrorHandler: clientErrorHandler(config.SESAME_DOCS_URL),
    frameworkErrors: frameworkErrors(config.SESAME_DOCS_URL),
    genReqId: correlationIdOf,
    trustProxy: config.SESAME_TRUST_PROXY,
  });
  const readiness = async () => {
    const checks = { jwks: jwks.isLoaded(), revocations: revokedApiKeys.isLoaded(), ...(await services.check()) };
    return { ready: Object.values(checks).every(Boolean), checks };
  };
  // The public port answers the probes (load balancers, `helm test`) but never /metrics (404).
  const app = await NestFactory.create<NestFastifyApplication>(ProbesModule.forRoot({ readiness }), adapter, {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
  });
  const management = await NestFactory.create<NestFastifyApplication>(
    ProbesModule.forRoot({ readiness, metrics }),
    new FastifyAdapter(),
    { logger: new NestPinoLogger(logger) },
  );
  app.useGlobalFilters(new ApiExceptionFilter(config.SESAME_DOCS_URL, logger));

  const fastify = app.getHttpAdapter().getInstance();
  trackRequestHeads(fastify.server);
  traceRequests(fastify);
  // Bodies are JSON or form fields; anything else answers 415.
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields = parseBrackets(body as string);
    if (isNestedTooDeep(fields)) return done(new ApiError(catalogueError('bad_request', formTooDeepMessage)), undefined);
    done(null, fields);
  });
  // SCIM clients send `application/scim+json` (RFC 7644 section 3.1), also on a DELETE without body.
  registerJsonBodies(fastify);
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('x-correlation-id', request.id);
  });
  lingerOnRefusedBodies(fastify);
  registerAccessLog(fastify, logger, metrics);

  const openApi = generateOpenApiDocument();
  // The 3.0 rendition is converted at its first request, not at start-up.
  let openApi30: object | undefined;
  fastify.get('/openapi.json', async () => openApi);
  fastify.get('/openapi-3.0.json', async () => (openApi30 ??= toOpenApi30(openApi)));
  registerOperationRoutes(fastify, operations, {
    rpc,
    authenticator: new Authenticator(jwks, apiKeyIssuer(config), apiAudience(config), revokedApiKeys),
    limiter: new RequestLimiter(counters, budgetsOf(config), logger, metrics),
    idempotency,
    logger,
    publicOrigin: new URL(config.SESAME_PUBLIC_URL).origin,
    docsUrl: config.SESAME_DOCS_URL,
  });
  registerOnboardingRoutes(fastify, logger);
  if (config.SESAME_MODE !== 'production') registerDevRoutes(fastify, rpc);
  const stopJwks = jwks.start();
  revokedApiKeys.start();

  return {
    app,
    management,
    stop: async () => {
      stopJwks();
      await app.close();
      await management.close();
      await rpc.close();
      await counters.close();
      await idempotency.close();
      await revokedApiKeys.stop();
    },
  };
}
