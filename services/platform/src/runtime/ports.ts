/** Default HTTP ports of the local run (probes and metrics for services; the API for the gateway). */
export const defaultHttpPorts = {
  gateway: 8080,
  identity: 8081,
  'auth-methods': 8082,
  'directory-sync': 8083,
  webhooks: 8084,
  docs: 8000,
} as const;

/** Default management port of the gateway (probes and /metrics; never the public port). */
export const defaultManagementPort = 9080;
